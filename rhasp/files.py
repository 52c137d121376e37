"""Output files: written in one piece (never half a file, nor an old one half overwritten),
their folder checked before the work rather than after, and locked while one run writes them."""

from __future__ import annotations

import os
from collections.abc import Iterator
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
