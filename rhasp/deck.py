"""Solving whole decks: all cores, streamed results, resumable, verifiable.

The work is a list of :class:`Job` (a deck line and its puzzle); :func:`solve_job` turns one into
a result record in a worker process, solving it as ``rhasp solve`` does (the one solve policy,
:func:`rhasp.commands.solution`), and :class:`ResultFile` streams records to JSON lines or
CSV as they finish, flushing each, so an interrupted run loses nothing already written and
``--resume`` can skip what is there. One run at a time writes a results file (a lock).

A record holds what was found (``length``, ``plan``...), or ``limit`` (a search limit was
reached: no answer either way), or ``error`` (the line cannot be read). With ``verify`` it
also holds the deck line's own figures (``expected_length``, and ``expected_cluster`` when
the cluster is counted) and ``mismatch`` naming those that differ.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import hashlib
import io
import json
import os
import stat
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from rhasp.commands import DeckRequest, SolveRequest, solution
from rhasp.engines import ENGINES, AspOptions
from rhasp.errors import ClusterLost, InputError, Limit, RhaspError, SearchLimit, location
from rhasp.files import (
    Damaged,
    bounded_lines,
    destination,
    json_line,
    lock_for_writing,
    naming_the_file,
    refuse_input_as_output,
    written_whole,
)
from rhasp.formats import DeckLine, stream_deck
from rhasp.formats import write as write_puzzle
from rhasp.formats.grid import board_rows
from rhasp.journal import (
    canonical,
    header_of,
    journal_of,
    line_object,
    other_version,
    read_header,
)
from rhasp.limits import OUT_OF_MEMORY, Budget, peak_memory
from rhasp.model import Puzzle, plan_slides, replay
from rhasp.notation import parse_plan
from rhasp.parallel import fan_out
from rhasp.progress import Progress, Silent
from rhasp.search import cluster_size, prefer_compiled, solve_and_count
from rhasp.solution import Objective, Solution

#: The record's field of each engine's own seconds: ``asp_seconds``, ``bfs_seconds``,
#: ``astar_seconds``.
ENGINE_SECONDS = {engine: f"{engine}_seconds" for engine in ENGINES}

#: A record's fields, in the order of its JSON line and of a CSV file's columns (JSON adds
#: ``stopped`` after ``confirm``, where it applies).
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
    *ENGINE_SECONDS.values(),
    "proven_by",
    "confirm",
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

    line: int  # the entry's number in the deck, 1-based
    puzzle: str | None = None  # its name
    board: str | None = None  # its board, one line of cells
    length: int | None = None  # the plan's length in the objective's unit
    moves: int | None = None  # the plan's moves
    slides: int | None = None  # the plan's slides
    plan: str | None = None  # the plan in card notation, its moves apart by spaces
    explored: int | None = None  # states the search reached
    #: The searches' time together (static analysis's, when it answered before any search).
    seconds: float | None = None
    #: Each search's own seconds, by its engine (the confirming BFS's under ``bfs``): the
    #: record's ``asp_seconds``, ``bfs_seconds`` and ``astar_seconds``, None where that
    #: engine did not run (:meth:`~rhasp.solution.Solution.search_seconds`).
    engine_seconds: Mapping[str, float] = field(default_factory=dict)
    proven_by: tuple[str, ...] = ()  # what proves the length (or the puzzle unsolvable)
    #: Whether the run has a BFS confirm the answer of ASP or A* (``--no-confirm``: False,
    #: the engine alone; a BFS needs no confirming, and runs alone either way).
    confirm: bool = True
    stopped: Mapping[str, str] | None = None  # an engine that stopped short, and why
    cluster: int | None = None  # counted with --cluster
    expected_length: int | None = None  # with --verify: the length the deck line gives
    expected_cluster: int | None = None  # with --verify and --cluster: its cluster's size
    mismatch: str | None = None  # "length", "cluster" or both
    #: What stopped the search: a :class:`~rhasp.errors.Limit` from a solve here (the command
    #: line adds its advice), its text when read back from a results file.
    limit: Limit | str | None = None
    error: str | None = None  # why the line cannot be read

    def record(self) -> dict[str, Any]:
        """The JSON of this record: an error or a limit as the line and why; a result with
        every finding (None where there is none) and the optional fields it has."""
        if self.error is not None:
            return {"line": self.line, "error": self.error}
        if self.limit is not None:
            return {"line": self.line, "puzzle": self.puzzle, "limit": str(self.limit)}
        seconds = {name: self.engine_seconds.get(engine) for engine, name in ENGINE_SECONDS.items()}
        found = {
            name: seconds[name] if name in seconds else getattr(self, name)
            for name in RESULT_FIELDS
        }
        found["proven_by"] = list(self.proven_by)
        extra = {name: getattr(self, name) for name in OPTIONAL_FIELDS}
        return found | {name: value for name, value in extra.items() if value is not None}


#: The fields of every result record, and those it has only when they apply.
RESULT_FIELDS = (
    *("line", "puzzle", "board", "length", "moves", "slides"),
    *("plan", "explored", "seconds", *ENGINE_SECONDS.values(), "proven_by", "confirm"),
)
OPTIONAL_FIELDS = ("stopped", "cluster", "expected_length", "expected_cluster", "mismatch")


@dataclass(frozen=True)
class Settings:
    """What to do with every puzzle of a deck: a worker's share of a
    :class:`~rhasp.commands.DeckRequest`, its budgets reckoned where the run starts."""

    max_states: int  # per search
    max_atoms: int  # per ASP search
    objective: Objective = "moves"
    engine: str | None = None  # None: by the board's size, BFS up to 6×6
    cluster: bool = False  # also count the states reachable from the start
    verify: bool = False  # compare with the figures on the deck line
    confirm: bool = True  # a BFS confirms the answer of ASP or A*


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
        return DeckRecord(job.line, puzzle.name, limit=limit.limit or limit.what)
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
        settings.confirm,
        budget,
        options,
        max_atoms=settings.max_atoms,
        small_engine="bfs",
    )
    one_pass = settings.cluster and request.engine == "bfs" and settings.objective == "moves"
    counting = CountingBfs(budget) if one_pass and len(puzzle.board.targets) == 1 else None
    found = solution(request, counting)
    if found.limit:  # the Limit itself, which the command line advises on
        return DeckRecord(job.line, puzzle.name, limit=found.limit)
    findings = found.findings()
    plan = findings["plan"]
    searched = {ENGINE_SECONDS[engine]: spent for engine, spent in found.search_seconds().items()}
    record = _result(
        findings
        | searched
        | {
            "line": job.line,
            "board": "".join(board_rows(puzzle)),
            "plan": None if plan is None else " ".join(plan),  # a field of text, for CSV too
            "confirm": settings.confirm,
        }
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
    ``scheduler`` (every job sent at once, a sixty-fourth of them a task, 1 to 256), or on
    ``processes`` local worker processes, :data:`BATCH` jobs a task."""
    batch = BATCH
    if scheduler:
        jobs = list(jobs)
        batch = max(1, min(256, len(jobs) // 64))
    yield from fan_out(solve_job, jobs, processes, ordered=False, batch=batch, scheduler=scheduler)


#: Jobs sent to a worker at once: enough to pay for the round trip of a fast search, few
#: enough that records stream out and the progress moves.
BATCH = 8


class ResultFile:
    """Records streamed to ``.jsonl`` (one JSON object a line) or ``.csv``, flushed each.

    Appending only, so an interrupted run keeps every record written. The file is locked
    while a run writes it: a second run on the same file refuses rather than interleave its
    records.

    Beside it, ``FILE.run`` (:func:`rhasp.journal.journal_of`) vouches for the records: its
    first line says what run they are of (the deck, a checksum of its entries as read, and the
    options that change what a record says, :func:`run_options`), and after it a line per
    record written, its deck line and the digest of its bytes as written, keyed on that first
    line (:func:`record_digest`). A record is written, then its digest: a run killed between
    the two leaves a last record that nothing vouches for, a run killed within a record a
    torn last line. ``--resume`` keeps only the records whose digests hold (:meth:`_trusted`):
    records at the end of the file that nothing vouches for are cut off and solved again; a
    record whose digest does not hold, or an unvouched one before vouched ones, was changed by
    hand or comes from elsewhere, and the run is refused, naming it. So nothing a replay cannot
    check (a puzzle unsolvable, a length minimal, a cluster's size) is ever taken from a record
    rhasp did not write. Opening reads what is there and changes nothing; :meth:`begin` checks
    it against this run (with ``resume``) and only then cuts or truncates the file, so a
    refused run leaves the file as it was.
    """

    def __init__(self, path: Path, resume: bool) -> None:
        self.path = path
        self.csv = path.suffix.lower() == ".csv"
        if path.suffix.lower() not in (".csv", ".jsonl", ".json"):
            raise InputError("results go to a .jsonl or .csv file", str(path))
        self.run_path = journal_of(path, RUN_SUFFIX)
        self.resume = resume
        with naming_the_file(path):
            self.handle = path.open("ab")  # truncated after the lock
            lock_for_writing(self.handle, path, "deck")
        #: The digests' key: the first line of ``FILE.run`` as this run writes it.
        self.key = b""
        self.run_handle: IO[bytes] | None = None
        #: Why the records cannot be trusted, said by :meth:`begin` once the run is known.
        self.distrust: InputError | None = None
        #: Where the records this run keeps end: the file is cut there.
        self.end = 0
        #: The digest of each deck line's record, as ``FILE.run`` holds them.
        self.digests: dict[int, str] = {}
        #: Whether the file holds any record (kept or not): then it must be of this run.
        self.held = False
        try:
            #: What the file holds: each deck line's record, and the file's line it is on.
            self.kept: dict[int, tuple[int, DeckRecord]] = self._kept() if resume else {}
        except BaseException:
            self.handle.close()
            raise

    def _kept(self) -> dict[int, tuple[int, DeckRecord]]:
        """The records the file holds that ``FILE.run`` vouches for (all of them where it
        cannot be read: :meth:`begin` refuses them), each by its deck line."""
        found = list(_read_spans(self.path))
        self.held = bool(found)
        seen: dict[int, int] = {}
        for at, record, _, _ in found:
            if record.line in seen:
                raise self._refusal(
                    at,
                    f"a second record of deck line {record.line} (the first: line "
                    f"{seen[record.line]})",
                )
            seen[record.line] = at
        digests = self._digests()
        if digests is None:  # no FILE.run to read: refused by the header's check
            return {record.line: (at, record) for at, record, _, _ in found}
        return self._trusted(found, digests)

    def _digests(self) -> dict[int, str] | None:
        """The digest ``FILE.run`` holds for each deck line's record, None where it has no
        header to key them on; a line that is not an entry is refused, naming it (a torn last
        line is what a killed run leaves, and vouches for nothing)."""
        digests: dict[int, str] = {}
        try:
            with self.run_path.open("rb") as handle:
                lines = bounded_lines(handle)
                _, self.key = next(lines, (0, b""))
                self.key = self.key.removesuffix(b"\n")
                if header_of(self.key) is None:
                    return None
                for at, raw in lines:
                    entry = _run_entry(raw)
                    if entry is None and raw.endswith(b"\n"):
                        raise InputError(
                            "not a line rhasp writes there (damaged); run without --resume "
                            "to solve the deck anew",
                            location(str(self.run_path), at),
                        )
                    if entry is not None and entry[0] in digests:
                        raise InputError(
                            f"a second digest of deck line {entry[0]}'s record (damaged); run "
                            "without --resume to solve the deck anew",
                            location(str(self.run_path), at),
                        )
                    if entry is not None:
                        digests[entry[0]] = entry[1]
            self.digests = digests
        except Damaged as damage:
            raise InputError(
                f"not a line rhasp writes there: {damage}",
                location(str(self.run_path), damage.line),
            ) from None
        except OSError:
            return None  # missing or unreadable: the header's check says which
        return digests

    def _trusted(
        self, found: list[tuple[int, DeckRecord, bytes, int]], digests: Mapping[int, str]
    ) -> dict[int, tuple[int, DeckRecord]]:
        """The records whose digests hold; those at the file's end that nothing vouches for
        are left out (solved again), and :attr:`end` is where the rest ends. Any other record
        whose digest does not hold is :attr:`distrust`."""
        kept: dict[int, tuple[int, DeckRecord]] = {}
        unvouched: tuple[int, DeckRecord] | None = None
        for at, record, raw, end in found:
            digest = digests.get(record.line)
            if digest is None:
                unvouched = unvouched or (at, record)  # a killed run's last, if none follows
                continue
            if digest != record_digest(self.key, raw):
                self.distrust = self._not_written(at, record, "holds another digest of it")
                return {}
            if unvouched is not None:
                self.distrust = self._not_written(*unvouched, "has no digest of it")
                return {}
            kept[record.line] = (at, record)
            self.end = end
        return kept

    def _not_written(self, at: int, record: DeckRecord, held: str) -> InputError:
        return self._refusal(
            at,
            f"the record of deck line {record.line} is not as rhasp wrote it "
            f"({self.run_path.name} {held}: changed since, or from another results file); "
            "restore it, or run without --resume to solve the deck anew",
        )

    def _refusal(self, at: int | None, what: str) -> InputError:
        return InputError(what, location(str(self.path), at))

    def begin(self, header: Mapping[str, Any], problem: InputError | None = None) -> None:
        """Start writing this run, whose ``header`` says what it is of: with ``resume``, after
        the records kept are found to be of this run (the same deck and options, their digests
        holding, and no ``problem`` found in checking them against the deck's lines), else
        refuse (InputError) leaving everything as it was; without, anew."""
        if self.held:
            self._check_header(header)
            if self.distrust is not None:
                raise self.distrust
            if problem is not None:
                raise problem
        if not self.kept:
            self.key = canonical(header)  # else the key the kept records' digests hold under
        regular = stat.S_ISREG(os.fstat(self.handle.fileno()).st_mode)
        if regular:  # a device or a pipe (/dev/stdout) is no run to resume
            destination(self.run_path)  # before the results are cut: a folder there refuses
        with naming_the_file(self.path):
            self.handle.truncate(self.end if self.kept else 0)
            self.handle.seek(0, 2)
        if regular:
            kept = sorted(self.kept.values(), key=lambda kept: kept[0])
            entries = [_run_line(record.line, self.digests[record.line]) for _, record in kept]
            with naming_the_file(self.run_path), written_whole(self.run_path) as temporary:
                temporary.write_bytes(self.key + b"\n" + b"".join(entries))
            with naming_the_file(self.run_path):
                self.run_handle = self.run_path.open("ab")
        if self.csv and self.handle.tell() == 0:
            self._write(_csv_text(dict(zip(FIELDS, FIELDS, strict=True))))

    def _check_header(self, header: Mapping[str, Any]) -> None:
        """Refuse to add to records of another run: another deck, other options."""
        name = self.run_path.name
        try:
            found = read_header(self.run_path)
        except FileNotFoundError:
            raise self._refusal(
                None,
                f"there is no {name} beside it to say which deck and options its records are "
                "of, so they cannot be resumed; run without --resume to make them anew",
            ) from None
        except OSError as error:
            raise self._refusal(None, f"{name} cannot be read ({error.strerror})") from None
        version = None if found is None else found.get("version")
        if found is not None and found.get("rhasp") == "deck" and version != RUN_VERSION:
            raise self._refusal(
                None,
                f"{name} beside it {other_version(version, RUN_VERSION)}; finish the run with "
                "the rhasp that began it, or run without --resume to start anew",
            )
        if found is None or found.get("rhasp") != "deck":
            raise self._refusal(
                None,
                f"{name} beside it does not say which deck and options its records are of "
                "(damaged, or from another version of rhasp); run without --resume to start anew",
            )
        options = found.get("options")
        options = options if isinstance(options, dict) else {}
        for option, value in header["options"].items():
            if options.get(option, MISSING) != value:
                was = option_flag(option, options.get(option, MISSING))
                raise self._refusal(
                    None,
                    f"its records were made with {was}, this run has "
                    f"{option_flag(option, value)} ({name}); give the same options to resume, "
                    "or run without --resume to start anew",
                )
        if found.get("deck") != header["deck"]:
            raise self._refusal(
                None,
                f"its records are of another deck, or of this one before it changed ({name} "
                "has another checksum of its lines); resume with the deck they are of, or run "
                "without --resume to start anew",
            )

    def write(self, record: DeckRecord) -> None:
        """Append a record, then the digest that vouches for it."""
        row = record.record()
        text = _csv_text(row) if self.csv else json.dumps(row, ensure_ascii=False) + "\n"
        raw = self._write(text)
        if self.run_handle is not None:
            with naming_the_file(self.run_path):
                self.run_handle.write(_run_line(record.line, record_digest(self.key, raw)))
                self.run_handle.flush()

    def _write(self, text: str) -> bytes:
        raw = text.encode("utf-8", "surrogateescape")
        with naming_the_file(self.path):
            self.handle.write(raw)
            self.handle.flush()
        return raw

    def close(self) -> None:
        # Closing writes what is still buffered: on a full disk it fails too, and its error,
        # which replaces a write's, must name the file as well.
        try:
            with naming_the_file(self.path):
                self.handle.close()
        finally:
            if self.run_handle is not None:
                with naming_the_file(self.run_path):
                    self.run_handle.close()


def record_digest(key: bytes, raw: bytes) -> str:
    """The digest that vouches for a record's bytes ``raw`` as written by the run whose
    ``FILE.run`` begins with ``key``: a record copied from another run's file, or from
    another deck's, does not hold under this one's."""
    return hashlib.sha256(len(key).to_bytes(8, "big") + key + raw).hexdigest()[:32]


def _run_line(line: int, digest: str) -> bytes:
    return canonical({"line": line, "sha256": digest}) + b"\n"


def _run_entry(raw: bytes) -> tuple[int, str] | None:
    """A ``FILE.run`` entry, its deck line and digest, or None where ``raw`` is not one."""
    entry = line_object(raw) if raw.endswith(b"\n") else None
    if entry is None or entry.keys() != {"line", "sha256"}:
        return None
    line, digest = entry["line"], entry["sha256"]
    if type(line) is not int or line < 1 or not isinstance(digest, str):
        return None
    return line, digest


def _csv_text(row: Mapping[str, Any]) -> str:
    """A record's CSV row, as the results file holds it: ``proven_by`` its names apart by
    ``, `` (as ``mismatch``), ``confirm`` ``true`` or ``false`` (as in JSON), no value empty."""
    text = io.StringIO()
    cells = {name: _cell(value) for name, value in row.items()}
    csv.DictWriter(text, FIELDS, extrasaction="ignore").writerow(cells)
    return text.getvalue()


def _cell(value: Any) -> Any:
    if isinstance(value, list):
        return ", ".join(value)
    return ("true" if value else "false") if isinstance(value, bool) else value


RUN_SUFFIX = ".run"
#: Version 1 held no digests: its records are refused, not trusted; version 2's records had
#: no engine's own seconds nor ``confirm`` (nor, in CSV, ``proven_by``).
RUN_VERSION = 3
MISSING = object()  # an option a header does not hold
ON_BY_DEFAULT = ("confirm",)  # options given as --no-NAME


def run_options(request: DeckRequest) -> dict[str, Any]:
    """The options that change what a record says, as a run's header holds them: what a
    length counts (``objective``), which engine found it (``engine``: the records differ in
    ``proven_by`` and ``explored``), whether ``cluster`` and ``verify`` add their fields,
    which vehicles are ``targets``, and the limits as given (``None``: from the memory),
    which decide where a record says ``limit``; and ``confirm``, whether a BFS confirms
    each answer (the records say so, and their seconds and ``proven_by`` differ). ``--jobs`` and
    ``--scheduler`` change none."""
    return {
        "objective": request.objective,
        "engine": request.engine,
        "confirm": request.confirm,
        "cluster": request.cluster,
        "verify": request.verify,
        "targets": list(request.targets),
        "max_states": request.max_states,
        "max_atoms": request.max_atoms,
    }


def option_flag(option: str, value: Any) -> str:
    """How the user gives ``option`` its ``value`` (a header's: any value at all)."""
    flag = "--target" if option == "targets" else "--" + option.replace("_", "-")
    if value is MISSING:
        return f"no {flag} recorded"
    if option in ON_BY_DEFAULT and value is False:
        return f"--no-{flag.removeprefix('--')}"
    if value in (None, False, []):
        return f"no {flag}"
    if value is True:
        return flag
    if isinstance(value, list):
        return " ".join(f"{flag} {item}" for item in value)
    return f"{flag} {value}"


def deck_checksum(numbered: Iterable[tuple[int, Any]]) -> str:
    """A checksum of a deck as read: each entry's number, name and text (a deck line's; a
    puzzle's as JSON, figures included; an unreadable entry's reason). Names come from the
    deck's file name, and records hold them, so a renamed deck is another deck."""
    digest = hashlib.sha256()
    for number, entry in numbered:
        _add_entry(digest, number, entry)
    return digest.hexdigest()


def _add_entry(digest: Any, number: int, entry: Any) -> None:
    if isinstance(entry, DeckLine):
        text = f"{entry.name}\t{entry.text}"
    elif isinstance(entry, Puzzle):
        meta = json.dumps(dict(entry.meta), sort_keys=True)
        text = f"{entry.name}\t{meta}\t{write_puzzle(entry, 'json')}"
    else:
        text = f"!{entry.what}"
    digest.update(f"{number}\t{text}\n".encode("utf-8", "surrogatepass"))


#: From this many records kept, a resumed run checks them on its worker processes: a record
#: takes about a millisecond to check (its line read, its plan replayed by the model).
CHECK_ON_WORKERS_FROM = 1_000


def check_kept(
    kept: Mapping[int, tuple[int, DeckRecord]],
    numbered: Iterable[tuple[int, Any]],
    settings: Settings,
    path: Path,
    processes: int = 1,
) -> tuple[str, InputError | None]:
    """The deck's checksum (:func:`deck_checksum`), and the first record of ``kept`` (from
    the results file ``path``, first by its line there) that is not what this run would
    write for its deck line, if one is not: one pass over the deck for both, the records
    checked on ``processes`` workers when there are many."""
    seen: set[int] = set()
    digest = hashlib.sha256()

    def checks() -> Iterator[tuple[int, int, Any, DeckRecord]]:
        for number, entry in numbered:
            _add_entry(digest, number, entry)
            if number in kept:
                seen.add(number)
                at, record = kept[number]
                yield at, number, entry, record

    check = functools.partial(kept_problem, settings)
    processes = processes if len(kept) >= CHECK_ON_WORKERS_FROM else 1
    found = fan_out(check, checks(), processes, ordered=False, batch=BATCH)
    problems = [problem for problem in found if problem is not None]
    stray = sorted((at, number) for number, (at, _) in kept.items() if number not in seen)
    problems += [(at, f"a record of deck line {n}, where the deck has none") for at, n in stray]
    if not problems:
        return digest.hexdigest(), None
    at, what = min(problems)
    return digest.hexdigest(), InputError(what, location(str(path), at))


def kept_problem(
    settings: Settings, check: tuple[int, int, Any, DeckRecord]
) -> tuple[int, str] | None:
    """What is wrong with a kept record, as ``(file line, what)``, or None: a worker's task
    (:func:`record_problem`)."""
    at, number, entry, record = check
    wrong = record_problem(record, entry, settings)
    return (at, f"deck line {number}: {wrong}") if wrong else None


def record_problem(record: DeckRecord, entry: Any, settings: Settings) -> str | None:
    """What is wrong with a kept record as the record of ``entry`` (a deck line, read or not)
    under ``settings``, or None: what it says of the board and its plan must be what the
    line's puzzle and the plan replayed on it say; the fields the options add must be there."""
    puzzle = entry.read() if isinstance(entry, DeckLine) else entry
    if isinstance(puzzle, InputError):
        return None if record.error is not None else "the line cannot be read, but its record "
        "is not an error"
    if record.error is not None:
        return "its record says the line cannot be read, but it reads as a puzzle"
    if record.puzzle != puzzle.name:
        return f"its record is of puzzle {record.puzzle!r}, the line's is {puzzle.name!r}"
    if record.limit is not None:
        return None
    if record.board != "".join(board_rows(puzzle)):
        return "its record's board is not the line's board"
    if record.plan is not None:
        wrong = _plan_problem(record, puzzle, settings.objective)
        if wrong:
            return wrong
    if record.confirm != settings.confirm:
        made, this = (option_flag("confirm", value) for value in (record.confirm, settings.confirm))
        return f"its record was made with {made}, this run has {this}"
    if settings.cluster != (record.cluster is not None):
        return f"its record {'lacks' if settings.cluster else 'has'} a cluster (--cluster)"
    expected = (record.expected_length, record.expected_cluster, record.mismatch)
    if not settings.verify:
        return "its record has --verify's fields" if expected != (None,) * 3 else None
    bare = replace(record, expected_length=None, expected_cluster=None, mismatch=None)
    again = verify(puzzle, bare)
    if (again.expected_length, again.expected_cluster, again.mismatch) != expected:
        return "its record's expected figures or mismatch are not what the line says"
    return None


def _plan_problem(record: DeckRecord, puzzle: Puzzle, objective: Objective) -> str | None:
    try:
        played = replay(puzzle, parse_plan(record.plan or "", puzzle.board, "its plan"))
    except InputError as error:  # a PlanError too
        return f"its plan does not replay: {error}"
    if not played.solved:
        return "its plan does not solve the puzzle"
    moves, slides = len(played.moves), plan_slides(played.moves)
    length = moves if objective == "moves" else slides
    found = (record.length, record.moves, record.slides)
    if found != (length, moves, slides):
        return (
            f"its record says length {record.length}, {record.moves} moves, {record.slides} "
            f"slides; its plan takes {moves} moves, {slides} slides"
        )
    return None


def read_results(path: Path) -> Iterable[dict[str, Any]]:
    """The records of a results file, as written (a torn last line is left out); InputError
    naming the file and line at the first line that is not a whole record."""
    return (record.record() for _, record in _read_records(path))


def _read_records(path: Path) -> Iterator[tuple[int, DeckRecord]]:
    """Each whole record of a results file and the file's line it ends on."""
    return ((at, record) for at, record, _, _ in _read_spans(path))


def _read_spans(path: Path) -> Iterator[tuple[int, DeckRecord, bytes, int]]:
    """Each whole record of a results file, the file's line it ends on, its bytes and where
    they end, read within bounds (:func:`rhasp.files.bounded_lines`,
    :func:`rhasp.files.json_line`); a torn last line is left out; damage is InputError naming
    the file and line."""
    try:
        with path.open("rb") as handle:
            lines = ((at, raw) for at, raw in bounded_lines(handle) if raw.endswith(b"\n"))
            if path.suffix.lower() == ".csv":
                yield from _csv_records(lines)
                return
            end = 0
            for at, raw in lines:
                end += len(raw)
                try:
                    record = _read_record(json_line(raw), from_csv=False)
                except ValueError as error:
                    raise Damaged(str(error), at) from None
                yield at, record, raw, end
    except Damaged as damage:
        where = location(str(path), damage.line)
        raise InputError(f"not a whole deck record: {damage}", where) from None
    except OSError as error:
        raise InputError(f"cannot be read ({error.strerror})", str(path)) from None


def _csv_records(
    lines: Iterable[tuple[int, bytes]],
) -> Iterator[tuple[int, DeckRecord, bytes, int]]:
    """The records of a CSV results file's lines: a header row of :data:`FIELDS`, then a row
    a record (a quoted field may span lines: a record is named by the line it ends on, and
    its bytes are those of its lines)."""
    at, end, raw = 0, 0, bytearray()

    def texts() -> Iterator[str]:
        nonlocal at, end
        for at, line in lines:
            end += len(line)
            raw.extend(line)
            try:
                yield line.decode("utf-8")
            except UnicodeDecodeError:
                raise Damaged("not UTF-8 text", at) from None

    rows = csv.reader(texts())
    try:
        header = next(rows, None)
        if header is not None and header != list(FIELDS):
            raise Damaged("the first row is not the header row of deck records", at)
        raw.clear()
        for row in rows:
            if len(row) != len(FIELDS):
                raise Damaged(f"a row of {len(row)} fields, not {len(FIELDS)}", at)
            try:
                record = _read_record(dict(zip(FIELDS, row, strict=True)), from_csv=True)
            except ValueError as error:
                raise Damaged(str(error), at) from None
            yield at, record, bytes(raw), end
            raw.clear()
    except csv.Error as error:  # a field over the csv module's limit, a stray quote
        raise Damaged(f"not CSV ({error})", at) from None


_WHOLE = ("line", "length", "moves", "slides", "explored", "cluster")
_WHOLE += ("expected_length", "expected_cluster")
_TEXT = ("puzzle", "board", "plan", "mismatch", "limit", "error")


def _read_record(raw: Any, from_csv: bool) -> DeckRecord:
    """A record read back, as a :class:`DeckRecord`; ValueError saying what is wrong where it
    is not one: a field no record has, a value of the wrong kind, fields missing."""
    if not isinstance(raw, dict):
        raise ValueError("not a JSON object")
    unknown = sorted(raw.keys() - {*FIELDS, "stopped"})
    if unknown:
        raise ValueError(f"a field no record has ({unknown[0][:40]!r})")
    values = {name: _value(name, value, from_csv) for name, value in raw.items()}
    given = {name for name, value in values.items() if value is not None}
    if "line" not in given or values["line"] < 1:
        raise ValueError("no deck line number")
    if "error" in given or "limit" in given:
        kind = "error" if "error" in given else "limit"
        allowed = {"line", "error"} if kind == "error" else {"line", "puzzle", "limit"}
        if given - allowed or (kind == "limit" and "puzzle" not in given):
            raise ValueError(
                f"a record of a {'bad line' if kind == 'error' else 'limit'} "
                f"holds {', '.join(sorted(allowed))} only"
            )
        return DeckRecord(values["line"], values.get("puzzle"), **{kind: values[kind]})
    absent = [name for name in RESULT_FIELDS if name not in raw]
    if absent:
        raise ValueError(f"no {absent[0]!r} field")
    for name in ("puzzle", "board", "seconds", "confirm"):
        if values[name] is None:
            raise ValueError(f"no value for {name!r}")
    if from_csv and values["plan"] is None and values["length"] is not None:
        values["plan"] = ""  # CSV writes a plan of no move, a puzzle solved as it stands, as ""
    found = [values.get(name) is None for name in ("length", "moves", "slides", "plan")]
    if any(found) and not all(found):
        raise ValueError("length, moves, slides and plan are all given or none (unsolvable)")
    return _result(values)


#: The fields a record's JSON line holds as they are, besides its line number.
_AS_THEY_ARE = (
    *("puzzle", "board", "length", "moves", "slides", "plan", "explored", "seconds"),
    *("cluster", "expected_length", "expected_cluster", "mismatch"),
)


def _result(fields: Mapping[str, Any]) -> DeckRecord:
    """The record of a puzzle solved, from its fields as its JSON line has them (a solve's
    findings, :meth:`~rhasp.solution.Solution.findings`, with the rest of a record's fields,
    or a record read back)."""
    return DeckRecord(
        fields["line"],
        **{name: fields.get(name) for name in _AS_THEY_ARE},
        engine_seconds={
            engine: fields[name]
            for engine, name in ENGINE_SECONDS.items()
            if fields.get(name) is not None
        },
        proven_by=tuple(fields.get("proven_by") or ()),
        confirm=fields["confirm"],
        stopped=fields.get("stopped"),
    )


def _value(name: str, value: Any, from_csv: bool) -> Any:
    """A field's value, of the kind its name says (CSV's text converted); ValueError if not."""
    if from_csv and value == "":
        return None
    if value is None:
        return None
    if name in _WHOLE:
        if from_csv and isinstance(value, str) and value.isascii() and value.isdigit():
            value = int(value) if len(value) <= 20 else value
        if type(value) is not int or value < 0:
            raise ValueError(f"{name!r} is not a whole number")
        return value
    if name == "seconds" or name in ENGINE_SECONDS.values():
        if from_csv and isinstance(value, str):
            with contextlib.suppress(ValueError):  # not a number: said below
                value = float(value) if len(value) <= 40 else value
        if type(value) not in (int, float) or not 0 <= value < float("inf"):
            raise ValueError(f"{name!r} is not a number of seconds")
        return value
    if name == "proven_by":
        if from_csv and isinstance(value, str):
            value = value.split(", ")
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ValueError("'proven_by' is not a list of engines")
        return value
    if name == "confirm":
        if from_csv and value in ("true", "false"):
            value = value == "true"
        if type(value) is not bool:
            raise ValueError("'confirm' is not true or false")
        return value
    if name == "stopped":
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise ValueError("'stopped' is not engines and why they stopped")
        return value
    if not isinstance(value, str):
        raise ValueError(f"{name!r} is not text")
    return value


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
    #: Every record, in the deck's order, when the run was asked to keep them rather than
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


def run_deck(
    request: DeckRequest,
    progress: Progress | None = None,
    report: Callable[[RhaspError], None] | None = None,
    keep: bool = False,
    echo: bool = True,
) -> DeckTally:
    """Solve a deck; each record goes to the request's ``out`` as soon as it is done, else to
    standard output (with ``echo``) and, with ``keep``, into the tally's ``records``, in deck
    order.

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
    report = report or (lambda problem: None)
    if out is not None and path != "-":
        refuse_input_as_output(out, [path], "deck")
    total, numbered = stream_deck(path, targets=request.targets)
    results = _begun(request, settings, total, numbered) if out else None
    if results and not isinstance(numbered, list):  # read lazily: once more, for the run
        numbered = stream_deck(path, targets=request.targets)[1]
    done = set(results.kept) if results else set()
    tally_records: list[DeckRecord] = []

    def write(result: DeckRecord) -> None:
        if results:
            results.write(result)
            return
        if echo:
            _print_record(result)
        if keep:
            tally_records.append(result)

    tally = DeckTally()
    for _, kept in results.kept.values() if results else ():
        tally.add(kept)
    tally.kept = len(done)
    reported = 0
    shown = progress or Silent()

    def record(result: DeckRecord, problem: RhaspError | None = None) -> None:
        nonlocal reported
        write(result)
        tally.add(result)
        if problem is not None:
            reported += 1
            if reported <= REPORTED:
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
    except ClusterLost as lost:  # the one line says what the user has
        tally.records = sorted(tally_records, key=lambda kept: kept.line)
        raise lost.saying(_kept(tally, total, out, keep, echo), tally) from None
    finally:
        shown.stop()
        if results:
            results.close()
        if reported > REPORTED:
            report(
                RhaspError(
                    f"{reported - REPORTED:,} more bad lines and limits not shown; each is in "
                    "its record",
                    path,
                )
            )
    tally.records = sorted(tally_records, key=lambda kept: kept.line)
    tally.peak_memory = peak_memory()  # the workers ended, and waited for, above
    return tally


def _kept(tally: DeckTally, total: int, out: Path | None, keep: bool, echo: bool) -> str:
    """What a deck run stopped by a lost cluster has kept, and how to go on: in words for a
    command (``--resume``) or for a call (``resume=True``: only :func:`rhasp.deck` keeps)."""
    done = f"{tally.puzzles:,} of {total:,} puzzles"
    if out is not None:
        again = "the same call with resume=True" if keep else "the same command with --resume"
        return f"{done} kept in {out}; {again} goes on"
    if keep:
        return f"{done} done, their records in this error's done.records"
    return f"the records of {done} written" if echo else f"{done} done"


def _begun(
    request: DeckRequest, settings: Settings, total: int, numbered: Iterable[tuple[int, Any]]
) -> ResultFile:
    """The results file, begun for this run: what it keeps checked to be of this run (the
    same deck, the same options, each record what this run would write), else refused."""
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


def _print_record(record: DeckRecord) -> None:
    sys.stdout.write(json.dumps(record.record(), ensure_ascii=False) + "\n")
    sys.stdout.flush()
