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
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from rhasp.model import Board, Move, Plan, State
from rhasp.search import core, uncompiled

KEY_WORD = 64  # a key's fields lie in words of 64 bits, bits 0 to 62 of each (no sign bit)
WORD_BITS = 63  # what an int64 holds without its sign bit
MAX_CELLS = 3 * WORD_BITS  # the compiled core takes cells in up to three words: 13×13


@dataclass(frozen=True)
class Geometry:
    """A board as the core sees it, with the ways back from keys to states and moves."""

    board: Board
    tables: core.Tables  # Python integers and tuples: the uncompiled core's form
    bits: int
    targets: tuple[int, ...]  # vehicle indices of the targets
    exits: tuple[int, ...]  # per vehicle: the position it leaves from (-1: it does not)

    @property
    def compiles(self) -> bool:
        """Whether the compiled core takes the board: its cells fit three 63-bit words (every
        board up to 13×13), keys of any number of vehicles."""
        return self.board.width * self.board.height <= MAX_CELLS

    @classmethod
    def of(cls, board: Board, *, targets_leave: bool = True) -> Geometry:
        """The board's geometry. With ``targets_leave``, a target that reaches its exit edge
        leaves (its field becomes ``gone``) and the goal is every target gone; without, as
        puzzle databases count clusters, targets stay and the goal is every target at its
        exit edge."""
        lasts = [board.line_length(v) - v.length for v in board.vehicles]
        # Room for every position and for gone (no vehicle at all once the last target left).
        bits = core.field_bits(max(lasts, default=0))
        gone, stride = (1 << bits) - 1, 1 << bits
        masks, behind, ahead, near = _rows(board, lasts, stride)
        exit_at = [_exit_position(board, i, last) for i, last in enumerate(lasts)]
        leaving = [p if targets_leave else -1 for p in exit_at]
        targets = tuple(board.index(label) for label in board.targets)
        shifts = field_shifts(len(board.vehicles), bits)
        tables = core.Tables(
            count=len(board.vehicles),
            gone=gone,
            stride=stride,
            walls=sum(1 << (r * board.width + c) for r, c in board.walls),
            shift=shifts,
            ones=(gone,) * len(board.vehicles),
            last=tuple(lasts),
            exit_behind=tuple(int(p == 0) for p in leaving),
            exit_ahead=tuple(int(p > 0) for p in leaving),
            masks=masks,
            behind=behind,
            ahead=ahead,
            near=near,
            goal_shift=tuple(shifts[i] for i in targets),
            goal_pos=tuple(gone if targets_leave else exit_at[i] for i in targets),
        )
        return cls(board, tables, bits, targets, tuple(leaving))

    @property
    def count(self) -> int:
        return len(self.board.vehicles)

    @cached_property
    def horizontal(self) -> tuple[int, ...]:
        """Per vehicle, 1 if it is horizontal (the database's order of states needs it)."""
        return tuple(int(vehicle.horizontal) for vehicle in self.board.vehicles)

    def key(self, state: State) -> int:
        gone = self.tables.gone
        shift = self.tables.shift
        return sum((gone if p is None else p) << shift[i] for i, p in enumerate(state))

    def position(self, key: int, i: int) -> int:
        """Vehicle ``i``'s field in ``key`` (``tables.gone`` for a target that has left)."""
        return (key >> self.tables.shift[i]) & self.tables.gone

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

    def slid(self, before: int, after: int) -> int:
        """The cells the one vehicle whose field differs between ``before`` and ``after`` slides
        (:meth:`move`'s distance, where no target leaves): the keys differ by the change of
        that field times two to the power of its shift, so the difference shifted back is the
        change, without a state read."""
        changed = before ^ after
        shift = self._shift_of_bit[(changed & -changed).bit_length() - 1]
        return abs(after - before) >> shift

    @cached_property
    def _shift_of_bit(self) -> tuple[int, ...]:
        """For each bit of a key, where the field holding it starts."""
        shifts: list[int] = []
        for start in self.tables.shift:
            shifts += [start] * (start - len(shifts)) + [start] * self.bits
        return tuple(shifts)

    def plan(self, path: Sequence[int]) -> Plan:
        return tuple(self.move(a, b) for a, b in itertools.pairwise(path))


def field_shifts(count: int, bits: int) -> tuple[int, ...]:
    """Where each vehicle's field starts in a key: ``bits`` apart, as many as bits 0 to 62 of
    a 64-bit word hold, then on in the next word (the module docstring says why)."""
    per_word = WORD_BITS // bits
    return tuple(KEY_WORD * (i // per_word) + bits * (i % per_word) for i in range(count))


def _rows(board: Board, lasts: list[int], stride: int) -> tuple[tuple[int, ...], ...]:
    """Every vehicle's masks, behind, ahead and near cells per position, ``stride`` a vehicle
    (:func:`rhasp.search.core.fill_rows`, run here uncompiled on Python integers)."""
    rows: list[list[int]] = [[0] * (stride * len(board.vehicles)) for _ in range(4)]
    for i, (vehicle, last) in enumerate(zip(board.vehicles, lasts, strict=True)):
        row, col = vehicle.cells(0)[0]
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
