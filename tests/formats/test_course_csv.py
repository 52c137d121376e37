"""The course CSV: header-named columns, 1-based, H/V, one- or two-letter names, N optional.

Every expected board is drawn by hand from the CSV's numbers (column, row of the top-left
cell, counted from 1), never written by the code under test.
"""

from __future__ import annotations

import pytest

from rhasp.errors import InputError
from rhasp.formats import _starts_a_line_deck, detect, read_text, write
from tests.boards import PUZZLES, card, example, grid

COURSE = PUZZLES / "course" / "example.csv"  # a 6×6 board of ours in the course's notation
# Drawn by hand from its lines: A,H,1,1,2 is AA in row 1 from column 1, and so on.
COURSE_GRID = """
    AA.O.C
    B..O.C
    BXXOP.
    .DD.P.
    EQQQPF
    E.GG.F
    """
# A small board of ours: X in row 2 from column 1, A down column 3 from row 1, the truck B
# in row 4 from column 2. The cars reach column 4 and row 4: the smallest square is 4×4.
SMALL = "car,orientation,col,row,length\nX,H,1,2,2\nA,V,3,1,2\nB,H,2,4,3\n"
SMALL_GRID = """
    ..A.
    XXA.
    ....
    .BBB
    """


def read(text: str):
    (puzzle,) = read_text(text, "c.csv", name="c")
    return puzzle


def refusal(text: str) -> str:
    with pytest.raises(InputError) as caught:
        read_text(text, "c.csv", name="c")
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_the_course_board_reads_as_drawn_by_hand():
    (puzzle,) = read_text(COURSE.read_text(), str(COURSE), name="example")
    assert puzzle == grid(COURSE_GRID)
    assert puzzle.reading == (
        "the board 6×6, the smallest square that holds the cars (no N column gives its side)",
    )


def test_columns_are_found_by_their_names_in_any_order_case_and_spacing():
    # SMALL's columns shuffled, named in capitals with spaces around; car as vehicle.
    text = " ROW , Length,Vehicle ,col, Orientation\n2,2,X,1,H\n1,2,A,3,v\n4,3,b,2,H\n"
    puzzle = read(text)
    assert puzzle == grid(SMALL_GRID)
    assert "car names read in capitals" in puzzle.reading


def test_the_n_column_gives_the_side_where_the_cars_would_fit_a_smaller_board():
    with_n = SMALL.replace("length\n", "length,N\n").replace("X,H,1,2,2\n", "X,H,1,2,2,6\n")
    with_n = with_n.replace("A,V,3,1,2\n", "A,V,3,1,2,\n")  # B's line leaves the field out
    puzzle = read(with_n)
    assert puzzle == grid(
        """
        ..A...
        XXA...
        ......
        .BBB..
        ......
        ......
        """
    )
    assert puzzle.reading == (  # nothing of the side: N gave it
        "col and row as the header says (read the other way round, the cars fit too)",
    )


def test_n_may_stand_on_any_line_and_a_blank_n_column_is_said():
    later = "car,orientation,col,row,length,N\nX,H,1,2,2,\nA,V,3,1,2,\nB,H,2,4,3,5\n"
    assert (read(later).board.width, read(later).board.height) == (5, 5)
    blank = "car,orientation,col,row,length,N\nX,H,1,2,2,\nA,V,3,1,2,\nB,H,2,4,3,\n"
    puzzle = read(blank)
    assert puzzle == grid(SMALL_GRID)
    assert puzzle.reading[-1] == (
        "the board 4×4, the smallest square that holds the cars (its N column is blank)"
    )


@pytest.mark.parametrize(
    ("lines", "complaint"),
    [
        ("X,H,1,2,2,6\nA,V,3,1,2,9\n", "c.csv:3: N is 9 here but 6 on line 2: a file holds one"),
        ("X,H,1,2,2,13\n", "c.csv:2: N is 13: a board's side is 3 to 12 cells"),
        ("X,H,1,2,2,six\n", "c.csv:2: N 'six': not a whole number"),
        ("X,H,1,2,2,4\nA,H,3,3,3,\n", "c.csv:3: car A (3 cells from row 3, column 3) runs off"),
    ],
)
def test_a_bad_n_is_refused_naming_its_line(lines, complaint):
    assert complaint in refusal("car,orientation,col,row,length,N\n" + lines)


def test_two_letter_names_map_to_one_character_labels_as_the_rule_says():
    # AA is a (its second letter in lowercase), AO is 0 (o is no label), BA is 1; ab reads as
    # AB, so b. Drawn by hand on the 5×5 board N gives.
    text = (
        "car,orientation,col,row,length,N\n"
        "X,H,1,3,2,5\nAA,V,3,2,2,\nAO,H,1,1,2,\nBA,V,5,3,3,\nab,H,2,5,2,\n"
    )
    puzzle = read(text)
    assert puzzle == grid(
        """
        00...
        ..a..
        XXa.1
        ....1
        .bb.1
        """
    )
    assert puzzle.reading == (
        "car names read in capitals",
        "two-letter names as one-character labels (the second letter in lowercase; AO 0; BA "
        "to BI 1 to 9): AA a, AB b, AO 0, BA 1",
    )


def test_the_swapped_header_is_refused_naming_both_readings():
    # Our example under a header saying row,col: A,H,1,1,2 is still A in row 1 from column 1,
    # and B,V,1,2,2 (line 3) is then B down column 2 from row 1, on A's second cell.
    text = COURSE.read_text().replace("col,row", "row,col")
    message = refusal(text)
    assert message.startswith("c.csv:3: read as the header says (col the column, row the row)")
    assert "car B overlaps car A at row 1, column 2" in message
    assert "read the other way round (col the row, row the column), every car fits" in message


