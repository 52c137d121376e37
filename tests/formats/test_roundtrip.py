"""Every format writes what it reads, for random boards; formats that cannot hold a board say so."""

from __future__ import annotations

from hypothesis import given, settings

from rhasp.errors import InputError
from rhasp.formats import FORMATS, read_text, write
from rhasp.formats.grid import needs_target_lines
from tests.boards import ORIGINAL, card, puzzles
from tests.volume import examples


def can_hold(fmt: str, puzzle) -> bool:
    board = puzzle.board
    if fmt == "line":
        return board.width == board.height and not needs_target_lines(puzzle)
    if fmt == "carlist":  # 6×6, no walls, X leaving right of row 3, trucks named o p q r
        return (
            (board.width, board.height) == (6, 6)
            and not board.walls
            and board.exits == (("X", "right"),)
            and board.vehicles[board.index("X")].line == 2
            and all((v.length == 3) == (v.label in "OPQR") for v in board.vehicles)
        )
    if fmt == "course-csv":  # square, no walls, one target X leaving right
        return board.width == board.height and not board.walls and board.exits == (("X", "right"),)
    return True


@settings(max_examples=examples(200), deadline=None)
@given(puzzles())
def test_formats_round_trip(puzzle):
    for fmt in FORMATS:
        if not can_hold(fmt, puzzle):
            try:
                write(puzzle, fmt)
            except InputError as error:
                assert "cannot" in error.what
            else:
                raise AssertionError(f"{fmt} wrote a board it cannot hold")
            continue
        (again,) = read_text(write(puzzle, fmt), f"p.{fmt}", name="p")
        assert again == puzzle, fmt


def test_every_original_card_round_trips_through_every_format():
    for path in sorted(ORIGINAL.glob("card*.txt")):
        puzzle = card(int(path.stem[4:]))
        for fmt in FORMATS:
            (again,) = read_text(write(puzzle, fmt), "p", name="p")
            assert again == puzzle, (path.name, fmt)
