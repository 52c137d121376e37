"""The compiled core: numba loaded with its code cached in the keyed folder of
:mod:`rhasp.search.cache` (or not at all), whether this process may compile (``RHASP_JIT``,
numba installed, room for it), a call made either way (:func:`way`: the compiled twin takes
int64 arrays, so tables are converted, cached by the tables themselves so that a
:class:`~rhasp.search.geometry.Geometry` stays plain data, and lists of keys), and the check
that compiled code is its own function's. Which way each call runs, and when the code is
loaded, is the runner's decision (:mod:`rhasp.search.runner`).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from rhasp.search import cache, core, uncompiled
from rhasp.search.geometry import cell_words, key_words

#: How many boards' tables stay converted for the compiled core (a deck solves one at a time).
CONVERTED = 64


@functools.cache
def compiled_core() -> ModuleType | None:
    """The compiled core, its code cached in this version's folder
    (:func:`rhasp.search.cache.folder`), or None where it cannot be loaded (numba broken,
    or no folder to cache its code in: said once, :func:`rhasp.search.cache.tell`): then
    every search runs uncompiled. Never cached anywhere else: numba, refused the folder, would
    fall back to the package's ``__pycache__`` or its own folder, where no key keeps stale
    code out (:mod:`rhasp.search.cache`)."""
    try:
        import numba

        # Before jit's functions are made: each finds its cache folder then.
        version = cache.writable()
        numba.config.CACHE_DIR = str(version)
        from rhasp.search import jit
    except OSError as error:
        cache.tell_unusable(error)
        return None
    except (ImportError, RuntimeError):
        return None
    if not _cached_in(jit, version):
        cache.tell(f"{version}: numba cannot cache there; searches go on without the cache")
        return None
    return jit


#: The functions jit compiles, each cached by numba on its own.
COMPILED = ("breadth_first", "cheapest", "best_first", "cluster", "reach", "enumerate_shard")


def _cached_in(jit: ModuleType, version: Path) -> bool:
    """Whether numba caches every compiled function of ``jit`` in the folder ``version``
    (a function whose cache numba cannot say, in a numba to come, is taken to be there)."""
    for name in COMPILED:
        cache = getattr(getattr(jit, name), "_cache", None)
        path = getattr(cache, "cache_path", None)
        if path is not None and version not in Path(path).parents:
            return False
    return True


@functools.cache
def numba_installed() -> bool:
    """Whether the core can be compiled here, found without importing numba (half a second)."""
    return importlib.util.find_spec("numba") is not None


def mode() -> str:
    """``RHASP_JIT``: ``always`` (compile at once, here), ``never``, or ``auto``."""
    return os.environ.get("RHASP_JIT", "auto")


def may_compile() -> bool:
    """Whether the core may be compiled here, found without loading numba."""
    return mode() != "never" and numba_installed() and _room_for_numba()


#: The address space the compiled core needs: numba, LLVM and numpy take hundreds of MB
#: before any search (bench/README.md, "Figures behind the code"), and a search needs room
#: of its own.
COMPILED_ADDRESS_SPACE = 1 << 30


def _room_for_numba() -> bool:
    """Whether the process's address space (``ulimit -v``) leaves numba room: under a tighter
    cap, loading it can abort the process (OpenBLAS: exit code 1, no line of rhasp's), where
    the uncompiled core meets the cap as a MemoryError, its documented line and exit code 4."""
    try:
        import resource
    except ImportError:  # no such limits here (Windows)
        return True
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return soft == resource.RLIM_INFINITY or soft >= COMPILED_ADDRESS_SPACE


#: Tables converted for the compiled core, by the identity of the tables converted (hashing
#: an enumeration's lines would cost more than a small shard's work), each kept with them so
#: that the id holds.
_converted_tables: dict[int, tuple[Any, Any]] = {}
_converting = threading.Lock()  # the web server searches in threads


def _converted(jit: ModuleType, tables: Any) -> Any:
    """``tables`` as the compiled core takes them, converted once while they are in use."""
    with _converting:
        kept = _converted_tables.get(id(tables))
        if kept is not None and kept[0] is tables:
            return kept[1]
        if len(_converted_tables) >= CONVERTED:
            del _converted_tables[next(iter(_converted_tables))]  # the oldest
        converted = jit.tables(tables)
        _converted_tables[id(tables)] = (tables, converted)
        return converted


def shape(tables: Any) -> str:
    """The shape of ``tables`` that numba compiles a function for: a board's by the words its
    keys and cells take (``"2x3"``), an enumeration's lines as one."""
    if isinstance(tables, core.Tables):
        return f"{key_words(tables)}x{cell_words(tables)}"
    return type(tables).__name__.lower()


def way(
    function: Callable[..., Any],
    tables: Any,
    arguments: tuple[Any, ...],
    flags: dict[str, Any],
    jit: ModuleType | None,
) -> tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any], Any]:
    """The function to call, its tables, arguments and flags as it takes them, and a watch
    for it to write: the core's own when ``jit`` is None, else the compiled twin of the same
    name, on int64 arrays (patterns too: lists where there are none, so that a search run
    uncompiled loads no numpy)."""
    if jit is None:
        return (
            uncompiled.twin(function),
            (tables, *arguments),
            flags,
            core.new_buffer(core.WATCH_FIELDS),
        )
    twin, converted = getattr(jit, function.__name__), _converted(jit, tables)
    watch = jit.watch()
    if isinstance(tables, core.Tables):  # a search of a board, from a key
        first, *rest = arguments
        arguments = (jit.key(converted, first), *rest)
        twin = _with_plain_keys(jit, twin, watch)
    keys = (jit.keys(a) if isinstance(a, list) else a for a in arguments)
    flags = {k: jit.patterns(v) if isinstance(v, core.Patterns) else v for k, v in flags.items()}
    return twin, (converted, *keys), flags, watch


