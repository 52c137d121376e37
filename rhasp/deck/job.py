"""A deck's work, a job a puzzle: :func:`solve_job` turns a deck line into its record in a
worker process, solving it as ``rhasp solve`` does (the one solve policy,
:func:`rhasp.requests.solution`), counting its cluster with ``--cluster`` and comparing the
line's own figures with ``--verify`` (:func:`compare_figures`); :func:`run_jobs` spreads the
jobs over worker processes or a Dask cluster (:func:`rhasp.parallel.fan_out`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from rhasp.deck.record import ENGINE_SECONDS, DeckRecord, result_record
from rhasp.engines import AspOptions
from rhasp.errors import InputError, SearchLimit
from rhasp.formats import DeckLine
from rhasp.formats.grid import board_rows
from rhasp.limits import OUT_OF_MEMORY, Budget
from rhasp.model import Puzzle
from rhasp.parallel import fan_out
from rhasp.requests import SolveRequest, run_solve
from rhasp.search import cluster_size, solve_and_count
from rhasp.solution import Objective, Solution


@dataclass(frozen=True)
class Settings:
    """What to do with every puzzle of a deck: a worker's share of a
    :class:`~rhasp.requests.DeckRequest`, its budgets reckoned where the run starts."""

    max_states: int  # per search
    max_atoms: int  # per ASP search
    objective: Objective = "moves"
    engine: str | None = None  # None: by the board's size, BFS up to 6×6
    cluster: bool = False  # also count the states reachable from the start
    compare_figures: bool = False  # compare with the figures on the deck line (--verify)
    confirm: bool = True  # a BFS confirms the answer of ASP or A*


@dataclass(frozen=True)
class Job:
    line: int  # the entry's number in the deck, 1-based
    entry: Puzzle | DeckLine  # a deck file's line is read by the worker that solves it
    settings: Settings


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
    a deck with ``--cluster``: the engine the solve policy runs, its count read after it."""

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
    options = AspOptions()  # one solver thread: the deck's parallelism is its workers
    request = SolveRequest(
        puzzle,
        settings.objective,
        settings.engine,
        settings.confirm,
        budget,
        options,
        max_atoms=settings.max_atoms,
        in_deck=True,
        anytime=False,  # a record stopped at a limit says so, without a plan
    )
    one_pass = settings.cluster and request.engine == "bfs" and settings.objective == "moves"
    counting = CountingBfs(budget) if one_pass and len(puzzle.board.targets) == 1 else None
    found = run_solve(request, counting)
    if found.limit:  # the Limit itself, which the command line advises on
        return DeckRecord(job.line, puzzle.name, limit=found.limit)
    findings = found.findings()
    plan = findings["plan"]
    searched = {ENGINE_SECONDS[engine]: spent for engine, spent in found.search_seconds().items()}
    record = result_record(
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
    return compare_figures(puzzle, record) if settings.compare_figures else record


def compare_figures(puzzle: Puzzle, record: DeckRecord) -> DeckRecord:
    """``--verify``: the record with the figures its deck line gives beside what was found
    (the cluster only when counted; a length found None, unsolvable, differs from any), and
    the names of those that differ."""
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
