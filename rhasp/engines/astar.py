"""A* as an engine: fewest moves, or fewest slides, proven by a search that expands only the
states whose cost so far plus an admissible lower bound on the rest could still beat the plan
found (:func:`rhasp.search.core.lower_bound`, argued there). It runs on the one search core,
compiled or not as for BFS, within the same state budget.

Its states grow with the plan's difficulty, not with the whole cluster: on a large board whose
cluster no BFS can finish, A* still proves a short plan optimal. On the cards, whose clusters
are small, it reaches almost every state BFS does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rhasp import search
from rhasp.engines.bfs import searched
from rhasp.limits import Budget
from rhasp.model import Puzzle
from rhasp.solution import Objective, Solution


@dataclass
class AstarEngine:
    name = "astar"
    budget: Budget = field(kw_only=True)

    def solve(self, puzzle: Puzzle, objective: Objective) -> Solution:
        """The optimal plan, the proof that there is none, or the state limit reached first."""
        board, start = puzzle.board, puzzle.start
        find = lambda: search.best_first(board, start, objective, self.budget, patterned=True)  # noqa: E731
        return searched(self.name, puzzle, objective, find)
