"""Errors that reach the user as one line, never as a traceback.

Every error names *where* (a file, line and column when known) and *what*, so the CLI can
print it as ``where: what`` and exit with a documented code.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class RhaspError(Exception):
    """Base of the errors the CLI reports as one line."""

    def __init__(self, what: str, where: str = "") -> None:
        super().__init__(what)
        self.what = what
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: {self.what}" if self.where else self.what

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        # Deck workers send errors back to the main process: keep where as well as what.
        return type(self), (self.what, self.where)


class InputError(RhaspError):
    """A puzzle, deck or plan that cannot be read (exit code 2)."""


class IllegalMove(RhaspError):
    """A move that the rules forbid in the state it is played in."""


class PlanError(RhaspError):
    """A plan whose replay fails; names the first bad move (1-based)."""

    def __init__(self, what: str, index: int, where: str = "") -> None:
        super().__init__(what, where)
        self.index = index

    def __reduce__(self) -> tuple[type, tuple[str, int, str]]:
        return type(self), (self.what, self.index, self.where)


@contextmanager
def about(where: str) -> Iterator[None]:
    """Name ``where`` (a puzzle, say) in the errors raised inside that do not name a place."""
    try:
        yield
    except RhaspError as error:
        error.where = error.where or where
        raise


def location(source: str, line: int | None = None, column: int | None = None) -> str:
    """``source:line:column`` with the parts that are known."""
    parts = [source]
    if line is not None:
        parts.append(str(line))
        if column is not None:
            parts.append(str(column))
    return ":".join(parts)


class SearchLimit(RhaspError):
    """A search stopped at a limit the user can raise (states, ground atoms, memory): not an
    answer either way (exit code 4)."""


class TimeLimit(SearchLimit):
    """A search stopped at its time limit (a server's, per request)."""


class MissingTool(RhaspError):
    """A picture library or program that is not installed (exit code 2, saying how to get it)."""
