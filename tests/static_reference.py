"""A deliberately plain re-statement of the static analysis rules, used only as a test oracle.

It knows nothing of ``rhasp/static/__init__.py``: it reads the board through the model
(vehicles, walls, exits) and enumerates, line by line and by brute force, every way the line's
pieces could stand, until the set of always-covered cells stops changing. Slow, but boards in
tests are small.

**Lines.** A *line* is a row, with the horizontal vehicles on it, or a column, with the
vertical vehicles on it; a target that has left is not on any line. A cell is *blocked for* a
line when it is a wall, or when it is in the current set ``B`` of always-covered cells and held
there by a vehicle of the other orientation (a row's cells in ``B`` block columns, a column's
block rows).

**Placements.** A placement of a line gives each of its pieces a position or *gone*, such that

* the present pieces keep the order they start in and do not overlap;
* each present piece lies inside its *run*: the longest stretch of unblocked cells of the line
  that holds its start cells (a piece never passes a blocked cell);
* a piece is gone only if it is a target (its exit is always along its own line) whose run
  reaches its exit edge, and every piece between it and that edge is gone too, through the
  same edge: if it leaves by the high end (right or bottom), every piece after it on the line
  is a target leaving by the high end, and gone; by the low end (left or top), likewise every
  piece before it. (Pieces never pass each other: a piece ahead that leaves by the other end
  can only leave after this one, which can only leave after it, so neither ever does.)

A line's *always-covered* cells are those covered by a present piece in every placement (the
same piece each time, which the oracle checks).

**The rules.**

* ``"lines"``: ``B`` starts empty and becomes the union over all lines of their always-covered
  cells, again and again, until it stops changing (it only grows).
* ``"full"``: ``B`` starts as every cell some vehicle holds at the start and becomes the union
  over all lines of their always-covered cells, kept only where it is a start cell, until it
  stops changing (it only shrinks).
* ``"stuck"``: the largest set of vehicles none of which can move: start with every present
  vehicle and drop, until none is left to drop, each with a cell just behind or just ahead of
  it on its line (on the board) that is neither a wall nor a cell of a vehicle still kept.
  ``B`` is the kept vehicles' cells.

The cells occupied in every reachable state are the walls and ``B``. A target *never leaves*
under ``"lines"`` or ``"full"`` when it is present and no placement of its line (under the
final ``B``) has it gone; under ``"stuck"``, when a cell between it and its exit edge is a wall
or in ``B``.
"""

from __future__ import annotations

from itertools import pairwise, product

from rhasp.model import Board, Cell, Puzzle, State

RULES = ("stuck", "lines", "full")
GONE = None
HIGH_SIDES = ("right", "bottom")

#: A set of always-covered cells, each with the index of the vehicle covering it.
Held = dict[Cell, int]


def reference_occupied(board: Board, state: State, rules: str) -> set[Cell]:
    """The cells the rules prove occupied in every state reachable from ``state``."""
    return set(board.walls) | set(reference_held(board, state, rules))


def reference_never_leaves(puzzle: Puzzle, rules: str) -> set[str]:
    """The targets the rules prove can never leave."""
    board, state = puzzle.board, puzzle.start
    held = reference_held(board, state, rules)
    proven = set()
    for label, side in board.exits:
        i = board.index(label)
        if state[i] is None:
            continue
        if rules == "stuck":
            blocked = set(board.walls) | set(held)
            if any(cell in blocked for cell in way_out(board, i, state[i], side)):
                proven.add(label)
        else:
            line = line_of(board, i)
            pieces = pieces_on(board, state, line)
            k = pieces.index(i)
            if all(p[k] is not GONE for p in placements(board, state, line, held)):
                proven.add(label)
    return proven


def reference_first_never_leaving(puzzle: Puzzle, rules: str) -> str | None:
    """The first target, in the board's exit order, the rules prove never leaves."""
    proven = reference_never_leaves(puzzle, rules)
    return next((label for label in puzzle.board.targets if label in proven), None)


def reference_held(board: Board, state: State, rules: str) -> Held:
    """The final ``B`` of ``rules``, each cell with the vehicle holding it."""
    if rules == "stuck":
        return stuck_cells(board, state)
    if rules == "lines":
        held: Held = {}
        while True:
            new = one_round(board, state, held)
            assert held.items() <= new.items(), "the line rule's B only grows"
            if new == held:
                return held
            held = new
    if rules == "full":
        start = start_cells(board, state)
        held = dict(start)
        while True:
            new = {cell: i for cell, i in one_round(board, state, held).items() if cell in start}
            assert new.items() <= held.items(), "the full rule's B only shrinks"
            if new == held:
                return held
            held = new
    raise ValueError(f"unknown rules {rules!r}")


def one_round(board: Board, state: State, held: Held) -> Held:
    """The union, over every line, of its always-covered cells under ``held``."""
    covered: Held = {}
    for line in all_lines(board):
        covered |= always_covered(board, state, line, held)
    return covered


# --- lines ----------------------------------------------------------------------------------

Line = tuple[str, int]  # ("h", row) or ("v", column)


def all_lines(board: Board) -> list[Line]:
    return [("h", row) for row in range(board.height)] + [("v", col) for col in range(board.width)]


def line_of(board: Board, i: int) -> Line:
    vehicle = board.vehicles[i]
    return (vehicle.orientation, vehicle.line)


def line_size(board: Board, line: Line) -> int:
    return board.width if line[0] == "h" else board.height


def cell_at(line: Line, place: int) -> Cell:
    """Cell number ``place`` (0 at the left or top) of ``line``."""
    orientation, k = line
    return (k, place) if orientation == "h" else (place, k)


