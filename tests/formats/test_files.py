"""Reading files and decks (rhasp/formats/__init__.py): names that are not plain text, and a
deck streamed line by line giving what reading it whole gives (issue 13)."""

from __future__ import annotations

from rhasp.errors import InputError
from rhasp.formats import DeckLine, read_path, read_path_numbered, stream_deck
from tests.boards import card

CARD1 = "AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR."


def error_of(path: str) -> str:
    try:
        read_path(path)
    except InputError as error:
        return str(error)
    raise AssertionError("no error")


def test_a_file_name_with_a_nul_byte_is_an_error_not_a_traceback():
    assert error_of("card\0.txt") == "card\\x00.txt: cannot read: not a valid file name"


def test_a_file_name_with_a_line_break_is_shown_escaped_so_errors_stay_one_line(tmp_path):
    bad = tmp_path / "two\nlines.txt"
    bad.write_text("..?\nXX.\n...\n")
    assert error_of(str(bad)) == f"{tmp_path}/two\\nlines.txt:1:3: unknown character '?' " + (
        "(expected '.', 'o', '#', a letter or a digit)"
    )
    good = tmp_path / "good\nname.txt"
    good.write_text(CARD1 + "\n")
    assert read_path(str(good))[0].name == "good\\nname"


def streamed(path: str) -> tuple[int, list[tuple[int, object]]]:
    count, pending = stream_deck(path)
    return count, [(n, e.read() if isinstance(e, DeckLine) else e) for n, e in pending]


def test_a_carriage_return_inside_a_deck_line_splits_no_line_streamed_or_whole(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_bytes(f"{CARD1}\r{CARD1}\n{CARD1}\r\n".encode())
    count, entries = streamed(str(deck))
    assert count == 2  # was 3: the count split at the lone carriage return, the lines did not
    assert [n for n, _ in entries] == [1, 2]
    assert str(entries[0][1]).startswith(f"{deck}:1:38: not a deck line")  # 36 cells and \r
    assert entries[1][1] == card(1)
    whole = read_path_numbered(str(deck))
    assert [(n, str(e)) for n, e in whole] == [(n, str(e)) for n, e in entries]
