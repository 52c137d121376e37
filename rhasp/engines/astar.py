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
    """A*; with ``weight`` above 1, weighted A* (:func:`rhasp.search.best_first`), whose plan
    is no proof: the solve policy runs it only for a plan where the optimum is out of reach
    (:func:`rhasp.solving.with_anytime_plan`); ``estimated`` too, its bound raised to an
    estimate (:func:`rhasp.search.core.estimate`)."""

    name = "astar"
    budget: Budget = field(kw_only=True)
    weight: int = field(default=1, kw_only=True)
    estimated: bool = field(default=False, kw_only=True)

    def solve(self, puzzle: Puzzle, objective: Objective) -> Solution:
        """The optimal plan, the proof that there is none, or the state limit reached first
        (with ``weight`` above 1, a plan not proven minimal)."""
        board, start, weight = puzzle.board, puzzle.start, self.weight
        find = lambda: search.best_first(  # noqa: E731
            board, start, objective, self.budget, weight, patterned=True, estimated=self.estimated
        )
        return searched(self.name, puzzle, objective, find)
