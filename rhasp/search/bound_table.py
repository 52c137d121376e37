"""The lower bound the ASP engine's state memo prunes by, looked up rather than worked out: a
search that runs outside the core on the core's keys (:mod:`rhasp.engines.memo`) asks it of
boards one at a time, from Python, where a table look-up per vehicle is cheaper than the
core's sets of cells.

By slides it is the core's own bound, :func:`rhasp.search.core.lower_bound` (A*'s): per target
and each position it can hold, the table keeps what the target needs itself and, for every
other vehicle, what it needs at each of its positions to stand off the target's way out (the
values of :func:`~rhasp.search.core.own_need` and :func:`~rhasp.search.core.blocker_need`
there), with :data:`NEVER` where that has no plan (-1). :meth:`BoundTable.core_bound` is that
bound by moves too.

By moves the memo prunes by more: :meth:`BoundTable.must_move` counts every vehicle that
must move at least once, the vehicles across a target's way and, in turn, the vehicles that
stand in the way of every way they have to get off it (the argument is there). It is at
least the core's bound by moves, whose vehicles are its first round, and it halves the
choices of the ASP search on some cards (bench/README.md, "ASP at scale"). A* keeps the
core's bound, argued consistent there, which its queue relies on for speed.

Either way the memo may add a pattern database of the same unit
(:class:`~rhasp.search.PatternTable`, :meth:`BoundTable.with_pattern`): the bound is then
the larger of the two.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rhasp.model import Board
from rhasp.search import core
from rhasp.search.geometry import Geometry
from rhasp.search.pattern import PatternTable

#: A bound past any horizon: a board from which no plan is left (a wall on a target's way
#: out, or a vehicle across it that no position takes off it).
NEVER = 1 << 20

#: Per field of a target: (what the target needs itself, per vehicle that can stand across
#: its way: (vehicle index, its need per field)).
Needs = dict[int, tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]]


@dataclass(frozen=True)
class BoundTable:
    """A board's keys (the core's: vehicle ``i``'s field at bit ``shift[i]``, ``gone`` for a
    target that has left), the lower bound on them, by moves or by slides, and the cells
    that the memo's look-ahead needs to tell a legal move."""

    shift: tuple[int, ...]
    gone: int
    targets: tuple[int, ...]
    needs: tuple[Needs, ...]  # per target: see :data:`Needs`
    most: int  # no bound short of NEVER is larger
    by_slides: bool
    stride: int  # vehicle i's cells at field f: cells[i * stride + f] (none when gone)
    cells: tuple[int, ...]  # the core's masks
    walls: int
    #: Per vehicle, from its field to another: the cells it crosses or enters (for a target,
    #: to ``gone``: its way out, :func:`core.way_out`), which must be free.
    crossed: tuple[tuple[dict[int, int], ...], ...]
    #: The fewest moves (or slides) of the puzzle with some vehicles only: the patterns the
    #: memo has taken so far (:meth:`with_pattern`).
    patterns: tuple[PatternTable, ...] = ()
    #: Worked out once, on the memo's hot path: the bound per board (by moves; by slides
    #: with a pattern), and per (vehicle, field, cells to stand off) what every way off
    #: crosses.
    _known: dict[int, int] = field(default_factory=dict, init=False, compare=False, repr=False)
    _ways_off: dict[tuple[int, int, int], int] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    @classmethod
    def of(cls, board: Board, by_slides: bool) -> BoundTable:
        geometry = Geometry.of(board)
        g, targets = geometry.tables, list(geometry.targets)
        needs = tuple(_needs(g, t, geometry.exits[t], targets, by_slides) for t in targets)
        if by_slides:
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
        else:
            most = g.count  # must_move counts vehicles
        crossed = tuple(_crossed(g, i, geometry.exits[i] >= 0) for i in range(g.count))
        return cls(
            tuple(g.shift),
            g.gone,
            tuple(targets),
            needs,
            most,
            by_slides,
            g.stride,
            g.masks,
            g.walls,
            crossed,
        )

    def with_pattern(self, pattern: PatternTable) -> BoundTable:
        """This table, bounding also by ``pattern``'s fewest moves (or slides: the pattern's
        must be this table's unit) where they are more than its bound and its patterns' so
        far: each is a lower bound, so their maximum is one."""
        if pattern.by_slides != self.by_slides:
            unit = "slides" if self.by_slides else "moves"
            raise ValueError(f"this table bounds the {unit} left: a pattern of its {unit} only")
        patterns = (*self.patterns, pattern)
        return replace(self, patterns=patterns, most=max(self.most, pattern.most))

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

    def occupied(self, fields: list[int]) -> int:
        """The cells the board of these ``fields`` covers, its walls included
        (:func:`core.occupancy`, from the fields the memo has read already)."""
        cells, stride = self.cells, self.stride
        occupied = self.walls
        for i, value in enumerate(fields):
            occupied |= cells[i * stride + value]
        return occupied

    def bound(self, key: int) -> int:
        """What the memo prunes by: by slides :meth:`core_bound`, by moves :meth:`must_move`;
        or the largest of the patterns' fewest slides or moves (:meth:`with_pattern`) where
        that is more, NEVER where a pattern has no plan (worked out once a board)."""
        if self.by_slides and not self.patterns:
            return self.core_bound(key)
        known = self._known.get(key)
        if known is None:
            known = self.core_bound(key) if self.by_slides else self.must_move(key)
            for pattern in self.patterns:
                fewest = pattern.bound(key)
                if fewest < 0:
                    known = NEVER
                    break
                if fewest > known:
                    known = fewest
            self._known[key] = known
        return known

    def core_bound(self, key: int) -> int:
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

    def must_move(self, key: int) -> int:
        """How many vehicles must move at least once before every target has left, NEVER if
        the board has no plan: a lower bound on the moves left, since a move moves one vehicle.

        Why each counted vehicle must move (the argument the pruning rests on):

        * A target on the board must move: it has to leave.
        * A vehicle across a target's way out must, at some time, stand off that way: the
          target cannot pass it, and vehicles never leave their lines.
        * A vehicle ``b`` that must at some time stand off a set of cells has a choice of
          positions off it. To get from where it is to one of them it crosses every cell in
          between (it slides; however many moves it takes), and each must be free when it
          enters: a wall there rules that position out, and a vehicle standing there now must
          have moved by then. So a vehicle standing now on cells that the way to *every*
          position left to ``b`` crosses must move; if no position is left, no plan is.
        * Such a vehicle ``c`` must at some time stand off those cells of its own: when ``b``
          enters the last of them. ``c`` crossing ``b``'s line covers one of its cells; ``c``
          on ``b``'s line, being unable to pass ``b``, is then beyond it, off all of them.
          So the last rule applies to ``c`` in turn, and so on.

        Every vehicle is counted once, however many rules name it, and each set of cells a
        vehicle must stand off is asked about on its own: a vehicle across two targets' ways
        may have positions off one and none off the other (then no plan is). The first round (the
        targets and the vehicles across their ways) is what :meth:`core_bound` counts by
        moves, so this is never less.
        """
        gone, stride, cells = self.gone, self.stride, self.cells
        fields = self.fields(key)
        now = [cells[i * stride + value] for i, value in enumerate(fields)]
        must = 0  # the vehicles that must move, a bit each
        todo: list[tuple[int, int]] = []  # (vehicle, the cells it must stand off)
        for t in self.targets:
            if fields[t] == gone:
                continue
            way = self.crossed[t][fields[t]][gone]
            if way & self.walls:
                return NEVER
            must |= 1 << t
            todo += [(i, way) for i, covered in enumerate(now) if covered & way]
        asked: set[tuple[int, int]] = set()  # each rule applied once to each set of cells
        while todo:
            vehicle, avoid = todo.pop()
            must |= 1 << vehicle
            if vehicle in self.targets or (vehicle, avoid) in asked:
                continue  # a target must move anyway; leaving clears any cells
            asked.add((vehicle, avoid))
            crossed = self._crossed_by_every_way_off(vehicle, fields[vehicle], avoid)
            if crossed < 0:
                return NEVER
            todo += [(i, covered & crossed) for i, covered in enumerate(now) if covered & crossed]
        return must.bit_count()

    def _crossed_by_every_way_off(self, vehicle: int, value: int, avoid: int) -> int:
        """The cells that ``vehicle`` at field ``value`` crosses on its way to every position
        off ``avoid`` that walls let it reach; -1 if there is none."""
        asked = (vehicle, value, avoid)
        known = self._ways_off.get(asked)
        if known is None:
            known = -1
            for there, crossed in self.crossed[vehicle][value].items():
                standing = self.cells[vehicle * self.stride + there]
                if there == self.gone or standing & avoid or crossed & self.walls:
                    continue
                known = crossed if known < 0 else known & crossed
            self._ways_off[asked] = known
        return known


def _crossed(g: core.Tables, i: int, leaves: bool) -> tuple[dict[int, int], ...]:
    """Per field of vehicle ``i`` (on the board), the cells it crosses or enters going to each
    other field: every position between, without its own cells; to ``gone`` (when it
    ``leaves``: a target), its way out."""
    base = i * g.stride
    out = []
    for p in range(g.last[i] + 1):
        own = core.cells_at(g.masks, base + p)
        ways: dict[int, int] = {}
        for q in range(g.last[i] + 1):
            if q == p:
                continue
            cells = 0
            for r in range(min(p, q), max(p, q) + 1):
                cells |= core.cells_at(g.masks, base + r)
            ways[q] = cells & ~own
        if leaves:
            ways[g.gone] = core.way_out(g, i, p)
        out.append(ways)
    return tuple(out)


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
