"""Static analysis, second rule: a target reaches a cell of its way out only from right
behind it, with that cell free; when no state the line rule allows has that, it never
leaves.

**The argument.** Let f be a cell between a target T and its exit edge, and take the state
just before T first covers f. T stands short of f, and the move that takes it onto f slides
it through free cells: so there is a reachable state with T short of f and every cell from
T to f free of other vehicles. Slide T forward to stand right behind f: the cells it takes
were free, and nothing else changes, so that state is still *valid* (see
:mod:`rhasp.static`: every piece within its run between the cells the line rule
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

from collections import deque
from dataclasses import dataclass

from rhasp.model import Board, Cell, State


@dataclass(eq=False)
class Option:
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
    taken = dict.fromkeys(board.walls, -1)
    for i, position in enumerate(state):
        if i != target:
            taken |= dict.fromkeys(board.cells_at(i, position), i)
    for place in way:
        behind = place - t.length if high else place + 1
        if _witness(board, state, runs, target, behind, place, dict(taken)):
            continue
        pieces = _pieces(board, lines, runs, may_go, target)
        pieces[target].positions = 1 << behind
        cell = pieces[target].cell(place)
        why = _no_state(board, lines, pieces, {cell})
        if why is not None:
            where = _span_name(t.horizontal, behind, t.length)
            return NeverReached(t.label, cell, where, why)
    return None


def _witness(
    board: Board,
    state: State,
    runs: dict[int, tuple[int, int]],
    target: int,
    behind: int,
    place: int,
    taken: dict[Cell, int],
) -> bool:
    """Whether a valid state with the target at ``behind`` and ``place`` free is easily
    found: the start, the target moved there, each piece in the way slid within its run out
    of the way, onto free cells or clearing the pieces there in turn (two deep). Narrowing
    never refutes a state that exists, so where one is found it need not run: a shortcut,
    not a rule (it only saves time). ``taken``: every cell's vehicle but the target's, or
    -1 for a wall (changed here)."""
    t = board.vehicles[target]
    needed = {*t.cells(behind), _cell(t.horizontal, t.line, place)}
    positions = list(state)
    for p in range(min(state[target], behind), max(state[target], behind) + t.length):
        j = taken.get(_cell(t.horizontal, t.line, p))
        if j is not None and j >= 0 and board.vehicles[j].horizontal == t.horizontal:
            return False  # it would pass a piece of its own line
    for cell in sorted(needed):
        i = taken.get(cell)
        if i is not None and not _clear(board, positions, runs, i, needed, taken, 2):
            return False
    return True


def _clear(
    board: Board,
    positions: list[int | None],
    runs: dict[int, tuple[int, int]],
    i: int,
    needed: set[Cell],
    taken: dict[Cell, int],
    depth: int,
) -> bool:
    """Slide vehicle ``i`` within its run, not past a piece of its own line, to cells off
    ``needed`` that are free or, ``depth`` allowing, cleared in turn; ``positions`` and
    ``taken`` updated when it is done. A wall cannot be cleared (it is -1 in ``taken``)."""
    if i < 0:
        return False
    vehicle, start = board.vehicles[i], positions[i]
    low, high = runs[i]
    for step in (-1, 1):
        x = start
        while low < x + step and x + step + vehicle.length - 1 < high:
            x += step
            cells = vehicle.cells(x)
            others = {taken[c] for c in cells if taken.get(c, i) != i}
            if any(o < 0 or board.vehicles[o].horizontal == vehicle.horizontal for o in others):
                break  # a wall, or a piece of its own line: no passing
            if needed.intersection(cells) or (others and not depth):
                continue
            saved = (dict(taken), list(positions))
            _move(board, positions, taken, i, x)
            wanted = needed | set(cells)
            if all(_clear(board, positions, runs, o, wanted, taken, depth - 1) for o in others):
                return True
            taken.clear()
            taken |= saved[0]
            positions[:] = saved[1]
    return False


def _move(
    board: Board, positions: list[int | None], taken: dict[Cell, int], i: int, x: int
) -> None:
    """Vehicle ``i`` to ``x`` in the witness: its old cells freed, its new ones taken (from
    whoever stands there, who must move on)."""
    vehicle = board.vehicles[i]
    for cell in vehicle.cells(positions[i]):
        if taken.get(cell) == i:
            del taken[cell]
    positions[i] = x
    taken |= dict.fromkeys(vehicle.cells(x), i)


def _cell(horizontal: bool, line: int, place: int) -> Cell:
    return (line, place) if horizontal else (place, line)


def _pieces(
    board: Board,
    lines: dict[tuple[bool, int], tuple[int, ...]],
    runs: dict[int, tuple[int, int]],
    may_go: dict[int, bool],
    target: int,
) -> dict[int, Option]:
    return {
        i: _piece(board, i, runs[i], i in may_go and i != target, may_go.get(i))
        for line_pieces in lines.values()
        for i in line_pieces
    }


def _no_state(
    board: Board,
    lines: dict[tuple[bool, int], tuple[int, ...]],
    pieces: dict[int, Option],
    free: set[Cell],
) -> str | None:
    """Why no valid state has the ``pieces`` within their positions and the cells ``free``
    free; None when narrowing finds no reason. A line is narrowed again only when it changed
    or a crossing piece's sure cells grew onto it."""
    kept_off = _masks(board.walls | free)
    sure: dict[tuple[bool, int], int] = {}
    covered = dict.fromkeys(pieces, 0)
    for piece in pieces.values():
        _grow_sure(piece, sure, covered)
    narrowed: list[Option] = []
    waiting = deque(lines)
    queued = set(waiting)
    while waiting:
        key = waiting.popleft()
        queued.discard(key)
        line = [pieces[i] for i in lines[key]]
        result = _narrow(line, kept_off.get(key, 0) | sure.get(key, 0), narrowed)
        if result is None:
            return _why(board, narrowed)
        if result:
            touched = {key}
            for piece in line:
                touched |= _grow_sure(piece, sure, covered)
            for other in touched:
                if other in lines and other not in queued:
                    waiting.append(other)
                    queued.add(other)
    return None


