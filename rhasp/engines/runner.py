"""One way to run the search core: :data:`RUNNER`, which runs any function of
:mod:`rhasp.engines.core` or :mod:`rhasp.engines.layouts` (or any module with compiled twins
in :mod:`rhasp.engines.jit`) by reference, compiled where it pays, else uncompiled, and always
bounded, watched and interruptible.

It owns every decision the callers would otherwise repeat:

- **compiled or not.** Compiled (numba, :mod:`rhasp.engines.jit`) for every board up to
  13×13 (:attr:`rhasp.engines.geometry.Geometry.compiles`; keys and cells past 63 bits in
  tuples of words); uncompiled, the same functions on Python integers, when numba is
  missing, and at first in each process. ``RHASP_JIT=always`` or ``never`` fixes the
  choice (tests and benchmarks).
- **the switch.** Loading numba and its cached code costs about as much as 100,000 states
  searched uncompiled, so a process searches uncompiled until it has spent that much
  (:data:`SWITCH_STATES`), then switches for good, restarting the search that crossed the
  line. A small solve never pays for numba.
- **the warm-up.** Work known to be large (decks, generation, the enumeration) switches at
  once and loads the code of the functions it will call (:meth:`Runner.warm_up`), before
  forking workers, so that they inherit it.
- **the watch and threads.** A search writes its watch (states, depth, stop flag; see
  :mod:`rhasp.engines.core`); with a progress display, a time limit or when asked, it runs in
  a thread of its own while this one shows its progress (:class:`rhasp.progress.Progress`),
  stops it when its time is up, and on Ctrl-C or SIGTERM stops it at once.
- **the conversions.** The compiled twin takes int64 arrays: the runner converts tables
  (cached, keyed by the tables themselves, so a :class:`~rhasp.engines.geometry.Geometry`
  stays plain data) and lists of keys.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any

from rhasp.engines import core, plain
from rhasp.engines.limits import Budget, state_limit, time_limit, wait_until_done
from rhasp.errors import SearchLimit

if TYPE_CHECKING:
    from rhasp.engines.geometry import Geometry

SWITCH_STATES = 100_000
UNLIMITED = 1 << 62  # an int64 holds it
#: How many boards' tables stay converted for the compiled core (a deck solves one at a time).
CONVERTED = 64


@functools.cache
def compiled_core() -> ModuleType | None:
    """The compiled core, or None where it cannot be loaded (numba broken, or no folder to
    cache its code in): then every search runs uncompiled."""
    try:
        from rhasp.engines import jit
    except (ImportError, RuntimeError, OSError):
        return None
    return jit


@functools.cache
def _numba_installed() -> bool:
    """Whether the core can be compiled here, found without importing numba (half a second)."""
    return importlib.util.find_spec("numba") is not None


def _mode() -> str:
    return os.environ.get("RHASP_JIT", "auto")


def _may_compile() -> bool:
    """Whether the core may be compiled here, found without loading numba."""
    return _mode() != "never" and _numba_installed() and _room_for_numba()


#: The address space the compiled core needs: numba, LLVM and numpy take 400 MB before any
#: search (measured), and a search needs room of its own.
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
#: an enumeration's lines costs 10 µs a shard), each kept with them so that the id holds.
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


class Runner:
    """Runs the core (module docstring). One per process, :data:`RUNNER`: it remembers how
    many states the process has searched uncompiled, which decides the switch."""

    def __init__(self, switch_states: int = SWITCH_STATES) -> None:
        self.switch_states = switch_states
        self.uncompiled_states = 0
        #: Called once a process, from another thread, when a compiled function's first call
        #: on tables of a new shape has run :data:`COMPILE_NOTICE_AFTER` seconds: it is
        #: compiling (the command line says so, since the first run is otherwise silently slow).
        self.on_compiling: Callable[[], None] | None = None
        self._compiling_told = False

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

    def warm_up(
        self, function: Callable[..., Any], tables: Any, *arguments: Any, **flags: Any
    ) -> bool:
        """Switch to the compiled core and load ``function``'s compiled code by calling it
        once (on tables small enough to answer at once): numba loads each function's code at
        its first call, and workers forked afterwards inherit it. False where the core
        cannot or must not be compiled."""
        jit = self.prefer_compiled()
        if jit is None:
            return False
        twin, converted, watch = self._way(function, tables, arguments, jit)
        with self._noticing(jit, function, converted[0]):
            twin(*converted, watch, **flags)
        return True

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
        """``function(tables, *arguments, watch, **flags)``, compiled if this process may and
        the tables ``compiles`` (see :attr:`Geometry.compiles`; :meth:`warm_up` first), watched
        within ``budget``'s seconds and progress (in a thread of its own when ``threaded``, so
        that Ctrl-C stops it at once). A function that answers
        :data:`rhasp.engines.core.BUDGET` raises a :class:`SearchLimit`, where ``reached``
        words the depth its watch holds."""
        budget = budget or Budget(UNLIMITED)
        jit = self.compiled() if compiles else None
        outcome, watch = self._attempt(
            function, tables, arguments, budget, jit, reached, threaded, flags
        )
        if outcome[0] == core.BUDGET:
            raise _limit(watch, reached)
        return outcome

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
        :mod:`rhasp.engines.core` on ``geometry``, within ``budget``: beyond its states it
        raises :class:`SearchLimit`.

        An uncompiled search that could compile gets the states left before the switch as
        its budget; when it spends them first, the search starts again compiled.
        """
        budget = budget or Budget()
        mode = _mode()
        compiles = geometry.compiles and _may_compile()
        reached = _reached(search, flags)
        if not compiles or (mode != "always" and self.uncompiled_states < self.switch_states):
            spare = max(1, self.switch_states - self.uncompiled_states) if compiles else UNLIMITED
            states = min(budget.states, spare)
            arguments = (start, states)
            result, watch = self._attempt(
                search, geometry.tables, arguments, budget, None, reached, False, flags
            )
            if result[0] != core.BUDGET:
                self.uncompiled_states += _states(result)
                return result
            if not compiles or states == budget.states:
                raise _limit(watch, reached)
            self.uncompiled_states = self.switch_states  # worth the switch alone: restart it
        arguments = (start, min(budget.states, UNLIMITED))
        return self.call(
            search, geometry.tables, *arguments, budget=budget, reached=reached, **flags
        )

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
    ) -> tuple[tuple[Any, ...], Any]:
        """What ``function`` returns, run compiled when ``jit`` is given, and its watch."""
        twin, converted, watch = self._way(function, tables, arguments, jit)
        measure = "f" if function is core.best_first else "depth"

        def search() -> tuple[Any, ...]:
            with self._noticing(jit, function, converted[0]):
                return twin(*converted, watch, **flags)

        watched = _Watched(budget, watch, reached, measure)
        return watched.run(search, threaded), watch

    @contextmanager
    def _noticing(
        self, jit: ModuleType | None, function: Callable[..., Any], tables: Any
    ) -> Iterator[None]:
        """Around a call of ``function``: when it runs compiled on tables of a shape its
        compiled twin has not met in this process (so numba loads or compiles its code now),
        tell :attr:`on_compiling` should it take longer than loading would."""
        if jit is None or self.on_compiling is None or self._compiling_told:
            yield
            return
        if _shape_met(getattr(jit, function.__name__, None), tables):
            yield
            return
        timer = threading.Timer(COMPILE_NOTICE_AFTER, self._tell_compiling)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()

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
            return plain.twin(function), (tables, *arguments), core.new_buffer(core.WATCH_FIELDS)
        twin, converted = getattr(jit, function.__name__), _converted(jit, tables)
        if isinstance(tables, core.Tables):  # a search of a board, from a key
            first, *rest = arguments
            arguments = (jit.key(converted, first), *rest)
            twin = _with_plain_keys(jit, twin)
        keys = (jit.keys(a) if isinstance(a, list) else a for a in arguments)
        return twin, (converted, *keys), jit.watch()


