"""Reading and writing puzzles: grid text, one-line boards and decks, car lists, JSON, and
the course CSV.

The format of a file is recognised from its content. A *deck* is a file of one-line boards,
one a line, or a directory of board files; reading one yields a puzzle or an error for each
entry, so that one bad line never stops the rest.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from math import isqrt
from pathlib import Path
from typing import IO, Literal

from rhasp.errors import InputError, location
from rhasp.files import LARGEST_INPUT, LONGEST_LINE, Damaged, bounded_lines, is_dir, is_file
from rhasp.formats.carlist import read_carlist, write_carlist
from rhasp.formats.course_csv import looks_like_course_csv, read_course_csv, write_course_csv
from rhasp.formats.grid import read_grid, write_grid
from rhasp.formats.json_format import read_json, write_json
from rhasp.formats.line import fields_apart, looks_like_line, read_line, write_line
from rhasp.model import Puzzle, TargetSpec

Format = Literal["grid", "line", "json", "carlist", "course-csv"]
FORMATS: tuple[Format, ...] = ("grid", "line", "json", "carlist", "course-csv")
Entry = Puzzle | InputError

WRITERS: dict[Format, Callable[[Puzzle], str]] = {
    "grid": write_grid,
    "line": write_line,
    "json": write_json,
    "carlist": write_carlist,
    "course-csv": write_course_csv,
}
SUFFIX: dict[Format, str] = {
    "grid": ".txt",
    "line": ".txt",
    "json": ".json",
    "carlist": ".pl",
    "course-csv": ".csv",
}


def write(puzzle: Puzzle, fmt: Format) -> str:
    """``puzzle`` as text in ``fmt``; raises InputError if the format cannot hold it."""
    return WRITERS[fmt](puzzle)


def detect(text: str) -> Format:
    """The format of a puzzle text, from its content: the lines that are not comments (a
    comment may say anything, "the target car (X)" among it)."""
    lines = _content_lines(text)
    if any(re.search(r"\bcar\s*\(", line.split("%", 1)[0]) for line in lines):
        return "carlist"
    if lines and lines[0].startswith(("{", "[")):
        return "json"
    if lines and looks_like_course_csv(lines[0]):
        return "course-csv"
    boards = [line for line in lines if not line.startswith("@")]
    if len(boards) == 1 or (boards and looks_like_line(boards[0])):
        return "line"
    if boards and fields_apart(boards[0]) and any(map(looks_like_line, boards[1:])):
        return "line"  # a deck whose first line is not a board: an error entry, not the file's
    return "line" if _small_first_board(boards) else "grid"


def _small_first_board(rows: Sequence[str]) -> bool:
    """Whether rows that a first short one would make a grid are a deck of one-line boards:
    a grid's rows are all as wide, so rows of different widths, each a square number of
    cells and one of them more than a grid row can hold, have only the deck's reading (its
    first board small: a 3×3 board's 9 cells are as many as a grid row's)."""
    cells = [row.strip() for row in rows]
    return (
        len({len(row) for row in cells}) > 1
        and all(" " not in row and isqrt(len(row)) ** 2 == len(row) for row in cells)
        and any(looks_like_line(row) for row in cells)
    )


def read_text(text: str, source: str, *, name: str, targets: Sequence[str] = ()) -> list[Entry]:
    """Every puzzle in ``text``: one for a board file, one per line for a deck.

    A whole-file problem raises InputError; a bad deck line becomes an InputError entry.
    """
    return [entry for _, entry in read_text_numbered(text, source, name=name, targets=targets)]


def read_text_numbered(
    text: str, source: str, *, name: str, targets: Sequence[str] = ()
) -> list[tuple[int, Entry]]:
    """Like :func:`read_text`, each entry with its line number (1 for a board file)."""
    specs = [TargetSpec(label) for label in targets]
    if not text.strip():
        raise InputError("empty: no puzzle found", source)
    fmt = detect(text)
    if fmt == "carlist":
        return [(1, read_carlist(text, source, name=name, targets=specs))]
    if fmt == "json":
        return [(1, read_json(text, source, name=name, targets=specs))]
    if fmt == "course-csv":
        return [(1, read_course_csv(text, source, name=name, targets=specs))]
    if fmt == "grid":
        return [(1, read_grid(text, source, name=name, targets=specs))]
    lines = (line.rstrip("\r") for line in text.split("\n"))  # as deck files are streamed
    numbered = [(number, line) for number, line in enumerate(lines, 1) if _is_content(line)]
    if len(numbered) == 1:
        number, line = numbered[0]
        return [(number, read_line(line, source, number, name=name, targets=specs))]
    return [
        (number, _deck_entry(line, source, number, f"{name}-{number}", specs))
        for number, line in numbered
    ]


def _deck_entry(
    line: str, source: str, number: int, name: str, specs: Sequence[TargetSpec]
) -> Entry:
    try:
        return read_line(line, source, number, name=name, targets=specs)
    except InputError as error:
        return error


@dataclass(frozen=True)
class DeckLine:
    """A deck line not read yet: decks of a million lines are read where they are solved,
    one line at a time, so that no list of puzzles is ever built."""

    text: str
    source: str
    number: int
    name: str
    targets: tuple[str, ...] = ()

    def read(self) -> Entry:
        specs = [TargetSpec(label) for label in self.targets]
        return _deck_entry(self.text, self.source, self.number, self.name, specs)


#: A deck entry as :func:`stream_deck` gives it: read, failed, or to be read.
Pending = Entry | DeckLine
HEAD_BYTES = 1 << 16  # enough of a file to tell a deck of one-line boards from the rest


def stream_deck(
    path: str, *, targets: Sequence[str] = ()
) -> tuple[int, Iterable[tuple[int, Pending]]]:
    """The number of entries and the numbered entries of a deck, for solving one by one.

    A file of one-line boards is read lazily, line by line, and each line is left to be read
    where it is solved (a line that is not text is an error entry at once). Anything else (a
    board file, a directory, standard input) is read whole, as :func:`read_path_numbered`.
    """
    where = Path(path)
    if path != "-" and is_file(path) and _is_line_deck(where):
        return _count_entries(where), _deck_lines(where, tuple(targets))
    numbered = read_path_numbered(path, targets=targets)
    return len(numbered), numbered


def _is_line_deck(path: Path) -> bool:
    with path.open("rb") as handle:
        return _starts_a_line_deck(handle.read(HEAD_BYTES))


def _starts_a_line_deck(head: bytes) -> bool:
    """Whether the first bytes of a file are those of a deck of one-line boards."""
    if b"\0" in head:
        return False  # binary: read_path_numbered says so
    lines = _content_lines(head.decode("utf-8-sig", errors="replace"))
    return len(lines) > 1 and detect("\n".join(lines)) == "line"


def read_bounded(handle: IO[bytes], source: str) -> bytes:
    """What a puzzle file, standard input or a plan file holds, read within bounds: at most
    :data:`~rhasp.files.LARGEST_INPUT` bytes, unless those begin a deck of one-line boards,
    which is read on line by line, each line at most :data:`~rhasp.files.LONGEST_LINE`.
    Anything longer is an InputError naming ``source`` and the bound, read no further."""
    data = handle.read(LARGEST_INPUT + 1)
    if len(data) <= LARGEST_INPUT:
        return data
    if not _starts_a_line_deck(data[:HEAD_BYTES]):
        raise InputError(
            f"more than {LARGEST_INPUT:,} bytes, the most read of a puzzle or plan file (only "
            "a deck of one-line boards may be longer)",
            source,
        )
    parts = [data]
    try:
        parts.extend(line for _, line in bounded_lines(handle))
    except Damaged:
        where = f"a deck line longer than {LONGEST_LINE:,} bytes, after the first "
        raise InputError(where + f"{LARGEST_INPUT:,} bytes", source) from None
    return b"".join(parts)


def _is_content(line: str) -> bool:
    """Not blank and not a comment (``;``): a line that holds a puzzle, or should."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith(";")


