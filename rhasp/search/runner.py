"""One way to run the search core: :data:`RUNNER`, which runs any function of
:mod:`rhasp.search.core` or :mod:`rhasp.search.shards` (or any module with compiled twins
in :mod:`rhasp.search.jit`) by reference, compiled where it pays, else uncompiled, and always
bounded, watched and interruptible.

It owns every decision the callers would otherwise repeat:

- **compiled or not.** Compiled (numba, :mod:`rhasp.search.jit`) for every board up to
  13×13 (:attr:`rhasp.search.geometry.Geometry.compiles`; keys and cells past 63 bits in
  tuples of words) once the compiled code for the board's shape is loaded in this process;
  uncompiled, the same functions on Python integers, until then, and where numba is
  missing. ``RHASP_JIT=always`` (compile at once, here) or ``never`` fixes the choice
  (tests and benchmarks).
- **never waiting on a compile.** A search is never held up by numba: the code it lacks is
  loaded by a thread when cached, else compiled by a background process
  (:mod:`rhasp.search.cache`), while the search goes on uncompiled; when the code is
  loaded, the watch stops the search and it starts again compiled, with the seconds left
  (docs/design.md, "No promise waits on a compile").
- **the switch.** Loading numba and its cached code costs about as much as 100,000 states
  searched uncompiled, so a process asks for the compiled code only once it has searched
  that much (:data:`SWITCH_STATES`), and loads it beside a search only when that search has
  the seconds a load takes (:data:`LOAD_SECONDS`). A small solve never pays for numba.
- **the warm-up.** Work known to be large (decks, generation, the enumeration, the server)
  switches at once (:meth:`Runner.warm_up`): cached code is loaded before workers are forked,
  so that they inherit it; code not yet compiled is asked for, and each process switches
  when it comes.
- **the watch and threads.** A search writes its watch (states, depth, stop flag; see
  :mod:`rhasp.search.core`); with a progress display, a time limit or when asked, it runs in
  a thread of its own while this one shows its progress (:class:`rhasp.progress.Progress`),
  stops it when its time is up, and on Ctrl-C or SIGTERM stops it at once.
- **the conversions.** The compiled twin takes int64 arrays: the runner converts tables
  (cached, keyed by the tables themselves, so a :class:`~rhasp.search.geometry.Geometry`
  stays plain data) and lists of keys.
- **the cache's faults.** Compiled code that cannot be had (no cache folder to keep it in,
  numba's files damaged or another function's) leaves that function's searches uncompiled in
  this process, and never stops one (:meth:`Runner.load`; :mod:`rhasp.search.cache`).
"""

from __future__ import annotations

import functools
import importlib.util
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from rhasp.errors import SearchLimit
from rhasp.limits import PROGRESS_EVERY, Budget, state_limit, time_limit, wait_until_done
from rhasp.search import cache, core, uncompiled
from rhasp.search.geometry import cell_words, key_words

if TYPE_CHECKING:
    from rhasp.search.geometry import Geometry

SWITCH_STATES = 100_000
UNLIMITED = 1 << 62  # an int64 holds it
#: How long a process about to fork waits for the compiled code it is loading (seconds).
SETTLE_SECONDS = 0.5
#: How many boards' tables stay converted for the compiled core (a deck solves one at a time).
CONVERTED = 64
#: The fewest seconds a search must have left for it to start loading the compiled code: a load
#: beside a running search takes seconds (it shares the GIL with it), so with less the search
#: would end before the code came, slowed by the load meanwhile, and leave it running after.
LOAD_SECONDS = 5.0


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
COMPILED = ("breadth_first", "cheapest", "best_first", "cluster", "enumerate_shard")


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
def _numba_installed() -> bool:
    """Whether the core can be compiled here, found without importing numba (half a second)."""
    return importlib.util.find_spec("numba") is not None


def _mode() -> str:
    return os.environ.get("RHASP_JIT", "auto")


def _may_compile() -> bool:
    """Whether the core may be compiled here, found without loading numba."""
    return _mode() != "never" and _numba_installed() and _room_for_numba()


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


#: How long a compiled function's first call on tables of a new shape may take before it is
#: surely compiling rather than loading numba's cached code (well under a second).
COMPILE_NOTICE_AFTER = 1.0


def _at_depth(depth: int) -> str:
    return f"at depth {depth}"


