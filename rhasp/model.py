"""The puzzle model: a board's fixed geometry, its vehicles, states, moves and plans.

This is the simple, readable reference model that every engine and format shares. Coordinates
are 0-based ``(row, column)`` with row 0 at the top. A vehicle never turns: a horizontal one keeps
its row (its *line*) and its position is the column of its left cell; a vertical one keeps its
column and its position is the row of its top cell. A *state* is the tuple of all positions, in
the board's vehicle order, with ``None`` for a target that has left the board.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, get_args

from rhasp.errors import IllegalMove, InputError, PlanError

Orientation = Literal["h", "v"]
Side = Literal["right", "left", "bottom", "top"]
Cell = tuple[int, int]
State = tuple[int | None, ...]

MIN_SIDE, MAX_SIDE = 3, 12
SIDES: tuple[Side, ...] = get_args(Side)
#: The edges a vehicle can leave through: the two ends of its own line.
SIDES_ALONG: dict[Orientation, tuple[Side, Side]] = {"h": ("right", "left"), "v": ("bottom", "top")}
DEFAULT_EXIT: dict[Orientation, Side] = {"h": "right", "v": "bottom"}
EMPTY, WALL = ".", "#"
#: How a frame drawn around a board marks each exit (:meth:`Board.framed`).
EXIT_MARK: dict[Side, str] = {"right": ">", "left": "<", "bottom": "v", "top": "^"}


def cell_name(cell: Cell) -> str:
    """A cell as people count: 1-based row and column."""
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


class ShownAsText:
    """An answer that IPython (a notebook, ``ipython``) shows as ``print`` does: its
    ``__str__``, the text the CLI prints (by default its :meth:`lines`, one a line); ``repr``
    keeps the fields, for debugging."""

    def __str__(self) -> str:
        return "\n".join(self.lines())  # type: ignore[attr-defined]  (each answer's own)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))


@dataclass(frozen=True)
class Vehicle:
    label: str
    orientation: Orientation
    line: int  # the row of a horizontal vehicle, the column of a vertical one
    length: int

    @property
    def horizontal(self) -> bool:
        return self.orientation == "h"

    def cells(self, position: int) -> list[Cell]:
        if self.horizontal:
            return [(self.line, position + i) for i in range(self.length)]
        return [(position + i, self.line) for i in range(self.length)]

    def line_name(self) -> str:
        return f"row {self.line + 1}" if self.horizontal else f"column {self.line + 1}"


@dataclass(frozen=True)
class Move:
    """One vehicle slid ``delta`` cells along its line: right/down positive, left/up negative."""

    label: str
    delta: int

    @property
    def slides(self) -> int:
        return abs(self.delta)


Plan = tuple[Move, ...]


def plan_slides(plan: Iterable[Move]) -> int:
    return sum(move.slides for move in plan)


@dataclass(frozen=True)
class Board:
    """The fixed part of a puzzle: size, vehicles (their lines), walls and target exits."""

    width: int
    height: int
    vehicles: tuple[Vehicle, ...]
    walls: frozenset[Cell] = frozenset()
    exits: tuple[tuple[str, Side], ...] = ()  # (target label, edge it leaves through)

    @cached_property
    def _index(self) -> dict[str, int]:
        return {vehicle.label: i for i, vehicle in enumerate(self.vehicles)}

    @cached_property
    def _exit_of(self) -> dict[int, Side]:
        return {self._index[label]: side for label, side in self.exits}

    @property
    def targets(self) -> tuple[str, ...]:
        return tuple(label for label, _ in self.exits)

    def index(self, label: str) -> int:
        """The vehicle index of ``label``; raises KeyError for a label not on the board."""
        return self._index[label]

    def exit_side(self, label: str) -> Side | None:
        return self._exit_of.get(self._index[label])

    def line_length(self, vehicle: Vehicle) -> int:
        return self.width if vehicle.horizontal else self.height

    def at_exit(self, i: int, position: int) -> bool:
        """Whether vehicle ``i`` at ``position`` touches its exit edge (and so leaves)."""
        side = self._exit_of.get(i)
        if side is None:
            return False
        if side in ("left", "top"):
            return position == 0
        vehicle = self.vehicles[i]
        return position + vehicle.length == self.line_length(vehicle)

    def place(self, state: State, i: int, position: int) -> State:
        """``state`` with vehicle ``i`` at ``position``; a target at its exit edge leaves."""
        new = None if self.at_exit(i, position) else position
        return (*state[:i], new, *state[i + 1 :])

    def settle(self, placement: State) -> State:
        """A placement with every target already at its exit edge removed."""
        state = placement
        for i, position in enumerate(placement):
            if position is not None:
                state = self.place(state, i, position)
        return state

    def is_solved(self, state: State) -> bool:
        return all(state[self._index[label]] is None for label in self.targets)

    def cells_at(self, i: int, position: int | None) -> list[Cell]:
        """The cells vehicle ``i`` covers at ``position``: none once it has left (None)."""
        return [] if position is None else self.vehicles[i].cells(position)

    def grid(self, state: State) -> list[list[str]]:
        """Rows of cells: ``.`` empty, ``#`` wall, else the label of the vehicle there."""
        rows = [[EMPTY] * self.width for _ in range(self.height)]
        for row, col in self.walls:
            rows[row][col] = WALL
        for i, position in enumerate(state):
            for row, col in self.cells_at(i, position):
                rows[row][col] = self.vehicles[i].label
        return rows

    def framed(self, state: State) -> list[str]:
        """The rows of :meth:`grid` in a frame (``+---+`` above and below, ``|`` at each end
        of a row), each exit marked in it as ``> < v ^``: how rhasp draws a board as text."""
        openings = {(side, self.vehicles[self._index[label]].line) for label, side in self.exits}

        def mark(side: Side, line: int, edge: str) -> str:
            return EXIT_MARK[side] if (side, line) in openings else edge

        top, bottom = (
            "+" + "".join(mark(side, c, "-") for c in range(self.width)) + "+"
            for side in ("top", "bottom")
        )
        rows = [
            mark("left", r, "|") + "".join(row) + mark("right", r, "|")
            for r, row in enumerate(self.grid(state))
        ]
        return [top, *rows, bottom]

    def successors(self, state: State) -> Iterator[tuple[Move, State]]:
        """Every legal move from ``state`` with the state it leads to, in a fixed order."""
        rows = self.grid(state)
        for i, vehicle in enumerate(self.vehicles):
            position = state[i]
            if position is None:
                continue
            for step in (-1, 1):
                for distance in range(1, self.line_length(vehicle)):
                    new = position + step * distance
                    entered = new if step < 0 else new + vehicle.length - 1
                    if not 0 <= entered < self.line_length(vehicle):
                        break
                    row, col = (
                        (vehicle.line, entered) if vehicle.horizontal else (entered, vehicle.line)
                    )
                    if rows[row][col] != EMPTY:
                        break
                    yield Move(vehicle.label, step * distance), self.place(state, i, new)

    def clip(self, state: State, move: Move) -> Move:
        """``move`` cut at the exit edge if it drives a target out past it, else ``move``."""
        i = self._index.get(move.label)
        side = self._exit_of.get(i) if i is not None else None
        position = state[i] if i is not None else None
        if side is None or position is None:
            return move
        vehicle = self.vehicles[i]
        if side in ("right", "bottom") and move.delta > 0:
            to_edge = self.line_length(vehicle) - vehicle.length - position
        elif side in ("left", "top") and move.delta < 0:
            to_edge = -position
        else:
            return move
        return Move(move.label, to_edge) if abs(move.delta) > abs(to_edge) > 0 else move

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``; raises IllegalMove saying why it cannot be played."""
        if move.label not in self._index:
            raise IllegalMove(f"there is no vehicle {move.label} on the board")
        i = self._index[move.label]
        vehicle, position = self.vehicles[i], state[i]
        if position is None:
            raise IllegalMove(f"{move.label} has already left the board")
        if move.delta == 0:
            raise IllegalMove(f"{move.label} moves 0 cells")
        new = position + move.delta
        if new < 0 or new + vehicle.length > self.line_length(vehicle):
            raise IllegalMove(f"{move.label} would leave the board along its {vehicle.line_name()}")
        rows = self.grid(state)
        low, high = min(position, new), max(position, new) + vehicle.length
        cells = _span(vehicle, low, high)
        for cell in reversed(cells) if move.delta < 0 else cells:  # the first one met
            occupant = rows[cell[0]][cell[1]]
            if occupant not in (EMPTY, move.label):
                blocker = "a wall" if occupant == WALL else occupant
                raise IllegalMove(f"{move.label} is blocked by {blocker} at {cell_name(cell)}")
        return self.place(state, i, new)


def _span(vehicle: Vehicle, low: int, high: int) -> list[Cell]:
    """The cells of the vehicle's line from ``low`` up to (not including) ``high``."""
    if vehicle.horizontal:
        return [(vehicle.line, col) for col in range(low, high)]
    return [(row, vehicle.line) for row in range(low, high)]


