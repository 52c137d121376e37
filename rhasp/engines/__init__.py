"""Engines: each finds an optimal plan for a puzzle behind one small interface.

An engine's ``solve`` returns a :class:`~rhasp.solution.Solution`. The engines are ASP (the
heart: :mod:`.asp` with its state memo, :mod:`.memo`), BFS (the oracle, :mod:`.bfs`) and A*
(:mod:`.astar`), the last two on the search core (:mod:`rhasp.search`), with the readable
reference search they must agree with (:mod:`.reference`). Which engine runs, and how its
answer is confirmed, is the solve policy's (:mod:`rhasp.solving`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from rhasp.errors import InputError
from rhasp.limits import Budget
from rhasp.model import Puzzle
from rhasp.progress import Progress
from rhasp.solution import Objective, Solution

ENGINES = ("asp", "bfs", "astar")


@dataclass(frozen=True)
class AspOptions:
    """How an ASP search runs, passed whole from the CLI and the API down to the engine; how
    far it may go (atoms, horizon, seconds) is its :class:`~rhasp.limits.Budget`, as
    for every engine. ``progress`` follows the horizons being solved (its ``searching`` gets
    the horizon as the depth and the boards in the memo as the states)."""

    clingo_args: tuple[str, ...] = ()
    memo: bool = True  # the state memo propagator, with its heuristic and threads
    progress: Progress | None = None


class Engine(Protocol):
    name: str

    def solve(self, puzzle: Puzzle, objective: Objective) -> Solution: ...


def get_engine(name: str, *, budget: Budget, asp: AspOptions | None = None) -> Engine:
    """The engine called ``name``, bounded by ``budget`` (a request's,
    :func:`rhasp.requests.search_budget`); ``asp`` says how the ASP engine runs."""
    from rhasp.engines.asp import AspEngine
    from rhasp.engines.astar import AstarEngine
    from rhasp.engines.bfs import BfsEngine

    if name == "bfs":
        return BfsEngine(budget=budget)
    if name == "astar":
        return AstarEngine(budget=budget)
    if name == "asp":
        return AspEngine(asp or AspOptions(), budget=budget)
    raise InputError(f"unknown engine {name!r} (expected one of {', '.join(ENGINES)})", "--engine")