def _count_entries(path: Path) -> int:
    """The entries :func:`_deck_lines` gives, without making them."""
    return sum(text is None or _is_content(text) for _, text in _file_lines(path))


def _file_lines(path: Path) -> Iterator[tuple[int, str | None]]:
    """The numbered lines of a file, cut at ``\\n`` only; None for a line that is not text."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            try:
                if b"\0" in raw:
                    raise UnicodeError
                yield number, raw.decode("utf-8-sig" if number == 1 else "utf-8").rstrip("\r\n")
            except UnicodeError:
                yield number, None


def _deck_lines(path: Path, targets: tuple[str, ...]) -> Iterator[tuple[int, Pending]]:
    source, stem = printable(str(path)), printable(path.stem)
    for number, text in _file_lines(path):
        if text is None:
            yield number, InputError("binary data or not UTF-8 text", location(source, number))
        elif _is_content(text):
            yield number, DeckLine(text, source, number, f"{stem}-{number}", targets)


def _content_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if _is_content(line)]


def decode(data: bytes, source: str) -> str:
    """The text of a file; binary data is an InputError, not a traceback."""
    if b"\0" in data:
        raise InputError("binary data, not a puzzle", source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        where = location(source, line)
        raise InputError("binary data or not UTF-8 text, not a puzzle", where) from None


def read_path(path: str, *, targets: Sequence[str] = ()) -> list[Entry]:
    """Every puzzle in a file, a directory of files (a deck), or ``-`` (standard input).

    A directory's files are read in name order; a file that cannot be read becomes an error
    entry, like a bad deck line. A single file that cannot be read raises InputError.
    """
    return [entry for _, entry in read_path_numbered(path, targets=targets)]


def read_path_numbered(path: str, *, targets: Sequence[str] = ()) -> list[tuple[int, Entry]]:
    """Like :func:`read_path`, each entry with its number: the line of a deck file, or the
    entry's place (1, 2, ...) in a directory. Resumed deck runs use it to know what is done.
    """
    if path != "-" and is_dir(path):
        return list(enumerate((entry for _, entry in read_path_located(path, targets=targets)), 1))
    return _read_file(path, targets)[1]


def read_path_located(path: str, *, targets: Sequence[str] = ()) -> list[tuple[str, Entry]]:
    """Like :func:`read_path`, each entry with where it was read, as messages name it: its
    file (``in/card01.json``), or its deck file and line (``deck.txt:3``)."""
    if path == "-" or not is_dir(path):
        source, numbered = _read_file(path, targets)
        if len(numbered) == 1:
            return [(source, numbered[0][1])]
        return [(location(source, number), entry) for number, entry in numbered]
    located: list[tuple[str, Entry]] = []
    for file in sorted(
        p for p in Path(path).iterdir() if p.is_file() and not p.name.startswith(".")
    ):
        try:
            located += read_path_located(str(file), targets=targets)
        except InputError as error:
            located.append((printable(str(file)), error))
    return located


def _read_file(path: str, targets: Sequence[str]) -> tuple[str, list[tuple[int, Entry]]]:
    """The numbered entries of a file or of standard input (``-``), and its name as messages
    give it; a file that cannot be read raises InputError."""
    if path == "-":
        text = decode(read_bounded(sys.stdin.buffer, "<stdin>"), "<stdin>")
        return "<stdin>", read_text_numbered(text, "<stdin>", name="stdin", targets=targets)
    where = Path(path)
    source = printable(path)
    try:
        with where.open("rb") as handle:
            data = read_bounded(handle, source)
    except FileNotFoundError:
        raise InputError("no such file or directory", source) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", source) from None
    except ValueError:  # a NUL byte, or a character the file system cannot encode
        raise InputError("cannot read: not a valid file name", source) from None
    text = decode(data, source)
    name = printable(where.stem)
    return source, read_text_numbered(text, source, name=name, targets=targets)


def printable(name: str) -> str:
    """A file name as errors and names show it: characters that are not printable (a line
    break, a byte that was not UTF-8) escaped, so that an error stays on one line."""
    if name.isprintable():
        return name
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in name)
