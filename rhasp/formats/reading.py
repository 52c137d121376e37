"""The reading rule: what the characters of a board mean.

Grid text and one-line boards are read by one rule, which a person can apply by hand (the
table in docs/formats.md is this module in words). People write boards in three conventions,
and a board uses one at a time:

- the **card convention** (the original deck's): ``.`` empty, ``#`` walls, ``X`` the target,
  any other letter or digit a vehicle, as long as its cells;
- the **card convention in lowercase** (the Prolog article's): the same with every letter in
  lowercase, so ``x`` is the target and ``o`` a truck; read in capitals;
- the **database style** (the complete database's ``rush.txt``): ``o`` or ``.`` empty, ``x``
  or ``#`` walls, ``A`` the target; every one-line board is read so.

Where the characters allow two readings (is ``xx`` the target or two walls, is ``o`` empty or
a truck, which car is the target), the rule either settles it in a way the answer states
(:attr:`rhasp.model.Puzzle.reading`) or refuses, naming both readings and how to choose.
Never silently another puzzle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from rhasp.errors import InputError
from rhasp.model import (
    EMPTY,
    WALL,
    Cell,
    Piece,
    Puzzle,
    Side,
    TargetSpec,
    build_puzzle,
    cell_name,
)

DATABASE_EMPTY, DATABASE_WALL = "o", "x"

#: Maps a board cell to the (line, column) of the source text it came from.
Locator = Callable[[Cell], str]

#: How to name the target instead of leaving it to the rule, said in refusals.
NAME_IT = "name the target with --target or an '@target LABEL' line"


@dataclass(frozen=True)
class Mark:
    """An exit marked in a frame around the board (``>`` right of a row, say)."""

    side: Side
    line: int  # the row (left, right) or column (top, bottom) it opens
    where: str = ""


def puzzle_from_rows(
    rows: Sequence[str],
    locate: Locator,
    *,
    where: str,
    name: str,
    targets: Sequence[TargetSpec] = (),
    meta: Mapping[str, int] | None = None,
    one_line: bool = False,
    marks: Sequence[Mark] = (),
) -> Puzzle:
    """Read ``rows`` (already of equal length) by the reading rule and build the puzzle.

    ``one_line``: the rows come from a one-line board, which is database style. ``marks``:
    the exits a frame around the rows shows. ``targets`` named by the user win over both.
    """
    chars = {char for row in rows for char in row}
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            if not (char in (EMPTY, WALL, DATABASE_EMPTY) or (char.isascii() and char.isalnum())):
                raise InputError(
                    f"unknown character {char!r} (expected '.', 'o', '#', a letter or a digit)",
                    locate((r, c)),
                )
    notes: list[str] = []
    if _lowercase(chars):
        truck = ", o a truck" if DATABASE_EMPTY in chars else ""
        rows, targets = _capitals(rows, chars, targets, one_line=one_line, where=where)
        chars = {char for row in rows for char in row}
        notes.append(f"lowercase labels read as capitals (x the target{truck})")
    elif DATABASE_EMPTY in chars and EMPTY in chars:
        raise InputError(
            "both '.' and 'o' mark empty cells here; use one (in capitals, the truck is O)",
            locate(_first(rows, DATABASE_EMPTY)),
        )
    elif _mixed_case(chars):
        notes.append("capitals and lowercase are different labels")
    database = one_line or DATABASE_EMPTY in chars
    cells_of: dict[str, list[Cell]] = {}
    walls: list[tuple[Cell, str]] = []
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            if char == WALL:
                walls.append(((r, c), locate((r, c))))
            elif char not in (EMPTY, DATABASE_EMPTY):
                cells_of.setdefault(char, []).append((r, c))
    named = {spec.label for spec in targets}
    x_cells = cells_of.get(DATABASE_WALL, [])
    if x_cells and DATABASE_WALL not in named and (database or _all_isolated(x_cells)):
        walls += [(cell, locate(cell)) for cell in cells_of.pop(DATABASE_WALL)]
        notes.append("x cells read as walls" if database else "single x cells read as walls")
    pieces = [_piece(label, cells, locate) for label, cells in cells_of.items()]
    chosen = list(targets)
    if not chosen and marks:
        chosen = _marked(pieces, marks, where)
    elif not chosen:
        label = _inferred_target(pieces, database_style=DATABASE_EMPTY in chars, where=where)
        chosen = [TargetSpec(label)] if label else []
    height, width = len(rows), len(rows[0]) if rows else 0
    puzzle = build_puzzle(width, height, pieces, walls, chosen, where=where, name=name, meta=meta)
    if not targets:
        notes.insert(0, exits_read(puzzle))
    _check_marks(puzzle, marks)
    return Puzzle(puzzle.board, puzzle.placement, puzzle.name, puzzle.meta, tuple(notes))


def exits_read(puzzle: Puzzle) -> str:
    """``target X, leaving right of row 3``: the targets and exits, as the answer states
    them when the reader inferred them."""
    board = puzzle.board
    said = []
    for label, side in board.exits:
        vehicle = board.vehicles[board.index(label)]
        said.append(f"{label}, leaving {side} of {vehicle.line_name()}")
    return ("target " if len(said) == 1 else "targets ") + "; ".join(said)


def default_target(labels: Iterable[str]) -> str | None:
    """The target a reader infers from the labels present, when only one can be: X, else A,
    else x (see :func:`_inferred_target` for the boards where two could be)."""
    present = set(labels)
    return next((label for label in ("X", "A", "x") if label in present), None)


def _inferred_target(pieces: Sequence[Piece], *, database_style: bool, where: str) -> str | None:
    """The target by the rule: ``X``; without one, ``A`` or ``x``, whichever is on the board.
    Refused where the board allows two: ``A`` and ``x`` both (the database's target, or the
    card convention's in lowercase), or ``X`` and ``A`` where ``o`` marks the empty cells, as
    in the database's own notation, where ``A`` is the target and ``X`` the card convention's.
    (No published database line has an ``X``, nor does rhasp write one beside ``o``; a card
    written on one line, counts and all, keeps ``X``, and the answer says so.)"""
    labels = {piece.label for piece in pieces}
    if "X" in labels and "A" in labels and database_style:
        raise InputError(
            "which is the target, X (the card convention) or A (database style, as this "
            f"board is)? {NAME_IT}",
            where,
        )
    if "X" not in labels and "A" in labels and "x" in labels:
        raise InputError(
            "which is the target, A (database style) or x (the card convention in "
            f"lowercase)? {NAME_IT}, or write the walls '#'",
            where,
        )
    return default_target(labels)


def _marked(pieces: Sequence[Piece], marks: Sequence[Mark], where: str) -> list[TargetSpec]:
    """The targets of a drawing's exit marks: for each, the one vehicle along its line. Where
    several lie along it, any of them might leave there (the card convention's ``X`` beside
    a second target, say), so rhasp refuses rather than guess."""
    specs = []
    for mark in marks:
        across = mark.side in ("left", "right")
        along = [
            piece.label
            for piece in pieces
            if piece.orientation == ("h" if across else "v") and piece.vehicle().line == mark.line
        ]
        if len(along) != 1:
            line = f"{'row' if across else 'column'} {mark.line + 1}"
            lying = "no vehicle lies" if not along else f"{' and '.join(along)} lie"
            raise InputError(
                f"the drawing marks an exit {mark.side} of {line}, and {lying} along it; "
                "name the targets with --target or '@target LABEL SIDE' lines",
                mark.where or where,
            )
        specs.append(TargetSpec(along[0], mark.side, mark.line, mark.where))
    return sorted(specs, key=lambda spec: spec.label)  # as the model orders vehicles


def _check_marks(puzzle: Puzzle, marks: Sequence[Mark]) -> None:
    """A frame's exit marks agree with the puzzle's exits (given by ``@target`` lines, say)."""
    if not marks:
        return
    board = puzzle.board
    exits = {(side, board.vehicles[board.index(label)].line) for label, side in board.exits}
    shown = {(mark.side, mark.line) for mark in marks}
    if exits != shown:
        raise InputError(
            "the frame's exit marks do not match the targets' exits "
            f"({exits_read(puzzle)}); mark each exit with > < v ^ in the frame",
            marks[0].where or puzzle.name,
        )


def _lowercase(chars: set[str]) -> bool:
    """Letters, all lowercase, and more than the database's empty ``o``: the card convention
    in lowercase (a board of ``o``, ``x`` and capitals is database style)."""
    letters = {char for char in chars if char.isascii() and char.isalpha()}
    return bool(letters - {DATABASE_EMPTY}) and all(c.islower() for c in letters)


def _mixed_case(chars: set[str]) -> bool:
    letters = {char for char in chars if char.isascii() and char.isalpha()}
    lower = letters - {DATABASE_EMPTY, DATABASE_WALL}
    return any(c.isupper() for c in letters) and any(c.islower() for c in lower)


def _capitals(
    rows: Sequence[str],
    chars: set[str],
    targets: Sequence[TargetSpec],
    *,
    one_line: bool,
    where: str,
) -> tuple[list[str], list[TargetSpec]]:
    """A lowercase board in capitals, ``x`` the target and ``o`` a truck, as its convention
    means; refused where ``o`` or ``x`` could mean what database style makes them."""
    if one_line and chars & {DATABASE_EMPTY, DATABASE_WALL}:
        raise InputError(
            "a one-line board in lowercase: are o and x the truck and the target (the card "
            "convention in lowercase) or an empty cell and walls (database style)? write the "
            "labels in capitals, or the board as a grid",
            where,
        )
    if DATABASE_EMPTY in chars and EMPTY not in chars:  # and a letter: else database style
        raise InputError(
            "is o an empty cell (database style) or the truck o (the card convention in "
            "lowercase)? write empty cells as '.', or the labels in capitals",
            where,
        )
    x_cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "x"]
    keep = DATABASE_WALL if _all_isolated(x_cells) else ""  # single x cells stay walls
    upper = ["".join(ch if ch == keep else ch.upper() for ch in row) for row in rows]
    specs = [TargetSpec(s.label.upper(), s.side, s.line, s.where) for s in targets]
    return upper, specs


def _first(rows: Sequence[str], char: str) -> Cell:
    return next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == char)


def _all_isolated(cells: list[Cell]) -> bool:
    present = set(cells)
    return bool(cells) and not any(
        (r + dr, c + dc) in present for r, c in cells for dr, dc in ((0, 1), (1, 0))
    )


def _piece(label: str, cells: list[Cell], locate: Locator) -> Piece:
    first = min(cells)
    where = locate(first)
    parts = _parts(cells)
    if len(parts) > 1:
        places = " and ".join(cell_name(min(part)) for part in parts[:2])
        raise InputError(
            f"{label} appears twice, at {places}: a label names one vehicle", locate(min(parts[1]))
        )
    if len(cells) == 1:
        raise InputError(
            f"piece {label} is a single cell; only '#' (or 'x' in database boards) marks a wall",
            where,
        )
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    if len(rows) > 1 and len(cols) > 1:
        raise InputError(f"vehicle {label} is not straight (it bends)", where)
    horizontal = len(rows) == 1
    return Piece(label, "h" if horizontal else "v", first[0], first[1], len(cells), where)


def _parts(cells: list[Cell]) -> list[list[Cell]]:
    """The cells in groups that touch side by side, in reading order."""
    left = set(cells)
    parts = []
    for cell in sorted(cells):
        if cell not in left:
            continue
        part, todo = [], [cell]
        left.discard(cell)
        while todo:
            r, c = todo.pop()
            part.append((r, c))
            for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if near in left:
                    left.discard(near)
                    todo.append(near)
        parts.append(sorted(part))
    return parts
