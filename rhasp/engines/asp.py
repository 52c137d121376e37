"""The ASP engine: clingo plans with the encodings in ``encodings/``, one horizon at a time.

This driver does in Python what ``#include <incmode>.`` does for the clingo executable, on the
same files: ground ``base``; then for t = 0, 1, 2, ... ground ``step(t)`` and ``check(t)``,
make ``query(t)`` true (releasing ``query(t-1)``) and solve. The first satisfiable horizon is
the minimal plan length and the unsatisfiable ones before it are the proof. Learned
constraints carry over from one horizon to the next, as multi-shot solving does.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import clingo

from rhasp.engines import Objective, Solution
from rhasp.errors import InputError
from rhasp.formats.facts import write_facts
from rhasp.model import Move, Plan, Puzzle

ENCODING_FILES = {"moves": "moves.lp", "slides": "slides.lp"}
DEFAULT_MAX_HORIZON = 500


def encodings_dir() -> Path:
    """``encodings/``: inside the installed package, or beside it in a source checkout."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "encodings"
    return installed if installed.is_dir() else package.parent / "encodings"


def encoding_path(objective: Objective) -> Path:
    return encodings_dir() / ENCODING_FILES[objective]


@dataclass
class HorizonStats:
    """What the solver did, summed over all horizons."""

    horizon: int = 0
    choices: int = 0
    conflicts: int = 0
    restarts: int = 0
    atoms: int = 0  # of the whole ground program, after the last horizon
    seconds: float = 0.0

    def add(self, statistics: Any) -> None:
        solvers = statistics["solving"]["solvers"]
        self.choices += int(solvers["choices"])
        self.conflicts += int(solvers["conflicts"])
        self.restarts += int(solvers["restarts"])
        self.atoms = int(statistics["problem"]["lp"]["atoms"])

    def record(self, objective: Objective, clingo_args: Sequence[str]) -> dict[str, Any]:
        return {
            "horizon": self.horizon,
            "seconds": round(self.seconds, 6),
            "choices": self.choices,
            "conflicts": self.conflicts,
            "restarts": self.restarts,
            "atoms": self.atoms,
            "encoding": ENCODING_FILES[objective],
            "clingo_args": list(clingo_args),
        }


@dataclass
class AspEngine:
    name = "asp"
    max_horizon: int = DEFAULT_MAX_HORIZON
    timeout: float | None = None  # seconds for the whole search
    clingo_args: Sequence[str] = field(default_factory=tuple)

    def solve(self, puzzle: Puzzle, objective: Objective) -> Solution:
        began = time.perf_counter()
        control = self._control(puzzle, objective)
        stats = HorizonStats()
        atoms, limit = self._grow_horizon(control, stats, began)
        stats.seconds = time.perf_counter() - began
        plan = None if limit else plan_from_atoms(atoms, group_slides=objective == "slides")
        proofs = () if limit else ("asp",)
        record = {"asp": stats.record(objective, self.clingo_args)}
        return Solution(
            puzzle, objective, plan, self.name, proofs, None, stats.seconds, record, limit
        )

    def _grow_horizon(
        self, control: clingo.Control, stats: HorizonStats, began: float
    ) -> tuple[list[clingo.Symbol], str | None]:
        """Solve horizons 0, 1, 2, ... until one has a plan (its atoms) or a limit is hit."""
        atoms: list[clingo.Symbol] = []
        for horizon in range(self.max_horizon + 1):
            stats.horizon = horizon
            _ground_horizon(control, horizon)
            satisfiable = self._solve_horizon(control, began, atoms)
            if satisfiable is None:
                return atoms, f"timed out at horizon {horizon}"
            stats.add(control.statistics)
            if satisfiable:
                return atoms, None
        return atoms, f"no plan up to horizon {self.max_horizon}"

    def _solve_horizon(
        self, control: clingo.Control, began: float, atoms: list[clingo.Symbol]
    ) -> bool | None:
        """Whether this horizon has a plan (collecting its atoms); None when time is up."""
        remaining = None if self.timeout is None else self.timeout - (time.perf_counter() - began)
        if remaining is not None and remaining <= 0:
            return None
        on_model = lambda model: atoms.extend(model.symbols(shown=True))  # noqa: E731
        with control.solve(on_model=on_model, async_=True) as handle:
            if not handle.wait(remaining):
                handle.cancel()
                return None
            return handle.get().satisfiable

    def _control(self, puzzle: Puzzle, objective: Objective) -> clingo.Control:
        try:
            control = clingo.Control(["--warn=none", *self.clingo_args])
        except RuntimeError as error:
            raise InputError(f"clingo refuses the options: {error}", "--clingo-arg") from None
        control.load(str(encoding_path(objective)))
        control.add("base", [], write_facts(puzzle))
        return control


def _ground_horizon(control: clingo.Control, horizon: int) -> None:
    t = clingo.Number(horizon)
    if horizon == 0:
        control.ground([("base", []), ("check", [t])])
    else:
        control.release_external(clingo.Function("query", [clingo.Number(horizon - 1)]))
        control.ground([("step", [t]), ("check", [t])])
    control.assign_external(clingo.Function("query", [t]), True)


def plan_from_atoms(atoms: Sequence[clingo.Symbol], *, group_slides: bool) -> Plan:
    """The plan from ``move(T,V,D)`` atoms, in step order.

    With ``group_slides`` (the slides encoding, which plans one cell per step), consecutive
    slides of one vehicle in one direction make up one move of the plan, as the encoding's
    documentation says. Steps of the moves encoding are moves and are kept as they are.
    """
    steps = sorted(
        (atom.arguments[0].number, atom.arguments[1].string, atom.arguments[2].number)
        for atom in atoms
        if atom.match("move", 3)
    )
    moves: list[Move] = []
    for _, label, delta in steps:
        last = moves[-1] if moves else None
        same_run = last is not None and last.label == label and (last.delta > 0) == (delta > 0)
        if group_slides and same_run:
            moves[-1] = Move(label, last.delta + delta)
        else:
            moves.append(Move(label, delta))
    return tuple(moves)
