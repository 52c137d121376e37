"""Solving whole decks: all cores, streamed results, resumable, verifiable.

The work is a list of :class:`Job` (a deck line and its puzzle); :func:`solve_job` turns one into
a result record in a worker process, solving it as ``rhasp solve`` does (the one solve policy,
:func:`rhasp.requests.solution`), and :class:`ResultFile` streams records to JSON lines or
CSV as they finish, flushing each, so an interrupted run loses nothing already written and
``--resume`` can skip what is there. One run at a time writes a results file (a lock).

A record holds what was found (``length``, ``plan``...), or ``limit`` (a search limit was
reached: no answer either way), or ``error`` (the line cannot be read). With ``verify`` it
also holds the deck line's own figures (``expected_length``, and ``expected_cluster`` when
the cluster is counted) and ``mismatch`` naming those that differ.
"""

from __future__ import annotations

import csv
import functools
import itertools
import json
import queue
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any

from rhasp.engines import AspOptions, Objective, Solution
from rhasp.engines.bitboard import cluster_size, prefer_compiled, solve_and_count
from rhasp.engines.limits import OUT_OF_MEMORY, Budget
from rhasp.errors import InputError, RhaspError, SearchLimit
from rhasp.files import lock_for_writing, naming_the_file
from rhasp.formats import DeckLine, stream_deck
from rhasp.formats.grid import board_rows
from rhasp.model import Puzzle
from rhasp.notation import format_plan
from rhasp.parallel import dask_client, worker_pool
from rhasp.progress import Progress, Silent
from rhasp.requests import DeckRequest, SolveRequest, solution

FIELDS = (
    "line",
    "puzzle",
    "board",
    "length",
    "moves",
    "slides",
    "plan",
    "explored",
    "seconds",
    "cluster",
    "expected_length",
    "expected_cluster",
    "mismatch",
    "limit",
    "error",
)


@dataclass(frozen=True)
class DeckRecord:
    """One deck line's outcome: what was found (``length`` None: proven unsolvable), or the
    ``limit`` a search met, or the ``error`` of a line that cannot be read; with verification,
    the line's own figures (``expected_*``) and the ``mismatch`` between them and what was
    found. :meth:`record` is its JSON line (or CSV row)."""

    line: int
    puzzle: str | None = None
    board: str | None = None
    length: int | None = None
    moves: int | None = None
    slides: int | None = None
    plan: str | None = None
    explored: int | None = None
    seconds: float | None = None
    proven_by: tuple[str, ...] = ()
    stopped: Mapping[str, str] | None = None  # an engine that stopped short, and why
    cluster: int | None = None  # counted with --cluster
    expected_length: int | None = None
    expected_cluster: int | None = None
    mismatch: str | None = None  # "length", "cluster" or both
    limit: str | None = None
    error: str | None = None

    def record(self) -> dict[str, Any]:
        """The JSON of this record: an error or a limit as the line and why; a result with
        every finding (None where there is none) and the optional fields it has."""
        if self.error is not None:
            return {"line": self.line, "error": self.error}
        if self.limit is not None:
            return {"line": self.line, "puzzle": self.puzzle, "limit": self.limit}
        found = {name: getattr(self, name) for name in RESULT_FIELDS}
        found["proven_by"] = list(self.proven_by)
        extra = {name: getattr(self, name) for name in OPTIONAL_FIELDS}
        return found | {name: value for name, value in extra.items() if value is not None}


#: The fields of every result record, and those it has only when they apply.
RESULT_FIELDS = (
    *("line", "puzzle", "board", "length", "moves", "slides"),
    *("plan", "explored", "seconds", "proven_by"),
)
OPTIONAL_FIELDS = ("stopped", "cluster", "expected_length", "expected_cluster", "mismatch")


@dataclass(frozen=True)
class Settings:
    """What to do with every puzzle of a deck: a worker's share of a
    :class:`~rhasp.requests.DeckRequest`, its budgets reckoned where the run starts."""

    max_states: int  # per search
    max_atoms: int  # per ASP search
    objective: Objective = "moves"
    engine: str | None = None  # None: by the board's size, BFS up to 6×6
    cluster: bool = False  # also count the states reachable from the start
    verify: bool = False  # compare with the figures on the deck line


