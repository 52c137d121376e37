"""What a command reads and where it writes: the puzzle arguments (a file, a deck, a
directory, standard input, a board written inline, a card by name), a plan, the output (a
file written in one piece, or standard output), and the consoles, which end rhasp quietly
when their reader goes away."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from rich.console import Console

import rhasp
from rhasp.files import naming_the_file, written_whole
from rhasp.formats import Entry, decode, read_bounded, read_path_located
from rhasp.model import Puzzle


class ClosedPipe(BaseException):
    """Standard output closed by its reader (``rhasp solve deck.txt | head -1``): not an
    error, so rhasp ends quietly with exit code 141, as a program killed by SIGPIPE does. (Not
    an OSError, which typer turns into exit code 1, nor rich's exit code 1.)"""


class Output(Console):
    """A rich console that ends rhasp quietly when its reader goes away (see
    :class:`ClosedPipe`)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise ClosedPipe


out = Output(highlight=False, soft_wrap=True)
err = Output(stderr=True, highlight=False, soft_wrap=True)


@contextmanager
def open_output(dest: Path | None, keep_partial: bool = False) -> Iterator[TextIO]:
    """The file to write (in one piece: see :func:`written_whole`), or standard output."""
    if dest is None:
        yield sys.stdout
        return
    with (
        written_whole(dest, keep_partial) as temporary,
        naming_the_file(dest),
        temporary.open("w", encoding="utf-8") as handle,
    ):
        yield handle


def emit(text: str, dest: Path | None) -> None:
    with open_output(dest) as handle:
        handle.write(text)


def read_entries(path: str, targets: Sequence[str] | None) -> list[Entry]:
    """Every puzzle of a file, a directory or stdin; or the one board written inline."""
    return [entry for _, entry in located_entries(path, targets)]


def located_entries(path: str, targets: Sequence[str] | None) -> list[tuple[str, Entry]]:
    """:func:`read_entries`, each entry with where it was read (its file, or its deck file
    and line), for messages that name it."""
    if path == "-" or _exists(path):
        return read_path_located(path, targets=tuple(targets or ()))
    return [("the board given", read_one(path, targets))]


def read_one(path: str, targets: Sequence[str] | None) -> Puzzle:
    """One puzzle from a file or stdin, or written inline (a path that exists wins)."""
    return rhasp.read(path, targets=tuple(targets or ()))


def _exists(path: str) -> bool:
    try:
        return Path(path).exists()
    except (OSError, ValueError):  # too long for a file name, or a NUL
        return False


def plan_text(plan: str) -> tuple[str, str]:
    """The text of the plan and where it comes from: standard input, a file, or the argument."""
    if plan == "-":
        return decode(read_bounded(sys.stdin.buffer, "<stdin>"), "<stdin>"), "<stdin>"
    try:
        is_file = Path(plan).is_file()
    except OSError:  # a plan too long to be a file name
        is_file = False
    if not is_file:
        return plan, "plan"
    with Path(plan).open("rb") as handle:
        return decode(read_bounded(handle, plan), plan), plan