def _shape_met(dispatcher: Any, tables: Any) -> bool:
    """Whether numba's ``dispatcher`` has code for ``tables`` of this type already (its
    first argument: the tables' type is the board's shape, words a key and a cell set)."""
    try:
        from numba import typeof

        shape = typeof(tables)
        return any(signature and signature[0] == shape for signature in dispatcher.signatures)
    except Exception:  # not a dispatcher, or a type numba cannot tell: say nothing
        return True


def _with_plain_keys(jit: ModuleType, twin: Callable[..., Any]) -> Callable[..., Any]:
    """``twin``, answering keys as Python integers (on wide boards, the compiled core's keys
    are tuples of words)."""
    return lambda *arguments, **flags: jit.plain(twin(*arguments, **flags))


#: The process's runner (see :class:`Runner`).
RUNNER = Runner()
#: A search of the core on a geometry, by the process's runner (:meth:`Runner.run`).
run = RUNNER.run


def _limit(watch: Sequence[int], reached: Callable[[int], str]) -> SearchLimit:
    return state_limit(int(watch[core.STATES]), reached(int(watch[core.DEPTH])))


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
    its time is up, and on Ctrl-C or SIGTERM asks it to stop before passing the interrupt on."""

    def __init__(self, budget: Budget, watch: Any, reached: Callable[[int], str], measure: str):
        self.budget, self.watch, self.reached, self.measure = budget, watch, reached, measure

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
        deadline = math.inf if budget.seconds is None else began + budget.seconds
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
        if self.budget.progress is not None:
            states, depth = int(self.watch[core.STATES]), int(self.watch[core.DEPTH])
            self.budget.progress.searching(states, depth, seconds, self.measure)


def _states(result: tuple[Any, ...]) -> int:
    """How many states a core search reached, from what it returned."""
    return result[1] if isinstance(result[1], int) else len(result[1])
