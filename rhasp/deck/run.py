"""A deck run (:func:`run_deck`): the deck read line by line, its jobs sent out
(:mod:`rhasp.deck.job`), each record, as it comes back, written to the results file
(:mod:`rhasp.deck.results`), handed to ``echo`` or collected, and counted in the run's
:class:`DeckTally`; with ``--resume``, the records kept from an earlier run
(:mod:`rhasp.deck.kept`) counted first and their lines skipped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rhasp.deck.job import COMPILE_FROM, Job, LineError, Settings, run_jobs
from rhasp.deck.kept import check_kept
from rhasp.deck.record import DeckRecord
from rhasp.deck.results import RUN_VERSION, ResultFile, run_options
from rhasp.errors import ClusterLost, InputError, RhaspError, SearchLimit
from rhasp.files import refuse_input_as_output
from rhasp.formats import stream_deck
from rhasp.limits import peak_memory
from rhasp.progress import Progress, Silent
from rhasp.requests import DeckRequest
from rhasp.resume import kept_until_resumed
from rhasp.search import prefer_compiled


@dataclass
class DeckTally:
    """What a deck run has found so far, for the progress line and the summary: the whole
    run's, so a resumed run counts the records it kept (``kept`` of them) with its own, and
    its exit code is that of the whole deck."""

    solved: int = 0  # puzzles with a plan proven optimal
    unsolvable: int = 0  # puzzles proven to have none
    limited: int = 0  # a search limit was reached first
    errors: int = 0  # bad lines
    lengths: Counter[int] = field(default_factory=Counter)  # length -> puzzles of it
    mismatches: list[DeckRecord] = field(default_factory=list)  # with --verify
    verified: int = 0  # records compared with a figure their deck line gives
    kept: int = 0  # records an earlier run wrote, kept by --resume
    #: The most memory this run took at once, in bytes (:func:`~rhasp.limits.peak_memory`):
    #: known once it ends, 0 before.
    peak_memory: int = 0
    #: Every record, in the deck's order, when the run was asked to collect them rather than
    #: write them out (:func:`rhasp.deck` without ``out``); else empty.
    records: list[DeckRecord] = field(default_factory=list)

    @property
    def puzzles(self) -> int:
        return self.solved + self.unsolvable + self.limited + self.errors

    def add(self, record: DeckRecord) -> None:
        if record.error is not None:
            self.errors += 1
        elif record.limit is not None:
            self.limited += 1
        elif record.length is None:
            self.unsolvable += 1
        else:
            self.solved += 1
            self.lengths[record.length] += 1
        if record.expected_length is not None or record.expected_cluster is not None:
            self.verified += 1
        if record.mismatch:
            self.mismatches.append(record)


#: Bad lines and limits printed one by one; beyond, they are counted (each is in the records).
REPORTED = 20


#: What is done with each record of a run without a results file: printed, say.
Echo = Callable[[DeckRecord], None]


class DeckRun:
    """Where a run's records go and what it has counted: each record written to the results
    file (``results``), else handed to ``echo`` and, with ``collect``, collected in the
    tally's ``records``; every record counted in :attr:`tally`; the first :data:`REPORTED` bad lines
    and limits passed to ``report``, the rest counted."""

    def __init__(
        self,
        results: ResultFile | None,
        echo: Echo | None,
        collect: bool,
        report: Callable[[RhaspError], None],
    ) -> None:
        self.results, self.echo, self.collect, self.report = results, echo, collect, report
        self.tally = DeckTally()
        self.collected: list[DeckRecord] = []
        self.reported = 0
        for _, kept in results.kept.values() if results else ():
            self.tally.add(kept)
        self.tally.kept = len(results.kept) if results else 0

    def record(self, result: DeckRecord, problem: RhaspError | None = None) -> None:
        """Write and count a record (``problem``: the bad line or the limit it records)."""
        if self.results:
            self.results.write(result)
        else:
            if self.echo is not None:
                self.echo(result)
            if self.collect:
                self.collected.append(result)
        self.tally.add(result)
        if problem is not None:
            self.reported += 1
            if self.reported <= REPORTED:
                self.report(problem)

    def jobs(self, numbered: Iterable[tuple[int, Any]], settings: Settings) -> Iterator[Job]:
        """A job for each deck line still to do; a line that cannot be read is recorded at
        once, without one."""
        for number, entry in numbered:
            if self.results and number in self.results.kept:
                continue
            if isinstance(entry, InputError):
                self.record(DeckRecord(number, error=str(entry)), entry)
            else:
                yield Job(number, entry, settings)

    def ended(self) -> DeckTally:
        """The tally, its ``records`` those collected, in deck order."""
        self.tally.records = sorted(self.collected, key=lambda record: record.line)
        return self.tally


def run_deck(
    request: DeckRequest,
    progress: Progress | None = None,
    report: Callable[[RhaspError], None] | None = None,
    keep: bool = False,
    echo: Echo | None = None,
) -> DeckTally:
    """Solve a deck; each record goes to the request's ``out`` as soon as it is done, else to
    ``echo`` (None: nowhere) and, with
    ``keep``, collected in the tally's ``records``, in deck order.

    Bad lines and puzzles that reach a search limit are passed to ``report`` (the first
    :data:`REPORTED`, then a count) and recorded, and the rest goes on. With ``resume``, the
    records already in ``out`` are checked to be this run's (:class:`ResultFile`), counted
    in the tally, and their lines skipped; the new records are appended.
    """
    path, out, scheduler = request.source, request.out, request.scheduler
    settings = Settings(
        request.states,
        request.atoms,
        request.objective,
        request.engine,
        request.cluster,
        request.verify,
        request.confirm,
    )
    if out is not None and path != "-":
        refuse_input_as_output(out, [path], "deck")
    total, numbered = stream_deck(path, targets=request.targets)
    results = _begun(request, settings, total, numbered) if out else None
    if results and not isinstance(numbered, list):  # read lazily: once more, for the run
        numbered = stream_deck(path, targets=request.targets)[1]
    run = DeckRun(results, echo, keep, report or (lambda problem: None))
    tally = run.tally
    if settings.engine in (None, "bfs") and total >= COMPILE_FROM and not scheduler:
        prefer_compiled()  # before the workers start, so that they inherit the loaded code
    shown = progress or Silent()
    try:
        shown.start(max(0, total - tally.kept), tally.kept)
        for result in run_jobs(run.jobs(numbered, settings), request.jobs, scheduler):
            if isinstance(result, LineError):
                run.record(DeckRecord(result.line, error=str(result.error)), result.error)
            elif result.limit is not None:
                run.record(result, SearchLimit(result.limit, f"{path}:{result.line}"))
            else:
                run.record(result)
            shown.advance(tally)
    except ClusterLost as lost:  # the one line says what the user has
        saved = _saved(run.ended(), total, out, keep, echo is not None)
        raise lost.saying(saved, tally) from None
    finally:
        shown.stop()
        if results:
            results.close()
        if run.reported > REPORTED:
            run.report(
                RhaspError(
                    f"{run.reported - REPORTED:,} more bad lines and limits not shown; each is "
                    "in its record",
                    path,
                )
            )
    tally = run.ended()
    tally.peak_memory = peak_memory()  # the workers ended, and waited for, above
    return tally


def _saved(tally: DeckTally, total: int, out: Path | None, keep: bool, echo: bool) -> str:
    """What a deck run stopped by a lost cluster has saved, and how to go on: in words for a
    command (``--resume``) or for a call (``resume=True``: only :func:`rhasp.deck` collects
    the records, ``keep``)."""
    done = f"{tally.puzzles:,} of {total:,} puzzles"
    if out is not None:
        return kept_until_resumed(done, out, call=keep)
    if keep:
        return f"{done} done, their records in this error's done.records"
    return f"the records of {done} written" if echo else f"{done} done"


def _begun(
    request: DeckRequest, settings: Settings, total: int, numbered: Iterable[tuple[int, Any]]
) -> ResultFile:
    """The results file, begun for this run: the records it keeps checked to be of this run
    (the same deck, the same options, each record what this run would write), else refused."""
    assert request.out is not None
    results = ResultFile(request.out, request.resume)
    try:
        processes = 1 if request.scheduler else request.jobs or 1
        checksum, problem = check_kept(results.kept, numbered, settings, request.out, processes)
        header = {
            "rhasp": "deck",
            "version": RUN_VERSION,
            "options": run_options(request),
            "deck": {"entries": total, "sha256": checksum},
        }
        results.begin(header, problem)
    except BaseException:
        results.close()
        raise
    return results
