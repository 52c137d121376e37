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
  loaded by a thread when cached, else compiled by the background process
  (:mod:`rhasp.search.compiler`, asked through :mod:`rhasp.search.cache`), while the search
  goes on uncompiled; when the code is loaded, the watch stops the search and it starts again
  compiled, with the seconds left (docs/design.md, "No promise waits on a compile").
- **the switch.** Loading numba and its cached code costs about as much as 100,000 states
  searched uncompiled, so a process asks for the compiled code only once it has searched
  that much (:data:`SWITCH_STATES`), and loads it beside a search only when that search has
  the seconds a load takes (:data:`LOAD_SECONDS`). A small solve never pays for numba.
- **the warm-up.** Work known to be large (decks, generation, the enumeration, the server)
  switches at once (:meth:`Runner.warm_up`): cached code is loaded before workers are forked,
  so that they inherit it; code not yet compiled is asked for, and each process switches
  when it comes. A single search known to be large (the default engine's race past 6×6)
  switches without loading anything first (:meth:`Runner.switch_now`): its code is loaded
  beside it from its start.
- **the watch and threads.** Every search is watched (:class:`rhasp.search.watched.Watched`):
  its progress shown, stopped when its time is up, on Ctrl-C or SIGTERM, or to switch.
  How it runs compiled (numba loaded, tables converted) is :mod:`rhasp.search.compiled`'s.
- **the cache's faults.** Compiled code that cannot be had (no cache folder to keep it in,
  numba's files damaged or another function's) leaves that function's searches uncompiled in
  this process, and never stops one (:meth:`Runner.load`,
  :func:`rhasp.search.compiled.load_code`; :mod:`rhasp.search.cache`).
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any

from rhasp.limits import Budget
from rhasp.search import cache, core
from rhasp.search.compiled import compiled_core, load_code, may_compile, mode, shape, way
from rhasp.search.watched import (
    UNLIMITED,
    Watched,
    at_depth,
    interruptibly,
    limit,
    reached_by,
)

if TYPE_CHECKING:
    from rhasp.search.geometry import Geometry

#: The states a process searches uncompiled before it asks for the compiled code.
SWITCH_STATES = 100_000
#: How long a process about to fork waits for the compiled code it is loading (seconds).
SETTLE_SECONDS = 0.5
#: The fewest seconds a search must have left for it to start loading the compiled code: a load
#: beside a running search takes seconds (it shares the GIL with it), so with less the search
#: would end before the code came, slowed by the load meanwhile, and leave it running after.
LOAD_SECONDS = 5.0

#: How many times a process asks a background process for one function's code of one shape:
#: again only where the request before came to nothing (:meth:`Runner._ask`); a request that
#: fails every time costs a background process at most this many tries.
ASKS = 3

#: The interpreter's switch interval while this process loads compiled code (seconds; Python's
#: default is 0.005). A load lets go of the GIL thousands of times (files read, LLVM's calls
#: through ctypes), and beside a thread that holds it (a search running uncompiled) each time
#: waited up to a whole interval to take it back: a load of 0.65 s alone had not ended after
#: 12 s beside a BFS (bench/README.md, "The switch to compiled code"). Shorter, it takes
#: about twice its time alone; the interval is restored when the last load ends.
LOADING_SWITCH_INTERVAL = 1e-5

