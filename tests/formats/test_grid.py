"""Grid text: characters, targets, walls, directives and writing back."""

from __future__ import annotations

import json

import pytest

from rhasp.errors import InputError
from rhasp.formats import read_text, write
from rhasp.model import Vehicle
from tests.boards import card, example, grid


def test_card_1_reads_as_on_the_card():
    puzzle = card(1)
    board = puzzle.board
    assert (board.width, board.height) == (6, 6)
    assert board.targets == ("X",)
    assert board.exit_side("X") == "right"
    by_label = {v.label: (v, p) for v, p in zip(board.vehicles, puzzle.placement, strict=True)}
    assert by_label["X"] == (Vehicle("X", "h", 2, 2), 1)
    assert by_label["O"] == (Vehicle("O", "v", 5, 3), 0)
    assert by_label["R"] == (Vehicle("R", "h", 5, 3), 2)
    assert len(board.vehicles) == 8 and not board.walls  # A B C O P Q R X


def test_database_style_target_walls_and_empties():
    puzzle = grid("""
        ooBooo
        xoBooo
        AAoooo
        oooooo
        oooooo
        oooooo
    """)
    assert puzzle.board.targets == ("A",)
    assert puzzle.board.walls == frozenset({(1, 0)})
    assert [v.label for v in puzzle.board.vehicles] == ["A", "B"]


def test_with_o_for_empty_cells_every_x_is_a_wall_even_side_by_side():
    puzzle = grid("""
        AAoo
        xxoo
        oooo
        oooo
    """)
    assert puzzle.board.targets == ("A",)
    assert puzzle.board.walls == frozenset({(1, 0), (1, 1)})
    assert "x cells read as walls" in puzzle.reading


def test_xx_beside_a_with_dots_is_refused_naming_both_readings():
    # Issue 39, item 2: xx is the target x (the card convention in lowercase) or two walls
    # beside the target A (database style); the text allows both, so neither is guessed.
    with pytest.raises(InputError) as caught:
        grid("""
            AA..
            xx..
            ....
            ....
        """)
    assert "A (database style) or x" in caught.value.what


def test_target_option_overrides_and_makes_lone_x_a_wall():
    puzzle = grid(
        """
        BB..
        ..x.
        XX..
        ....
    """,
        targets=["B"],
    )
    assert puzzle.board.targets == ("B",)
    assert puzzle.board.walls == frozenset({(1, 2)})


def test_comments_blank_lines_and_target_lines():
    puzzle = example("two-targets")
    assert puzzle.board.exits == (("X", "right"), ("Y", "right"))
    vertical = example("vertical-target")
    assert vertical.board.exits == (("X", "bottom"),)


def test_a_vertical_target_defaults_to_the_bottom_edge():
    puzzle = grid("""
        .X..
        .X..
        ....
        ....
    """)
    assert puzzle.board.exit_side("X") == "bottom"


def test_a_target_line_with_a_side_off_its_line_is_refused():
    with pytest.raises(InputError, match="moves along row 3 and cannot reach the top edge"):
        grid("""
            @target X top
            ....
            ....
            XX..
            ....
        """)


def test_writing_adds_target_lines_only_when_needed():
    assert "@target" not in write(card(1), "grid")
    text = write(example("two-targets"), "grid")
    assert "@target X right\n@target Y right" in text
    (again,) = read_text(text, "again.txt", name="again")
    assert again == example("two-targets")


def test_a_vehicle_x_beside_target_a_is_written_with_its_target_line():
    # With A the only target and a vehicle x, the rows alone are refused as allowing two
    # readings (issue 39), so grid text names the target; it reads back as the same puzzle.
    vehicles = [
        {"label": "A", "row": 2, "col": 0, "length": 2, "orientation": "h"},
        {"label": "x", "row": 3, "col": 1, "length": 3, "orientation": "v"},
    ]
    document = {
        "size": {"width": 6, "height": 6},
        "vehicles": vehicles,
        "targets": [{"label": "A"}],
    }
    (puzzle,) = read_text(json.dumps(document), "p.json", name="p")
    text = write(puzzle, "grid")
    assert "@target A right" in text
    assert read_text(text, "p.txt", name="p") == [puzzle]
    with pytest.raises(InputError, match="one line"):
        write(puzzle, "line")


# --- slips in a drawing: refused naming the row, never read as another board (issue 53) ----

#: Card 1 framed as ``rhasp solve --boards`` draws it, its exit '>' after row 3.
CARD1_FRAMED = ["+------+", "|AA...O|", "|P..Q.O|", "|PXXQ.O>", "|P..Q..|", "|B...CC|"]


def refusal(text: str) -> str:
    with pytest.raises(InputError) as caught:
        grid(text)
    return str(caught.value)


@pytest.mark.parametrize(
    ("row3", "bottom", "mark"),
    [("|PXXQ.O>", "+------+", "'>' after row 3"), ("|PXXQ.O|", "+--v---+", "'v' below column 3")],
)
def test_a_row_left_open_beside_a_marked_exit_is_a_missing_bar(row3, bottom, mark):
    # Row 5 has no closing '|'. Where no exit is marked, a row left open is the exit (the
    # Prolog article's drawing); here one is, so the open row is a slip, not a second exit
    # (read so, C along row 5 was a second target, and the puzzle 7 moves instead of 8).
    lines = [*CARD1_FRAMED[:3], row3, CARD1_FRAMED[4], "|B...CC", "|B.RRR.|", bottom]
    message = refusal("\n".join(lines))
    assert message.startswith("test.txt:6:8: row 5 is not closed by '|'")
    assert mark in message
    closed = grid("\n".join([*CARD1_FRAMED, "|B.RRR.|", "+------+"]))
    assert closed == card(1)


def test_digits_that_do_not_count_the_rows_are_not_row_numbers():
    # A 6×6 board by hand: vehicles 1 (column 1, rows 1-3) and 7 (rows 4-6), 2 to 6 down
    # rows 1-3, X in row 4. Its first line looks like column numbers and its first column
    # like row numbers, but those run 1, 1, 1, 7, 7, 7: read so, it was a 5×5 board.
    rows = ["1 2 3 4 5 6"] * 3 + ["7 X X . . .", "7 . . . . .", "7 . . . . ."]
    assert refusal("\n".join(rows)).startswith("test.txt:3: row 2 is numbered 1, not 2")
    framed = grid("\n".join(["+-----------+", *(f"|{row}|" for row in rows), "+-----------+"]))
    assert (framed.board.width, framed.board.height) == (6, 6)
    assert sorted(v.label for v in framed.board.vehicles) == [*"1234567", "X"]
    assert framed.board.exits == (("X", "right"),)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("  +------+\n1 |AA...O|\n3 |P..Q.O|\n  +------+", "test.txt:3: row 2 is numbered 3"),
        ("+------+\n|AA...O| 1\n|P..Q.O| 1\n+------+", "test.txt:3: row 2 is numbered 1"),
        ("1 2 3 4 5\n1 AA...O\n2 P..Q.O", "test.txt:1: the line of column numbers counts 5"),
    ],
    ids=["row numbers before the frame", "row numbers after it", "column numbers"],
)
def test_numbers_that_do_not_count_the_rows_or_columns_are_refused(text, start):
    assert refusal(text).startswith(start)
