"""Reading files and decks (rhasp/formats/__init__.py): names that are not plain text, and a
deck streamed line by line giving what reading it whole gives."""

from __future__ import annotations

from rhasp.errors import InputError
from rhasp.formats import DeckLine, read_path, read_path_located, read_path_numbered, stream_deck
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


# --- input read within a bound --------------------------------------------------------------------


def test_a_puzzle_file_is_read_no_further_than_its_bound(tmp_path):
    from rhasp.files import LARGEST_INPUT

    past = tmp_path / "past.txt"
    past.write_bytes(b"." * (LARGEST_INPUT + 1))  # one byte more than a puzzle file holds
    assert error_of(str(past)) == (
        f"{past}: more than 1,048,576 bytes, the most read of a puzzle or plan file (only a "
        "deck of one-line boards may be longer)"
    )
    at = tmp_path / "at.txt"
    at.write_bytes(b"." * LARGEST_INPUT)  # as large as it may be: read, and found no board
    assert "more than" not in error_of(str(at))


def test_what_is_read_within_the_bound_stops_there_however_much_more_comes():
    import io

    from rhasp.files import LARGEST_INPUT
    from rhasp.formats import read_bounded

    endless = io.BytesIO(b"\0" * (10 * LARGEST_INPUT))
    try:
        read_bounded(endless, "<stdin>")
    except InputError as error:
        assert str(error).startswith("<stdin>: more than 1,048,576 bytes, the most read")
    else:
        raise AssertionError("no error")
    assert endless.tell() == LARGEST_INPUT + 1  # no more was read


def test_a_deck_of_one_line_boards_may_be_longer_than_the_bound_its_lines_may_not(tmp_path):
    import io

    from rhasp.files import LARGEST_INPUT, LONGEST_LINE
    from rhasp.formats import read_bounded

    lines = (LARGEST_INPUT // (len(CARD1) + 1)) + 10  # past the bound
    deck = (CARD1 + "\n").encode() * lines
    assert len(deck) > LARGEST_INPUT
    path = tmp_path / "deck.txt"
    path.write_bytes(deck)
    assert len(read_path(str(path))) == lines  # read whole, as before (rhasp solve deck.txt)
    long_line = deck + b"A" * (LONGEST_LINE + 1) + b"\n"
    try:
        read_bounded(io.BytesIO(long_line), "deck.txt")
    except InputError as error:
        assert str(error) == (
            "deck.txt: a deck line longer than 1,048,576 bytes, after the first 1,048,576 bytes"
        )
    else:
        raise AssertionError("no error")


def test_each_entry_of_a_directory_is_located_by_its_file_or_its_deck_line(tmp_path):
    (tmp_path / "deck.txt").write_text(f"{CARD1}\n\n{CARD1}\n")
    (tmp_path / "one.txt").write_text(CARD1 + "\n")
    (tmp_path / "bad.txt").write_text("")
    located = read_path_located(str(tmp_path))
    assert [source for source, _ in located] == [
        f"{tmp_path}/bad.txt",
        f"{tmp_path}/deck.txt:1",
        f"{tmp_path}/deck.txt:3",
        f"{tmp_path}/one.txt",
    ]
    assert str(located[0][1]) == f"{tmp_path}/bad.txt: empty: no puzzle found"
    assert [entry for _, entry in located[1:]] == [card(1)] * 3 == read_path(str(tmp_path))[1:]


def test_a_name_too_long_for_a_file_is_a_file_that_cannot_be_read():
    name = "x" * 5000  # past the file system's 255 bytes a name
    for read in (read_path, read_path_located, read_path_numbered):
        try:
            read(name)
        except InputError as error:
            assert error.where == name and "cannot read" in error.what
        else:
            raise AssertionError(f"{read.__name__} read {name[:10]}...")
