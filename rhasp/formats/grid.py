"""Grid text: one board row per line, as people type, paste and draw boards.

What the characters mean is the reading rule's (:mod:`rhasp.formats.reading`), shared with
one-line boards. This module finds the cells in the lines: lines starting with ``;`` are
comments, ``@target LABEL [SIDE]`` lines name the targets and the edge each leaves through
(``right`` or ``left`` for a horizontal target, ``bottom`` or ``top`` for a vertical one; by
default right and bottom), and around the cells a board may have

- spaces or tabs between its cells (in every row, or in none);
- a frame, as ``rhasp solve --boards`` prints it (``+------+`` above and below, ``|`` at each
  end of a row, the exits marked ``> < v ^`` in the frame), or drawn with ``-``, ``=``,
  ``_`` and ``|``; an exit marked in the frame is the target's exit;
- row and column numbers outside the frame, or, without a frame, a line of column numbers
  above the rows (then every row starts with its number).

Where the drawing could be another board, it is refused naming the row (1-based): numbers
that do not count the rows 1, 2, 3 … (or 0, 1, 2 …) from the top, or the columns from the
left, are not row and column numbers; and a row left open in a frame that marks an exit
elsewhere is a missing ``|``, not a second exit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rhasp.errors import InputError, location
from rhasp.formats.reading import (
    DATABASE_EMPTY,
    DATABASE_WALL,
    Locator,
    Mark,
    puzzle_from_rows,
)
from rhasp.model import SIDES, Cell, Puzzle, TargetSpec

__all__ = ["DATABASE_EMPTY", "DATABASE_WALL", "Locator", "puzzle_from_rows"]

#: A border of a frame: lines of ``- = _`` (corners ``+``), with exit marks ``v ^`` and
#: column numbers; never a row of cells, which has none of ``- = _ +``.
_BORDER = re.compile(r"[\s+\-=_v^|0-9]*[+\-=_][\s+\-=_v^|0-9]*")
_NUMBERS = re.compile(r"\s*\d+(?:\s+\d+)*\s*")
#: A row: its number, ``|`` (or the exit mark ``<``) before the cells, the cells, and ``|``
#: or an exit mark after them (in a frame whose other rows are closed and that marks no
#: exit, a row left open is the exit, as the Prolog article draws it), each but the cells
#: optional; and the row's number again after it.
_ROW = re.compile(
    r"(?P<number>\s*\d+\s+(?=\S)|\s*\d+(?=[|<]))?\s*(?P<left>[|<])?"
    r"(?P<inner>.*?)(?:(?P<right>\||>|->|=>|→)(?P<after>\s*\d+)?)?\s*"
)
_EXIT_RIGHT = (">", "->", "=>", "→")
#: How to write a board whose digits, read as row or column numbers, do not count.
_DIGITS_AS_CELLS = "; if the digits are cells, draw the board in a frame ('|' at each end of a row)"


def _header(text: str, rows: int) -> int | None:
    """How many columns a line of column numbers counts (1, 2, 3, ... or from 0, three at
    least, above or below two rows at least); None for any other line."""
    if not _NUMBERS.fullmatch(text) or rows < 2:
        return None
    numbers = (
        [int(word) for word in text.split()]
        if " " in text.strip()
        else [int(char) for char in text.strip()]
    )
    counted = len(numbers) >= 3 and numbers in (
        list(range(1, len(numbers) + 1)),
        list(range(len(numbers))),
    )
    return len(numbers) if counted else None


@dataclass(frozen=True)
class _Row:
    """A row of cells as found in a line: the cells, and the text column of each."""

    number: int  # the line's number in the source
    cells: str
    columns: tuple[int, ...]  # 1-based text columns


def read_grid(text: str, source: str, *, name: str, targets: Sequence[TargetSpec] = ()) -> Puzzle:
    """A grid text file: rows (framed, numbered or spaced, as above), ``;`` comments, blank
    lines and ``@target`` lines."""
    lines: list[tuple[int, str]] = []
    directives: list[TargetSpec] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("@"):
            directives.append(_target_directive(line, location(source, number)))
            continue
        lines.append((number, raw.rstrip()))
    if not lines:
        raise InputError("empty: no board found", source)
    rows, marks = _layout(lines, source)

    def locate(cell: Cell) -> str:
        row = rows[cell[0]]
        return location(source, row.number, row.columns[cell[1]])

    return puzzle_from_rows(
        [row.cells for row in rows],
        locate,
        where=source,
        name=name,
        targets=list(targets) or directives,
        marks=marks,
    )


def _layout(lines: list[tuple[int, str]], source: str) -> tuple[list[_Row], list[Mark]]:
    """The rows of cells in ``lines``, and the exits a frame marks: borders and numbers
    taken off, the cells found between spaces or side by side."""
    borders = [i for i, (_, raw) in enumerate(lines) if _BORDER.fullmatch(raw)]
    body = [i for i in range(len(lines)) if i not in borders]
    if not body:
        raise InputError("empty: a frame with no rows in it", source)
    if len([i for i in borders if body[0] < i < body[-1]]) > 1:
        raise InputError(
            f"holds {len(borders) // 2} framed boards (rhasp solve --boards draws one after "
            "every move); give one",
            source,
        )
    found = [(i, n) for i in (body[0], body[-1]) if (n := _header(lines[i][1], len(body)))]
    header, counted = found[0] if found else (None, 0)
    if header is not None:
        body.remove(header)
    parts = [(lines[i][0], _ROW.fullmatch(lines[i][1])) for i in body]
    framed = any(match["left"] == "|" for _, match in parts if match)
    closed = any(match["right"] == "|" for _, match in parts if match)
    rows: list[_Row] = []
    marks: list[Mark] = []
    left_open: list[Mark] = []  # framed rows with no '|' at their end
    numbers: dict[str, list[tuple[int, int, int]]] = {"before": [], "after": []}
    for r, (number, match) in enumerate(parts):
        if match is None or (framed and not match["left"]):
            raise InputError(
                "a row outside the frame ('|' at each end of a row)", location(source, number)
            )
        if match["number"] and not (match["left"] or header is not None):
            inner, start = lines[body[r]][1], 0  # a digit that is a cell: no numbering here
        else:
            inner, start = match["inner"], match.start("inner")
            if match["number"]:
                numbers["before"].append((r, int(match["number"]), number))
        if match["after"]:
            numbers["after"].append((r, int(match["after"]), number))
        if header is not None and not match["number"]:
            raise InputError(
                "a row without its number (the columns are numbered)", location(source, number)
            )
        if match["left"] == "<":
            marks.append(Mark("left", r, location(source, number, match.start("left") + 1)))
        right = match["right"]
        at = Mark("right", r, location(source, number, match.end("inner") + 1))
        if right in _EXIT_RIGHT:
            marks.append(at)
        elif framed and closed and not right:
            left_open.append(at)
        rows.append(_row(number, inner, start, source))
    for numbered in numbers.values():
        _rows_counted(numbered, source, framed=framed)
    _same_layout(rows, source)
    columns = {column: c for c, column in enumerate(rows[0].columns)}
    if header is not None and counted != len(rows[0].cells):
        raise InputError(
            f"the line of column numbers counts {counted} columns, but the rows have "
            f"{len(rows[0].cells)} cells{'' if framed else _DIGITS_AS_CELLS}",
            location(source, lines[header][0]),
        )
    edges = [(i, "top") for i in borders if i < body[0]][-1:]
    edges += [(i, "bottom") for i in borders if i > body[-1]][:1]
    for i, side in edges:
        number, raw = lines[i]
        for at, char in enumerate(raw, 1):
            if char in "v^" and at in columns:
                marks.append(Mark(side, columns[at], location(source, number, at)))
    if left_open and marks:
        raise InputError(
            f"row {left_open[0].line + 1} is not closed by '|', but the frame marks an exit "
            f"({_mark_name(marks[0])}): a row left open is an exit only in a frame that marks "
            "none; close the row with '|', or mark its exit with '>'",
            left_open[0].where,
        )
    return rows, marks + left_open


#: Where each exit mark stands in a drawing, as a refusal names it.
_MARKED = {
    "right": "'>' after row",
    "left": "'<' before row",
    "top": "'^' above column",
    "bottom": "'v' below column",
}


def _mark_name(mark: Mark) -> str:
    """An exit mark as a person finds it in the drawing: ``'>' after row 3``."""
    return f"{_MARKED[mark.side]} {mark.line + 1}"


def _rows_counted(numbered: list[tuple[int, int, int]], source: str, *, framed: bool) -> None:
    """Row numbers (row, its number, its line) count the rows from the top, 1, 2, 3 … (or
    0, 1, 2 … where the first counts from 0); any other digits are not row numbers, and the
    board they belong to is not the one read, so it is refused naming the row."""
    if not numbered:
        return
    first_row, first_number, _ = numbered[0]
    start = 0 if first_number == first_row else 1
    for r, said, number in numbered:
        if said != start + r:
            raise InputError(
                f"row {r + 1} is numbered {said}, not {start + r}: row numbers count the rows "
                f"from the top, {start}, {start + 1}, {start + 2} …"
                f"{'' if framed else _DIGITS_AS_CELLS}",
                location(source, number),
            )


def _row(number: int, inner: str, start: int, source: str) -> _Row:
    """The cells of one row's text (``inner``, from text column ``start`` + 1): side by side,
    or each between spaces or tabs."""
    fields = [(match[0], match.start() + start + 1) for match in re.finditer(r"\S+", inner)]
    if not fields:
        raise InputError("a row with no cells", location(source, number))
    if len(fields) == 1:
        text, at = fields[0]
        return _Row(number, text, tuple(range(at, at + len(text))))
    wide = next((field for field in fields if len(field[0]) > 1), None)
    if wide is not None:
        raise InputError(
            "spaces between some cells of this row but not others: put a space between every "
            "two cells, or none",
            location(source, number, wide[1]),
        )
    return _Row(number, "".join(text for text, _ in fields), tuple(at for _, at in fields))


def _same_layout(rows: list[_Row], source: str) -> None:
    """Every row as long as the first, and spaced as the first: spaces between the cells of
    one row and not another is a typing slip, named rather than read as another board."""
    first = rows[0]
    spaced = _spaced(first)
    for row in rows[1:]:
        where = location(source, row.number)
        if len(row.cells) > 1 and _spaced(row) != spaced:
            has, hasnt = (row, first) if _spaced(row) else (first, row)
            raise InputError(
                f"spaces between the cells of line {has.number} but not of line {hasnt.number}: "
                "put a space between every two cells, or none",
                where,
            )
        if len(row.cells) != len(first.cells):
            raise InputError(
                f"row has {len(row.cells)} cells but the rows above have {len(first.cells)}",
                where,
            )


def _spaced(row: _Row) -> bool:
    return any(b - a > 1 for a, b in zip(row.columns, row.columns[1:], strict=False))


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
    """Whether the rows alone would read as other targets or exits than the puzzle has (or
    be refused as allowing two readings): then grid text adds ``@target`` lines, and a
    one-line board cannot hold the puzzle."""
    try:
        again = _read_back(board_rows(puzzle), one_line=False)
    except InputError:
        return True
    return again.board.exits != puzzle.board.exits


def write_grid(puzzle: Puzzle) -> str:
    """The puzzle as grid text that reads back as the same puzzle; an InputError names why
    when no grid text can (lowercase labels alone, which a grid reads in capitals, say)."""
    rows = board_rows(puzzle)
    targets = needs_target_lines(puzzle)
    specs = [TargetSpec(label, side) for label, side in puzzle.board.exits] if targets else []
    reads_back(puzzle, rows, "grid text", targets=specs)
    lines = [f"; {puzzle.name}"]
    lines += [f"@target {spec.label} {spec.side}" for spec in specs]
    return "\n".join([*lines, *rows]) + "\n"


def reads_back(
    puzzle: Puzzle,
    rows: list[str],
    form: str,
    *,
    targets: Sequence[TargetSpec] = (),
    one_line: bool = False,
) -> None:
    """Raise an InputError unless ``rows`` read back as ``puzzle``: a writer never writes
    text that the reading rule reads as another puzzle."""
    try:
        again = _read_back(rows, one_line=one_line, targets=targets, meta=puzzle.meta)
    except InputError as error:
        raise InputError(
            f"cannot be written as {form}: it would not read back ({error.what}); use json",
            puzzle.name,
        ) from None
    if again != puzzle:
        raise InputError(
            f"cannot be written as {form}: it would read back as another puzzle; use json",
            puzzle.name,
        )


def _read_back(
    rows: list[str],
    *,
    one_line: bool,
    targets: Sequence[TargetSpec] = (),
    meta: Mapping[str, int] | None = None,
) -> Puzzle:
    return puzzle_from_rows(
        rows, lambda cell: "", where="", name="", targets=targets, one_line=one_line, meta=meta
    )
