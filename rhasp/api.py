"""The public Python API: read a puzzle, solve it, check a plan, analyse it, ask for a hint.

These are the entry points that ``import rhasp`` offers. The command line and the web page
answer one puzzle through them (decks, the enumeration and pictures have modules of their
own), so a notebook gets exactly what they print::

    import rhasp
    puzzle = rhasp.read("puzzles/original/card01.txt")
    solution = rhasp.solve(puzzle)                 # ASP horizon proof, confirmed by BFS
    print(solution.moves, solution.proofs)         # 8 ('asp', 'bfs')
    rhasp.check(puzzle, "CL3 OD3 AR1 PU1 BU1 RL2 QD2 XR5").moves_minimal  # True

In Jupyter a puzzle shows as its board and a solution as its strip of boards.

Every search is bounded: by ``max_states`` (default: what half the memory holds) or a
:class:`~rhasp.engines.limits.Budget`, and for ASP by ``max_atoms``, ``max_horizon`` and
``timeout``. A search that reaches its bound raises :class:`~rhasp.errors.SearchLimit` (or,
for ``solve``, returns a solution whose ``limit`` says which bound it met); bad input raises
:class:`~rhasp.errors.InputError`, whose text is the one line the CLI prints. Bad input
includes a bad argument: each function checks its arguments first (:mod:`rhasp.arguments`),
and ``solve(puzzle, "move")`` is ``objective: give 'moves' or 'slides', not 'move'``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from rhasp import arguments, enumeration
from rhasp.analysis import Analysis
from rhasp.analysis import analyze as analyze_cluster
from rhasp.cluster import cluster_graph, hardest_puzzle
from rhasp.engines import (
    ENGINES,
    OBJECTIVES,
    AspOptions,
    Objective,
    Solution,
    confirmed,
    get_engine,
)
from rhasp.engines.limits import (
    ANALYSIS_BYTES_PER_STATE,
    BYTES_PER_STATE,
    Budget,
    default_max_states,
)
from rhasp.engines.static import static_verdict
from rhasp.errors import InputError
from rhasp.formats import Entry, read_path, read_text
from rhasp.generation import new_puzzles
from rhasp.hints import Hint, kept_hint
from rhasp.hints import hint as next_move
from rhasp.model import Move, Puzzle, position_after
from rhasp.notation import extract_plan, parse_plan
from rhasp.plan_check import check_plan

#: Suffixes that make a string that is not an existing file read as a file name, not text.
FILE_SUFFIXES = (".txt", ".json", ".pl", ".lp")


def read(
    source: str | os.PathLike[str], *, targets: Sequence[str] = (), name: str | None = None
) -> Puzzle:
    """One puzzle from a file, from ``-`` (standard input), or from text, in any format rhasp
    reads (grid, one-line board, car list, JSON). A string is a file name when such a file
    exists, else it is read as the puzzle itself; a path object is always a file."""
    if not isinstance(source, (str, os.PathLike)):
        raise InputError(
            f"give a file name, a path or the board's text, not {arguments.shown(source)}", "source"
        )
    targets = arguments.texts(targets, "targets")
    name = arguments.optional(arguments.text, name, "name")
    if isinstance(source, os.PathLike) or source == "-" or _is_file(source):
        return single(read_path(os.fspath(source), targets=targets), os.fspath(source))
    one_line = "\n" not in source.strip()
    if one_line and _names_a_file(source.strip()):
        raise InputError("no such file or directory", source)
    try:
        return parse(source, targets=targets, name=name or "puzzle")
    except InputError as error:
        if not one_line:
            raise
        # One word that is neither a file nor a board: most likely a mistyped file name.
        where = source if source.strip() else "source"  # nothing at all: name the argument
        raise InputError(f"no such file, nor a one-line board ({error.what})", where) from None


def _names_a_file(text: str) -> bool:
    return text.endswith(FILE_SUFFIXES) or "/" in text or os.sep in text


def parse(
    text: str, *, targets: Sequence[str] = (), name: str = "puzzle", where: str = "board"
) -> Puzzle:
    """One puzzle from its text, never from a file: what a server reads from its users.
    Errors name ``where`` (``board:3:2: ...``)."""
    text = arguments.text(text, "text")
    targets = arguments.texts(targets, "targets")
    name, where = arguments.text(name, "name"), arguments.text(where, "where")
    return single(read_text(text, where, name=name, targets=targets), where)


def single(entries: Sequence[Entry], where: str) -> Puzzle:
    """The one puzzle among ``entries``; a deck, or a bad board, is an InputError."""
    if len(entries) != 1:
        raise InputError(f"holds {len(entries)} puzzles; give one", where)
    if isinstance(entries[0], InputError):
        raise entries[0]
    return entries[0]


def _is_file(text: str) -> bool:
    try:
        return "\n" not in text and Path(text).is_file()
    except (OSError, ValueError):  # too long for a file name, or a NUL
        return False


def play(puzzle: Puzzle, plan: str | Sequence[Move]) -> Puzzle:
    """The position after ``plan`` (moves, or text in any notation), as a puzzle of its own;
    targets that have left are off its board, and once all have, it is ``.solved``. A move
    that cannot be played raises :class:`~rhasp.errors.PlanError` naming it."""
    puzzle = arguments.puzzle(puzzle)
    return position_after(puzzle, moves_of(puzzle, arguments.plan(plan)))


def moves_of(puzzle: Puzzle, plan: str | Sequence[Move], where: str = "plan") -> Sequence[Move]:
    """``plan`` as moves: text is read in any notation, or as ``rhasp solve`` prints it."""
    if isinstance(plan, str):
        return parse_plan(extract_plan(plan, where), puzzle.board, where)
    return plan


def solve(
    puzzle: Puzzle,
    objective: Objective = "moves",
    engine: str = "asp",
    confirm: bool = True,
    *,
    max_states: int | None = None,
    budget: Budget | None = None,
    asp: AspOptions | None = None,
    **asp_options: Any,
) -> Solution:
    """An optimal plan (``.plan``, a tuple of moves) and what proves it optimal (``.proofs``).

    ``engine="asp"`` grows the horizon until a plan exists, and with ``confirm`` a BFS checks
    its length (a difference raises :class:`~rhasp.engines.EngineDisagreement`: a bug).
    ``asp`` (an :class:`~rhasp.engines.AspOptions`), or its fields as keywords
    (``timeout=5``, ``max_horizon``, ``max_atoms``, ``clingo_args``, ``memo``, ``progress``),
    say how the ASP search runs; ``progress(horizon, seconds, memo_states)`` is called while
    an ASP horizon is solved.
    A solution with no plan is proven unsolvable (``.proofs``) or stopped at ``.limit``.
    A limit one engine meets never hides what the other proved: the answer is the proven one,
    and ``.stopped`` names the engine that stopped short (``{"asp": "timed out at horizon 35"}``).
    """
    puzzle = arguments.puzzle(puzzle)
    objective = arguments.choice(objective, OBJECTIVES, "objective")  # type: ignore[assignment]
    engine = arguments.choice(engine, ENGINES, "engine")
    confirm = arguments.flag(confirm, "confirm")
    budget = bounded(max_states, budget)
    unknown = set(asp_options) - {option.name for option in fields(AspOptions)}
    if unknown:
        known = ", ".join(option.name for option in fields(AspOptions))
        raise InputError(f"no ASP option {', '.join(sorted(unknown))} (there are {known})", "solve")
    given = arguments.optional(arguments.instance, asp, "asp", AspOptions)
    options = arguments.asp_options(replace(given or AspOptions(), **asp_options))
    solver = get_engine(engine, asp=options, budget=budget)
    proven = static_verdict(puzzle, objective, solver.name)  # unsolvable at a glance: no search
    if proven is not None:
        return proven
    if confirm and solver.name != "bfs":
        return confirmed(solver, get_engine("bfs", budget=budget), puzzle, objective)
    return solver.solve(puzzle, objective)


def check(
    puzzle: Puzzle,
    plan: str | Sequence[Move],
    *,
    max_states: int | None = None,
    budget: Budget | None = None,
) -> dict[str, Any]:
    """Replay ``plan`` (moves, or text in any notation, or what ``rhasp solve`` prints) and
    compare it with the proven minimal moves and slides: the record ``rhasp check`` prints
    (``solves``, ``moves``, ``slides``, ``minimal_moves``, ``moves_minimal``, ...)."""
    puzzle = arguments.puzzle(puzzle)
    moves = moves_of(puzzle, arguments.plan(plan))
    return check_plan(puzzle, moves, bounded(max_states, budget))


def analyze(
    puzzle: Puzzle, *, max_states: int | None = None, budget: Budget | None = None
) -> Analysis:
    """Why the puzzle is hard: its cluster, game graph, all-moves graph and distance profile
    (``rhasp analyze``); ``.graph`` is the cluster, for drawing."""
    puzzle = arguments.puzzle(puzzle)
    budget = bounded(max_states, budget, ANALYSIS_BYTES_PER_STATE)
    return analyze_cluster(puzzle, cluster_graph(puzzle, budget), budget)


def hardest(
    puzzle: Puzzle, *, max_states: int | None = None, budget: Budget | None = None
) -> tuple[Puzzle, int] | None:
    """The hardest position of the puzzle's cluster (``rhasp hardest``) and its minimum in
    moves; None when no position of the cluster can be solved."""
    return hardest_puzzle(arguments.puzzle(puzzle), bounded(max_states, budget))


def hint(
    puzzle: Puzzle,
    *,
    max_states: int | None = None,
    budget: Budget | None = None,
    search: bool = True,
) -> Hint | None:
    """The next move of an optimal plan from the puzzle's position, and how many moves the
    exit still is (proven by breadth-first search). With ``search=False``, only a hint that
    takes no search (the position solved, or in a cluster searched before), else None: a
    look-up of microseconds that a server can answer at once."""
    puzzle = arguments.puzzle(puzzle)
    budget = bounded(max_states, budget)  # checked even where no search needs it
    if not arguments.flag(search, "search"):
        return kept_hint(puzzle)
    return next_move(puzzle, budget)


def generate(
    min_moves: int = 1,
    seed: int | None = None,
    *,
    seconds: float | None = None,
    max_states: int | None = None,
    max_boards: int | None = None,
) -> Puzzle:
    """A new 6×6 puzzle whose minimum is at least ``min_moves``: the hardest state of the
    first random board (from ``seed``, else the clock) that has one. Its ``meta`` carries
    ``moves`` (the proven minimum, by BFS) and ``cluster``. Always ends: after ``max_boards``
    random boards or ``seconds`` (by default :data:`~rhasp.generation.BOARDS_PER_PUZZLE` and
    :data:`~rhasp.generation.SECONDS_PER_PUZZLE`) without one, a SearchLimit says what was
    found; a board whose cluster has more than ``max_states`` states is skipped."""
    min_moves = arguments.whole(min_moves, "min_moves")
    seed = arguments.optional(arguments.whole, seed, "seed", None, None)
    seconds = arguments.optional(arguments.seconds, seconds, "seconds")
    max_states = arguments.optional(arguments.whole, max_states, "max_states", 1)
    max_boards = arguments.optional(arguments.whole, max_boards, "max_boards", 1)
    chosen = time.time_ns() if seed is None else seed
    boards = new_puzzles(
        chosen,
        min_moves=min_moves,
        seconds=seconds,
        max_states=max_states,
        max_boards=max_boards,
    )
    found = next(boards)
    meta = {"moves": found.moves, "cluster": found.cluster}
    return Puzzle(found.puzzle.board, found.puzzle.placement, found.puzzle.name, meta)


def enumerate_puzzles(
    size: int = 6,
    *,
    walls: int | tuple[int, int] = 0,
    pieces: int | tuple[int, int] | None = None,
    exit_row: int = 2,
    jobs: int = 1,
    scheduler: str | None = None,
    max_states: int | None = None,
) -> Iterator[str]:
    """Every interesting puzzle of a ``size`` board as a database line, ``MOVES BOARD
    CLUSTER``, in the order ``rhasp enumerate`` writes them (``import rhasp`` calls this
    ``rhasp.enumerate``). ``walls`` and ``pieces`` (vehicles, the target included) are a count
    or a range ``(low, high)``; work is spread over ``jobs`` processes or the Dask cluster at
    ``scheduler``. A cluster of more than ``max_states`` states is a SearchLimit. Its
    arguments are checked at the call, before the first line is asked for."""
    size = arguments.whole(size, "size", enumeration.MIN_SIZE, enumeration.MAX_SIZE)
    low_walls, high_walls = arguments.count_or_range(walls, "walls", 0)
    low_pieces, high_pieces = (
        (1, size * size) if pieces is None else arguments.count_or_range(pieces, "pieces", 1)
    )
    exit_row = arguments.whole(exit_row, "exit_row")
    # How the numbers fit the board (the exit row on it, LOW <= HIGH), the options check.
    options = enumeration.Options(size, exit_row, low_walls, high_walls, low_pieces, high_pieces)
    jobs = arguments.whole(jobs, "jobs", 1, arguments.MAX_JOBS)
    scheduler = arguments.optional(arguments.text, scheduler, "scheduler")
    max_states = arguments.optional(arguments.whole, max_states, "max_states", 1)
    budget = default_max_states(jobs) if max_states is None else max_states
    return _database_lines(options, budget, jobs, scheduler)


def _database_lines(
    options: enumeration.Options, budget: int, jobs: int, scheduler: str | None
) -> Iterator[str]:
    numbers = range(enumeration.shard_count(enumeration.prepared(options)[0]))
    for shard in enumeration.shard_results(options, numbers, budget, jobs, scheduler):
        yield from shard.lines


def bounded(
    max_states: int | None, budget: Budget | None, bytes_each: int = BYTES_PER_STATE
) -> Budget:
    """``budget``, else one of ``max_states``, else what half the memory holds at
    ``bytes_each`` a state. Both are checked (:mod:`rhasp.arguments`)."""
    states = arguments.optional(arguments.whole, max_states, "max_states", 1)  # even unused
    if budget is not None:
        return arguments.budget(budget)
    return Budget(default_max_states(bytes_each=bytes_each) if states is None else states)
