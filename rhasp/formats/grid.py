"""Grid text: one board row per line, and the pieces found in a grid of characters.

The one-line board format (:mod:`rhasp.formats.line`) is the same grid with its rows joined, so
both use :func:`puzzle_from_rows` to turn characters into vehicles, walls and targets.

Characters: ``.`` or ``o`` empty, ``#`` a wall, any other letter or digit a vehicle. The target
is ``X``, else ``A`` (database style), else ``x``, unless ``--target`` or an ``@target`` line
names it. In a database-style board (a one-line board, or one that uses ``o`` for empty cells
or whose target is ``A``) every ``x`` cell is a wall, however many and wherever they are;
elsewhere a lone ``x`` cell is a wall when ``x`` is not the target, and ``xx`` is a vehicle.
Lines starting with ``;`` are comments.

``@target LABEL [SIDE]`` lines name the targets and the edge each leaves through (``right`` or
``left`` for a horizontal target, ``bottom`` or ``top`` for a vertical one; by default right and
bottom). They make several targets and other exits expressible in grid text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rhasp.errors import InputError, location
from rhasp.model import (
    DEFAULT_EXIT,
    EMPTY,
    SIDES,
    WALL,
    Cell,
    Piece,
    Puzzle,
    TargetSpec,
    build_puzzle,
    cell_name,
)

DATABASE_EMPTY, DATABASE_WALL = "o", "x"
EMPTY_CHARS = (EMPTY, DATABASE_EMPTY)

#: Maps a board cell to the (line, column) of the source text it came from.
Locator = Callable[[Cell], str]


def puzzle_from_rows(
    rows: Sequence[str],
    locate: Locator,
    *,
    where: str,
    name: str,
    targets: Sequence[TargetSpec] = (),
    meta: dict[str, int] | None = None,
    one_line: bool = False,
) -> Puzzle:
    """Find the pieces in ``rows`` (already of equal length) and build the puzzle.

    ``one_line``: the rows come from a one-line board, which is database style.
    """
    cells_of: dict[str, list[Cell]] = {}
    walls: list[tuple[Cell, str]] = []
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            if char in EMPTY_CHARS:
                continue
            if char == WALL:
                walls.append(((r, c), locate((r, c))))
            elif char.isascii() and char.isalnum():
                cells_of.setdefault(char, []).append((r, c))
            else:
                raise InputError(
                    f"unknown character {char!r} (expected '.', 'o', '#', a letter or a digit)",
                    locate((r, c)),
                )
    chosen = list(targets) or _default_targets(cells_of)
    target_labels = {target.label for target in chosen}
    database = one_line or any(DATABASE_EMPTY in row for row in rows) or target_labels == {"A"}
    x_cells = cells_of.get(DATABASE_WALL, [])
    if DATABASE_WALL not in target_labels and (database or _all_isolated(x_cells)):
        walls += [(cell, locate(cell)) for cell in cells_of.pop(DATABASE_WALL, [])]
    pieces = [_piece(label, cells, locate) for label, cells in cells_of.items()]
    height, width = len(rows), len(rows[0]) if rows else 0
    return build_puzzle(width, height, pieces, walls, chosen, where=where, name=name, meta=meta)


def default_target(labels: set[str]) -> str | None:
    """The target a reader infers from the labels present: X, else A, else x. ``A`` comes
    before ``x`` because a board with an ``A`` is database style, where ``x`` marks walls."""
    return next((label for label in ("X", "A", "x") if label in labels), None)


def _default_targets(cells_of: dict[str, list[Cell]]) -> list[TargetSpec]:
    pieces = {
        label for label, cells in cells_of.items() if len(cells) > 1 or label != DATABASE_WALL
    }
    label = default_target(pieces)
    return [TargetSpec(label)] if label else []


def _all_isolated(cells: list[Cell]) -> bool:
    present = set(cells)
    return bool(cells) and not any(
        (r + dr, c + dc) in present for r, c in cells for dr, dc in ((0, 1), (1, 0))
    )


def _piece(label: str, cells: list[Cell], locate: Locator) -> Piece:
    first = min(cells)
    where = locate(first)
    if len(cells) == 1:
        raise InputError(
            f"piece {label} is a single cell; only '#' (or 'x' in database boards) marks a wall",
            where,
        )
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    if len(rows) > 1 and len(cols) > 1:
        raise InputError(
            f"vehicle {label} is not straight (it bends or has parts in two lines)", where
        )
    horizontal = len(rows) == 1
    span = sorted(c for _, c in cells) if horizontal else sorted(r for r, _ in cells)
    if span[-1] - span[0] + 1 != len(span):
        raise InputError(f"vehicle {label} has a gap in it, from {cell_name(first)}", where)
    return Piece(label, "h" if horizontal else "v", first[0], first[1], len(cells), where)


def read_grid(text: str, source: str, *, name: str, targets: Sequence[TargetSpec] = ()) -> Puzzle:
    """A grid text file: rows, ``;`` comments, blank lines and ``@target`` lines."""
    rows: list[str] = []
    line_numbers: list[int] = []
    directives: list[TargetSpec] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("@"):
            directives.append(_target_directive(line, location(source, number)))
            continue
        if rows and len(line) != len(rows[0]):
            raise InputError(
                f"row has {len(line)} cells but the rows above have {len(rows[0])}",
                location(source, number),
            )
        rows.append(line)
        line_numbers.append(number)
    if not rows:
        raise InputError("empty: no board found", source)
    indent = {n: len(raw) - len(raw.lstrip()) for n, raw in enumerate(text.splitlines(), 1)}

    def locate(cell: Cell) -> str:
        number = line_numbers[cell[0]]
        return location(source, number, indent[number] + cell[1] + 1)

    return puzzle_from_rows(
        rows, locate, where=source, name=name, targets=list(targets) or directives
    )


def _target_directive(line: str, where: str) -> TargetSpec:
    words = line[1:].split()
    if not words or words[0] != "target" or len(words) not in (2, 3) or len(words[1]) != 1:
        raise InputError(
            f"unknown directive {line!r} (expected '@target LABEL [right|left|bottom|top]')", where
        )
    side = words[2] if len(words) == 3 else None
    if side is not None and side not in SIDES:
        raise InputError(f"unknown exit side {side!r} (expected one of {', '.join(SIDES)})", where)
    return TargetSpec(words[1], side, where=where)  # type: ignore[arg-type]


def board_rows(puzzle: Puzzle) -> list[str]:
    """The starting placement as rows of characters, as every text format writes it."""
    return ["".join(row) for row in puzzle.board.grid(puzzle.placement)]


def needs_target_lines(puzzle: Puzzle) -> bool:
    """Whether a reader would infer other targets or exits than the puzzle has."""
    board = puzzle.board
    inferred = default_target({vehicle.label for vehicle in board.vehicles})
    if inferred is None or board.targets != (inferred,):
        return True
    vehicle = board.vehicles[board.index(inferred)]
    return board.exit_side(inferred) != DEFAULT_EXIT[vehicle.orientation]


def write_grid(puzzle: Puzzle) -> str:
    board = puzzle.board
    if board.targets == ("A",) and any(v.label == DATABASE_WALL for v in board.vehicles):
        raise InputError(
            f"a vehicle named {DATABASE_WALL} cannot be written in grid text when A is the only "
            f"target (the board reads as database style, where {DATABASE_WALL} marks walls); "
            "use json",
            puzzle.name,
        )
    lines = [f"; {puzzle.name}"]
    if needs_target_lines(puzzle):
        lines += [f"@target {label} {side}" for label, side in puzzle.board.exits]
    return "\n".join([*lines, *board_rows(puzzle)]) + "\n"
