"""A search watched while it runs: its progress shown, stopped when its time is up, on Ctrl-C
or SIGTERM, or when the runner switches it to the compiled core; and the lines that say where
a limit stopped it. The search writes its watch (states, depth, stop flag; see
:mod:`rhasp.search.core`) and reads the stop flag; this module runs it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rhasp.errors import SearchLimit
from rhasp.limits import PROGRESS_EVERY, Budget, state_limit, time_limit, wait_until_done
from rhasp.search import core, store

#: A bound that is no bound, for work bounded otherwise (an int64 holds it).
UNLIMITED = 1 << 62


def at_depth(depth: int) -> str:
    """How a limit line says where a breadth-first search stopped."""
    return f"at depth {depth}"


def interruptibly(work: Callable[[], Any]) -> None:
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


class Handle:
    """How another thread stops the searches run with a budget that carries this handle
    (:attr:`Budget.handle <rhasp.limits.Budget.handle>`): at once, or once they have found
    more than a number of states, a state limit lowered while they run (the BFS beside A*,
    whose share is known only when A* ends: :func:`rhasp.solving.raced`). A search is
    attached as it starts, and one attached later (restarted compiled) stops as the mark
    says. Stopped so, a search ends as at its state limit (a :class:`SearchLimit`)."""

    def __init__(self) -> None:
        self._watches: list[Any] = []
        self._mark = 0  # the watch's stop mark (see rhasp.search.core): 0, none
        self._guard = threading.Lock()

    def attach(self, watch: Any) -> None:
        """Follow the search that writes ``watch`` (before it starts)."""
        with self._guard:
            self._watches.append(watch)
            self._marked(watch)

    def stop_past(self, states: int) -> None:
        """Stop the searches once they have found more than ``states`` states (at once if
        they have); a mark already lower stays."""
        with self._guard:
            self._mark = max(1, states + 1) if self._mark == 0 else min(self._mark, states + 1)
            for watch in self._watches:
                self._marked(watch)

    def stop(self) -> None:
        """Stop the searches at once."""
        self.stop_past(0)

    @property
    def states(self) -> int:
        """The states found so far by the search attached last (0 before any)."""
        with self._guard:
            return int(self._watches[-1][core.STATES]) if self._watches else 0

    def _marked(self, watch: Any) -> None:
        if self._mark and (watch[core.STOP] == 0 or watch[core.STOP] > self._mark):
            watch[core.STOP] = self._mark


@dataclass(frozen=True)
class Reached:
    """How a limit line says where a search stopped (``words``, from the number its watch
    holds), and what that number proves: every plan takes at least ``proven(number)`` moves
    or slides (None: nothing)."""

    words: Callable[[int], str]
    proven: Callable[[int], int | None]

    def __call__(self, number: int) -> str:
        return self.words(number)


def at_least(reached: Callable[[int], str], watch: Sequence[int]) -> int | None:
    """What a search stopped with ``watch`` proved every plan takes, if ``reached`` says."""
    return reached.proven(int(watch[core.DEPTH])) if isinstance(reached, Reached) else None


def limit(watch: Sequence[int], reached: Callable[[int], str], budget: Budget) -> SearchLimit:
    """The state limit a search's ``watch`` met: ``budget``'s states, at most the
    ``MOST_STATES`` the store keeps (where the search stopped, whatever its budget), or,
    where the caller gave the bound as an argument instead, the states counted."""
    amount = min(budget.states, store.MOST_STATES) if budget.states < UNLIMITED else None
    depth = reached(int(watch[core.DEPTH]))
    return state_limit(int(watch[core.STATES]), depth, amount, at_least(reached, watch))


def reached_by(search: Callable[..., Any], flags: dict[str, Any]) -> Callable[[int], str]:
    """How a limit line says where ``search`` stopped, from the number its watch holds, and
    what it proves (:class:`Reached`): a breadth-first search's depth, whose layer it had
    found whole, so that a plan to the goal takes at least one move more; or A*'s f-value
    (Dijkstra's cost), the smallest cost so far plus lower bound still queued, which every
    plan reaches (so it is a proven lower bound on the optimum). Weighted A* (``weight``
    above 1) counts its bound several times over: its f-value proves nothing."""
    if search in (core.best_first, core.cheapest):
        by_slides = search is core.cheapest or flags.get("by_slides")  # cheapest: by slides
        unit = "slides" if by_slides else "moves"
        bounded = search is core.best_first and flags.get("bounded", True)
        if flags.get("weight", 1) != 1:
            return lambda f: f"at weighted f-value {f}"
        measure = "f-value" if bounded else "cost"
        words = lambda f: f"at {measure} {f}, so every plan takes at least {f} {unit}"  # noqa: E731
        return Reached(words, lambda f: f)
    if search is core.breadth_first and flags.get("stop_at_goal"):
        return Reached(at_depth, lambda depth: depth + 1)
    return at_depth


class Watched:
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
                proven = at_least(self.reached, watch)
                raise time_limit(budget.seconds or 0, int(watch[core.STATES]), stopped, proven)
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
