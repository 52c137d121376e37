"""One-line boards and decks: metadata kept, bad lines reported and skipped."""

from __future__ import annotations

import random

import pytest

from rhasp.errors import InputError
from rhasp.formats import read_path, read_text, write
from rhasp.formats.line import database_board, database_line, read_line
from tests.boards import PUZZLES, card

CARD1 = "AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR."


def test_one_line_board_equals_the_grid_file():
    (puzzle,) = read_text(CARD1 + "\n", "c.txt", name="c")
    assert puzzle == card(1)


DATABASE_CARD1 = "BBoooHEooGoHEAAGoHEooGooFoooCCFoDDDo"  # card 1 as the database letters it


def test_deck_line_numbers_are_kept_as_metadata_and_written_back():
    (puzzle,) = read_text(f"08 {DATABASE_CARD1} 1234\n", "d.txt", name="d")
    assert puzzle.meta == {"moves": 8, "cluster": 1234}
    # Written back as a database line: the moves in two digits, as read.
    assert write(puzzle, "line") == f"08 {DATABASE_CARD1.replace('o', '.')} 1234\n"


def test_a_database_line_pads_its_moves_to_two_digits_as_the_published_one_does():
    assert database_line(8, DATABASE_CARD1, 1234) == f"08 {DATABASE_CARD1} 1234"
    assert database_line(51, DATABASE_CARD1) == f"51 {DATABASE_CARD1}"  # cluster not counted
    assert database_line(104, DATABASE_CARD1, 7) == f"104 {DATABASE_CARD1} 7"
    (puzzle,) = read_text(database_line(8, DATABASE_CARD1, 1234), "d.txt", name="d")
    assert puzzle.meta == {"moves": 8, "cluster": 1234}


def test_the_original_deck_holds_the_40_cards():
    deck = read_path(str(PUZZLES / "original40.txt"))
    assert len(deck) == 40
    assert deck[25] == card(26)
    assert deck[25].name == "original40-26"


def test_a_bad_deck_line_is_reported_with_its_number_and_the_rest_read():
    text = "\n".join([CARD1, CARD1[:-1], "; a comment", "AA?" + CARD1[3:], CARD1]) + "\n"
    entries = read_text(text, "deck.txt", name="deck")
    assert [type(e).__name__ for e in entries] == ["Puzzle", "InputError", "InputError", "Puzzle"]
    assert str(entries[1]).startswith("deck.txt:2:1: a one-line board has a square number")
    assert str(entries[2]).startswith("deck.txt:4:3: unknown character '?'")
    assert entries[3].name == "deck-5"


def test_non_square_boards_cannot_be_one_line():
    (wide,) = read_text("....\n....\nXX..\n", "w.txt", name="w")
    with pytest.raises(InputError, match="one-line boards are square"):
        write(wide, "line")


# Issue 13: an error on a deck line names the column of what is wrong, counted by hand.
@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("8 AA..X 9 9", "deck.txt:4:11: not a deck line"),  # a fourth field
        ("garbage line here", "deck.txt:4:1: not a deck line"),  # no move count first
        (f"{'9' * 25} {CARD1}", "deck.txt:4:1: not a deck line"),  # a move count of 25 digits
        (f"8 {CARD1} 9x", "deck.txt:4:40: not a deck line"),  # 2 + 36 + 1 cells before it
        (f"  {CARD1[:-1]}", "deck.txt:4:3: a one-line board has a square number of cells"),
        ("3 " + "." * 169, "deck.txt:4:3: the board is 13×13"),
        ("8 " + "." * 36, "deck.txt:4:3: no target vehicle"),  # the board's own column
    ],
)
def test_a_bad_deck_line_names_the_column_of_the_bad_field(text, error):
    with pytest.raises(InputError) as caught:
        read_line(text, "deck.txt", 4, name="d")
    assert str(caught.value).startswith(error)


def test_a_move_count_of_thousands_of_digits_is_an_error_not_a_traceback():
    entries = read_text(f"{'7' * 5000} {CARD1} 1\n{CARD1}\n", "deck.txt", name="d")
    assert str(entries[0]).startswith("deck.txt:1:1: not a deck line")
    assert entries[1] == card(1)


def test_database_lettering_of_card_1_by_hand():
    # The target X is A; no walls; the rows but the target's, top to bottom: A (row 1) is B,
    # C (row 5) C, R (row 6) D; then the columns left to right: P E, B F, Q G, O H.
    assert database_board(card(1)) == "BBoooHEooGoHEAAGoHEooGooFoooCCFoDDDo"


@pytest.mark.parametrize(
    "line",
    [
        "51 xCCoLMooJoLMAAJoLNHIDDDNHIoKEExooKGG 9360",  # two walls: they take B and F
        "51 GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo 4780",  # the hardest 6×6 puzzle
    ],
)
def test_published_database_lines_letter_back_as_published(line):
    # Lines of the published database, their pieces renamed at random: written back, the
    # lettering is the database's own.
    board = line.split()[1]
    letters = sorted(set(board) - {"o", "x"} - {"A"})
    shuffled = letters[:]
    random.Random(line).shuffle(shuffled)
    renamed = board.translate(str.maketrans(dict(zip(letters, shuffled, strict=True))))
    assert renamed != board
    (puzzle,) = read_text(renamed, "db", name="db")
    assert database_board(puzzle) == board


def test_a_deck_whose_first_board_is_small_reads_as_a_deck_not_a_grid():
    # 9 cells fit a grid row as well as a 3×3 board; the 36-cell line after it fits no grid
    # of 9-cell rows, so the text has one reading: a deck, its first board 3×3 (AA. / ...).
    small, card1 = "AA.......", "".join(write(card(1), "line").split()[:1])
    entries = read_text(f"{small}\n{card1}\n", "deck.txt", name="deck")
    assert [entry.board.width for entry in entries] == [3, 6]
    # Rows of one width stay a grid; a ragged grid is still one line naming the row.
    with pytest.raises(InputError, match=r"deck\.txt:2: row has 5 cells"):
        read_text("AA..\n.....\n", "deck.txt", name="deck")