#: How long a compiled function's first call on tables of a new shape may take before it is
#: surely compiling rather than loading numba's cached code (well under a second).
COMPILE_NOTICE_AFTER = 1.0


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
        #: (function, shape) asked of a background process, and how many times
        self._requested: dict[tuple[str, str], int] = {}
        self._loading: dict[tuple[str, str], threading.Thread] = {}
        #: Calls that answer at once, by (function, shape), from :meth:`warm_up`: what a
        #: background process makes to compile a function called by reference.
        self._warm_calls: dict[tuple[str, str], tuple[Any, ...]] = {}
        self._guard = threading.Lock()  # the web server searches in threads
        self._loads = 0  # loads under way in this process (see LOADING_SWITCH_INTERVAL)
        self._switch_interval = sys.getswitchinterval()  # the interval to restore after them

    def compiled(self) -> ModuleType | None:
        """The compiled core, if this process may use it at all (numba installed and
        loadable, ``RHASP_JIT`` not ``never``); None otherwise. Loads numba."""
        return compiled_core() if may_compile() else None

    def prefer_compiled(self) -> ModuleType | None:
        """The compiled core, this process switched to it for good, without loading the code
        of any function yet; None if it cannot or must not be compiled."""
        jit = self.compiled()
        if jit is not None:
            self.switch_now()
        return jit

    def switch_now(self) -> None:
        """Switch this process to the compiled core for good, loading nothing here: each
        search has its code come from its first look at its watch, loaded beside it where
        cached (with the seconds for it), else compiled in the background. For a search
        known to be large before it starts, whose first :data:`SWITCH_STATES` uncompiled
        would only delay the load."""
        self.uncompiled_states = max(self.uncompiled_states, self.switch_states)

    def is_loaded(self, function: Callable[..., Any], tables: Any) -> bool:
        """Whether ``function``'s compiled code for tables of this shape is loaded here."""
        return (function.__name__, shape(tables)) in self._loaded

    def warm_up(
        self,
        function: Callable[..., Any],
        tables: Any,
        *arguments: Any,
        seconds_left: float = math.inf,
        **flags: Any,
    ) -> bool:
        """Switch this process to the compiled core, for work known to be large, and have
        ``function``'s code for tables of this shape come: loaded now if it is cached (so that
        workers forked afterwards inherit it; a second or two) and the work has
        ``seconds_left`` of at least :data:`LOAD_SECONDS` (a load cannot be stopped: with
        less, it could outlast the work's time limit), else compiled in the background while
        the work starts uncompiled (each process switches when the code is there).
        ``arguments`` must make a call that answers at once. True when the code is loaded;
        False where it is not (yet), or cannot be compiled here."""
        if not may_compile():
            return False
        self.switch_now()
        where = (function.__name__, shape(tables))
        call = (function, tables, arguments, flags)
        self._warm_calls[where] = call
        if where in self._loaded:
            return self.compiled() is not None
        if mode() == "always" or cache.ready(*where):
            if mode() != "always" and seconds_left < LOAD_SECONDS:
                return False  # cached: the next work with the seconds for it loads it
            interruptibly(lambda: self.load(*where, call))
            return where in self._loaded and self.compiled() is not None
        self._ask(where, call)
        return False

    def load(self, function: str, shape: str, call: tuple[Any, ...]) -> None:
        """Load the compiled code of ``call`` (function, tables, arguments, flags: a call that
        answers at once) into this process (:func:`rhasp.search.compiled.load_code`: numba
        compiles it first where it is not cached), by a loading thread or
        where ``RHASP_JIT=always`` wants the code at once. Code that cannot be had leaves that
        function's searches of that shape uncompiled in this process; damaged code set aside
        by a process that does not compile is asked of the background process again."""
        with self._prompt_switches():
            self._load(function, shape, call)

    def _load(self, function: str, shape: str, call: tuple[Any, ...]) -> None:
        jit = self.compiled()
        where = (function, shape)
        if jit is None or where in self._unusable:
            return

        def ask_again() -> None:
            with self._guard:
                self._requested.pop(where, None)
            self._ask(where, call)  # compiled afresh for the next search or run

        def compiling() -> None:
            self._tell_compiling_after(COMPILE_NOTICE_AFTER)

        if load_code(jit, where, call, ask_again, compiling):
            self._loaded.add(where)
        else:
            self._unusable.add(where)

    @contextmanager
    def _prompt_switches(self) -> Iterator[None]:
        """The GIL handed over every :data:`LOADING_SWITCH_INTERVAL` while loads run here, so
        that a load beside a running search ends in about twice its time alone."""
        with self._guard:
            if self._loads == 0:
                self._switch_interval = sys.getswitchinterval()
                sys.setswitchinterval(LOADING_SWITCH_INTERVAL)
            self._loads += 1
        try:
            yield
        finally:
            with self._guard:
                self._loads -= 1
                if self._loads == 0:
                    sys.setswitchinterval(self._switch_interval)

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
        if mode() == "never" or not may_compile() or where in self._unusable:
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
        """Have a background process compile ``where``'s code: once, and again (up to
        :data:`ASKS` times a process) where an earlier request came to nothing: the code is
        not ready, no request for it waits, and no background process serves the folder
        (its compile failed, or the process was ended with the command that started it).
        Else a long-lived process (a server, a benchmark waiting for the code) would stay
        uncompiled for good after one lost request."""
        with self._guard:
            asked = self._requested.get(where, 0)
            if asked >= ASKS or (asked and not cache.lost(*where)):
                return
            self._requested[where] = asked + 1
        if cache.start(*where, call):
            self._tell_compiling()

    def call(
        self,
        function: Callable[..., tuple[Any, ...]],
        tables: Any,
        *arguments: Any,
        budget: Budget,
        reached: Callable[[int], str] = at_depth,
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
        jit = self._compiled_for(function, tables) if compiles else None
        outcome, watch, _ = self._attempt(
            function, tables, arguments, budget, jit, reached, threaded, flags
        )
        if outcome[0] == core.BUDGET:
            raise limit(watch, reached, budget)
        return outcome

    def _compiled_for(self, function: Callable[..., Any], tables: Any) -> ModuleType | None:
        """The compiled core, if ``function``'s code for these tables is loaded here (or
        ``RHASP_JIT=always`` wants it at once); else None, asking for the code to come when
        the process has switched."""
        where = (function.__name__, shape(tables))
        if not may_compile() or where in self._unusable:
            return None
        if where not in self._loaded and where in self._warm_calls:
            if mode() == "always":
                self.load(*where, self._warm_calls[where])
            elif self.uncompiled_states >= self.switch_states:
                self.have_ready(function, tables, *self._warm_calls[where][2:])
        if where in self._loaded or mode() == "always":
            return self.compiled()
        return None

    def run(
        self,
        geometry: Geometry,
        search: Callable[..., tuple[Any, ...]],
        start: Any,
        *,
        budget: Budget,
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
        tables = geometry.tables
        unusable = (search.__name__, shape(tables)) in self._unusable
        compiles = geometry.compiles and may_compile() and not unusable
        reached = reached_by(search, flags)
        if compiles and mode() == "always" and not self.is_loaded(search, tables):
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
            raise limit(watch, reached, budget)
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
        twin, converted, flags, watch = way(function, tables, arguments, flags, jit)
        measure = "f" if function is core.best_first else "depth"

        def search() -> tuple[Any, ...]:
            return twin(*converted, watch, **flags)

        if budget.handle is not None:
            budget.handle.attach(watch)
        watched = Watched(budget, watch, reached, measure, switch)
        outcome = watched.run(search, threaded or switch is not None)
        if jit is not None:
            self._loaded.add((function.__name__, shape(tables)))
        return outcome, watch, watched.switched

    def forked(self) -> None:
        """In a process just forked (see :meth:`settle`): the parent's threads are not here, so
        a lock one of them held is free, and loads of theirs under way are over as far as
        the interval goes (their shapes stay in ``_loading``: this process runs them
        uncompiled rather than wait on numba's lock, copied held)."""
        self._guard = threading.Lock()
        if self._loads:
            self._loads = 0
            sys.setswitchinterval(self._switch_interval)

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


#: The process's runner (see :class:`Runner`).
RUNNER = Runner()
if hasattr(os, "register_at_fork"):  # POSIX: workers are forked (rhasp.parallel)
    os.register_at_fork(after_in_child=RUNNER.forked)
#: A search of the core on a geometry, by the process's runner (:meth:`Runner.run`).
run = RUNNER.run
