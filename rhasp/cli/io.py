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
from rhasp.errors import InputError
from rhasp.files import existing, names_a_file, naming_the_file, written_whole
from rhasp.formats import Entry, decode, printable, read_bounded, read_path_located
from rhasp.model import Puzzle
from rhasp.notation import written_as_moves


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
    if path == "-" or existing(path) is not None:
        return read_path_located(path, targets=tuple(targets or ()))
    return [("the board given", read_one(path, targets))]


def read_one(path: str, targets: Sequence[str] | None) -> Puzzle:
    """One puzzle from a file or stdin, or written inline (a path that exists wins)."""
    return rhasp.read(path, targets=tuple(targets or ()))


def plan_text(plan: str) -> tuple[str, str]:
    """The text of the plan and where it comes from: standard input (``-``), a file (a name
    that exists), or the argument itself. An argument that is not written as moves but reads
    as a file's name (:func:`~rhasp.files.names_a_file`: a path separator, an extension) is
    a file not found, an InputError naming it."""
    if plan == "-":
        return decode(read_bounded(sys.stdin.buffer, "<stdin>"), "<stdin>"), "<stdin>"
    path = existing(plan)
    if path is not None:
        with path.open("rb") as handle:
            return decode(read_bounded(handle, plan), plan), plan
    if names_a_file(plan) and not written_as_moves(plan):
        raise InputError(
            "no such file (not written as moves, so read as a file's name)", printable(plan)
        )
    return plan, "plan"
