"""One-line boards and deck lines.

A one-line board is the grid's rows joined: 36 characters for 6×6 (square boards only, since
the line does not say its width). A deck line may carry a leading minimal move count and a
trailing number, database style: ``NN BOARD N``. Both numbers are kept in the puzzle's metadata
as ``moves`` and ``cluster`` (the number of states reachable from the board) and written back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from math import isqrt

from rhasp.errors import InputError, location
from rhasp.formats.grid import board_rows, needs_target_lines, reads_back
from rhasp.formats.reading import DATABASE_EMPTY, DATABASE_WALL, puzzle_from_rows
from rhasp.model import MAX_SIDE, MIN_SIDE, Cell, Puzzle, TargetSpec

#: A number is at most 18 digits: a count past that is a mistake, and Python will not turn
#: one of thousands of digits into an integer.
NUMBER = r"\d{1,18}"
DECK_LINE = re.compile(
    rf"\s*(?:(?P<moves>{NUMBER})\s+)?(?P<board>\S+)(?:\s+(?P<cluster>{NUMBER}))?\s*"
)


def looks_like_line(text: str) -> bool:
    """Whether a first content line is a one-line board rather than a grid row: fields apart
    with a number first or last (a deck line's ``MOVES BOARD CLUSTER``) or one longer than a
    board's side (a deck line's board, what else the line holds); or more cells in a row than
    a board's side. A grid row whose empty cells are spaces (``AA   O``) is none of these."""
    fields = text.split()
    if len(fields) > 1:
        if not fields_apart(text):
            return False
        numbered = any(re.fullmatch(r"\d+", field) for field in (fields[0], fields[-1]))
        return numbered or any(len(field) > MAX_SIDE for field in fields)
    stripped = text.strip()
    return len(stripped) > MAX_SIDE and isqrt(len(stripped)) ** 2 == len(stripped)


def fields_apart(text: str) -> bool:
    """Whether a line is words apart, some longer than a character, and no grid's frame: a
    deck line gone wrong (``not a board``) or a grid row whose empty cells are spaces; the
    lines around it tell which (:func:`rhasp.formats.detect`)."""
    fields = text.split()
    return (
        len(fields) > 1
        and any(len(field) > 1 for field in fields)
        and not re.search(r"[|+<>]", text)
    )


def read_line(
    text: str,
    source: str,
    number: int,
    *,
    name: str,
    targets: Sequence[TargetSpec] = (),
) -> Puzzle:
    """One deck line, ``number`` being its line number in ``source``."""
    match = DECK_LINE.fullmatch(text)
    if match is None:
        raise InputError(
            "not a deck line (expected BOARD, or MOVES BOARD CLUSTER with numbers)",
            location(source, number, _misfit(text)),
        )
    board = match["board"]
    offset = match.start("board")
    at_board = location(source, number, offset + 1)
    side = isqrt(len(board))
    if side * side != len(board):
        raise InputError(
            f"a one-line board has a square number of cells; this one has {len(board)}",
            at_board,
        )
    if not MIN_SIDE <= side <= MAX_SIDE:
        raise InputError(
            f"the board is {side}×{side}; each side must be {MIN_SIDE} to {MAX_SIDE} cells",
            at_board,
        )

    def locate(cell: Cell) -> str:
        return location(source, number, offset + cell[0] * side + cell[1] + 1)

    meta = {key: int(match[key]) for key in ("moves", "cluster") if match[key] is not None}
    rows = [board[i : i + side] for i in range(0, len(board), side)]
    return puzzle_from_rows(
        rows,
        locate,
        where=at_board,
        name=name,
        targets=targets,
        meta=meta,
        one_line=True,
    )


def _misfit(text: str) -> int:
    """The column (1-based) of the field that spoils a deck line: a fourth field; the first,
    when it should be a move count and is not one (or has too many digits); else the last."""
    fields = list(re.finditer(r"\S+", text))
    if not fields:
        return 1
    if len(fields) > 3:
        return fields[3].start() + 1
    first = fields[0][0]
    if (len(fields) == 3 and not re.fullmatch(NUMBER, first)) or re.fullmatch(r"\d{19,}", first):
        return fields[0].start() + 1
    return fields[-1].start() + 1


