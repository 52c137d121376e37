"""A board as the search core sees it: integer tables (:class:`rhasp.search.core.Tables`),
and the ways back from keys to states and from paths to plans.

Plain data: it neither knows nor decides how the core runs (:mod:`rhasp.search.runner`
decides; :mod:`rhasp.search.compiled` converts the tables for the compiled core).

A *key* packs a state into one integer: each vehicle's position in a field of ``bits`` bits,
vehicle 0 lowest. A target that has left holds ``gone`` (all ones) in its field. No field
crosses a multiple of 64 bits nor takes bit 63 of one (:data:`KEY_WORD`), so that the
compiled core can hold a key of any board as one int64 word, or a tuple of them, each
nonnegative (:mod:`rhasp.search.jit`); on a board whose key fits 63 bits the fields simply
follow one another.

**Packed keys.** A search from one start meets only the states reachable from it, where
each vehicle stands within the range static analysis gives it
(:func:`rhasp.static.position_ranges`: the pieces of a line never pass each other, nor a
blocked cell). :meth:`Geometry.searching` then gives each vehicle but the targets a field
just wide enough for its range, holding its position less the range's first
(:attr:`Geometry.low`), where that saves a word of every key: a crowded 12×12 board of 48
vehicles takes three words, not four. The core reads each field with its own mask
(``Tables.ones``) and each vehicle's tables from its range's first position on, so the
searches run on it unchanged, and cannot move a vehicle past its range.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from rhasp.model import Board, Move, Plan, State
from rhasp.search import core, uncompiled
from rhasp.static import position_ranges

KEY_WORD = 64  # a key's fields lie in words of 64 bits, bits 0 to 62 of each (no sign bit)
WORD_BITS = 63  # what an int64 holds without its sign bit
MAX_CELLS = 3 * WORD_BITS  # the compiled core takes cells in up to three words: 13×13


@dataclass(frozen=True)
class Geometry:
    """A board as the core sees it, with the ways back from keys to states and moves."""

    board: Board
    tables: core.Tables  # Python integers and tuples: the uncompiled core's form
    bits: int  # the widest field's (every target's)
    targets: tuple[int, ...]  # vehicle indices of the targets
    exits: tuple[int, ...]  # per vehicle: the position it leaves from (-1: it does not)
    low: tuple[int, ...]  # per vehicle: the position its field's 0 stands for
    widths: tuple[int, ...]  # per vehicle: its field's bits

    @property
    def compiles(self) -> bool:
        """Whether the compiled core takes the board: its cells fit three 63-bit words (every
        board up to 13×13), keys of any number of vehicles."""
        return self.board.width * self.board.height <= MAX_CELLS

    @classmethod
    def of(
        cls, board: Board, *, targets_leave: bool = True, ranges: Sequence[range] | None = None
    ) -> Geometry:
        """The board's geometry. With ``targets_leave``, a target that reaches its exit edge
        leaves (its field becomes ``gone``) and the goal is every target gone; without, as
        puzzle databases count clusters, targets stay and the goal is every target at its
        exit edge. With ``ranges`` (per vehicle, the positions it may take; a target's whole
        line), packed keys (module docstring): the geometry of the states within them only."""
        lasts = [board.line_length(v) - v.length for v in board.vehicles]
        targets = tuple(board.index(label) for label in board.targets)
        # Room for every position and for gone (no vehicle at all once the last target left).
        bits = core.field_bits(max(lasts, default=0))
        gone, stride = (1 << bits) - 1, 1 << bits
        if ranges is None:
            low, kept, widths = [0] * len(lasts), lasts, [bits] * len(lasts)
        else:
            low, kept, widths = _packed_fields(board, ranges, targets, bits)
        masks, behind, ahead, near = _rows(board, low, kept, stride)
        exit_at = [_exit_position(board, i, last) for i, last in enumerate(kept)]
        leaving = [p if targets_leave else -1 for p in exit_at]
        shifts = field_shifts(widths)
        tables = core.Tables(
            count=len(board.vehicles),
            gone=gone,
            stride=stride,
            walls=sum(1 << (r * board.width + c) for r, c in board.walls),
            shift=shifts,
            ones=tuple((1 << width) - 1 for width in widths),
            last=tuple(kept),
            exit_behind=tuple(int(p == 0) for p in leaving),
            exit_ahead=tuple(int(p > 0) for p in leaving),
            masks=masks,
            behind=behind,
            ahead=ahead,
            near=near,
            goal_shift=tuple(shifts[i] for i in targets),
            goal_pos=tuple(gone if targets_leave else exit_at[i] for i in targets),
        )
        return cls(board, tables, bits, targets, tuple(leaving), tuple(low), tuple(widths))

    @classmethod
    def searching(cls, board: Board, start: State) -> Geometry:
        """The geometry a search from ``start`` runs on (targets leave): with packed keys
        where they take fewer words than the board's own (module docstring), else
        :meth:`of`'s. Only the states reachable from ``start`` have keys in it."""
        plain = cls.of(board)
        if key_words(plain.tables) == 1:
            return plain
        packed = cls.of(board, ranges=position_ranges(board, start))
        return packed if key_words(packed.tables) < key_words(plain.tables) else plain

    @property
    def count(self) -> int:
        return len(self.board.vehicles)

    @cached_property
    def horizontal(self) -> tuple[int, ...]:
        """Per vehicle, 1 if it is horizontal (the database's order of states needs it)."""
        return tuple(int(vehicle.horizontal) for vehicle in self.board.vehicles)

    def key(self, state: State) -> int:
        """The key of ``state``; ValueError for a state outside the ranges of packed keys."""
        g, low = self.tables, self.low
        key = 0
        for i, p in enumerate(state):
            if p is None:
                key += g.gone << g.shift[i]
            elif 0 <= p - low[i] <= g.last[i]:
                key += (p - low[i]) << g.shift[i]
            else:
                raise ValueError(f"vehicle {i} at {p} lies outside the keys of this geometry")
        return key

    def position(self, key: int, i: int) -> int:
        """Vehicle ``i``'s position in ``key`` (``tables.gone`` for a target that has left:
        a target's range starts at 0, and no other position reaches ``gone``)."""
        return ((key >> self.tables.shift[i]) & self.tables.ones[i]) + self.low[i]

    def state(self, key: int) -> State:
        gone = self.tables.gone
        positions = (self.position(key, i) for i in range(self.count))
        return tuple(None if p == gone else p for p in positions)

    def occupancy(self, key: int) -> int:
        return uncompiled.CORE.occupancy(self.tables, key)

    def solved(self, key: int) -> bool:
        """Every target gone (or, when targets stay, at its exit edge)."""
        return uncompiled.CORE.solved(self.tables, key)

    def neighbours(self, key: int) -> list[int]:
        """The states one move away from ``key``, in the readable model's order."""
        python = uncompiled.CORE  # uncompiled, at its fastest
        keys, slides, movers = python.buffers(self.tables, key)
        return keys[: python.successors(self.tables, key, core.NO_SKIP, keys, slides, movers)]

    def move(self, before: int, after: int) -> Move:
        """The move that turns ``before`` into ``after`` (one vehicle's field differs)."""
        for i in range(self.count):
            p, q = self.position(before, i), self.position(after, i)
            if p != q:
                if q == self.tables.gone:
                    q = self.exits[i]
                return Move(self.board.vehicles[i].label, q - p)
        raise ValueError("the two states are the same")

    def plan(self, path: Sequence[int]) -> Plan:
        return tuple(self.move(a, b) for a, b in itertools.pairwise(path))


