"""Output files: written in one piece (never half a file, nor an old one half overwritten),
their folder checked before the work rather than after, locked while one run writes them,
never one of the run's inputs, named after a puzzle only as a file in their folder (never a
path, never two puzzles to one file), and read back within bounds when a run resumes them.

A file is known by what it is (its device and inode), not by the name it was given: a
symbolic or hard link to a file is that file, for the lock, for the refusal to write over an
input, and for finding the journal that goes with it (:mod:`rhasp.journal`).

Also the one answer to whether an argument is a file at all, or text (:func:`existing`,
:func:`names_a_file`)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
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
        if not is_dir(where):
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


def existing(name: str | Path) -> Path | None:
    """The path ``name`` names when something is there (a file, a directory, a device such
    as ``/dev/stdin``), else None: the one test of whether an argument is a file rather than
    text (an inline board, a plan). Text that cannot name a file is None, never an error: a
    line break, a NUL, a name too long for the file system, and nothing at all (``""``, which
    :class:`~pathlib.Path` would read as the current directory)."""
    if isinstance(name, str) and ("\n" in name or not name.strip()):
        return None
    try:
        path = Path(name)
        return path if path.exists() else None
    except (OSError, ValueError):  # too long for a file name, or a NUL
        return None


def is_file(name: str | Path) -> bool:
    """Whether ``name`` is an existing file (:func:`existing`, and not a directory)."""
    path = existing(name)
    return path is not None and path.is_file()


def is_dir(name: str | Path) -> bool:
    """Whether ``name`` is an existing directory (:func:`existing`)."""
    path = existing(name)
    return path is not None and path.is_dir()


#: A file's extension, as the last thing in a name: a dot, a letter, then letters, digits,
#: ``_`` or ``-`` (``.txt``, ``.plan``, ``.json``, ``.sas_plan``).
EXTENSION = re.compile(r"\.[A-Za-z][\w-]{0,15}$")


def names_a_file(text: str, suffixes: Sequence[str] | None = None) -> bool:
    """Whether ``text``, on one line, reads as the name of a file: it holds a path separator
    (``/``, or the system's) or ends in one of ``suffixes`` (any :data:`EXTENSION` when
    None). Whether such a file exists is :func:`existing`'s question."""
    text = text.strip()
    if "\n" in text:
        return False
    ends = (
        EXTENSION.search(text) is not None if suffixes is None else text.endswith(tuple(suffixes))
    )
    return ends or "/" in text or os.sep in text


#: The longest line read back from a file rhasp wrote (a deck record, a journal entry):
#: a record is a few hundred bytes, its plan a few kilobytes at most. Also the longest line
#: of a deck of one-line boards read whole (a board's line is under 200 bytes).
LONGEST_LINE = 1 << 20
#: The most bytes read of a puzzle file, of standard input or of a plan file before what it
#: holds is known. A board is a few lines (a 13×13 grid is under 200 bytes, its JSON a few
#: kilobytes) and a plan a few kilobytes: 1 MiB is thousands of times either, read in a
#: moment, and stops at once what is not a puzzle at all (``/dev/zero``, read unbounded,
#: would fill the memory). Only a deck of one-line boards may be longer, and its lines
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


#: What a file name holds on no common file system: the path separators of POSIX and
#: Windows, and the characters Windows forbids in names.
NOT_IN_FILE_NAMES = frozenset('/\\:*?"<>|')
#: Names Windows keeps for its devices, whatever follows them after a dot (``NUL.txt``).
DEVICE_NAMES = frozenset(
    ["CON", "PRN", "AUX", "NUL", *(f"{port}{n}" for port in ("COM", "LPT") for n in range(1, 10))]
)
#: The longest file name, in bytes, that common file systems hold.
LONGEST_FILE_NAME = 255


def unusable_file_name(name: str, suffix: str) -> str | None:
    """Why ``name`` + ``suffix`` cannot be the name of one file in a folder on every common
    file system (POSIX, macOS, Windows), or None if it can. A puzzle's name is written as a
    file name as it is, or not at all: never as a path (``../x``, ``/tmp/x``), never changed
    to another name without a word."""
    if not name:
        return "is empty"
    unusable = next((c for c in name if c in NOT_IN_FILE_NAMES or not c.isprintable()), None)
    if unusable is not None:
        return f"holds {unusable!r}, which a file name cannot hold on every system (it is no path)"
    if name in (".", ".."):
        return "names a folder, not a file"
    if name.startswith("."):
        return "starts with '.' (a hidden file, which reading the folder back skips)"
    if name.split(".")[0].rstrip(" ").upper() in DEVICE_NAMES:
        return "is the name of a device on Windows"
    if len((name + suffix).encode("utf-8", "surrogateescape")) > LONGEST_FILE_NAME:
        return f"is longer than the {LONGEST_FILE_NAME} bytes a file name holds"
    return None


def files_named(
    folder: Path, named: Sequence[tuple[str, str]], suffix: str, inputs: Iterable[str] = ()
) -> tuple[list[Path], list[InputError]]:
    """The file in ``folder`` for each ``(name, source)``, ``name`` + ``suffix``, and what
    forbids writing them, found before any is written: one InputError for each name that is
    not a file name (:func:`unusable_file_name`; where: its source), for each that would
    share a file with an earlier one (where: the file, naming both sources), names that
    differ only in case or Unicode form included, since macOS and Windows keep one file for
    both; and for each that would be written over one of the files ``inputs`` reads (a
    file, or a directory's files). Writing none when any is refused loses nothing: no
    puzzle is written over another, nor outside ``folder``."""
    paths: list[Path] = []
    problems: list[InputError] = []
    first: dict[str, tuple[str, str]] = {}  # the file, as the system may compare names
    read = {_identity(file): file for file in _input_files(inputs)}
    read.pop(None, None)
    for name, source in named:
        path = folder / f"{name}{suffix}"
        paths.append(path)
        unusable = unusable_file_name(name, suffix)
        if unusable is not None:
            problems.append(InputError(f"the puzzle's name {name!r} {unusable}; rename it", source))
            continue
        key = unicodedata.normalize("NFC", path.name).casefold()
        if key in first:
            other, other_source = first[key]
            both = (
                f"{other_source} and {source}, both named {name!r}, would be written to this file"
                if other == name
                else f"{other_source} (named {other!r}) and {source} (named {name!r}) would be "
                "written to this file, one where names that differ in case are one (macOS, "
                "Windows)"
            )
            problems.append(InputError(f"{both}; rename one", str(folder / f"{other}{suffix}")))
            continue
        first[key] = (name, source)
        overwritten = read.get(_identity(path))
        if overwritten is not None:
            problems.append(
                InputError(
                    f"is the input {overwritten}: writing {source} here would overwrite it; "
                    "choose another folder",
                    str(path),
                )
            )
    return paths, problems


def _input_files(inputs: Iterable[str]) -> Iterator[Path]:
    """The files ``inputs`` names: each, and a directory's files."""
    for source in inputs:
        where = Path(source)
        yield where
        if is_dir(where):
            yield from where.iterdir()


def _identity(path: Path) -> tuple[int, int] | None:
    """What a file is (its device and inode), as :func:`same_file` compares files; None for
    a name that leads nowhere."""
    try:
        found = path.stat()
    except (OSError, ValueError):
        return None
    return found.st_dev, found.st_ino
