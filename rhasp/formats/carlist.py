"""The Prolog-style car list: ``car(Name,h|v,X-Y)`` terms.

``X`` is the 1-based column and ``Y`` the 1-based row of the vehicle's top/left cell. Names
``o p q r`` are trucks of 3 cells and every other name a car of 2; ``x`` is the target, which
leaves through the right edge of row 3 of the 6×6 board. Terms may stand in a Prolog list or as
facts ending in ``.``; ``%`` starts a comment. Names become upper-case labels in rhasp.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rhasp.errors import InputError, location
from rhasp.formats.line import NUMBER
from rhasp.model import Piece, Puzzle, TargetSpec, build_puzzle

SIZE = 6
TRUCK_LABELS = frozenset("OPQR")
TARGET, EXIT_ROW = "X", 2
_TERM = re.compile(rf"car\(\s*([A-Za-z0-9])\s*,\s*([hv])\s*,\s*({NUMBER})\s*-\s*({NUMBER})\s*\)")
_FILLER = re.compile(r"[\s,.\[\]]+|%[^\n]*")


def read_carlist(
    text: str, source: str, *, name: str, targets: Sequence[TargetSpec] = ()
) -> Puzzle:
    pieces: list[Piece] = []
    at = 0
    while at < len(text):
        filler = _FILLER.match(text, at)
        if filler:
            at = filler.end()
            continue
        where = _where(text, source, at)
        term = _TERM.match(text, at)
        if term is None:
            raise InputError(
                f"expected a term car(Name,h|v,X-Y), found {text[at : at + 12]!r}", where
            )
        label = term[1].upper()
        length = 3 if label in TRUCK_LABELS else 2
        col, row = int(term[3]) - 1, int(term[4]) - 1
        pieces.append(Piece(label, term[2], row, col, length, where))  # type: ignore[arg-type]
        at = term.end()
    if not pieces:
        raise InputError("empty: no car(...) terms found", source)
    specs = list(targets) or [TargetSpec(TARGET, "right", EXIT_ROW)]
    return build_puzzle(SIZE, SIZE, pieces, [], specs, where=source, name=name)


def _where(text: str, source: str, at: int) -> str:
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return location(source, line, column)


def write_carlist(puzzle: Puzzle) -> str:
    board = puzzle.board
    problems = []
    if (board.width, board.height) != (SIZE, SIZE):
        problems.append("the board is not 6×6")
    if board.walls:
        problems.append("it has walls")
    if len(board.exits) > 1:
        problems.append(f"it has {len(board.exits)} targets, and a car list has one")
    elif (
        board.exits != ((TARGET, "right"),) or board.vehicles[board.index(TARGET)].line != EXIT_ROW
    ):
        problems.append("its target is not X leaving right of row 3")
    for vehicle in board.vehicles:
        if not vehicle.label.isalpha() or vehicle.length != (
            3 if vehicle.label in TRUCK_LABELS else 2
        ):
            problems.append(f"vehicle {vehicle.label} does not fit the naming (o p q r are trucks)")
        elif vehicle.label.islower():  # names are read back as upper-case labels
            problems.append(f"vehicle {vehicle.label} is lower-case, and names mean upper-case")
    if problems:
        raise InputError(f"cannot be written as a car list: {'; '.join(problems)}", puzzle.name)
    terms = [
        f"car({vehicle.label.lower()},{vehicle.orientation},{col + 1}-{row + 1})."
        for vehicle, position in zip(board.vehicles, puzzle.placement, strict=True)
        for row, col in vehicle.cells(position)[:1]
    ]
    return "\n".join([f"% {puzzle.name}", *terms]) + "\n"