def test_a_car_off_the_board_only_as_the_header_reads_it_is_refused_naming_both():
    # N=4: B,H,4,2,3 runs from column 4 off the board; read the other way it lies in row 4
    # from column 2, where it fits, and so does the rest.
    text = "car,orientation,col,row,length,N\nX,H,1,2,2,4\nA,V,3,1,2,\nB,H,4,2,3,\n"
    message = refusal(text)
    assert message.startswith("c.csv:4: read as the header says")
    assert "car B (3 cells from row 2, column 4) runs off the 4×4 board" in message
    assert "every car fits" in message


def test_where_both_readings_fit_the_header_is_taken_and_said():
    # SMALL read the other way round: X in row 1 from column 2, A down column 1 from row 3,
    # B in row 2 from column 4 on a 6×6 board; it fits too, but the header is what is written.
    puzzle = read(SMALL)
    assert puzzle == grid(SMALL_GRID)
    assert puzzle.reading[0] == (
        "col and row as the header says (read the other way round, the cars fit too)"
    )


def test_a_fault_under_both_readings_names_only_the_header_reading():
    # A and B share row 1, column 1 whichever way the numbers are read.
    message = refusal("car,orientation,col,row,length\nX,H,1,2,2\nA,H,1,1,2\nB,V,1,1,2\n")
    assert message == "c.csv:4: car B overlaps car A at row 1, column 1"


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("car,orientation,col,row,length\nX,D,1,3,2\n", "c.csv:2: orientation 'D': H "),
        ("car,orientation,col,row,length\nX,H,1,3,2\nA,V,1,1,1\n", "c.csv:3: length 1: a car"),
        (
            "car,orientation,col,row,length\nX,H,1,3,2\nA,V,1,1,2\nA,H,5,1,2\n",
            "c.csv:4: car A is named twice, on lines 3 and 4",
        ),
        ("car,orientation,col,row,length\nA,H,1,3,2\n", "c.csv: no car X: the course's target"),
        ("car,orientation,col,row,length\nX,H,1,3,2\nABC,V,1,1,2\n", "c.csv:3: car name 'ABC'"),
        (
            "car,orientation,col,row,length\nX,H,1,3,2\nCA,V,1,1,2\n",
            "c.csv:3: car name CA: rhasp's labels are one character",
        ),
        ("car,orientation,row,col,length\nX,H,0,2,2\n", "c.csv:2: row 0: the course counts"),
        ("car,orientation,col,row,length\nX,H,two,3,2\n", "c.csv:2: col 'two': not a whole"),
        ("car,orientation,col,row,length\nX,H,1,3\n", "c.csv:2: 4 fields, and the header names 5"),
        ('car, orientation, "x,y", length\nX, H, "1,4", 2\n', "c.csv:1: unknown column 'x,y'"),
        ("car,orientation,col,length\nX,H,1,2\n", "c.csv:1: the header names no row column"),
        ("X,H,1,3,2\nA,V,1,1,2\n", "c.csv:1: the first line is not a header"),
        ("car,orientation,col,row,length\n", "c.csv:1: no cars under the header"),
        (
            "car,orientation,col,row,length\nX,V,1,1,2\n",
            "c.csv:2: target X moves along column 1 and cannot reach the right edge",
        ),
        (
            "car,orientation,col,row,length\nX,H,1,1,2\nA,H,12,12,2\n",
            "c.csv:3: the cars need a 13×13 board, and the most is 12×12",
        ),
        (
            f"car,orientation,col,row,length\nX,H,1,1,2\nA,H,{'9' * 5000},1,2\n",
            "c.csv:3: col '99999",
        ),
    ],
)
def test_bad_course_csv_is_refused_in_one_line_naming_its_line(text, complaint):
    assert complaint in refusal(text)


def test_the_writer_writes_the_side_on_the_first_line_and_reads_back():
    # Card 26 from its grid: X in row 3 from column 2, the truck O in row 1 from column 4.
    text = write(card(26), "course-csv")
    lines = text.splitlines()
    assert lines[0] == "car,orientation,col,row,length,N"
    assert lines[1].endswith(",6") and all(line.endswith(",") for line in lines[2:])
    assert "O,H,4,1,3," in lines and "X,H,2,3,2," in lines
    assert read(text) == card(26)


def test_lowercase_and_digit_labels_are_written_as_two_letter_names_and_read_back():
    puzzle = grid(
        """
        00...
        ..a..
        XXa.1
        ....1
        .xx.1
        """
    )
    text = write(puzzle, "course-csv")
    assert {"AA,V,3,2,2,", "AO,H,1,1,2,", "BA,V,5,3,3,", "AX,H,2,5,2,"} <= set(text.splitlines())
    assert read(text) == puzzle


@pytest.mark.parametrize(
    ("puzzle", "complaint"),
    [
        (example("walls"), "walls: cannot be written as a course CSV: it has walls"),
        (example("two-targets"), "it has 2 targets, and the course's boards have one"),
        (example("vertical-target"), "its target is not X leaving right"),
        (grid("....\nXX..\n....\n...."), None),  # square, X right: written
        (grid(".....\nXX...\n.....\n....."), "the board is 5×4, and the course's are square"),
    ],
)
def test_boards_the_course_csv_cannot_hold_are_refused(puzzle, complaint):
    if complaint is None:
        assert read(write(puzzle, "course-csv")) == puzzle
        return
    with pytest.raises(InputError) as caught:
        write(puzzle, "course-csv")
    assert complaint in str(caught.value)


def test_a_course_csv_is_recognised_and_never_taken_for_a_deck():
    text = COURSE.read_text()
    assert detect(text) == "course-csv"
    assert not _starts_a_line_deck(text.encode())
    for fmt in ("grid", "line", "json", "carlist"):
        assert detect(write(card(26), fmt)) == fmt