def shape(tables: Any) -> str:
    """The shape of ``tables`` that numba compiles a function for: a board's by the words its
    keys and cells take (``"2x3"``), an enumeration's lines as one."""
    if isinstance(tables, core.Tables):
        return f"{key_words(tables)}x{cell_words(tables)}"
    return type(tables).__name__.lower()


class Runner:
    """Runs the core (module docstring). One per process, :data:`RUNNER`: it remembers how
    many states the process has searched uncompiled, which decides the switch, and which
    compiled code it has loaded."""

    def __init__(self, switch_states: int = SWITCH_STATES) -> None:
        self.switch_states = switch_states
        self.uncompiled_states = 0
        #: Called once a process, from another thread, when it starts compiling code: in the
        #: background (a search here goes on uncompiled), or in this process where
        #: ``RHASP_JIT=always`` asks for it at once (the command line says so).
        self.on_compiling: Callable[[], None] | None = None
        self._compiling_told = False
        self._loaded: set[tuple[str, str]] = set()  # (function, shape) loaded here
        #: (function, shape) whose compiled code cannot be had here: uncompiled in this process
        self._unusable: set[tuple[str, str]] = set()
        self._requested: set[tuple[str, str]] = set()  # asked of a background process
        self._loading: dict[tuple[str, str], threading.Thread] = {}
        #: Calls that answer at once, by (function, shape), from :meth:`warm_up`: what a
        #: background process makes to compile a function called by reference.
        self._warm_calls: dict[tuple[str, str], tuple[Any, ...]] = {}
        self._guard = threading.Lock()  # the web server searches in threads

    def compiled(self) -> ModuleType | None:
        """The compiled core, if this process may use it at all (numba installed and
        loadable, ``RHASP_JIT`` not ``never``); None otherwise. Loads numba."""
        return compiled_core() if _may_compile() else None

    def prefer_compiled(self) -> ModuleType | None:
        """The compiled core, this process switched to it for good, without loading the code
        of any function yet; None if it cannot or must not be compiled."""
        jit = self.compiled()
        if jit is not None:
            self.uncompiled_states = max(self.uncompiled_states, self.switch_states)
        return jit

    def is_loaded(self, function: Callable[..., Any], tables: Any) -> bool:
        """Whether ``function``'s compiled code for tables of this shape is loaded here."""
        return (function.__name__, shape(tables)) in self._loaded

    def warm_up(
        self, function: Callable[..., Any], tables: Any, *arguments: Any, **flags: Any
    ) -> bool:
        """Switch this process to the compiled core, for work known to be large, and have
        ``function``'s code for tables of this shape come: loaded now if it is cached (so that
        workers forked afterwards inherit it; a second or two), else compiled in the
        background while the work starts uncompiled (each process switches when the code
        is there). ``arguments`` must make a call that answers at once. True when the code
        is loaded; False where it is not (yet), or cannot be compiled here."""
        if not _may_compile():
            return False
        self.uncompiled_states = max(self.uncompiled_states, self.switch_states)
        where = (function.__name__, shape(tables))
        call = (function, tables, arguments, flags)
        self._warm_calls[where] = call
        if where in self._loaded:
            return self.compiled() is not None
        if _mode() == "always" or cache.ready(*where):
            _interruptibly(lambda: self.load(*where, call))
            return where in self._loaded and self.compiled() is not None
        self._ask(where, call)
        return False

    def load(self, function: str, shape: str, call: tuple[Any, ...]) -> None:
        """Load the compiled code of ``call`` (function, tables, arguments, flags: a call that
        answers at once) by making it; numba compiles it first where it is not cached, under
        the cache folder's lock (one process compiles, others wait and load), and marks it
        ready. Run by the background process, by a loading thread, or where
        ``RHASP_JIT=always`` wants the code at once.

        The cache never stops it (:mod:`rhasp.search.cache`). Where numba cannot save the
        code (a full disk, a read-only folder), it has compiled it all the same: loaded, not
        marked ready. Where numba's files cannot be loaded, or hold another function's code,
        they are set aside; a process that compiles (the background process, or
        ``RHASP_JIT=always``) then compiles the code afresh, and any other asks the
        background process to, its own searches of that function and shape uncompiled.
        Code that cannot be had at all leaves them uncompiled in this process. A compile that
        fails on its own (numba's error, not the cache's) is raised where this process
        compiles."""
        jit = self.compiled()
        where = (function, shape)
        if jit is None or where in self._unusable:
            return
        cached = cache.ready(function, shape)
        compiles = _mode() == "always" or not cached  # else a loading thread: loads only
        try:
            self._make(jit, where, call, cached)
        except MemoryError:
            raise
        except Exception as error:
            if compiles and _compile_error(error):
                raise
            if not self._recover(jit, where, call, error, compiles):
                self._unusable.add(where)
                return
        self._loaded.add(where)

    def _make(
        self, jit: ModuleType, where: tuple[str, str], call: tuple[Any, ...], cached: bool
    ) -> None:
        """Make ``call`` compiled, checking that the code is ``call``'s function's; when not
        ``cached``, under the compile lock, and mark it ready."""
        search, tables, arguments, flags = call
        twin, converted, watch = self._way(search, tables, arguments, jit)
        if cached:
            twin(*converted, watch, **flags)
            _own_code(jit, search)
            return
        with cache.compiling():
            self._tell_compiling_after(COMPILE_NOTICE_AFTER)
            twin(*converted, watch, **flags)
            _own_code(jit, search)
            cache.mark_ready(*where)

    def _recover(
        self,
        jit: ModuleType,
        where: tuple[str, str],
        call: tuple[Any, ...],
        error: Exception,
        compiles: bool,
    ) -> bool:
        """After loading ``where``'s code raised ``error``: whether the code is loaded all the
        same (see :meth:`load`). A save refused leaves the code in numba's memory; anything
        else is taken for damaged files, set aside."""
        if isinstance(error, OSError) and error.errno in cache.WRITE_REFUSED:
            cache.tell_unusable(error)
        else:
            cache.set_aside(where[0], error)
            if not compiles:
                with self._guard:
                    self._requested.discard(where)
                self._ask(where, call)  # compiled afresh for the next search or run
        if not compiles:
            return False
        try:  # from memory, or compiled afresh: not marked, a later run finds it cached
            self._make(jit, where, call, cached=True)
        except MemoryError:
            raise
        except Exception as again:
            if _compile_error(again):
                raise
            return False
        return True

    def have_ready(
        self,
        function: Callable[..., Any],
        tables: Any,
        arguments: tuple[Any, ...],
        flags: dict,
        seconds_left: float = math.inf,
    ) -> bool:
        """Whether ``function``'s compiled code for tables of this shape is loaded here; if
        not, have it come without waiting for it: loaded in a thread of this process when it
        is cached and the search asking has :data:`LOAD_SECONDS` left (a load started for a
        search that ends first only slows it), else compiled by a background process
        (:mod:`rhasp.search.cache`, for the next search or run). ``arguments`` make a call
        that answers at once."""
        where = (function.__name__, shape(tables))
        if where in self._loaded:
            return True
        if _mode() == "never" or not _may_compile() or where in self._unusable:
            return False
        call = (function, tables, arguments, flags)
        with self._guard:
            if where in self._loading:
                return False
            if cache.ready(*where):
                if seconds_left < LOAD_SECONDS:
                    return False
                loading = threading.Thread(
                    target=self.load, args=(*where, call), name="rhasp-load", daemon=True
                )
                self._loading[where] = loading
                loading.start()
                return False
        self._ask(where, call)
        return False

    def settle(self, seconds: float = SETTLE_SECONDS) -> None:
        """Before this process forks: give its loading threads ``seconds`` to finish, so
        that the workers inherit the code; interruptible, and bounded, since a run's seconds
        go on meanwhile (a load on a busy machine took several). A worker forked while a
        load runs cannot hang on it: it sees that shape's load under way and runs it
        uncompiled (the thread is not in the child), and a load it starts for another shape
        may wait for ever on numba's lock, copied held, in a thread of its own while its
        searches go on uncompiled."""
        ends = time.perf_counter() + seconds
        for loading in list(self._loading.values()):
            loading.join(max(0.0, ends - time.perf_counter()))  # a signal ends the wait

    def _ask(self, where: tuple[str, str], call: tuple[Any, ...]) -> None:
        """Have a background process compile ``where``'s code (once a process)."""
        with self._guard:
            if where in self._requested:
                return
            self._requested.add(where)
        if cache.start(*where, call):
            self._tell_compiling()

    def call(
        self,
        function: Callable[..., tuple[Any, ...]],
        tables: Any,
        *arguments: Any,
        budget: Budget | None = None,
        reached: Callable[[int], str] = _at_depth,
        threaded: bool = False,
        compiles: bool = True,
        **flags: Any,
    ) -> tuple[Any, ...]:
        """``function(tables, *arguments, watch, **flags)``: compiled if its code for tables
        of this shape is loaded here (see :meth:`warm_up`; at once with ``RHASP_JIT=always``),
        else uncompiled, while it comes for the next call if this process has switched;
        ``compiles`` False: uncompiled (see :attr:`Geometry.compiles`). Watched within
        ``budget``'s seconds and progress (in a thread of its own when ``threaded``, so that
        Ctrl-C stops it at once). A function that answers :data:`rhasp.search.core.BUDGET`
        raises a :class:`SearchLimit`, where ``reached`` words the depth its watch holds."""
        budget = budget or Budget(UNLIMITED)
        jit = self._compiled_for(function, tables) if compiles else None
        outcome, watch, _ = self._attempt(
            function, tables, arguments, budget, jit, reached, threaded, flags
        )
        if outcome[0] == core.BUDGET:
            raise _limit(watch, reached, budget)
        return outcome

    def _compiled_for(self, function: Callable[..., Any], tables: Any) -> ModuleType | None:
        """The compiled core, if ``function``'s code for these tables is loaded here (or
        ``RHASP_JIT=always`` wants it at once); else None, asking for the code to come when
        the process has switched."""
        where = (function.__name__, shape(tables))
        if not _may_compile() or where in self._unusable:
            return None
        if where not in self._loaded and where in self._warm_calls:
            if _mode() == "always":
                self.load(*where, self._warm_calls[where])
            elif self.uncompiled_states >= self.switch_states:
                self.have_ready(function, tables, *self._warm_calls[where][2:])
        if where in self._loaded or _mode() == "always":
            return self.compiled()
        return None

    def run(
        self,
        geometry: Geometry,
        search: Callable[..., tuple[Any, ...]],
        start: Any,
        *,
        budget: Budget | None = None,
        **flags: bool,
    ) -> tuple[Any, ...]:
        """``search(tables, start, states, watch, **flags)``, a search of
        :mod:`rhasp.search.core` on ``geometry``, within ``budget``: beyond its states it
        raises :class:`SearchLimit`.

        Compiled when its code is loaded here; else uncompiled, and once this process has
        searched :data:`SWITCH_STATES` uncompiled, the compiled code is asked for (loaded in
        a thread if cached and the search has :data:`LOAD_SECONDS` left, else compiled in the
        background): when it is loaded, the search
        stops and starts again compiled, with the seconds left. It never waits on a compile.
        """
        budget = budget or Budget()
        tables = geometry.tables
        unusable = (search.__name__, shape(tables)) in self._unusable
        compiles = geometry.compiles and _may_compile() and not unusable
        reached = _reached(search, flags)
        if compiles and _mode() == "always" and not self.is_loaded(search, tables):
            self.load(search.__name__, shape(tables), (search, tables, (start, 1), flags))
        if compiles and self.is_loaded(search, tables):
            arguments = (start, min(budget.states, UNLIMITED))
            return self.call(search, tables, *arguments, budget=budget, reached=reached, **flags)
        began = time.perf_counter()
        switch = None
        if compiles:
            tiny = ((start, 1), flags)

            deadline = budget.deadline(began)

            def switch(states: int) -> bool:
                if self.uncompiled_states + states < self.switch_states:
                    return False
                return self.have_ready(search, tables, *tiny, deadline - time.perf_counter())

        arguments = (start, min(budget.states, UNLIMITED))
        result, watch, switched = self._attempt(
            search, tables, arguments, budget, None, reached, False, flags, switch
        )
        self.uncompiled_states += int(watch[core.STATES])
        if switched:
            left = budget.counted_from(began)  # the compiled run keeps the uncompiled one's clock
            return self.call(search, tables, *arguments, budget=left, reached=reached, **flags)
        if result[0] == core.BUDGET:
            raise _limit(watch, reached, budget)
        return result

    def _attempt(
        self,
        function: Callable[..., tuple[Any, ...]],
        tables: Any,
        arguments: tuple[Any, ...],
        budget: Budget,
        jit: ModuleType | None,
        reached: Callable[[int], str],
        threaded: bool,
        flags: dict[str, Any],
        switch: Callable[[int], bool] | None = None,
    ) -> tuple[tuple[Any, ...], Any, bool]:
        """What ``function`` returns, run compiled when ``jit`` is given, its watch, and
        whether ``switch`` stopped it (the compiled code came: see :meth:`run`)."""
        twin, converted, watch = self._way(function, tables, arguments, jit)
        measure = "f" if function is core.best_first else "depth"

        def search() -> tuple[Any, ...]:
            return twin(*converted, watch, **flags)

        watched = _Watched(budget, watch, reached, measure, switch)
        outcome = watched.run(search, threaded or switch is not None)
        if jit is not None:
            self._loaded.add((function.__name__, shape(tables)))
        return outcome, watch, watched.switched

    def _tell_compiling_after(self, seconds: float) -> None:
        """Tell :attr:`on_compiling` if this process's compile takes ``seconds``: loading
        cached code takes less."""
        if self.on_compiling is None or self._compiling_told:
            return
        timer = threading.Timer(seconds, self._tell_compiling)
        timer.daemon = True
        timer.start()

    def _tell_compiling(self) -> None:
        if not self._compiling_told and self.on_compiling is not None:
            self._compiling_told = True
            self.on_compiling()

    @staticmethod
    def _way(
        function: Callable[..., Any],
        tables: Any,
        arguments: tuple[Any, ...],
        jit: ModuleType | None,
    ) -> tuple[Callable[..., Any], tuple[Any, ...], Any]:
        """The function to call, its tables and arguments as it takes them, and a watch for
        it to write: the core's own when ``jit`` is None, else the compiled twin of the same
        name, on int64 arrays."""
        if jit is None:
            return (
                uncompiled.twin(function),
                (tables, *arguments),
                core.new_buffer(core.WATCH_FIELDS),
            )
        twin, converted = getattr(jit, function.__name__), _converted(jit, tables)
        watch = jit.watch()
        if isinstance(tables, core.Tables):  # a search of a board, from a key
            first, *rest = arguments
            arguments = (jit.key(converted, first), *rest)
            twin = _with_plain_keys(jit, twin, watch)
        keys = (jit.keys(a) if isinstance(a, list) else a for a in arguments)
        return twin, (converted, *keys), watch