def write_line(puzzle: Puzzle) -> str:
    board = puzzle.board
    if board.width != board.height:
        raise InputError(
            f"a {board.width}×{board.height} board cannot be written on one line "
            "(one-line boards are square)",
            puzzle.name,
        )
    if any(vehicle.label == DATABASE_WALL for vehicle in board.vehicles):
        raise InputError(
            f"a vehicle named {DATABASE_WALL} cannot be written on one line, where "
            f"{DATABASE_WALL} marks walls; use grid or json",
            puzzle.name,
        )
    if needs_target_lines(puzzle):
        raise InputError(
            "this board's targets or exits cannot be written on one line "
            "(only X, else A, leaving right or bottom); use grid or json",
            puzzle.name,
        )
    rows = board_rows(puzzle)
    reads_back(puzzle, rows, "one line", one_line=True)
    line, cluster = "".join(rows), puzzle.meta.get("cluster")
    if "moves" in puzzle.meta:  # a database line, its moves in two digits
        return database_line(puzzle.meta["moves"], line, cluster) + "\n"
    return (line if cluster is None else f"{line} {cluster}") + "\n"


#: The letters of a database board's pieces, in lettering order (:func:`database_text`). The
#: published boards use A, B, C, ...; X is skipped, since a reader takes X for the target (no
#: published board has 24 pieces), and lowercase letters but ``o`` and ``x`` follow Z.
DATABASE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWYZabcdefghijklmnpqrstuvwyz"

#: A vehicle as :func:`database_text` takes it: label, horizontal or not, its cells.
Placed = tuple[str, bool, list[Cell]]


def database_line(moves: int, board: str, cluster: int | None = None) -> str:
    """``MOVES BOARD CLUSTER`` as the published database writes it: the moves in two digits at
    least (``08``), ``board`` database style (:func:`database_text`), then the states of its
    cluster, left out where they were not counted. The one writer of a database line, for
    ``rhasp enumerate``, ``hardest`` and ``generate``."""
    line = f"{moves:02d} {board}"
    return line if cluster is None else f"{line} {cluster}"


def puzzle_line(puzzle: Puzzle, moves: int, cluster: int | None = None) -> str:
    """The database line of ``puzzle``, taking ``moves``, its board written database style
    (:func:`database_board`)."""
    return database_line(moves, database_board(puzzle), cluster)


def database_board(puzzle: Puzzle) -> str:
    """The board as the puzzle database writes it (:func:`database_text`)."""
    board = puzzle.board
    if len(board.targets) != 1 or board.width != board.height:
        raise InputError("database lines hold square boards with one target", puzzle.name)
    vehicles = [
        (v.label, v.horizontal, v.cells(p))
        for v, p in zip(board.vehicles, puzzle.placement, strict=True)
        if p is not None
    ]
    return database_text(board.width, vehicles, board.walls, board.targets[0])


def database_text(size: int, vehicles: Sequence[Placed], walls: Iterable[Cell], target: str) -> str:
    """A square board as one database line: ``o`` empty, ``x`` walls, the pieces lettered in
    the database's order. That order is the target (``A``); each wall on the target's row;
    the other rows from top to bottom, each from left to right, horizontal vehicles and walls
    alike; then the columns from left to right, each from top to bottom, vertical vehicles. A
    wall uses up a letter, though it prints as ``x``. Moves never change this order (vehicles
    on one line cannot pass each other), so every state of a cluster letters alike."""
    cells = [DATABASE_EMPTY] * (size * size)
    (target_row, _), *_ = next(v[2] for v in vehicles if v[0] == target)
    pieces: list[tuple[tuple[int, ...], bool, list[Cell]]] = []  # (rank, is a wall, cells)
    for label, horizontal, placed in vehicles:
        (row, col), *_ = placed
        rank = (0,) if label == target else (2, row, col) if horizontal else (3, col, row)
        pieces.append((rank, False, placed))
    for row, col in walls:
        pieces.append(((1, col) if row == target_row else (2, row, col), True, [(row, col)]))
    pieces.sort(key=lambda piece: piece[0])
    if len(pieces) > len(DATABASE_LETTERS):
        raise InputError(f"a database line names at most {len(DATABASE_LETTERS)} pieces")
    for letter, (_, wall, placed) in zip(DATABASE_LETTERS, pieces, strict=False):
        for row, col in placed:
            cells[row * size + col] = DATABASE_WALL if wall else letter
    return "".join(cells)
