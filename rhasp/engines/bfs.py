"""The BFS oracle as an engine: the fast bitboard core, or the reference search on request.

BFS for fewest moves, Dijkstra for fewest slides; both prove optimality by exhausting the
states closer to the start, and prove a puzzle unsolvable by exhausting all of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rhasp.engines import Objective, Solution, bitboard, reference
from rhasp.engines.bitboard import Budget
from rhasp.errors import SearchLimit
from rhasp.model import Board, Plan, Puzzle, State


@dataclass
class BfsEngine:
    name = "bfs"
    fast: bool = True  # False: the readable reference search on the model (no budget)
    budget: Budget = field(default_factory=Budget)

    def solve(self, puzzle: Puzzle, objective: Objective) -> Solution:
        """The optimal plan, the proof that there is none, or the state limit reached first
        (``limit``: no answer either way)."""
        if self.fast:
            search = bitboard.fewest_moves if objective == "moves" else bitboard.fewest_slides
            return searched(
                self.name, puzzle, objective, lambda: search(*_start(puzzle), self.budget)
            )
        slow = reference.fewest_moves if objective == "moves" else reference.fewest_slides
        return searched(self.name, puzzle, objective, lambda: slow(*_start(puzzle)))


def _start(puzzle: Puzzle) -> tuple[Board, State]:
    return puzzle.board, puzzle.start


def searched(
    name: str, puzzle: Puzzle, objective: Objective, search: Callable[[], tuple[Plan | None, int]]
) -> Solution:
    """``search()``'s plan (or None: proven unsolvable) and states explored, as engine
    ``name``'s solution, timed; a state limit met is the solution's ``limit``, and the states
    reached by then its ``reached``."""
    began = time.perf_counter()
    try:
        plan, explored = search()
    except SearchLimit as limit:
        seconds = time.perf_counter() - began
        return Solution(
            puzzle, objective, None, name, (), None, seconds, {}, limit.what, reached=limit.states
        )
    seconds = time.perf_counter() - began
    return Solution(puzzle, objective, plan, name, (name,), explored, seconds)