def _grow_sure(
    piece: Option, sure: dict[tuple[bool, int], int], covered: dict[int, int]
) -> set[tuple[bool, int]]:
    """Add the places ``piece`` now surely covers (at every position left to it, and it
    cannot be gone) to the crossing lines' ``sure`` bit sets; the lines that gained one.
    Positions only narrow, so these only grow."""
    if piece.may_go or not piece.positions:
        return set()
    low, high = _hull(piece.positions)
    grown = set()
    for place in range(high, low + piece.length):
        if not covered[piece.index] >> place & 1:
            covered[piece.index] |= 1 << place
            key = (not piece.horizontal, place)
            sure[key] = sure.get(key, 0) | 1 << piece.line
            grown.add(key)
    return grown


def _masks(cells: set[Cell]) -> dict[tuple[bool, int], int]:
    """``cells`` as a bit set of places for each line through them, rows and columns."""
    masks: dict[tuple[bool, int], int] = {}
    for row, col in cells:
        masks[True, row] = masks.get((True, row), 0) | 1 << col
        masks[False, col] = masks.get((False, col), 0) | 1 << row
    return masks


def _why(board: Board, narrowed: list[Option]) -> str:
    """Where each narrowed piece may still stand, then the last, which may stand nowhere."""
    last = narrowed[-1]
    stuck = f"{last.label} has no place left on its {board.vehicles[last.index].line_name()}"
    shrunk = [_where(p) for p in narrowed[:-1] if _hull(p.positions) != _hull(p.run)]
    return ", ".join([*shrunk, stuck])


def _piece(
    board: Board, i: int, run: tuple[int, int], may_go: bool, toward_high: bool | None
) -> Option:
    vehicle = board.vehicles[i]
    first, last = run[0] + 1, run[1] - vehicle.length
    positions = ((1 << (last + 1)) - 1) & ~((1 << first) - 1)
    return Option(
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


def _narrow(line: list[Option], avoid: int, narrowed: list[Option]) -> bool | None:
    """Narrow one line's pieces: off the places to ``avoid`` (a bit set), then room for each
    other. Whether anything changed; None when a piece that must stay has no position left
    (it is the last of ``narrowed``)."""
    changed = False
    for piece in line:
        hits = avoid
        for shift in range(1, piece.length):
            hits |= avoid >> shift  # a piece at p covers p .. p + length - 1
        changed |= _set(piece, piece.positions & ~hits, narrowed)
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


def _set(piece: Option, positions: int, narrowed: list[Option]) -> bool:
    """Narrow ``piece`` to ``positions``, noting it in ``narrowed`` the first time."""
    if positions == piece.positions:
        return False
    piece.positions = positions
    if piece not in narrowed:
        narrowed.append(piece)
    return True


def _where(piece: Option) -> str:
    """Where a narrowed piece may still stand, as people count cells."""
    if not piece.positions:
        return f"{piece.label} gone"
    low, high = _hull(piece.positions)
    name = "columns" if piece.horizontal else "rows"
    return f"{piece.label} within {name} {low + 1}–{high + piece.length}"


def _span_name(horizontal: bool, place: int, length: int) -> str:
    return f"{'columns' if horizontal else 'rows'} {place + 1}–{place + length}"


def _hull(positions: int) -> tuple[int, int]:
    return (_lowest(positions), positions.bit_length() - 1) if positions else (0, -1)


def _lowest(positions: int) -> int:
    return (positions & -positions).bit_length() - 1