@dataclass(frozen=True)
class Puzzle(ShownAsText):
    """A board with the vehicles' starting placement, a name and free metadata.

    ``placement`` is kept exactly as read so that formats write back what they read; engines
    start from ``start``, where a target already at its exit edge has left. ``reading`` is
    what a reader inferred rather than read (the target and its exit, lowercase read as
    capitals, ``x`` cells as walls), for the answer to state: a person then sees which
    puzzle was solved when the text allowed another (:mod:`rhasp.formats.reading`).
    """

    board: Board  # the grid, its walls, the vehicles and the targets' exits
    placement: State  # each vehicle's position along its line (0-based), as read
    name: str = field(default="puzzle", compare=False)  # the file's name, or the deck's
    #: What the text said of the puzzle besides its board: a database line's ``moves`` and
    #: ``cluster``, a generated puzzle's.
    meta: Mapping[str, int] = field(default_factory=dict, compare=False, hash=False)
    reading: tuple[str, ...] = field(default=(), compare=False)  # what the reader inferred

    @property
    def start(self) -> State:
        """The placement with any target already at its exit edge gone: where engines start."""
        return self.board.settle(self.placement)

    def renamed(self, name: str) -> Puzzle:
        return Puzzle(self.board, self.placement, name, self.meta, self.reading)

    @property
    def solved(self) -> bool:
        """Every target has left (at the start, a target at its exit edge leaves)."""
        return self.board.is_solved(self.start)

    def without(self, labels: Collection[str]) -> Puzzle:
        """The puzzle with the vehicles ``labels`` taken off the board (targets too: their
        exits go with them)."""
        board = self.board
        keep = [i for i, v in enumerate(board.vehicles) if v.label not in labels]
        exits = tuple((label, side) for label, side in board.exits if label not in labels)
        smaller = Board(
            board.width, board.height, tuple(board.vehicles[i] for i in keep), board.walls, exits
        )
        return Puzzle(smaller, tuple(self.placement[i] for i in keep), self.name)

    def __str__(self) -> str:
        """The board as grid text: ``; name``, an ``@target LABEL SIDE`` line for each target
        unless the one target is ``X`` leaving by its line's default edge (the card
        convention), then the rows (``.`` empty, ``#`` wall, else a label). What
        ``print(puzzle)`` shows; for the card convention's boards the same as
        ``rhasp convert --to grid`` writes, which alone checks that the text reads back."""
        board, exits = self.board, self.board.exits
        card = [label for label, _ in exits] == ["X"] and exits[0][1] == DEFAULT_EXIT[
            board.vehicles[board.index("X")].orientation
        ]
        targets = [] if card else [f"@target {label} {side}" for label, side in exits]
        rows = ["".join(row) for row in board.grid(self.placement)]
        return "\n".join([f"; {self.name}", *targets, *rows])


