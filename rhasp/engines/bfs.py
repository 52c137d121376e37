"""The BFS oracle as an engine: the fast bitboard core, or the reference search on request.

BFS for fewest moves, Dijkstra for fewest slides; both prove optimality by exhausting the
states closer to the start, and prove a puzzle unsolvable by exhausting all of them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from rhasp.engines import Objective, Solution, bitboard, reference
from rhasp.model import Puzzle


@dataclass
class BfsEngine:
    name = "bfs"
    fast: bool = True  # False: the readable reference search on the model

    def solve(self, puzzle: Puzzle, objective: Objective) -> Solution:
        core = bitboard if self.fast else reference
        search = core.fewest_moves if objective == "moves" else core.fewest_slides
        began = time.perf_counter()
        plan, explored = search(puzzle.board, puzzle.start)
        seconds = time.perf_counter() - began
        return Solution(puzzle, objective, plan, self.name, ("bfs",), explored, seconds)
