"""Errors that reach the user as one line, never as a traceback.

Every error names *where* (a file, line and column when known) and *what*, so the CLI can
print it as ``where: what`` and exit with a documented code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what a SearchLimit carries: rhasp.limits builds on this module
    from rhasp.limits import Limit


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
    """A puzzle, deck, plan or argument that cannot be taken (exit code 2). ``names``: the
    arguments its message names besides ``where`` (``resume`` needs ``out``), so that a
    surface that calls them otherwise (the command line's options) says them its way
    (:meth:`rename`)."""

    def __init__(self, what: str, where: str = "", names: tuple[str, ...] = ()) -> None:
        super().__init__(what, where)
        self.names = names

    def rename(self, fields: Collection[str], called: Callable[[str], str]) -> None:
        """Each of ``fields`` that this error names (as its ``where``, or one of its
        ``names`` in its message) said as ``called`` says it (``out``: ``--out``)."""
        if self.where in fields:
            self.where = called(self.where)
        for name in set(self.names) & set(fields):
            word = rf"(?<![\w-]){re.escape(name)}(?![\w-])"
            self.what = re.sub(word, called(name), self.what)

    def __reduce__(self) -> tuple[type, tuple[str, str, tuple[str, ...]]]:
        return type(self), (self.what, self.where, self.names)


class ClusterLost(RhaspError):
    """The Dask cluster a run was spread on was lost before the run ended: the connection to
    its scheduler (``where``) closed. Its own exit code (5), for it is none of the others: not
    bad input (the scheduler was reached), not a limit of the search, not an answer. What was
    done is kept, and the run that met it says so (:meth:`saying`), so that the one line tells
    the user what they have and how to go on. ``done``: the run's tally by then, for a caller
    that has nowhere else to find what was done (the records of :func:`rhasp.deck` without
    ``out`` are in its ``records``)."""

    def __init__(self, what: str, where: str = "", done: Any = None) -> None:
        super().__init__(what, where)
        self.done = done

    def saying(self, kept: str, done: Any = None) -> ClusterLost:
        """This loss, the line saying also what was ``kept``."""
        return ClusterLost(f"{self.what}; {kept}", self.where, done)


class IllegalMove(RhaspError):
    """A move that the rules forbid in the state it is played in."""


class PlanError(InputError):
    """A plan whose replay fails; names the first bad move (1-based). Bad input, like a bad
    board, where the plan only leads to a position (``rhasp hint``, the page: exit code 2),
    and ``except InputError`` catches both; ``rhasp check`` answers it instead, as the plan
    failing (exit code 1)."""

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


def counted(number: int, noun: str) -> str:
    """``1 move``, ``2 moves``, ``1,000 states``: a count with its noun, singular for one (in
    the messages here and in what the CLI prints)."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def location(source: str, line: int | None = None, column: int | None = None) -> str:
    """``source:line:column`` with the parts that are known."""
    parts = [source]
    if line is not None:
        parts.append(str(line))
        if column is not None:
            parts.append(str(column))
    return ":".join(parts)


class SearchLimit(RhaspError):
    """A search stopped at a limit the user can raise (states, ground atoms, memory, time):
    not an answer either way (exit code 4). ``limit``: what ran out and how much, when a
    search said so (a :class:`~rhasp.limits.Limit`; a generator's bounds say only what they
    found, as text)."""

    def __init__(self, what: str | Limit, where: str = "") -> None:
        super().__init__(str(what), where)
        self.limit = None if isinstance(what, str) else what

    @property
    def states(self) -> int | None:
        """The states the search had reached, when counted."""
        return None if self.limit is None else self.limit.reached

    def __reduce__(self) -> tuple[type, tuple[str | Limit, str]]:
        return type(self), (self.limit or self.what, self.where)


class TimeLimit(SearchLimit):
    """A search stopped at its time limit (a server's, per request)."""


class MissingTool(RhaspError):
    """A picture library or program that is not installed (exit code 2, saying how to get it)."""


def install_command(extra: str) -> str:
    """The pip command that installs an extra the way rhasp itself was installed. Installed
    from a source tree (a checkout, as the README sets it up), ``pip install 'rhasp[web]'``
    would look for rhasp on PyPI: name the tree instead (``.`` when it is the current
    directory), as pip recorded it."""
    source = installed_from()
    if source is None:
        return f"pip install 'rhasp[{extra}]'"
    tree, editable = source
    try:
        here = Path.cwd().resolve() == tree.resolve()
    except OSError:  # the current directory is gone
        here = False
    return f"pip install {'-e ' if editable else ''}'{'.' if here else tree}[{extra}]'"


def installed_from() -> tuple[Path, bool] | None:
    """The source tree rhasp was installed from, and whether editable (PEP 610's
    ``direct_url.json``); None when it came from a package index or is not installed."""
    # Imported here: with what they import (email, http), a tenth of every command's start.
    from importlib import metadata
    from urllib.parse import urlparse
    from urllib.request import url2pathname

    try:
        record = json.loads(metadata.distribution("rhasp").read_text("direct_url.json") or "")
    except (metadata.PackageNotFoundError, ValueError):
        return None
    url = record.get("url", "")
    if not url.startswith("file://") or "dir_info" not in record:
        return None
    editable = bool(record["dir_info"].get("editable"))
    return Path(url2pathname(urlparse(url).path)), editable
