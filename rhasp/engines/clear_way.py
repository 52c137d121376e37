"""Static analysis, second rule: a target reaches a cell of its way out only from right
behind it, with that cell free; when no state the line rule allows has that, it never
leaves.

**The argument.** Let f be a cell between a target T and its exit edge, and take the state
just before T first covers f. T stands short of f, and the move that takes it onto f slides
it through free cells: so there is a reachable state with T short of f and every cell from
T to f free of other vehicles. Slide T forward to stand right behind f: the cells it takes
were free, and nothing else changes, so that state is still *valid* (see
:mod:`rhasp.engines.static`: every piece within its run between the cells the line rule
found blocked for it, in its line's order, a piece gone only if it is a target that could
have left), with no two vehicles overlapping. So when no such state has T right behind f
and f free, T never covers f, and never leaves. (Asking only that the way be clear from
T's *start* would be wrong: cells T has passed may be taken again behind it.)

**The search for one.** Each piece gets the set of positions it may hold in such a state
(and whether it may be gone), and these are narrowed until nothing changes: a position
that puts a piece on f, or on a cell another vehicle surely covers (it covers it at each
position left to it), goes; a piece must leave room for the pieces before and after it on
its line. Each step removes only positions no such state uses. A piece left with no
position (and not allowed gone) proves there is no such state. Narrowing is not a full
search, so it may miss a proof, never make a false one.
"""

from __future__ import annotations

from dataclasses import dataclass

from rhasp.model import Board, Cell, State


@dataclass(eq=False)
class Piece:
    """What a piece may do in the state before T's last move: ``positions``, a bit set along
    its line, and whether it ``may_go`` (a target that could have left)."""

    index: int
    label: str
    horizontal: bool
    line: int
    length: int
    positions: int
    may_go: bool
    run: int  # the positions it had before any narrowing
    toward_high: bool  # which end a piece that may go leaves through

    def cells_sure(self) -> list[Cell]:
        """The cells it covers at every position left to it (none when it may be gone)."""
        if self.may_go or not self.positions:
            return []
        low, high = _lowest(self.positions), self.positions.bit_length() - 1
        return [self.cell(p) for p in range(high, low + self.length)]

    def cell(self, place: int) -> Cell:
        return (self.line, place) if self.horizontal else (place, self.line)


@dataclass
class NeverReached:
    """Target ``target`` never covers ``cell``: with it standing right behind (``behind``)
    and the cell free, ``why`` (the pieces narrowed, where they may still stand, and the one
    with no place left)."""

    target: str
    cell: Cell
    behind: str
    why: str

    def explain(self) -> str:
        return f"with {self.target} on {self.behind} and that cell free: {self.why}"


def never_reached(
    board: Board,
    state: State,
    lines: dict[tuple[bool, int], tuple[int, ...]],
    runs: dict[int, tuple[int, int]],
    may_go: dict[int, bool],
    target: int,
) -> NeverReached | None:
    """The first cell of target ``target``'s way out it never covers, and why; None when
    narrowing proves none.

    ``lines`` are the pieces of each line in order, ``runs`` each piece's blocked places
    below and above it (the line rule's), ``may_go`` the targets that could have left, with
    the end they leave through (True: right or bottom)."""
    t = board.vehicles[target]
    high = board.exit_side(t.label) in ("right", "bottom")
    start = state[target]
    way = range(start + t.length, board.line_length(t)) if high else range(start - 1, -1, -1)
    for place in way:
        behind = place - t.length if high else place + 1
        pieces = _pieces(board, lines, runs, may_go, target)
        pieces[target].positions = 1 << behind
        cell = pieces[target].cell(place)
        why = _no_state(board, lines, pieces, {cell})
        if why is not None:
            where = _span_name(t.horizontal, behind, t.length)
            return NeverReached(t.label, cell, where, why)
    return None


def _pieces(
    board: Board,
    lines: dict[tuple[bool, int], tuple[int, ...]],
    runs: dict[int, tuple[int, int]],
    may_go: dict[int, bool],
    target: int,
) -> dict[int, Piece]:
    return {
        i: _piece(board, i, runs[i], i in may_go and i != target, may_go.get(i))
        for line_pieces in lines.values()
        for i in line_pieces
    }


