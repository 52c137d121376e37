"""Solving whole decks: all cores, streamed results, resumable, verifiable.

The work is a list of :class:`Job` (a deck line and its puzzle); :func:`solve_job` turns one into
a result record in a worker process, and :class:`ResultFile` streams records to JSON lines or
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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any, Protocol

from rhasp.engines import AspOptions, Objective, Solution, confirmed, get_engine
from rhasp.engines.bitboard import cluster_size, prefer_compiled, solve_and_count
from rhasp.engines.limits import OUT_OF_MEMORY, Budget, default_max_atoms, default_max_states
from rhasp.errors import InputError, RhaspError, SearchLimit
from rhasp.files import lock_for_writing
from rhasp.formats import DeckLine, stream_deck
from rhasp.formats.grid import board_rows
from rhasp.model import Puzzle
from rhasp.notation import format_plan
from rhasp.parallel import dask_client, worker_pool

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
class Settings:
    """What to do with every puzzle of a deck."""

    objective: Objective = "moves"
    engine: str = "bfs"
    cluster: bool = False  # also count the states reachable from the start
    verify: bool = False  # compare with the figures on the deck line
    max_states: int = field(default_factory=default_max_states)  # per search
    max_atoms: int = field(default_factory=default_max_atoms)  # per ASP search


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
        return {"line": job.line, "puzzle": puzzle.name, "limit": limit.what}
    except MemoryError:
        return {"line": job.line, "puzzle": puzzle.name, "limit": OUT_OF_MEMORY}


def _record(job: Job, puzzle: Puzzle) -> dict[str, Any]:
    settings = job.settings
    budget = Budget(settings.max_states)
    size = None
    one_pass = settings.cluster and settings.engine == "bfs" and settings.objective == "moves"
    if one_pass and len(puzzle.board.targets) == 1:
        began = time.perf_counter()
        plan, explored, size = solve_and_count(puzzle.board, puzzle.placement, budget)
        seconds = time.perf_counter() - began
        solution = Solution(puzzle, "moves", plan, "bfs", ("bfs",), explored, seconds)
    else:
        # The deck's parallelism is one puzzle per worker process, so an ASP solve here runs
        # one solver thread rather than the memo's default of one per core.
        options = AspOptions(clingo_args=ONE_THREAD, max_atoms=settings.max_atoms)
        engine = get_engine(settings.engine, asp=options, budget=budget)
        if engine.name == "bfs":
            solution = engine.solve(puzzle, settings.objective)
        else:  # confirmed as solve confirms: BFS proves unsolvable, and answers past a limit
            oracle = get_engine("bfs", budget=budget)
            solution = confirmed(engine, oracle, puzzle, settings.objective)
    plan = solution.plan
    record: dict[str, Any] = {
        "line": job.line,
        "puzzle": puzzle.name,
        "board": "".join(board_rows(puzzle)),
        "length": solution.length,
        "moves": solution.moves,
        "slides": solution.slides,
        "plan": None if plan is None else " ".join(format_plan(plan, puzzle.board)),
        "explored": solution.explored,
        "seconds": round(solution.seconds, 6),
        "proven_by": list(solution.proofs),
    }
    if solution.stopped:
        record["stopped"] = dict(solution.stopped)
    if solution.limit:
        return {"line": job.line, "puzzle": puzzle.name, "limit": solution.limit}
    if settings.cluster:
        record["cluster"] = size or cluster_size(puzzle.board, puzzle.placement, budget)
    return record | (verify(puzzle, record) if settings.verify else {})


def verify(puzzle: Puzzle, record: dict[str, Any]) -> dict[str, Any]:
    """Compare the record with the numbers on the deck line, where there are any: the length,
    and the cluster when the record has one."""
    checks = {"length": puzzle.meta.get("moves"), "cluster": puzzle.meta.get("cluster")}
    found = {
        f"expected_{name}": expected
        for name, expected in checks.items()
        if expected is not None and name in record
    }
    wrong = [
        name
        for name in ("length", "cluster")
        if found.get(f"expected_{name}") not in (None, record.get(name))
    ]
    return found | ({"mismatch": ", ".join(wrong)} if wrong else {})


@dataclass(frozen=True)
class LineError:
    """A deck line that could not be read, found by the worker that read it."""

    line: int
    error: InputError


Result = dict[str, Any] | LineError


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


def _run_on_dask(jobs: Sequence[Job], scheduler: str) -> Iterator[dict[str, Any]]:
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
        self.handle = path.open("a", encoding="utf-8", newline="")  # no truncation before the lock
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

    def write(self, record: dict[str, Any]) -> None:
        if self.writer:
            self.writer.writerow(record)
        else:
            self.handle.write(json.dumps(record, ensure_ascii=False) + "\n")
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
class Tally:
    """What a deck run has found so far, for the progress line and the summary."""

    solved: int = 0
    unsolvable: int = 0
    limited: int = 0  # a search limit was reached first
    errors: int = 0  # bad lines
    lengths: Counter[int] = field(default_factory=Counter)
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    verified: int = 0  # records compared with a figure their deck line gives

    @property
    def puzzles(self) -> int:
        return self.solved + self.unsolvable + self.limited + self.errors

    def add(self, record: dict[str, Any]) -> None:
        if record.get("error"):
            self.errors += 1
        elif record.get("limit"):
            self.limited += 1
        elif record.get("length") is None:
            self.unsolvable += 1
        else:
            self.solved += 1
            self.lengths[record["length"]] += 1
        if any(name.startswith("expected_") for name in record):
            self.verified += 1
        if record.get("mismatch"):
            self.mismatches.append(record)


class Progress(Protocol):
    def start(self, total: int, skipped: int) -> None: ...
    def advance(self, tally: Tally) -> None: ...
    def stop(self) -> None: ...


#: Bad lines and limits printed one by one; beyond, they are counted (each is in the records).
REPORTED = 20


def run_deck(
    path: str,
    settings: Settings,
    processes: int,
    scheduler: str | None,
    out: Path | None,
    resume: bool,
    targets: Sequence[str] | None,
    progress: Progress,
    report: Callable[[RhaspError], None],
) -> Tally:
    """Solve a deck; each record goes to ``out`` (or standard output) as soon as it is done.

    Bad lines and puzzles that reach a search limit are passed to ``report`` (the first
    :data:`REPORTED`, then a count) and recorded, and the rest goes on. With ``resume``, the
    lines already in ``out`` are skipped and the new records appended.
    """
    total, numbered = stream_deck(path, targets=tuple(targets or ()))
    results = ResultFile(out, resume) if out else None
    done = results.done if results else set()
    write = results.write if results else _print_record
    tally = Tally()

    def record(result: dict[str, Any], problem: RhaspError | None = None) -> None:
        write(result)
        tally.add(result)
        if problem is not None and tally.errors + tally.limited <= REPORTED:
            report(problem)

    def jobs() -> Iterator[Job]:
        for number, entry in numbered:
            if number in done:
                continue
            if isinstance(entry, InputError):
                record({"line": number, "error": str(entry)}, entry)
            else:
                yield Job(number, entry, settings)

    if settings.engine == "bfs" and total >= COMPILE_FROM and not scheduler:
        prefer_compiled()  # before the workers start, so that they inherit the loaded code
    try:
        progress.start(max(0, total - len(done)), len(done))
        for result in run_jobs(jobs(), processes, scheduler):
            if isinstance(result, LineError):
                record({"line": result.line, "error": str(result.error)}, result.error)
            elif result.get("limit"):
                record(result, SearchLimit(result["limit"], f"{path}:{result['line']}"))
            else:
                record(result)
            progress.advance(tally)
    finally:
        progress.stop()
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


def _print_record(record: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    sys.stdout.flush()