def pieces_on(board: Board, state: State, line: Line) -> list[int]:
    """The present vehicles of ``line``, in the order they start in."""
    on = [
        i
        for i, vehicle in enumerate(board.vehicles)
        if state[i] is not None and (vehicle.orientation, vehicle.line) == line
    ]
    return sorted(on, key=lambda i: state[i])


def blocked_places(board: Board, line: Line, held: Held) -> set[int]:
    """The places of ``line`` no piece of it can ever enter or cross."""
    orientation = line[0]
    blocked = set()
    for place in range(line_size(board, line)):
        cell = cell_at(line, place)
        crossing = cell in held and board.vehicles[held[cell]].orientation != orientation
        if cell in board.walls or crossing:
            blocked.add(place)
    return blocked


def run_of(size: int, blocked: set[int], start: int, length: int) -> tuple[int, int]:
    """The first and last place of the longest unblocked stretch holding places ``start`` to
    ``start + length - 1``."""
    assert not blocked & set(range(start, start + length)), "a piece stands on a blocked cell"
    low = start
    while low - 1 >= 0 and low - 1 not in blocked:
        low -= 1
    high = start + length - 1
    while high + 1 < size and high + 1 not in blocked:
        high += 1
    return low, high


def placements(board: Board, state: State, line: Line, held: Held) -> list[tuple[int | None, ...]]:
    """Every placement of the pieces of ``line`` (in :func:`pieces_on` order), each piece a
    position or ``GONE``."""
    pieces = pieces_on(board, state, line)
    size = line_size(board, line)
    blocked = blocked_places(board, line, held)
    runs = [run_of(size, blocked, state[i], board.vehicles[i].length) for i in pieces]
    choices = []
    for i, (low, high) in zip(pieces, runs, strict=True):
        length = board.vehicles[i].length
        options: list[int | None] = list(range(low, high - length + 2))
        if board.exit_side(board.vehicles[i].label) is not None:
            options.append(GONE)
        choices.append(options)
    found = []
    for placement in product(*choices):
        if is_placement(board, pieces, runs, size, placement):
            found.append(placement)
    assert found, "the start is always a placement"
    return found


def is_placement(
    board: Board,
    pieces: list[int],
    runs: list[tuple[int, int]],
    size: int,
    placement: tuple[int | None, ...],
) -> bool:
    """Whether ``placement`` keeps the present pieces in order without overlap, and every gone
    piece could have left (positions inside the runs are given by the choices)."""
    present = [
        (p, board.vehicles[i].length)
        for i, p in zip(pieces, placement, strict=True)
        if p is not GONE
    ]
    for (p, length), (q, _) in pairwise(present):
        if p + length > q:
            return False
    for k, (i, p) in enumerate(zip(pieces, placement, strict=True)):
        if p is GONE and not may_be_gone(board, pieces, i, k, runs[k], size, placement):
            return False
    return True


def may_be_gone(
    board: Board,
    pieces: list[int],
    i: int,
    k: int,
    run: tuple[int, int],
    size: int,
    placement: tuple[int | None, ...],
) -> bool:
    """Whether piece number ``k`` of the line (vehicle ``i``) may be gone in ``placement``."""
    side = board.exit_side(board.vehicles[i].label)
    if side is None:
        return False
    high = side in HIGH_SIDES
    if high:
        reaches, ahead = run[1] == size - 1, range(k + 1, len(pieces))
    else:
        reaches, ahead = run[0] == 0, range(k)
    return reaches and all(
        placement[j] is GONE
        and (board.exit_side(board.vehicles[pieces[j]].label) in HIGH_SIDES) == high
        for j in ahead
    )


def always_covered(board: Board, state: State, line: Line, held: Held) -> Held:
    """The cells of ``line`` covered by a present piece in every placement, with that piece."""
    pieces = pieces_on(board, state, line)
    if not pieces:
        return {}
    every = placements(board, state, line, held)
    covered: Held = {}
    for place in range(line_size(board, line)):
        holders = set()
        for placement in every:
            holder = None
            for i, p in zip(pieces, placement, strict=True):
                if p is not GONE and p <= place < p + board.vehicles[i].length:
                    holder = i
            holders.add(holder)
        if None not in holders:
            assert len(holders) == 1, "an always-covered cell is covered by one piece"
            covered[cell_at(line, place)] = holders.pop()
    return covered


# --- the start, stuck vehicles and the way out ----------------------------------------------


def start_cells(board: Board, state: State) -> Held:
    return {
        cell: i
        for i, vehicle in enumerate(board.vehicles)
        if state[i] is not None
        for cell in vehicle.cells(state[i])
    }


def stuck_cells(board: Board, state: State) -> Held:
    """The cells of the largest set of vehicles none of which can ever move."""
    kept = {i for i, p in enumerate(state) if p is not None}
    dropping = True
    while dropping:
        dropping = False
        cells = {cell for cell, i in start_cells(board, state).items() if i in kept}
        for i in sorted(kept):
            vehicle, line = board.vehicles[i], line_of(board, i)
            ends = (state[i] - 1, state[i] + vehicle.length)
            for place in ends:
                if 0 <= place < line_size(board, line):
                    cell = cell_at(line, place)
                    if cell not in board.walls and cell not in cells:
                        kept.discard(i)
                        dropping = True
                        break
            if dropping:
                break
    return {cell: i for cell, i in start_cells(board, state).items() if i in kept}


def way_out(board: Board, i: int, position: int, side: str) -> list[Cell]:
    """The cells between target ``i`` at ``position`` and its exit edge."""
    line = line_of(board, i)
    if side in HIGH_SIDES:
        places = range(position + board.vehicles[i].length, line_size(board, line))
    else:
        places = range(position)
    return [cell_at(line, place) for place in places]
