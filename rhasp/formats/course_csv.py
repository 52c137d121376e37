"""The course CSV: one car a line, under a header that names the columns.

A university course publishes its boards (6×6, 9×9, 12×12) so::

    car,orientation,col,row,length
    A,H,1,1,2
    X,H,2,3,2

``col`` and ``row`` are the 1-based column and row of the car's top-left cell, ``H``/``V`` its
orientation, ``length`` its cells; ``X`` is the target, leaving right along its row. Columns
are found by their header names (any order, any case, spaces around them; ``vehicle`` for
``car``); an ``N`` column gives the board's side, on any row (the course's copies put it on
the first), else the board is the smallest square that holds the cars, and the answer says
so. One puzzle a file.

Names are one or two letters, in any case; rhasp's labels are one character
(:func:`rhasp.model.is_label`), so a name maps to a label by a fixed rule of its own, stated
in the answer: ``A``–``Z`` keep their letter, ``AA``–``AZ`` are their second letter in
lowercase (``AO`` is ``0``: a lowercase ``o`` is an empty cell in database-style boards), and
``BA``–``BI`` are ``1``–``9``. That names all 61 labels, so the writer names every vehicle.

A copy whose header says ``row,col`` over columns that hold ``col,row`` is caught where it
shows: a car off the board, or over another, as the header reads it, but not read the other
way round, is refused naming both readings. Where both readings fit, the header's is taken
and the answer says so.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from dataclasses import dataclass
from string import ascii_uppercase

from rhasp.errors import InputError, location
from rhasp.formats.line import NUMBER
from rhasp.model import (
    MAX_SIDE,
    MIN_SIDE,
    Orientation,
    Piece,
    Puzzle,
    TargetSpec,
    build_puzzle,
    cell_name,
)

_TARGET = "X"
REQUIRED = ("car", "orientation", "col", "row", "length")
_SIZE_COLUMN = "n"  # the board's side
SYNONYMS = {"vehicle": "car"}
HEADER = "car,orientation,col,row,length"
_COLUMNS_SAID = "car, orientation, col, row, length, and N (the board's side) if wanted"

#: Every name the course's notation gives rhasp's 61 labels, and back.
LABEL_OF: dict[str, str] = {
    **{letter: letter for letter in ascii_uppercase},
    **{"A" + letter: letter.lower() for letter in ascii_uppercase if letter != "O"},
    "AO": "0",
    **{"B" + letter: str(digit) for digit, letter in enumerate("ABCDEFGHI", 1)},
}
NAME_OF: dict[str, str] = {label: name for name, label in LABEL_OF.items()}
_NUMBER = re.compile(NUMBER)
_ORIENTATION: dict[str, Orientation] = {"h": "h", "v": "v"}


def looks_like_course_csv(line: str) -> bool:
    """Whether a first content line begins a course CSV: comma-separated fields, one of them a
    column the course names, or a car's fields (``A,H,2,1,2``) with no header above them."""
    fields = [field.strip().strip('"').strip().lower() for field in line.split(",")]
    if len(fields) < 2:
        return False
    named = set(REQUIRED) | {_SIZE_COLUMN} | set(SYNONYMS)
    return any(field in named for field in fields) or (len(fields) >= 4 and fields[1] in ("h", "v"))


@dataclass(frozen=True)
class _Car:
    name: str  # in capitals
    written: str  # as the file writes it
    label: str
    orientation: Orientation
    first: int  # the number under the col column
    second: int  # the number under the row column
    length: int
    line: int


def read_course_csv(
    text: str, source: str, *, name: str, targets: Sequence[TargetSpec] = ()
) -> Puzzle:
    """The puzzle of a course CSV; raises InputError naming the file and line of a fault.
    ``targets`` named by the user replace the course's X leaving right."""
    lines = [
        (number, line)
        for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1)
        if line.strip() and not line.strip().startswith(";")
    ]
    if not lines:
        raise InputError("empty: no header and no cars", source)
    header_line, header = lines[0]
    where = location(source, header_line)
    columns = _columns(_fields(header, where), where)
    cars: list[_Car] = []
    sizes: list[tuple[int, int]] = []
    for number, line in lines[1:]:
        car, size = _car(_fields(line, location(source, number)), columns, source, number)
        cars.append(car)
        if size is not None:
            sizes.append((size, number))
    if not cars:
        raise InputError("no cars under the header", where)
    _check_names(cars, source)
    side = _side(sizes, source)
    written, swapped = _fit(cars, side, swap=False), _fit(cars, side, swap=True)
    if written.fault is not None:
        at, fault = written.fault
        if swapped.fault is None:
            fault = (
                f"read as the header says (col the column, row the row), {fault}; read the "
                "other way round (col the row, row the column), every car fits: correct the "
                "header, or the columns under it"
            )
        raise InputError(fault, location(source, at))
    notes = []
    if swapped.fault is None and any(car.first != car.second for car in cars):
        notes.append("col and row as the header says (read the other way round, the cars fit too)")
    if side is None:
        given = "its N column is blank" if _SIZE_COLUMN in columns else "no N column gives its side"
        notes.append(
            f"the board {written.side}×{written.side}, the smallest square that holds the cars "
            f"({given})"
        )
    notes += _names_read(cars)
    pieces = [
        Piece(car.label, car.orientation, row, col, car.length, location(source, car.line))
        for car, (row, col) in zip(cars, written.corners, strict=True)
    ]
    specs = list(targets)
    if not specs:
        target = next((car for car in cars if car.label == _TARGET), None)
        if target is None:
            raise InputError(
                f"no car {_TARGET}: the course's target is X, leaving right along its row", source
            )
        specs = [TargetSpec(_TARGET, "right", where=location(source, target.line))]
    puzzle = build_puzzle(written.side, written.side, pieces, [], specs, where=source, name=name)
    return Puzzle(puzzle.board, puzzle.placement, puzzle.name, puzzle.meta, tuple(notes))


