"""Output files: written in one piece (never half a file, nor an old one half overwritten),
their folder checked before the work rather than after, locked while one run writes them,
never one of the run's inputs, and read back within bounds when a run resumes them.

A file is known by what it is (its device and inode), not by the name it was given: a
symbolic or hard link to a file is that file, for the lock, for the refusal to write over an
input, and for finding the journal that goes with it (:mod:`rhasp.journal`)."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from rhasp.errors import InputError, RhaspError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock
    fcntl = None  # type: ignore[assignment]


@contextmanager
def written_whole(dest: Path, keep_partial: bool = False) -> Iterator[Path]:
    """A temporary path beside ``dest`` to write to, renamed to ``dest`` when the block ends:
    a failed or interrupted run never leaves a half-written file (nor an old file half
    overwritten). With ``keep_partial``, what was written before an interruption is kept too,
    for output that is whole line by line (a generated deck)."""
    temporary = destination(dest).with_name(f".{dest.name}.{os.getpid()}.part{dest.suffix}")
    try:
        yield temporary
    except BaseException as error:
        # The error is the answer: a clean-up that fails too (unlinking in a read-only
        # folder raises, file or no file) must not take its place.
        with contextlib.suppress(OSError):
            if keep_partial and temporary.exists():
                temporary.replace(dest)
            else:
                temporary.unlink(missing_ok=True)
        if isinstance(error, RhaspError) and error.where == str(temporary):
            error.where = str(dest)  # name the file asked for, not the temporary one
        if isinstance(error, OSError) and error.filename == str(temporary):
            error.filename = str(dest)
        raise
    temporary.replace(dest)


@contextmanager
def naming_the_file(path: Path) -> Iterator[None]:
    """Errors of an open file's writes name it: the OSError of a write (no space left on the
    device, say) carries no file name of its own, and the user should learn which file."""
    try:
        yield
    except OSError as error:
        if error.filename is None:
            error.filename = str(path)
        raise


def lock_for_writing(handle: IO[Any], path: Path, command: str) -> None:
    """Lock the open file ``handle`` for this run alone: while one ``rhasp COMMAND`` run
    writes ``path``, a second refuses in one line rather than interleave its output."""
    if fcntl is None:  # pragma: no cover - Windows: no lock
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise InputError(
            f"another rhasp {command} run is writing this file; wait for it or choose "
            "another --out",
            str(path),
        ) from None


def destination(dest: Path) -> Path:
    """``dest``, if a file can be written there; else one line saying why, which commands
    ask for before their work rather than after it."""
    if dest.is_dir():
        raise InputError("is a directory; give the name of a file to write", str(dest))
    if not dest.parent.is_dir():
        raise InputError(f"there is no folder {dest.parent} to write into", str(dest))
    return dest


def same_file(one: Path, other: Path) -> bool:
    """Whether two names lead to one file (device and inode): the same name, a symbolic link
    or a hard link. A name that leads nowhere is no file, and the same as none."""
    try:
        return os.path.samefile(one, other)
    except (OSError, ValueError):
        return False


def refuse_input_as_output(out: Path, inputs: Iterable[str | Path], what: str = "input") -> None:
    """Refuse (InputError, before anything is opened for writing) an ``out`` that is one of
    ``inputs`` by any name, or would be read as one: opening it to write would destroy what
    the run is about to read. A directory among ``inputs`` is read whole, every file in it
    not hidden (a deck of puzzle files), so an ``out`` inside it is one of its files."""
    real = out.resolve()
    for source in inputs:
        where = Path(source)
        if same_file(out, where):
            raise InputError(
                f"is the {what} {source} itself; choose another --out, or it would be "
                "overwritten before it is read",
                str(out),
            )
        if not _is_dir(where):
            continue
        if same_file(real.parent, where) and not real.name.startswith("."):
            raise InputError(
                f"is inside the {what} directory {source}, whose every file is read as a "
                "puzzle; choose another --out",
                str(out),
            )
        linked = [file for file in where.iterdir() if same_file(out, file)]
        if linked:
            raise InputError(
                f"is {linked[0]} of the {what} directory {source} by another name; choose "
                "another --out",
                str(out),
            )


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):  # too long for a file name, or a NUL: an inline board
        return False


#: The longest line read back from a file rhasp wrote (a deck record, a journal entry):
#: a record is a few hundred bytes, its plan a few kilobytes at most. Also the longest line
#: of a deck of one-line boards read whole (a board's line is under 200 bytes).
LONGEST_LINE = 1 << 20
#: The most bytes read of a puzzle file, of standard input or of a plan file before what it
#: holds is known. A board is a few lines (a 13×13 grid is under 200 bytes, its JSON a few
#: kilobytes) and a plan a few kilobytes: 1 MiB is thousands of times either, read in a
#: moment, and stops at once what is not a puzzle at all (``/dev/zero`` was read for 2.6 GB
#: before the memory ran out). Only a deck of one-line boards may be longer, and its lines
#: are each bounded by :data:`LONGEST_LINE`; ``rhasp deck`` reads a deck file line by line.
LARGEST_INPUT = 1 << 20


class Damaged(ValueError):
    """A line read back that is not what rhasp writes there: what is wrong, and the line."""

    def __init__(self, what: str, line: int) -> None:
        super().__init__(what)
        self.line = line


def bounded_lines(handle: IO[bytes], longest: int = LONGEST_LINE) -> Iterator[tuple[int, bytes]]:
    """The numbered lines of a file opened in binary, each at most ``longest`` bytes: a
    longer one is :class:`Damaged`, read no further than the bound, never a file's worth of
    memory."""
    number = 0
    while line := handle.readline(longest + 1):
        number += 1
        if len(line) > longest:
            raise Damaged(f"a line longer than {longest:,} bytes", number)
        yield number, line


def json_line(raw: bytes) -> Any:
    """One line of JSON read back from a file rhasp wrote, within bounds: UTF-8 only (not
    the UTF-16 ``json`` would guess), nesting no deeper than the interpreter's stack, numbers
    of no more digits than Python converts. Anything else is damage: a ValueError saying
    what, never a traceback."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except json.JSONDecodeError:
        raise ValueError("not a line of JSON") from None
    except ValueError:  # an integer of thousands of digits
        raise ValueError("a number too long to read") from None
