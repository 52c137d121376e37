"""Which way the search core runs: compiled where it pays, else uncompiled, and always
bounded, watched and interruptible.

Every search runs the source of :mod:`rhasp.engines.core`, in one of two ways, chosen per
search:

- **compiled** (numba, :mod:`rhasp.engines.jit`), for boards whose keys and cells fit 63-bit
  words (:attr:`rhasp.engines.geometry.Geometry.compiles`): every board up to 6×6, and boards
  of up to 63 cells with up to 21 vehicles (15 when a line is longer than 8 cells);
- **uncompiled**, the same functions on Python integers, for every other board, when numba is
  missing, and at first in each process: loading numba and its cached code costs about as
  much as 100,000 states searched uncompiled, so a process searches uncompiled until it has
  spent that much (:data:`SWITCH_STATES`), then switches for good, restarting the search that
  crossed the line. A small solve never pays for numba; work known to be large (decks,
  generation, enumeration) loads it at once (:func:`use_compiled`,
  :func:`rhasp.engines.bitboard.prefer_compiled`). ``RHASP_JIT=always`` or ``never`` fixes
  the choice (tests and benchmarks).
"""

from __future__ import annotations

import functools
import importlib.util
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from rhasp.engines import core
from rhasp.engines.limits import Budget, state_limit, time_limit, wait_until_done
from rhasp.errors import SearchLimit

if TYPE_CHECKING:
    from rhasp.engines.geometry import Geometry

SWITCH_STATES = 100_000
UNLIMITED = 1 << 62

_uncompiled_states = 0  # states this process has searched uncompiled so far


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


def use_compiled() -> ModuleType | None:
    """The compiled core, this process switched to it for good, without loading the code of
    any search yet; None if it cannot or must not be compiled (``RHASP_JIT=never``)."""
    global _uncompiled_states
    if os.environ.get("RHASP_JIT") == "never" or not _numba_installed() or compiled_core() is None:
        return None
    _uncompiled_states = max(_uncompiled_states, SWITCH_STATES)
    return compiled_core()


def run(
    geometry: Geometry,
    search: Callable[..., tuple[Any, ...]],
    start: Any,
    *,
    budget: Budget | None = None,
    **flags: bool,
) -> tuple[Any, ...]:
    """``search(tables, start, states, watch, **flags)``, a function of :mod:`rhasp.engines.core`
    run compiled or not (module docstring), within ``budget``: beyond its states it raises
    :class:`SearchLimit`.

    An uncompiled search that could compile gets the states left before the switch as its
    budget; when it spends them first, the search starts again compiled.
    """
    global _uncompiled_states
    budget = budget or Budget()
    mode = os.environ.get("RHASP_JIT", "auto")
    compiles = geometry.compiles and mode != "never" and _numba_installed()
    if not compiles or (mode != "always" and _uncompiled_states < SWITCH_STATES):
        spare = max(1, SWITCH_STATES - _uncompiled_states) if compiles else UNLIMITED
        states = min(budget.states, spare)
        function, tables, watch = _way(geometry, search, None)
        search_here = lambda: function(tables, start, states, watch, **flags)  # noqa: E731
        result = _run_watched(budget, watch, search_here, reached=_reached(search, flags))
        if result[0] != core.BUDGET:
            _uncompiled_states += _states(result)
            return result
        if not compiles or states == budget.states:
            raise _limit(watch, _reached(search, flags))
        _uncompiled_states = SWITCH_STATES  # this search alone is worth the switch: restart it
    return _compiled(geometry, search, start, budget, flags)


def _compiled(
    geometry: Geometry,
    search: Callable[..., tuple[Any, ...]],
    start: Any,
    budget: Budget,
    flags: dict[str, bool],
) -> tuple[Any, ...]:
    jit = compiled_core()
    function, tables, watch = _way(geometry, search, jit)
    if jit is not None and not isinstance(start, int):
        start = jit.keys(start)
    states = min(budget.states, UNLIMITED)  # an int64 holds it
    reached = _reached(search, flags)
    search_here = lambda: function(tables, start, states, watch, **flags)  # noqa: E731
    result = _run_watched(budget, watch, search_here, reached=reached)
    if result[0] == core.BUDGET:
        raise _limit(watch, reached)
    return result


def _way(
    geometry: Geometry, search: Callable[..., Any], jit: ModuleType | None
) -> tuple[Callable[..., Any], Any, Any]:
    """The search function, the tables it reads and a watch for it to write: the core's own
    (uncompiled) when ``jit`` is None, else its compiled twin's, of the same name."""
    if jit is None:
        return search, geometry.tables, core.new_buffer(core.WATCH_FIELDS)
    return getattr(jit, search.__name__), geometry.compiled, jit.watch()


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


def _at_depth(depth: int) -> str:
    return f"at depth {depth}"


def interruptible(watch: Any, search: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
    """``search()``, a long core search that writes ``watch``, in a thread of its own, so that
    Ctrl-C or SIGTERM stops it at once rather than when it ends (see :func:`_run_watched`)."""
    return _run_watched(Budget(UNLIMITED), watch, search, threaded=True)


def _run_watched(
    budget: Budget,
    watch: Any,
    search: Callable[[], tuple[Any, ...]],
    threaded: bool = False,
    reached: Callable[[int], str] = _at_depth,
) -> tuple[Any, ...]:
    """``search()``, which writes ``watch``. With a progress display or a time limit (or when
    ``threaded``), the search runs in a thread of its own (the compiled core releases the
    GIL) while this one shows its progress, stops it when its time is up, and on Ctrl-C or
    SIGTERM asks it to stop before passing the interrupt on; ``reached`` words where it
    stopped, from its watch's depth (see :func:`_reached`)."""
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

    def tick(now: float) -> None:
        if budget.progress is not None:
            budget.progress(int(watch[core.STATES]), int(watch[core.DEPTH]), now - began)

    try:
        if not wait_until_done(joined, deadline, tick):
            watch[core.STOP] = 1
            thread.join()
            stopped = reached(int(watch[core.DEPTH]))
            raise time_limit(budget.seconds or 0, int(watch[core.STATES]), stopped)
    except BaseException:
        watch[core.STOP] = 1
        thread.join()
        raise
    finally:
        if budget.progress is not None:
            budget.progress.done()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _states(result: tuple[Any, ...]) -> int:
    """How many states a core search reached, from what it returned."""
    return result[1] if isinstance(result[1], int) else len(result[1])