def _fields(line: str, where: str) -> list[str]:
    try:
        (fields,) = csv.reader([line], skipinitialspace=True)
    except csv.Error as error:  # a field past the csv module's limit, a NUL
        raise InputError(f"not a line of comma-separated fields ({error})", where) from None
    return [field.strip() for field in fields]


def _columns(fields: list[str], where: str) -> dict[str, int]:
    """Where each column is, by its name in the header."""
    keys = [SYNONYMS.get(field.lower(), field.lower()) for field in fields]
    if not set(keys) & {*REQUIRED, _SIZE_COLUMN}:
        raise InputError(
            f"the first line is not a header: a course CSV begins with one ({HEADER}), "
            "which says which number is the column and which the row",
            where,
        )
    columns: dict[str, int] = {}
    for index, (field, key) in enumerate(zip(fields, keys, strict=True)):
        if key not in (*REQUIRED, _SIZE_COLUMN):
            raise InputError(
                f"unknown column {_shown(field)} in the header (the course's: {_COLUMNS_SAID})",
                where,
            )
        if key in columns:
            raise InputError(f"the header names the column {_shown(field)} twice", where)
        columns[key] = index
    missing = [key for key in REQUIRED if key not in columns]
    if missing:
        raise InputError(
            f"the header names no {' and no '.join(missing)} column (the course's: "
            f"{_COLUMNS_SAID})",
            where,
        )
    return columns


def _car(
    fields: list[str], columns: dict[str, int], source: str, number: int
) -> tuple[_Car, int | None]:
    """A car of a line under the header, and the board's side if the line gives it."""
    where = location(source, number)
    width = len(columns)
    size_last = columns.get(_SIZE_COLUMN) == width - 1
    if not (len(fields) == width or (size_last and len(fields) == width - 1)):
        raise InputError(f"{len(fields)} fields, and the header names {width} columns", where)

    def field(key: str) -> str:
        index = columns[key]
        return fields[index] if index < len(fields) else ""

    raw = field("car")
    name = raw.upper()
    if not (1 <= len(name) <= 2 and name.isascii() and name.isalpha()):
        raise InputError(f"car name {_shown(raw)}: a name is one or two letters", where)
    if name not in LABEL_OF:
        raise InputError(
            f"car name {name}: rhasp's labels are one character, and only A to Z, AA to AZ "
            "and BA to BI have one",
            where,
        )
    orientation = _ORIENTATION.get(field("orientation").lower())
    if orientation is None:
        raise InputError(
            f"orientation {_shown(field('orientation'))}: H (horizontal) or V (vertical)", where
        )
    col, row, length = (_whole(field(key), key, where) for key in ("col", "row", "length"))
    for key, value in (("col", col), ("row", row)):
        if value < 1:
            raise InputError(f"{key} {value}: the course counts columns and rows from 1", where)
    if length < 2:
        raise InputError(f"length {length}: a car has 2 or more cells", where)
    size = field(_SIZE_COLUMN) if _SIZE_COLUMN in columns else ""
    side = _whole(size, "N", where) if size else None
    return _Car(name, raw, LABEL_OF[name], orientation, col, row, length, number), side