@dataclass(frozen=True)
class Job:
    line: int  # the entry's number in the deck, 1-based
    entry: Puzzle | DeckLine  # a deck file's line is read by the worker that solves it
    settings: Settings


ONE_THREAD = ("--parallel-mode=1",)
#: From this many puzzles on, a deck is work enough to load the compiled core at once.
COMPILE_FROM = 100


def solve_job(job: Job) -> Result:
    """One puzzle's result record, or the error its line has; runs in a worker process."""
    puzzle = job.entry.read() if isinstance(job.entry, DeckLine) else job.entry
    if isinstance(puzzle, InputError):
        return LineError(job.line, puzzle)
    try:
        return _record(job, puzzle)
    except SearchLimit as limit:  # the cluster count, after a solve within the budget
        return DeckRecord(job.line, puzzle.name, limit=limit.what)
    except MemoryError:
        return DeckRecord(job.line, puzzle.name, limit=OUT_OF_MEMORY)


class CountingBfs:
    """BFS for fewest moves that counts the cluster in the same pass (one target only), for
    a deck with ``--cluster``: the engine the solve policy runs, with the count kept."""

    name = "bfs"

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.size: int | None = None

    def solve(self, puzzle: Puzzle, objective: Objective) -> Solution:
        began = time.perf_counter()
        plan, explored, self.size = solve_and_count(puzzle.board, puzzle.placement, self.budget)
        seconds = time.perf_counter() - began
        return Solution(puzzle, "moves", plan, "bfs", ("bfs",), explored, seconds)


def _record(job: Job, puzzle: Puzzle) -> DeckRecord:
    settings = job.settings
    budget = Budget(settings.max_states)
    # The deck's parallelism is one puzzle per worker process, so an ASP solve here runs
    # one solver thread rather than the memo's default of one per core.
    options = AspOptions(clingo_args=ONE_THREAD)
    request = SolveRequest(
        puzzle,
        settings.objective,
        settings.engine,
        True,
        budget,
        options,
        max_atoms=settings.max_atoms,
        small_engine="bfs",
    )
    one_pass = settings.cluster and request.engine == "bfs" and settings.objective == "moves"
    counting = CountingBfs(budget) if one_pass and len(puzzle.board.targets) == 1 else None
    found = solution(request, counting)
    if found.limit:
        return DeckRecord(job.line, puzzle.name, limit=found.limit)
    plan = found.plan
    record = DeckRecord(
        job.line,
        puzzle.name,
        board="".join(board_rows(puzzle)),
        length=found.length,
        moves=found.moves,
        slides=found.slides,
        plan=None if plan is None else " ".join(format_plan(plan, puzzle.board)),
        explored=found.explored,
        seconds=round(found.seconds, 6),
        proven_by=found.proofs,
        stopped=dict(found.stopped) or None,
    )
    if settings.cluster:
        size = counting.size if counting else None
        counted = size or cluster_size(puzzle.board, puzzle.placement, budget)
        record = replace(record, cluster=counted)
    return verify(puzzle, record) if settings.verify else record


def verify(puzzle: Puzzle, record: DeckRecord) -> DeckRecord:
    """The record with the figures its deck line gives beside what was found (the cluster
    only when counted; a length found None, unsolvable, differs from any), and the names of
    those that differ."""
    expected = {"length": puzzle.meta.get("moves"), "cluster": puzzle.meta.get("cluster")}
    counted = {"length": True, "cluster": record.cluster is not None}
    compared = {name: expected[name] for name in expected if expected[name] is not None}
    compared = {name: figure for name, figure in compared.items() if counted[name]}
    wrong = [name for name, figure in compared.items() if figure != getattr(record, name)]
    return replace(
        record,
        expected_length=compared.get("length"),
        expected_cluster=compared.get("cluster"),
        mismatch=", ".join(wrong) or None,
    )