@dataclass(frozen=True)
class Replay:
    """A plan played out: every state from the start, and the moves as played.

    The card backs drive the target out through the exit (``XR5`` where ``XR3`` reaches the
    edge); such a move is played, and counted, up to the edge, where the target leaves.
    """

    states: list[State]
    moves: Plan  # as played
    asked: Plan  # as given
    solved: bool

    @property
    def clipped(self) -> list[int]:
        """1-based numbers of the moves that were cut at an exit edge."""
        pairs = zip(self.moves, self.asked, strict=True)
        return [n for n, (move, asked) in enumerate(pairs, 1) if move != asked]


def position_after(puzzle: Puzzle, plan: Sequence[Move]) -> Puzzle:
    """The position ``plan`` reaches, as a puzzle of its own: its placement is where the
    vehicles stand, and targets that have left are off the board (when all have, it is
    ``solved``). Raises PlanError naming the first bad move."""
    state = replay(puzzle, plan).states[-1]
    at = Puzzle(puzzle.board, tuple(0 if p is None else p for p in state), puzzle.name)
    left = {v.label for v, p in zip(puzzle.board.vehicles, state, strict=True) if p is None}
    return at.without(left)


def replay(puzzle: Puzzle, plan: Sequence[Move]) -> Replay:
    """Play ``plan`` from the start; raises PlanError naming the first bad move."""
    board = puzzle.board
    states, played = [puzzle.start], []
    for number, move in enumerate(plan, 1):
        if board.is_solved(states[-1]):
            raise PlanError(f"move {number}: the puzzle is already solved", number)
        move = board.clip(states[-1], move)
        try:
            states.append(board.apply(states[-1], move))
        except IllegalMove as error:
            raise PlanError(f"move {number}: {error.what}", number) from None
        played.append(move)
    return Replay(states, tuple(played), tuple(plan), board.is_solved(states[-1]))


# --- building and checking a puzzle from parsed pieces ------------------------------------------


@dataclass(frozen=True)
class Piece:
    """A vehicle as a reader found it, with where it was found (for error messages)."""

    label: str
    orientation: Orientation
    row: int
    col: int
    length: int
    where: str = ""

    def vehicle(self) -> Vehicle:
        line = self.row if self.orientation == "h" else self.col
        return Vehicle(self.label, self.orientation, line, self.length)

    @property
    def position(self) -> int:
        return self.col if self.orientation == "h" else self.row