def _whole(text: str, key: str, where: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise InputError(f"{key} {_shown(text)}: not a whole number", where)
    return int(text)


def _shown(text: str, most: int = 20) -> str:
    """A field as a message quotes it: at most ``most`` characters of it (a line of a
    megabyte must not come back whole in one)."""
    return repr(text) if len(text) <= most else repr(text[:most]) + "…"


def _check_names(cars: Sequence[_Car], source: str) -> None:
    seen: dict[str, int] = {}
    for car in cars:
        if car.name in seen:
            raise InputError(
                f"car {car.name} is named twice, on lines {seen[car.name]} and {car.line}",
                location(source, car.line),
            )
        seen[car.name] = car.line


def _side(sizes: Sequence[tuple[int, int]], source: str) -> int | None:
    """The board's side the N column gives, where it gives one (on any line, the same)."""
    if not sizes:
        return None
    (side, at), *rest = sizes
    for other, number in rest:
        if other != side:
            raise InputError(
                f"N is {other} here but {side} on line {at}: a file holds one board",
                location(source, number),
            )
    if not MIN_SIDE <= side <= MAX_SIDE:
        raise InputError(
            f"N is {side}: a board's side is {MIN_SIDE} to {MAX_SIDE} cells", location(source, at)
        )
    return side


@dataclass(frozen=True)
class _Reading:
    """The cars placed by one reading of the columns: the board's side, each car's top-left
    cell (0-based row, column), and the first car that does not fit (its line, and why)."""

    side: int
    corners: list[tuple[int, int]]
    fault: tuple[int, str] | None


def _fit(cars: Sequence[_Car], side: int | None, *, swap: bool) -> _Reading:
    """The cars as the header reads them (``col`` the column), or the other way round."""
    corners = [
        (car.first - 1, car.second - 1) if swap else (car.second - 1, car.first - 1) for car in cars
    ]
    ends = [
        (row + car.length - 1, col) if car.orientation == "v" else (row, col + car.length - 1)
        for car, (row, col) in zip(cars, corners, strict=True)
    ]
    if side is None:
        far = max(max(end) for end in ends) + 1
        board = max(far, MIN_SIDE)
        if board > MAX_SIDE:
            at = next(car.line for car, end in zip(cars, ends, strict=True) if max(end) + 1 == far)
            return _Reading(
                board, corners, (at, f"the cars need a {far}×{far} board, and the most is 12×12")
            )
    else:
        board = side
    occupant: dict[tuple[int, int], str] = {}
    for car, (row, col), end in zip(cars, corners, ends, strict=True):
        if max(end) >= board:
            off = f"car {car.name} ({car.length} cells from {cell_name((row, col))}) runs off"
            return _Reading(board, corners, (car.line, f"{off} the {board}×{board} board"))
        vertical = car.orientation == "v"
        for step in range(car.length):
            cell = (row + step, col) if vertical else (row, col + step)
            if cell in occupant:
                over = f"car {car.name} overlaps car {occupant[cell]} at {cell_name(cell)}"
                return _Reading(board, corners, (car.line, over))
            occupant[cell] = car.name
    return _Reading(board, corners, None)


def _order(name: str) -> tuple[int, str]:
    """The course's order of names: A to Z, then AA, AB, ..."""
    return len(name), name


def _names_read(cars: Sequence[_Car]) -> list[str]:
    """What the answer says of the names: read in capitals, two letters as one label."""
    notes = []
    if any(car.written != car.name for car in cars):
        notes.append("car names read in capitals")
    pairs = sorted((car.name, car.label) for car in cars if len(car.name) == 2)
    if pairs:
        rule = ["the second letter in lowercase"]
        if any(name == "AO" for name, _ in pairs):
            rule.append("AO 0")
        if any(name.startswith("B") for name, _ in pairs):
            rule.append("BA to BI 1 to 9")
        said = ", ".join(f"{name} {label}" for name, label in pairs)
        notes.append(f"two-letter names as one-character labels ({'; '.join(rule)}): {said}")
    return notes


def write_course_csv(puzzle: Puzzle) -> str:
    """``puzzle`` as a course CSV, its side in the N column of the first line; raises
    InputError for a board the course's notation cannot hold."""
    board = puzzle.board
    problems = []
    if board.width != board.height:
        problems.append(f"the board is {board.width}×{board.height}, and the course's are square")
    if board.walls:
        problems.append("it has walls")
    if len(board.exits) > 1:
        problems.append(f"it has {len(board.exits)} targets, and the course's boards have one")
    elif board.exits != ((_TARGET, "right"),):
        problems.append("its target is not X leaving right")
    if problems:
        raise InputError(f"cannot be written as a course CSV: {'; '.join(problems)}", puzzle.name)
    rows = sorted(
        zip(board.vehicles, puzzle.placement, strict=True),
        key=lambda pair: _order(NAME_OF[pair[0].label]),
    )
    lines = [f"{HEADER},N"]
    for n, (vehicle, position) in enumerate(rows):
        row, col = vehicle.cells(position)[0]
        side = str(board.width) if n == 0 else ""
        fields = (NAME_OF[vehicle.label], vehicle.orientation.upper(), col + 1, row + 1)
        lines.append(",".join(map(str, (*fields, vehicle.length, side))))
    return "\n".join(lines) + "\n"
