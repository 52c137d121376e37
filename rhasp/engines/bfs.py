"""The BFS oracle as an engine: the fast bitboard core, or the reference search on request.

BFS for fewest moves, Dijkstra for fewest slides; both prove optimality by exhausting the
states closer to the start, and prove a puzzle unsolvable by exhausting all of them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from rhasp.engines import Objective, Solution, bitboard, reference
from rhasp.engines.bitboard import Budget
from rhasp.errors import SearchLimit
from rhasp.model import Puzzle


@dataclass
class BfsEngine:
    name = "bfs"
    fast: bool = True  # False: the readable reference search on the model (no budget)
    budget: Budget = field(default_factory=Budget)

    def solve(self, puzzle: Puzzle, objective: Objective) -> Solution:
        """The optimal plan, the proof that there is none, or the state limit reached first
        (``limit``: no answer either way)."""
        began = time.perf_counter()
        try:
            if self.fast:
                search = bitboard.fewest_moves if objective == "moves" else bitboard.fewest_slides
                plan, explored = search(puzzle.board, puzzle.start, self.budget)
            else:
                search = reference.fewest_moves if objective == "moves" else reference.fewest_slides
                plan, explored = search(puzzle.board, puzzle.start)
        except SearchLimit as limit:
            seconds = time.perf_counter() - began
            return Solution(puzzle, objective, None, self.name, (), None, seconds, {}, limit.what)
        seconds = time.perf_counter() - began
        return Solution(puzzle, objective, plan, self.name, ("bfs",), explored, seconds)
