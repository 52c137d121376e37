"""The core's lower bound, looked up rather than worked out: for a search that runs outside
the core on the core's keys (the ASP engine's state memo, :mod:`rhasp.engines.memo`), which
asks it of boards one at a time, from Python, where a table look-up per vehicle is cheaper
than the core's sets of cells.

Per target and each position it can hold, the table keeps what the target needs itself and,
for every other vehicle, what it needs at each of its positions to stand off the target's
way out: the values of :func:`rhasp.search.core.own_need` and
:func:`~rhasp.search.core.blocker_need` there, so that :meth:`BoundTable.bound` is
:func:`~rhasp.search.core.lower_bound`, with :data:`NEVER` where that has no plan (-1).
"""

from __future__ import annotations

from dataclasses import dataclass

from rhasp.model import Board
from rhasp.search import core
from rhasp.search.geometry import Geometry

#: A bound past any horizon: a board from which no plan is left (a wall on a target's way
#: out, or a vehicle across it that no position takes off it).
NEVER = 1 << 20

#: Per field of a target: (what the target needs itself, per vehicle that can stand across
#: its way: (vehicle index, its need per field)).
Needs = dict[int, tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]]


@dataclass(frozen=True)
class BoundTable:
    """A board's keys (the core's: vehicle ``i``'s field at bit ``shift[i]``, ``gone`` for a
    target that has left) and the core's lower bound on them, by moves or by slides."""

    shift: tuple[int, ...]
    gone: int
    targets: tuple[int, ...]
    needs: tuple[Needs, ...]  # per target: see :data:`Needs`
    most: int  # no bound short of NEVER is larger

    @classmethod
    def of(cls, board: Board, by_slides: bool) -> BoundTable:
        geometry = Geometry.of(board)
        g, targets = geometry.tables, list(geometry.targets)
        needs = tuple(_needs(g, t, geometry.exits[t], targets, by_slides) for t in targets)
        most = sum(
            max(
                (
                    _finite(own) + sum(_finite(max(need)) for _, need in others)
                    for own, others in by_field.values()
                ),
                default=0,
            )
            for by_field in needs
        )
        return cls(tuple(g.shift), g.gone, tuple(targets), needs, most)

    # The memo asks these once a step and once a move it looks ahead at, from Python, on the
    # ASP search's hot path: each writes core.field (and core.moved) out in one expression
    # rather than calling them per vehicle (bench/README.md, "Design round 3, second
    # before/after"), as bound does.

    def fields(self, key: int) -> list[int]:
        """Every vehicle's field in ``key`` (its position, or ``gone``: :func:`core.field`), in
        vehicle order."""
        gone = self.gone
        return [(key >> shift) & gone for shift in self.shift]

    def with_field(self, key: int, i: int, value: int) -> int:
        """``key`` with vehicle ``i``'s field set to ``value`` (:func:`core.moved` by the
        difference)."""
        shift = self.shift[i]
        return key + ((value - ((key >> shift) & self.gone)) << shift)

    def bound(self, key: int) -> int:
        """:func:`rhasp.search.core.lower_bound` of ``key``, NEVER where it has no plan."""
        shift, gone = self.shift, self.gone
        total = 0
        across: dict[int, int] = {}
        for t, by_field in zip(self.targets, self.needs, strict=True):
            here = by_field.get((key >> shift[t]) & gone)
            if here is None:  # gone
                continue
            own, others = here
            total += own
            for vehicle, need in others:
                cost = need[(key >> shift[vehicle]) & gone]
                if cost > across.get(vehicle, 0):
                    across[vehicle] = cost
        return total + sum(across.values())


def _needs(g: core.Tables, target: int, leaves: int, targets: list[int], by_slides: bool) -> Needs:
    """For each field of ``target`` on the board (not ``leaves``, where it has left): its own
    need, and the need of every vehicle that can stand across its way out, by that vehicle's
    field."""
    needs: Needs = {}
    for p in range(g.last[target] + 1):
        if p == leaves:
            continue
        way = core.way_out(g, target, p)
        if core.meet(way, g.walls):
            needs[p] = (NEVER, ())
            continue
        others = []
        for vehicle in range(g.count):
            if vehicle in targets:
                continue
            need = [0] * (g.gone + 1)
            for q in range(g.last[vehicle] + 1):
                cost = core.blocker_need(g, vehicle, q, way, by_slides)
                need[q] = NEVER if cost < 0 else cost
            if any(need):
                others.append((vehicle, tuple(need)))
        needs[p] = (core.own_need(g, target, p, by_slides), tuple(others))
    return needs


def _finite(need: int) -> int:
    return 0 if need >= NEVER else need
