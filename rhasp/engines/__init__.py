"""Engines: each finds an optimal plan for a puzzle behind one small interface.

An engine's ``solve`` returns a :class:`Solution` whose plan is optimal for the objective and
says which proofs stand behind that (``proofs``), or, for a puzzle without a plan, proves that
none exists. The CLI and the deck tools only ever talk to this interface.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from rhasp.errors import InputError
from rhasp.model import Plan, Puzzle, plan_slides

Objective = Literal["moves", "slides"]
OBJECTIVES: tuple[Objective, ...] = ("moves", "slides")
ENGINES = ("bfs", "asp")


@dataclass(frozen=True)
class Solution:
    puzzle: Puzzle
    objective: Objective
    plan: Plan | None  # None: the puzzle has no solution, proven by exhausting its states
    engine: str
    proofs: tuple[str, ...]  # what proves the plan optimal (or the puzzle unsolvable)
    explored: int  # states the search reached
    seconds: float
    stats: Mapping[str, Any] = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.plan is not None

    @property
    def moves(self) -> int | None:
        return None if self.plan is None else len(self.plan)

    @property
    def slides(self) -> int | None:
        return None if self.plan is None else plan_slides(self.plan)

    @property
    def length(self) -> int | None:
        """The plan's length in the unit of the objective."""
        return self.moves if self.objective == "moves" else self.slides


class Engine(Protocol):
    name: str

    def solve(self, puzzle: Puzzle, objective: Objective) -> Solution: ...


def get_engine(name: str) -> Engine:
    """The engine called ``name``; raises InputError for one that does not exist (yet)."""
    from rhasp.engines.bfs import BfsEngine

    if name == "bfs":
        return BfsEngine()
    if name == "asp":
        raise InputError("the ASP engine is not built yet; use --engine bfs for now", "--engine")
    raise InputError(f"unknown engine {name!r} (expected bfs or asp)", "--engine")