def _interruptibly(work: Callable[[], Any]) -> None:
    """``work()`` in a thread of its own while this one waits: numba loads and compiles code
    through callbacks from LLVM, where the exception of a signal handler (Ctrl-C, SIGTERM)
    would be swallowed (``Exception ignored on calling ctypes callback function``) and the
    command run on; waiting here, this thread takes the signal and raises it."""
    failed: list[BaseException] = []

    def attempt() -> None:
        try:
            work()
        except BaseException as error:  # handed to the waiting thread
            failed.append(error)

    thread = threading.Thread(target=attempt, name="rhasp-load", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(PROGRESS_EVERY)
    if failed:
        raise failed[0]


class _OtherCode(Exception):
    """numba's cache gave a function the compiled code of another: a ``.nbc`` file copied or
    renamed over its own (numba checks an index against its source file, not the code the
    index points to), which would run the other search under this one's name."""


def _own_code(jit: ModuleType, search: Callable[..., Any]) -> None:
    """Raise :class:`_OtherCode` unless every compiled version of ``search``'s twin in ``jit``
    is ``search``'s own code (numba's record of what it compiled says which function)."""
    for compiled in getattr(getattr(jit, search.__name__), "overloads", {}).values():
        made = getattr(compiled, "fndesc", None)
        if made is not None and (made.modname, made.qualname) != (
            search.__module__,
            search.__qualname__,
        ):
            raise _OtherCode(f"{made.modname}.{made.qualname} in place of {search.__name__}")


def _compile_error(error: BaseException) -> bool:
    """Whether ``error`` is numba's own, a compile that fails (an edit numba cannot type, say):
    not the cache's fault, so not hidden where this process compiles."""
    from numba.core.errors import NumbaError

    return isinstance(error, NumbaError)


def _with_plain_keys(jit: ModuleType, twin: Callable[..., Any], watch: Any) -> Callable[..., Any]:
    """``twin``, answering keys as Python integers (on wide boards, the compiled core's keys
    are tuples of words), converted while ``watch`` does not ask it to stop."""
    return lambda *arguments, **flags: jit.plain(twin(*arguments, **flags), watch)


#: The process's runner (see :class:`Runner`).
RUNNER = Runner()
#: A search of the core on a geometry, by the process's runner (:meth:`Runner.run`).
run = RUNNER.run


def _limit(watch: Sequence[int], reached: Callable[[int], str], budget: Budget) -> SearchLimit:
    """The state limit a search's ``watch`` met: ``budget``'s states, or, where the caller
    gave the bound as an argument instead, the states counted."""
    amount = budget.states if budget.states < UNLIMITED else None
    return state_limit(int(watch[core.STATES]), reached(int(watch[core.DEPTH])), amount)


def _reached(search: Callable[..., Any], flags: dict[str, bool]) -> Callable[[int], str]:
    """How a limit line says where ``search`` stopped, from the number its watch holds: a
    breadth-first search's depth; or A*'s f-value (Dijkstra's cost), the smallest cost so
    far plus lower bound still queued, which every plan reaches (so it is a proven lower
    bound on the optimum)."""
    if search in (core.best_first, core.cheapest):
        by_slides = search is core.cheapest or flags.get("by_slides")  # cheapest: by slides
        unit = "slides" if by_slides else "moves"
        bounded = search is core.best_first and flags.get("bounded", True)
        measure = "f-value" if bounded else "cost"
        return lambda f: f"at {measure} {f}, so every plan takes at least {f} {unit}"
    return _at_depth


class _Watched:
    """A search that writes a watch, run where its progress can be shown and it can be
    stopped: with a progress display or a time limit (or when threaded), in a thread of its
    own (the compiled core releases the GIL) while this one shows its progress, stops it when
    its time is up, and on Ctrl-C or SIGTERM asks it to stop before passing the interrupt on.
    With a ``switch``, asked the states so far at each look, it stops the search when that
    says so (the compiled code is loaded: :meth:`Runner.run`), and is :attr:`switched`."""

    def __init__(
        self,
        budget: Budget,
        watch: Any,
        reached: Callable[[int], str],
        measure: str,
        switch: Callable[[int], bool] | None = None,
    ):
        self.budget, self.watch, self.reached, self.measure = budget, watch, reached, measure
        self.switch, self.switched = switch, False

    def run(self, search: Callable[[], tuple[Any, ...]], threaded: bool) -> tuple[Any, ...]:
        budget, watch = self.budget, self.watch
        if budget.progress is None and budget.seconds is None and not threaded:
            return search()
        outcome: list[Any] = []

        def work() -> None:
            try:
                outcome.append(search())
            except BaseException as error:  # handed to the waiting thread
                outcome.append(error)

        thread = threading.Thread(target=work, name="rhasp-search", daemon=True)
        began = time.perf_counter()
        deadline = budget.deadline(began)
        thread.start()

        def joined(seconds: float) -> bool:
            thread.join(seconds)
            return not thread.is_alive()

        try:
            if not wait_until_done(joined, deadline, lambda now: self._tick(now - began)):
                watch[core.STOP] = 1
                thread.join()
                stopped = self.reached(int(watch[core.DEPTH]))
                raise time_limit(budget.seconds or 0, int(watch[core.STATES]), stopped)
        except BaseException:
            watch[core.STOP] = 1
            thread.join()
            raise
        finally:
            if budget.progress is not None:
                budget.progress.stop()
        if isinstance(outcome[0], BaseException):
            raise outcome[0]
        return outcome[0]

    def _tick(self, seconds: float) -> None:
        switching = self.switch is not None and not self.switched
        if switching and self.switch(int(self.watch[core.STATES])):  # type: ignore[misc]
            self.switched = True
            self.watch[core.STOP] = 1
        if self.budget.progress is not None:
            states, depth = int(self.watch[core.STATES]), int(self.watch[core.DEPTH])
            self.budget.progress.searching(states, depth, seconds, self.measure)


def _states(result: tuple[Any, ...]) -> int:
    """How many states a core search reached, from what it returned."""
    return result[1] if isinstance(result[1], int) else len(result[1])
