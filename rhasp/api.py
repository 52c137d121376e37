"""The public Python API: read a puzzle, solve it, check a plan, analyse it, ask for a hint.

These are the entry points that ``import rhasp`` offers, and the only ones the command line
and the web page use, so a notebook gets exactly what they print::

    import rhasp
    puzzle = rhasp.read("puzzles/original/card01.txt")
    solution = rhasp.solve(puzzle)                 # ASP horizon proof, confirmed by BFS
    print(solution.moves, solution.proofs)         # 8 ('asp', 'bfs')
    rhasp.check(puzzle, "AR1 PU1 BU1 RL2 QD2 CL4 OD3 XR5")["moves_minimal"]  # True

In Jupyter a puzzle shows as its board and a solution as its strip of boards.

Every search is bounded: by ``max_states`` (default: what half the memory holds) or a
:class:`~rhasp.engines.limits.Budget`, and for ASP by ``max_atoms``, ``max_horizon`` and
``timeout``. A search that reaches its bound raises :class:`~rhasp.errors.SearchLimit` (or,
for ``solve``, returns a solution whose ``limit`` says which bound it met); bad input raises
:class:`~rhasp.errors.InputError`, whose text is the one line the CLI prints.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rhasp.analysis import Analysis, cluster_graph
from rhasp.analysis import analyze as analyze_cluster
from rhasp.check import check_plan
from rhasp.engines import Objective, Progress, Solution, confirmed, get_engine
from rhasp.engines.limits import (
    ANALYSIS_BYTES_PER_STATE,
    BYTES_PER_STATE,
    Budget,
    default_max_states,
)
from rhasp.errors import InputError
from rhasp.formats import Entry, read_path, read_text
from rhasp.hints import Hint
from rhasp.hints import hint as next_move
from rhasp.model import Move, Puzzle
from rhasp.notation import extract_plan, parse_plan

#: Suffixes that make a string that is not an existing file read as a file name, not text.
FILE_SUFFIXES = (".txt", ".json", ".pl", ".lp")


def read(
    source: str | os.PathLike[str], *, targets: Sequence[str] = (), name: str | None = None
) -> Puzzle:
    """One puzzle from a file, from ``-`` (standard input), or from text, in any format rhasp
    reads (grid, one-line board, car list, JSON). A string is a file name when such a file
    exists, else it is read as the puzzle itself; a path object is always a file."""
    if isinstance(source, os.PathLike) or source == "-" or _is_file(source):
        return single(read_path(os.fspath(source), targets=targets), os.fspath(source))
    if "\n" not in source and source.strip().endswith(FILE_SUFFIXES):
        raise InputError("no such file or directory", source)
    return parse(source, targets=targets, name=name or "puzzle")


def parse(
    text: str, *, targets: Sequence[str] = (), name: str = "puzzle", where: str = "board"
) -> Puzzle:
    """One puzzle from its text, never from a file: what a server reads from its users.
    Errors name ``where`` (``board:3:2: ...``)."""
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


def solve(
    puzzle: Puzzle,
    objective: Objective = "moves",
    engine: str = "asp",
    confirm: bool = True,
    *,
    max_states: int | None = None,
    budget: Budget | None = None,
    max_atoms: int | None = None,
    max_horizon: int | None = None,
    timeout: float | None = None,
    clingo_args: Sequence[str] = (),
    memo: bool = True,
    progress: Progress | None = None,
) -> Solution:
    """An optimal plan (``.plan``, a tuple of moves) and what proves it optimal (``.proofs``).

    ``engine="asp"`` grows the horizon until a plan exists, and with ``confirm`` a BFS checks
    its length (a difference raises :class:`~rhasp.engines.EngineDisagreement`: a bug).
    ``progress(horizon, seconds, memo_states)`` is called while an ASP horizon is solved.
    A solution with no plan is proven unsolvable (``.proofs``) or stopped at ``.limit``.
    """
    budget = bounded(max_states, budget)
    solver = get_engine(
        engine,
        max_horizon=max_horizon,
        timeout=timeout,
        clingo_args=clingo_args,
        memo=memo,
        progress=progress,
        budget=budget,
        max_atoms=max_atoms,
    )
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
    if isinstance(plan, str):
        plan = parse_plan(extract_plan(plan), puzzle.board)
    budget = bounded(max_states, budget)
    return check_plan(puzzle, plan, budget)


def analyze(
    puzzle: Puzzle, *, max_states: int | None = None, budget: Budget | None = None
) -> Analysis:
    """Why the puzzle is hard: its cluster, game graph, all-moves graph and distance profile
    (``rhasp analyze``); ``.graph`` is the cluster, for drawing."""
    budget = bounded(max_states, budget, ANALYSIS_BYTES_PER_STATE)
    return analyze_cluster(puzzle, cluster_graph(puzzle, budget), budget)


def hint(
    puzzle: Puzzle, *, max_states: int | None = None, budget: Budget | None = None
) -> Hint:
    """The next move of an optimal plan from the puzzle's position, and how many moves the
    exit still is (proven by breadth-first search)."""
    return next_move(puzzle, bounded(max_states, budget))


def bounded(
    max_states: int | None, budget: Budget | None, bytes_each: int = BYTES_PER_STATE
) -> Budget:
    """``budget``, else one of ``max_states``, else what half the memory holds at
    ``bytes_each`` a state."""
    if budget is not None:
        return budget
    return Budget(default_max_states(bytes_each=bytes_each) if max_states is None else max_states)
