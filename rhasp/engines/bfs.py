"""The BFS oracle as an engine: the search core (:mod:`rhasp.search`), or the reference search.

BFS for fewest moves, Dijkstra for fewest slides; both prove optimality by exhausting the
states closer to the start, and prove a puzzle unsolvable by exhausting all of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rhasp import search
from rhasp.engines import reference
from rhasp.errors import SearchLimit
from rhasp.limits import Budget, Limit
from rhasp.model import Board, Plan, Puzzle, State
from rhasp.solution import Objective, Solution


@dataclass
class BfsEngine:
    name = "bfs"
    fast: bool = True  # False: the readable reference search on the model (no budget)
    budget: Budget = field(kw_only=True)

    def solve(self, puzzle: Puzzle, objective: Objective) -> Solution:
        """The optimal plan, the proof that there is none, or the state limit reached first
        (``limit``: no answer either way)."""
        if self.fast:
            fast = search.fewest_moves if objective == "moves" else search.fewest_slides
            return searched(
                self.name, puzzle, objective, lambda: fast(*_start(puzzle), self.budget)
            )
        slow = reference.fewest_moves if objective == "moves" else reference.fewest_slides
        return searched(self.name, puzzle, objective, lambda: slow(*_start(puzzle)))


def _start(puzzle: Puzzle) -> tuple[Board, State]:
    return puzzle.board, puzzle.start


def searched(
    name: str, puzzle: Puzzle, objective: Objective, find: Callable[[], tuple[Plan | None, int]]
) -> Solution:
    """``find()``'s plan (or None: proven unsolvable) and states explored, as engine
    ``name``'s solution, timed; a limit met (states, time) is the solution's ``limit``."""
    began = time.perf_counter()
    try:
        plan, explored = find()
    except SearchLimit as limit:
        seconds = time.perf_counter() - began
        stopped = limit.limit or Limit(limit.what)
        return Solution(puzzle, objective, None, name, (), None, seconds, stopped)
    seconds = time.perf_counter() - began
    return Solution(puzzle, objective, plan, name, (name,), explored, seconds)