class OtherCode(Exception):
    """numba's cache gave a function the compiled code of another: a ``.nbc`` file copied or
    renamed over its own (numba checks an index against its source file, not the code the
    index points to), which would run the other search under this one's name."""


def own_code(jit: ModuleType, search: Callable[..., Any]) -> None:
    """Raise :class:`OtherCode` unless every compiled version of ``search``'s twin in ``jit``
    is ``search``'s own code (numba's record of what it compiled says which function)."""
    for compiled in getattr(getattr(jit, search.__name__), "overloads", {}).values():
        made = getattr(compiled, "fndesc", None)
        if made is not None and (made.modname, made.qualname) != (
            search.__module__,
            search.__qualname__,
        ):
            raise OtherCode(f"{made.modname}.{made.qualname} in place of {search.__name__}")


def compile_error(error: BaseException) -> bool:
    """Whether ``error`` is numba's own, a compile that fails (an edit numba cannot type, say):
    not the cache's fault, so not hidden where this process compiles."""
    from numba.core.errors import NumbaError

    return isinstance(error, NumbaError)


def load_code(
    jit: ModuleType,
    where: tuple[str, str],
    call: tuple[Any, ...],
    ask_again: Callable[[], None],
    compiling: Callable[[], None] = lambda: None,
) -> bool:
    """Load the compiled code of ``call`` (function, tables, arguments, flags: a call that
    answers at once) for ``where`` (function, shape) by making it: numba compiles it first
    where it is not cached, under the cache folder's lock (one process compiles, others wait
    and load; ``compiling`` is called as the lock is taken), and it is marked ready. True if
    the code is loaded in this process.

    The cache never stops it (:mod:`rhasp.search.cache`). Where numba cannot save the code (a
    full disk, a read-only folder), it has compiled it all the same: loaded, not marked
    ready. Where numba's files cannot be loaded, or hold another function's code, they are
    set aside; a process that compiles (the background process, or ``RHASP_JIT=always``) then
    compiles the code afresh, and any other calls ``ask_again`` (the background process is
    asked to) and answers False. A compile that fails on its own (numba's error, not the
    cache's) is raised where this process compiles."""
    cached = cache.ready(*where)
    compiles = mode() == "always" or not cached  # else a loading thread: loads only
    try:
        _make(jit, where, call, cached, compiling)
    except MemoryError:
        raise
    except Exception as error:
        if compiles and compile_error(error):
            raise
        return _recover(jit, where, call, error, compiles, ask_again)
    return True


def _make(
    jit: ModuleType,
    where: tuple[str, str],
    call: tuple[Any, ...],
    cached: bool,
    compiling: Callable[[], None] = lambda: None,
) -> None:
    """Make ``call`` compiled, checking that the code is ``call``'s function's; when not
    ``cached``, under the compile lock, and mark it ready."""
    search, tables, arguments, flags = call
    twin, converted, flags, watch = way(search, tables, arguments, flags, jit)
    if cached:
        twin(*converted, watch, **flags)
        own_code(jit, search)
        return
    with cache.compiling():
        compiling()
        twin(*converted, watch, **flags)
        own_code(jit, search)
        cache.mark_ready(*where)


def _recover(
    jit: ModuleType,
    where: tuple[str, str],
    call: tuple[Any, ...],
    error: Exception,
    compiles: bool,
    ask_again: Callable[[], None],
) -> bool:
    """After loading ``where``'s code raised ``error``: whether the code is loaded all the
    same (see :func:`load_code`). A save refused leaves the code in numba's memory; anything
    else is taken for damaged files, set aside."""
    if isinstance(error, OSError) and error.errno in cache.WRITE_REFUSED:
        cache.tell_unusable(error)
    else:
        cache.set_aside(where[0], error)
        if not compiles:
            ask_again()
    if not compiles:
        return False
    try:  # from memory, or compiled afresh: not marked, a later run finds it cached
        _make(jit, where, call, cached=True)
    except MemoryError:
        raise
    except Exception as again:
        if compile_error(again):
            raise
        return False
    return True


def _with_plain_keys(jit: ModuleType, twin: Callable[..., Any], watch: Any) -> Callable[..., Any]:
    """``twin``, answering keys as Python integers (on wide boards, the compiled core's keys
    are tuples of words), converted while ``watch`` does not ask it to stop."""
    return lambda *arguments, **flags: jit.plain(twin(*arguments, **flags), watch)
