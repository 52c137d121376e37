"""The compiled code's cache: what a search process reads and asks of it, and the queue the
background compile serves (docs/design.md, "No promise waits on a compile").

numba compiles each function of the search core once per *shape* of board (how many 64-bit
words a key takes, and how many 63-bit words its cells; or an enumeration's lines) and caches
the code on disk. A search never compiles (:mod:`rhasp.search.runner` runs it uncompiled
meanwhile); it asks for the code here, and one process of its own compiles it
(:mod:`rhasp.search.compiler`):

- **the folder is keyed** on the source of every file the compiled code is built from
  (:data:`SOURCES`), numba's and Python's versions: numba checks a cached function against its
  own file only, so after an edit of ``core.py`` the compiled ``enumerate_shard`` of
  ``shards.py`` would run the old core. With the key, an edit or an upgrade is a new folder
  and old code is never loaded. The folder is under the user's cache folder
  (``platformdirs``), never beside the package (which may be read-only); ``RHASP_CACHE_DIR``
  (or numba's ``NUMBA_CACHE_DIR``) moves it. Only the newest :data:`KEPT` folders stay.
- **a marker per function and shape**, ``ready/FUNCTION.SHAPE``, written after the code is in
  numba's cache: a search looks for it (one ``stat``) without loading numba.
- **the queue**, one file per function and shape (:func:`start`), served by one background
  process (started if none serves the folder: :func:`start`), in a session of its own, so that
  Ctrl-C in the terminal stops the command, not the compile. Whoever compiles (that process,
  or one with ``RHASP_JIT=always``) holds the folder's compile lock (:func:`compiling`), so
  that two processes never compile the same code twice.

The cache is an optimisation, never a failure (docs/design.md, "The cache never fails a
run"). A folder that cannot be made or written (a file in its path, read-only, full) leaves
the searches uncompiled, or compiled in memory where the process compiles anyway; numba's
files that cannot be read (an index left empty by a crash, code cut short, or another
function's) are moved out of use into ``damaged/`` (:func:`set_aside`) and compiled again.
Nothing here raises for the cache: each of these says so once a process, on one line of
standard error (:func:`tell`).

SIGTERM (a scheduler's kill, ``timeout``, ``kill``) ends the background process too, where
it serves requests of the command's own process group (:func:`stop_serving`, called by the
command line): a job that was killed leaves nothing running. Ctrl-C and a closed terminal
leave it to finish.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import importlib.util
import os
import pickle
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: The modules whose source the compiled code is built from (jit compiles the functions of
#: core, store, clusters and shards and reads geometry's word sizes): a test checks that none of
#: them imports another module of rhasp's outside this list.
SOURCES = ("core", "store", "clusters", "shards", "geometry", "jit", "jit_store")
#: How many keyed folders stay: the newest (an older rhasp, or the code before an edit).
KEPT = 3
#: What a write refused for want of room or right says (a full disk, a quota, a file size
#: limit, a read-only folder): the cache cannot take the code, which is none the worse.
WRITE_REFUSED = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM}
)


def base() -> Path:
    """The folder holding one keyed folder per version of the compiled code."""
    chosen = os.environ.get("RHASP_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(chosen)
    import platformdirs

    return Path(platformdirs.user_cache_dir("rhasp")) / "compiled"


#: Where the files of :data:`SOURCES` are.
SOURCE_FOLDER = Path(__file__).parent
#: The folder holding this rhasp package: the background process runs there, so that it
#: compiles this copy's code (its key is this copy's) whichever rhasp its caller's folder holds.
PACKAGE_PARENT = SOURCE_FOLDER.parent.parent


def key(sources: Path = SOURCE_FOLDER) -> str:
    """The cache key: the source of :data:`SOURCES` (in the folder ``sources``), where those
    files are and their times and sizes, numba's version, Python's and the machine's kind (a
    hash, 16 hex digits).

    numba keeps a function's code under its file's folder and drops it when the file's time
    or size changes; a key without them let a second install of the same source (another
    virtual environment, a checkout beside its pip install) or a reinstalled copy find
    markers for code numba did not have for it, and its first call compiled in the loading
    process, which no search must wait on (a test's ``rhasp generate`` took 50 s)."""
    # Imported here: under a tight ulimit -v, hashlib's import writes an error to standard
    # error when a hash's code cannot load (CI, 2026-11-29), and many commands need no key.
    import hashlib

    digest = hashlib.sha256()
    digest.update(os.path.abspath(sources).encode())
    for name in SOURCES:
        source = sources / f"{name}.py"
        digest.update(source.read_bytes())
        stamp = source.stat()
        digest.update(f"{stamp.st_mtime} {stamp.st_size}".encode())
    numba = importlib.util.find_spec("numba")
    digest.update(_numba_version(numba.origin if numba else None).encode())
    digest.update(f"{sys.version} {platform.machine()}".encode())
    return digest.hexdigest()[:16]


def _numba_version(origin: str | None) -> str:
    """numba's version, read from its ``_version.py`` beside ``__init__.py`` without
    importing it (half a second); the whole file, should its layout change."""
    if origin is None:
        return "none"
    try:
        return Path(origin).with_name("_version.py").read_text()
    except OSError:
        return origin


_folder: Path | None = None


def folder() -> Path:
    """This version's folder (created, older ones beyond :data:`KEPT` removed)."""
    global _folder
    if _folder is None or not _folder.is_dir():
        chosen = base() / key()
        (chosen / "ready").mkdir(parents=True, exist_ok=True)
        _prune(chosen)
        _folder = chosen
    return _folder


def _prune(kept: Path) -> None:
    try:
        os.utime(kept)
        others = [p for p in kept.parent.iterdir() if p.is_dir() and p != kept]
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in others[KEPT - 1 :]:
        shutil.rmtree(old, ignore_errors=True)


def writable() -> Path:
    """This version's folder, found writable (a file made and removed in it, as numba makes
    one before it caches there); an OSError that says why not."""
    chosen = folder()
    try:
        tempfile.TemporaryFile(dir=chosen).close()
    except OSError as error:  # named by the folder, not by the file it could not make
        raise OSError(error.errno, error.strerror, str(chosen)) from None
    return chosen


def marker(function: str, shape: str) -> Path:
    return folder() / "ready" / f"{function}.{shape}"


def ready(function: str, shape: str) -> bool:
    """Whether the code of ``function`` for boards of ``shape`` is in the cache (False where
    there is no cache folder)."""
    try:
        return marker(function, shape).exists()
    except OSError as error:
        tell_unusable(error)
        return False


def mark_ready(function: str, shape: str) -> None:
    """Say that the code is in numba's cache (unsaid where the folder takes no marker: a later
    run asks for the code again, and the background process finds it cached)."""
    try:
        marker(function, shape).touch()
    except OSError as error:
        tell_unusable(error)


@contextlib.contextmanager
def compiling() -> Iterator[None]:
    """Held while code is compiled into the folder, by one process at a time; where the
    folder takes no lock file, the compile goes on without it (nothing can be cached)."""
    try:
        lock = open(folder() / "lock", "a+")  # noqa: SIM115 (closed below, held meanwhile)
    except OSError as error:
        tell_unusable(error)
        yield
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


#: Whether this process has said what is wrong with the cache (once a process: workers forked
#: afterwards inherit it).
_told = False


def tell(line: str) -> None:
    """``rhasp: line`` on standard error, unless this process has said one already."""
    global _told
    if _told:
        return
    _told = True
    with contextlib.suppress(OSError, ValueError):  # standard error closed: nothing to say
        sys.stderr.write(f"rhasp: {line}\n")
        sys.stderr.flush()


def tell_unusable(error: OSError) -> None:
    """Say that the cache cannot be used, and why (``error``: what the folder refused)."""
    where = error.filename or base()
    what = error.strerror or str(error)
    tell(f"{where}: {what}: the compiled code's cache cannot be used; searches go on without it")


def set_aside(function: str, why: BaseException) -> bool:
    """Move numba's files of ``function`` (its index and code for every shape: one index holds
    them all) and its markers out of use, into the folder's ``damaged/``, replacing what an
    earlier fault left there, so that the next compile writes them afresh; ``why``: what
    reading them raised. Said once a process, by whichever process moves them (another that
    finds them moved says nothing). True if any was moved."""
    try:
        version = folder()
        damaged = version / "damaged"
        found = sorted(version.glob(f"*/*.{function}-*.nb[ci]"))
        markers = list((version / "ready").glob(f"{function}.*"))
        moved = []
        for path in found:
            damaged.mkdir(exist_ok=True)
            with contextlib.suppress(FileNotFoundError):  # another process moved it first
                path.replace(damaged / path.name)
                moved.append(path)
        for path in markers:
            path.unlink(missing_ok=True)
    except OSError as error:
        tell_unusable(error)
        return False
    if moved:
        said = str(why).strip().splitlines()
        reason = said[0][:120] if said else type(why).__name__
        tell(
            f"{moved[0].parent}: the compiled code of {function} could not be loaded "
            f"({reason}): set aside in {damaged}, to be compiled again"
        )
    return bool(moved)


def start(function: str, shape: str, call: tuple[Any, ...]) -> bool:
    """Have ``function`` compiled for ``shape`` in the background: a request in the folder's
    queue, served by the one background process (started if none runs) that makes ``call``
    (the runner's warm-up arguments: the function, tables of that shape and arguments that
    answer at once) and marks the code ready. False if it cannot be asked."""
    try:
        queue = folder() / "queue"
        queue.mkdir(exist_ok=True)
        request = queue / f"{function}.{shape}"
        partial = request.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(pickle.dumps((function, shape, call)))
        partial.replace(request)  # whole, or not there
        _serve_in_background(folder())
        return True
    except OSError as error:
        tell_unusable(error)
        return False


def _serve_in_background(version: Path) -> None:
    """Start the background process for the cache folder ``version``, unless one serves it:
    the lock ``serving.lock`` is taken here and handed to the process (its descriptor is
    inherited), so that it is held from this moment on, and the next request, a moment
    later, finds it held instead of starting a process of its own. A process that has just
    let go of it looks at the queue again (:func:`rhasp.search.compiler.serve_queue`): a request
    written before that look is served.

    The process is started, and named in :data:`SERVER`, by a thread of its own that this
    one waits for: a signal's handler runs in the main thread only, so a SIGTERM meanwhile
    stops the command, never the start half-way, and :func:`stop_serving` finds the process
    named (it waits for the thread)."""
    if _stopped:  # told to end: a request left in the queue waits for a later run
        return
    failed: list[OSError] = []

    def start_and_name() -> None:
        try:
            _start_serving(version)
        except OSError as error:  # said by the caller
            failed.append(error)

    starting = threading.Thread(target=start_and_name, name="rhasp-start", daemon=True)
    _starting[:] = [*(other for other in _starting if other.is_alive()), starting]
    starting.start()
    starting.join()
    if failed:
        raise failed[0]


#: The threads that start a background process (:func:`_serve_in_background`).
_starting: list[threading.Thread] = []
#: Whether :func:`stop_serving` was called: this process starts no background process again
#: (a thread of its that asks for code after the command was told to end would start one).
_stopped = False


def _start_serving(version: Path) -> None:
    """Start the background process, if none serves ``version``, and name it in
    :data:`SERVER` (see :func:`_serve_in_background`)."""
    with open(version / "serving.lock", "a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return
        process = subprocess.Popen(
            [sys.executable, "-m", "rhasp.search.compiler", str(version), str(lock.fileno())],
            cwd=PACKAGE_PARENT,  # where ``-m`` finds this very rhasp first (see key)
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            pass_fds=(lock.fileno(),),
            env={**os.environ, "RHASP_CACHE_DIR": str(version.parent), "RHASP_JIT": "auto"},
        )
        with contextlib.suppress(OSError):  # unnamed, it outlives a SIGTERM: no worse
            (version / SERVER).write_text(f"{process.pid} {os.getpgrp()}\n")
    # Closed here, the lock stays with the process's copy of the descriptor.


#: The file naming the background process last started for a cache folder and the process
#: group of the command that started it: ``PID GROUP``.
SERVER = "serving.pid"
#: How long a command told to end waits for a background process being started, to end it.
STARTING_SECONDS = 5.0


def stop_serving() -> bool:
    """End the background process now (SIGTERM), if it serves this version's folder and was
    started by this process group (this command, its workers, or an earlier command of the
    same job): what a command told to end does, so that a killed job leaves nothing
    running. The code it was compiling is not marked ready, and is asked for again by a
    later run. True if it was told to end."""
    global _stopped
    _stopped = True
    deadline = time.monotonic() + STARTING_SECONDS
    for starting in list(_starting):  # a start under way names its process first
        while time.monotonic() < deadline:
            try:
                starting.join(deadline - time.monotonic())
                break
            except RuntimeError:  # the signal came while it was being started: it runs soon
                time.sleep(0.01)
    try:
        version = folder()
        pid, group = (int(word) for word in (version / SERVER).read_text().split())
        if group != os.getpgrp() or not serving(version):
            return False
        if os.getpgid(pid) != pid:  # its number taken by another: ours leads a session
            return False
        os.kill(pid, signal.SIGTERM)
    except (OSError, ValueError):  # no folder, no such file or process: nothing to end
        return False
    return True


def serving(version: Path) -> bool:
    """Whether a background process serves the cache folder ``version`` now (it holds
    ``serving.lock``): what a benchmark waits on to time a compile to its end."""
    with open(version / "serving.lock", "a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(lock, fcntl.LOCK_UN)
        return False


def lost(function: str, shape: str) -> bool:
    """Whether a request for ``function``'s code of ``shape`` came to nothing: the code is
    not ready, no request for it waits in the queue, and no background process serves the
    folder now (one that serves it may be compiling it). False where the folder cannot be
    looked at (the request is not asked again)."""
    try:
        version = folder()
        waiting = any(p.name == f"{function}.{shape}" for p in requests(version / "queue"))
        return not (ready(function, shape) or waiting or serving(version))
    except OSError:
        return False


def requests(queue: Path) -> list[Path]:
    """The requests waiting in ``queue`` (whole ones), oldest first."""
    requests = [p for p in queue.iterdir() if p.suffix != ".part"] if queue.is_dir() else []
    return sorted(requests, key=lambda p: p.stat().st_mtime)