def _no_state(
    board: Board,
    lines: dict[tuple[bool, int], tuple[int, ...]],
    pieces: dict[int, Piece],
    free: set[Cell],
) -> str | None:
    """Why no valid state has the ``pieces`` within their positions and the cells ``free``
    free; None when narrowing finds no reason."""
    narrowed: list[Piece] = []
    changed = True
    while changed:
        changed = False
        sure = {c: p.horizontal for p in pieces.values() for c in p.cells_sure()}
        for (horizontal, _), line_pieces in lines.items():
            avoid = {c for c, along in sure.items() if along != horizontal}
            avoid |= board.walls | free
            result = _narrow(board, [pieces[i] for i in line_pieces], avoid, narrowed)
            if result is None:
                return _why(board, narrowed)
            changed |= result
    return None


def _why(board: Board, narrowed: list[Piece]) -> str:
    """Where each narrowed piece may still stand, then the last, which may stand nowhere."""
    last = narrowed[-1]
    stuck = f"{last.label} has no place left on its {board.vehicles[last.index].line_name()}"
    shrunk = [_where(p) for p in narrowed[:-1] if _hull(p.positions) != _hull(p.run)]
    return ", ".join([*shrunk, stuck])


def _piece(
    board: Board, i: int, run: tuple[int, int], may_go: bool, toward_high: bool | None
) -> Piece:
    vehicle = board.vehicles[i]
    first, last = run[0] + 1, run[1] - vehicle.length
    positions = ((1 << (last + 1)) - 1) & ~((1 << first) - 1)
    return Piece(
        i,
        vehicle.label,
        vehicle.horizontal,
        vehicle.line,
        vehicle.length,
        positions,
        may_go,
        positions,
        bool(toward_high),
    )


def _narrow(
    board: Board, line: list[Piece], avoid: set[Cell], narrowed: list[Piece]
) -> bool | None:
    """Narrow one line's pieces: off the cells to ``avoid``, then room for each other.
    Whether anything changed; None when a piece that must stay has no position left (it is
    the last of ``narrowed``)."""
    changed = False
    for piece in line:
        fits = piece.positions
        for c in avoid:
            place = _place_on(piece, c)
            if place is not None:
                fits &= ~_covering(place, piece.length)
        changed |= _set(piece, fits, narrowed)
    # Room: a present piece stands past the lowest end of the piece before it that must be
    # there if it is, and short of the highest start of the one after it.
    floor = 0
    for piece in line:
        if piece.positions:
            changed |= _set(piece, piece.positions & ~((1 << floor) - 1), narrowed)
        if piece.positions and not (piece.may_go and not piece.toward_high):
            floor = _lowest(piece.positions) + piece.length
    ceiling = None
    for piece in reversed(line):
        if piece.positions and ceiling is not None:
            top = ceiling - piece.length
            keep = (1 << (top + 1)) - 1 if top >= 0 else 0
            changed |= _set(piece, piece.positions & keep, narrowed)
        if piece.positions and not (piece.may_go and piece.toward_high):
            ceiling = piece.positions.bit_length() - 1
    for piece in line:
        if not piece.positions and not piece.may_go:
            narrowed.remove(piece)
            narrowed.append(piece)
            return None
    return changed


def _set(piece: Piece, positions: int, narrowed: list[Piece]) -> bool:
    """Narrow ``piece`` to ``positions``, noting it in ``narrowed`` the first time."""
    if positions == piece.positions:
        return False
    piece.positions = positions
    if piece not in narrowed:
        narrowed.append(piece)
    return True


def _where(piece: Piece) -> str:
    """Where a narrowed piece may still stand, as people count cells."""
    if not piece.positions:
        return f"{piece.label} gone"
    low, high = _hull(piece.positions)
    name = "columns" if piece.horizontal else "rows"
    return f"{piece.label} within {name} {low + 1}–{high + piece.length}"


def _span_name(horizontal: bool, place: int, length: int) -> str:
    return f"{'columns' if horizontal else 'rows'} {place + 1}–{place + length}"


def _place_on(piece: Piece, cell: Cell) -> int | None:
    """The place of ``cell`` along ``piece``'s line, None when the cell is off that line."""
    row, col = cell
    if piece.horizontal:
        return col if row == piece.line else None
    return row if col == piece.line else None


def _covering(place: int, length: int) -> int:
    """The positions at which a piece of ``length`` covers ``place``, as a bit set."""
    low = max(place - length + 1, 0)
    return ((1 << (place + 1)) - 1) & ~((1 << low) - 1)


def _hull(positions: int) -> tuple[int, int]:
    return (_lowest(positions), positions.bit_length() - 1) if positions else (0, -1)


def _lowest(positions: int) -> int:
    return (positions & -positions).bit_length() - 1
