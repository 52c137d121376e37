"""One-line boards and decks: metadata kept, bad lines reported and skipped."""

from __future__ import annotations

import pytest

from rhasp.errors import InputError
from rhasp.formats import read_path, read_text, write
from tests.boards import PUZZLES, card

CARD1 = "AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR."


def test_one_line_board_equals_the_grid_file():
    (puzzle,) = read_text(CARD1 + "\n", "c.txt", name="c")
    assert puzzle == card(1)


def test_deck_line_numbers_are_kept_as_metadata_and_written_back():
    (puzzle,) = read_text(f"8 {CARD1} 1234\n", "d.txt", name="d")
    assert puzzle.meta == {"moves": 8, "cluster": 1234}
    assert write(puzzle, "line") == f"8 {CARD1} 1234\n"


def test_the_original_deck_holds_the_40_cards():
    deck = read_path(str(PUZZLES / "original40.txt"))
    assert len(deck) == 40
    assert deck[25] == card(26)
    assert deck[25].name == "original40-26"


def test_a_bad_deck_line_is_reported_with_its_number_and_the_rest_read():
    text = "\n".join([CARD1, CARD1[:-1], "; a comment", "AA?" + CARD1[3:], CARD1]) + "\n"
    entries = read_text(text, "deck.txt", name="deck")
    assert [type(e).__name__ for e in entries] == ["Puzzle", "InputError", "InputError", "Puzzle"]
    assert str(entries[1]).startswith("deck.txt:2: ")
    assert str(entries[2]).startswith("deck.txt:4:3: unknown character '?'")
    assert entries[3].name == "deck-5"


def test_non_square_boards_cannot_be_one_line():
    (wide,) = read_text("....\n....\nXX..\n", "w.txt", name="w")
    with pytest.raises(InputError, match="one-line boards are square"):
        write(wide, "line")