@dataclass(frozen=True)
class LineError:
    """A deck line that could not be read, found by the worker that read it."""

    line: int
    error: InputError


Result = DeckRecord | LineError


def run_jobs(jobs: Iterable[Job], processes: int, scheduler: str | None = None) -> Iterator[Result]:
    """Result records (or errors of lines) in the order they finish: on a Dask cluster at
    ``scheduler``, or on ``processes`` local worker processes."""
    if scheduler:
        yield from _run_on_dask(list(jobs), scheduler)
        return
    if processes <= 1:
        yield from map(solve_job, jobs)
        return
    with worker_pool(processes) as pool:
        yield from _bounded(pool, jobs, processes)


#: Jobs sent to a worker at once: enough to pay for the round trip of a fast search, few
#: enough that records stream out and the progress moves.
BATCH = 8
#: Batches in flight per worker: the workers never wait, and a deck of a million lines is
#: never all queued in memory.
IN_FLIGHT = 4


def _bounded(pool: Pool, jobs: Iterable[Job], processes: int) -> Iterator[Result]:
    """``solve_batch`` over ``jobs`` on ``pool``, reading the jobs only as workers free up."""
    finished: queue.SimpleQueue[list[Result] | BaseException] = queue.SimpleQueue()
    batches = iter(functools.partial(_take, iter(jobs), BATCH), [])
    pending = 0
    while True:
        for batch in itertools.islice(batches, processes * IN_FLIGHT - pending):
            pool.apply_async(
                solve_batch, (batch,), callback=finished.put, error_callback=finished.put
            )
            pending += 1
        if not pending:
            return
        results = finished.get()
        pending -= 1
        if isinstance(results, BaseException):
            raise results
        yield from results


def _take(items: Iterator[Job], count: int) -> list[Job]:
    return list(itertools.islice(items, count))


def solve_batch(jobs: Sequence[Job]) -> list[Result]:
    """Several jobs in one task, so that a task's round trip is paid once per batch."""
    return [solve_job(job) for job in jobs]