@dataclass(frozen=True)
class TargetSpec:
    """A target as a reader found it: its label and, if given, its exit side and line."""

    label: str
    side: Side | None = None
    line: int | None = None  # the exit's row (left/right) or column (top/bottom), when stated
    where: str = ""


def build_puzzle(
    width: int,
    height: int,
    pieces: Sequence[Piece],
    walls: Iterable[tuple[Cell, str]],
    targets: Sequence[TargetSpec],
    *,
    where: str,
    name: str = "puzzle",
    meta: Mapping[str, int] | None = None,
) -> Puzzle:
    """Check everything the readers share and build the puzzle; raises InputError.

    Vehicles are kept in label order so that every format of one board builds the same puzzle.
    """
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise InputError(
            f"the board is {width}×{height}; each side must be {MIN_SIDE} to {MAX_SIDE} cells",
            where,
        )
    occupant: dict[Cell, str] = {}
    for cell, wall_where in walls:
        if not (0 <= cell[0] < height and 0 <= cell[1] < width):
            raise InputError(
                f"wall at {cell_name(cell)} is off the {width}×{height} board", wall_where
            )
        occupant[cell] = "a wall"
    seen: set[str] = set()
    for piece in sorted(pieces, key=lambda p: p.label):
        _check_piece(piece, width, height, seen)
        for cell in piece.vehicle().cells(piece.position):
            if cell in occupant:
                raise InputError(
                    f"vehicle {piece.label} overlaps {occupant[cell]} at {cell_name(cell)}",
                    piece.where,
                )
            occupant[cell] = f"vehicle {piece.label}"
    ordered = sorted(pieces, key=lambda p: p.label)
    board = Board(
        width,
        height,
        tuple(piece.vehicle() for piece in ordered),
        frozenset(cell for cell, text in occupant.items() if text == "a wall"),
        _check_targets(targets, ordered, where),
    )
    placement = tuple(piece.position for piece in ordered)
    return Puzzle(board, placement, name, dict(meta or {}))


def is_label(label: str) -> bool:
    """Whether ``label`` can name a vehicle: one ASCII letter or digit, other than ``o``
    (an empty cell in database-style boards), so that every text format can write it."""
    return len(label) == 1 and label.isascii() and label.isalnum() and label != "o"


def _check_piece(piece: Piece, width: int, height: int, seen: set[str]) -> None:
    if not is_label(piece.label):
        raise InputError(
            f"vehicle label {piece.label!r} must be one letter or digit (not o, an empty cell)",
            piece.where,
        )
    if piece.label in seen:
        raise InputError(f"vehicle {piece.label} appears twice", piece.where)
    seen.add(piece.label)
    if piece.orientation not in ("h", "v"):
        raise InputError(
            f"vehicle {piece.label} has orientation {piece.orientation!r}", piece.where
        )
    if piece.length < 2:
        raise InputError(
            f"vehicle {piece.label} is {piece.length} cell long; vehicles have 2 or more cells "
            "(a single fixed cell is a wall)",
            piece.where,
        )
    along = width if piece.orientation == "h" else height
    # From the ends, not from the cells: a length of 10**30 read from JSON must not be listed.
    inside = 0 <= piece.row < height and 0 <= piece.col < width
    if not inside or piece.position + piece.length > along:
        raise InputError(
            f"vehicle {piece.label} ({piece.length} cells from "
            f"{cell_name((piece.row, piece.col))}) runs off the {width}×{height} board",
            piece.where,
        )


def _check_targets(
    targets: Sequence[TargetSpec], pieces: Sequence[Piece], where: str
) -> tuple[tuple[str, Side], ...]:
    if not targets:
        raise InputError("no target vehicle (label the target X, or A in database style)", where)
    by_label = {piece.label: piece for piece in pieces}
    exits: list[tuple[str, Side]] = []
    for target in targets:
        piece = by_label.get(target.label)
        if piece is None:
            shown = target.label if is_label(target.label) else repr(target.label)
            raise InputError(f"target {shown} is not a vehicle on the board", target.where or where)
        spot = target.where or piece.where or where
        vehicle = piece.vehicle()
        side = target.side or DEFAULT_EXIT[vehicle.orientation]
        if side not in SIDES_ALONG[vehicle.orientation]:
            raise InputError(
                f"target {target.label} moves along {vehicle.line_name()} and cannot reach "
                f"the {side} edge",
                spot,
            )
        if target.line is not None and target.line != vehicle.line:
            axis = "row" if vehicle.horizontal else "column"
            raise InputError(
                f"target {target.label} moves along {vehicle.line_name()} but its exit is on "
                f"{axis} {target.line + 1}",
                spot,
            )
        if any(label == target.label for label, _ in exits):
            raise InputError(f"target {target.label} is named twice", spot)
        exits.append((target.label, side))
    return tuple(exits)