def field_shifts(widths: Sequence[int]) -> tuple[int, ...]:
    """Where each vehicle's field starts in a key, given their ``widths``: one after the
    other, as many as bits 0 to 62 of a 64-bit word hold, then on in the next word (the
    module docstring says why)."""
    shifts, word, used = [], 0, 0
    for width in widths:
        if used + width > WORD_BITS:
            word, used = word + 1, 0
        shifts.append(KEY_WORD * word + used)
        used += width
    return tuple(shifts)


def _packed_fields(
    board: Board, ranges: Sequence[range], targets: tuple[int, ...], bits: int
) -> tuple[list[int], list[int], list[int]]:
    """Per vehicle, the first position of its range, its last field value and its field's
    bits: the targets' whole lines in ``bits`` (with room for ``gone``), the others' ranges
    in as few bits as they take."""
    low, kept, widths = [], [], []
    for i, (vehicle, allowed) in enumerate(zip(board.vehicles, ranges, strict=True)):
        whole = board.line_length(vehicle) - vehicle.length
        if i in targets and allowed != range(whole + 1):
            raise ValueError(f"a target's range must be its whole line, not {allowed}")
        if not allowed or allowed.step != 1 or allowed.start < 0 or allowed.stop > whole + 1:
            raise ValueError(f"vehicle {vehicle.label}'s range {allowed} is not on its line")
        low.append(allowed.start)
        kept.append(len(allowed) - 1)
        widths.append(bits if i in targets else (len(allowed) - 1).bit_length())
    return low, kept, widths


def _rows(
    board: Board, low: list[int], lasts: list[int], stride: int
) -> tuple[tuple[int, ...], ...]:
    """Every vehicle's masks, behind, ahead and near cells per field value (position
    ``low[i]`` on), ``stride`` a vehicle (:func:`rhasp.search.core.fill_rows`, run here
    uncompiled on Python integers)."""
    rows: list[list[int]] = [[0] * (stride * len(board.vehicles)) for _ in range(4)]
    for i, (vehicle, last) in enumerate(zip(board.vehicles, lasts, strict=True)):
        row, col = vehicle.cells(low[i])[0]
        step = 1 if vehicle.horizontal else board.width  # bit distance between neighbour cells
        core.fill_rows(*rows, i * stride, row * board.width + col, step, vehicle.length, last)
    return tuple(tuple(table) for table in rows)


def _exit_position(board: Board, i: int, last: int) -> int:
    """Where vehicle ``i`` touches its exit edge: 0 or ``last``, or -1 for no exit."""
    side = board.exit_side(board.vehicles[i].label)
    return -1 if side is None else 0 if side in ("left", "top") else last


#: The cell tables of :class:`core.Tables` (the rest are small numbers).
CELL_TABLES = ("masks", "behind", "ahead", "near")


def cell_words(g: core.Tables) -> int:
    """How many 63-bit words the board's cells take in the compiled core (one at least)."""
    cells = max(max(getattr(g, name), default=0) for name in CELL_TABLES)
    return max(1, -(-max(cells, g.walls).bit_length() // WORD_BITS))


def key_words(g: core.Tables) -> int:
    """How many words a key of the board takes in the compiled core (fields per word: see
    the module docstring)."""
    return 1 + max(g.shift, default=0) // KEY_WORD