def _run_on_dask(jobs: Sequence[Job], scheduler: str) -> Iterator[Result]:
    """The same jobs as Dask tasks on a running cluster (``dask scheduler`` and workers)."""
    client = dask_client(scheduler)  # first: it says so if Dask is missing
    from dask.distributed import as_completed

    with client:
        batch = max(1, min(256, len(jobs) // 64))
        batches = [jobs[i : i + batch] for i in range(0, len(jobs), batch)]
        futures = client.map(solve_batch, batches, pure=False)
        for future in as_completed(futures):
            yield from future.result()


class ResultFile:
    """Records streamed to ``.jsonl`` (one JSON object a line) or ``.csv``, flushed each.

    Appending only, so an interrupted run keeps every record written. A run killed in the
    middle of a record leaves a torn last line: resuming cuts it off before appending, so the
    file holds whole records only. The file is locked while a run writes it: a second run on
    the same file refuses rather than interleave its records.
    """

    def __init__(self, path: Path, resume: bool) -> None:
        self.path = path
        self.csv = path.suffix.lower() == ".csv"
        if path.suffix.lower() not in (".csv", ".jsonl", ".json"):
            raise InputError("results go to a .jsonl or .csv file", str(path))
        with naming_the_file(path):
            self.handle = path.open("a", encoding="utf-8", newline="")  # truncated after the lock
            lock_for_writing(self.handle, path, "deck")
            if resume:
                self._cut_torn_line()
            else:
                self.handle.truncate(0)
        self.done = self._lines_done() if resume else set()
        fresh = self.handle.tell() == 0
        self.writer = (
            csv.DictWriter(self.handle, FIELDS, extrasaction="ignore") if self.csv else None
        )
        if self.writer and fresh:
            self.writer.writeheader()

    def _lines_done(self) -> set[int]:
        return {record["line"] for record in read_results(self.path)}

    def _cut_torn_line(self) -> None:
        """Drop a last line without its newline: what a run killed mid-write leaves."""
        text = self.path.read_bytes()
        if text and not text.endswith(b"\n"):
            self.handle.truncate(text.rfind(b"\n") + 1)
        self.handle.seek(0, 2)

    def write(self, record: DeckRecord) -> None:
        with naming_the_file(self.path):
            if self.writer:
                self.writer.writerow(record.record())
            else:
                self.handle.write(json.dumps(record.record(), ensure_ascii=False) + "\n")
            self.handle.flush()

    def close(self) -> None:
        self.handle.close()


def read_results(path: Path) -> Iterable[dict[str, Any]]:
    """The complete records of a results file (a torn last line is skipped)."""
    with path.open(encoding="utf-8", newline="") as handle:
        if path.suffix.lower() == ".csv":
            for row in csv.DictReader(handle):
                complete = None not in row.values()  # a torn last row lacks fields
                if complete and row.get("line", "").isdigit():
                    yield {**row, "line": int(row["line"])}
            return
        for text in handle:
            try:
                record = json.loads(text)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict) and isinstance(record.get("line"), int):
                yield record


@dataclass
class DeckTally:
    """What a deck run has found so far, for the progress line and the summary."""

    solved: int = 0
    unsolvable: int = 0
    limited: int = 0  # a search limit was reached first
    errors: int = 0  # bad lines
    lengths: Counter[int] = field(default_factory=Counter)
    mismatches: list[DeckRecord] = field(default_factory=list)
    verified: int = 0  # records compared with a figure their deck line gives

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


def run_deck(
    request: DeckRequest,
    progress: Progress | None = None,
    report: Callable[[RhaspError], None] | None = None,
) -> DeckTally:
    """Solve a deck; each record goes to the request's ``out`` (or standard output) as soon as
    it is done.

    Bad lines and puzzles that reach a search limit are passed to ``report`` (the first
    :data:`REPORTED`, then a count) and recorded, and the rest goes on. With ``resume``, the
    lines already in ``out`` are skipped and the new records appended.
    """
    path, out, scheduler = request.source, request.out, request.scheduler
    settings = Settings(
        request.states,
        request.atoms,
        request.objective,
        request.engine,
        request.cluster,
        request.verify,
    )
    report = report or (lambda problem: None)
    total, numbered = stream_deck(path, targets=request.targets)
    results = ResultFile(out, request.resume) if out else None
    done = results.done if results else set()
    write = results.write if results else _print_record
    tally = DeckTally()
    shown = progress or Silent()

    def record(result: DeckRecord, problem: RhaspError | None = None) -> None:
        write(result)
        tally.add(result)
        if problem is not None and tally.errors + tally.limited <= REPORTED:
            report(problem)

    def jobs() -> Iterator[Job]:
        for number, entry in numbered:
            if number in done:
                continue
            if isinstance(entry, InputError):
                record(DeckRecord(number, error=str(entry)), entry)
            else:
                yield Job(number, entry, settings)

    if settings.engine in (None, "bfs") and total >= COMPILE_FROM and not scheduler:
        prefer_compiled()  # before the workers start, so that they inherit the loaded code
    try:
        shown.start(max(0, total - len(done)), len(done))
        for result in run_jobs(jobs(), request.jobs, scheduler):
            if isinstance(result, LineError):
                record(DeckRecord(result.line, error=str(result.error)), result.error)
            elif result.limit is not None:
                record(result, SearchLimit(result.limit, f"{path}:{result.line}"))
            else:
                record(result)
            shown.advance(tally)
    finally:
        shown.stop()
        if results:
            results.close()
        unreported = tally.errors + tally.limited - REPORTED
        if unreported > 0:
            report(
                RhaspError(
                    f"{unreported:,} more bad lines and limits not shown; each is in its record",
                    path,
                )
            )
    return tally


def _print_record(record: DeckRecord) -> None:
    sys.stdout.write(json.dumps(record.record(), ensure_ascii=False) + "\n")
    sys.stdout.flush()
