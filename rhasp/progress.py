"""The one way running work says how far it has got.

A search (BFS, A*, an ASP horizon), a deck and an enumeration all report through
:class:`Progress`, so that one display, or one recorder in a test, can follow any of them.
What reports what:

- a running search calls :meth:`Progress.searching` every quarter of a second or so (the
  search runner for the core's searches, the ASP engine between solver slices), the ASP
  engine :meth:`Progress.proved` as each horizon ends, then :meth:`Progress.stop` when it
  ends, however it ends;
- a run of many jobs (a deck, an enumeration) calls :meth:`Progress.note` for what it found
  before starting, :meth:`Progress.start` once, :meth:`Progress.advance` after every job with
  its running tally, then :meth:`Progress.stop`.

:class:`Silent` does nothing for every call, so a display shows only what it cares about
(:mod:`rhasp.output.progress` holds the terminal's).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


class Progress(Protocol):
    """Where running work reports (module docstring)."""

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        """A search has found ``states`` states (for ASP: boards in its memo) and reached
        ``depth``, in the unit ``measure`` names (``depth``, A*'s ``f``, an ASP ``horizon``)."""

    def proved(self, horizon: int, plan: int | None) -> None:
        """An ASP horizon's solve ended: a plan of ``plan`` steps (``horizon`` or fewer), or
        None: no plan of ``horizon`` steps or fewer, proven."""

    def note(self, text: str) -> None:
        """A line about what an earlier run left (what ``--resume`` verified)."""

    def start(self, total: int, skipped: int, resumed: Any = None) -> None:
        """``total`` jobs to do, ``skipped`` done by an earlier run, whose figures are
        ``resumed`` when the run keeps a tally of them (an enumeration's)."""

    def advance(self, tally: Any) -> None:
        """One more job done; ``tally`` is the run's figures so far (deck's or enumeration's)."""

    def stop(self) -> None:
        """The work ended (done, stopped or failed): clear what is shown."""


class Silent:
    """A :class:`Progress` that shows nothing: the base of displays that show only a part."""

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        pass

    def proved(self, horizon: int, plan: int | None) -> None:
        pass

    def note(self, text: str) -> None:
        pass

    def start(self, total: int, skipped: int, resumed: Any = None) -> None:
        pass

    def advance(self, tally: Any) -> None:
        pass

    def stop(self) -> None:
        pass


class UntilMuted:
    """``shown`` (None: nothing) until :meth:`mute`, then nothing: a search run beside another
    shows its progress while it runs alone, then leaves the display to the other."""

    def __init__(self, shown: Progress | None) -> None:
        self.shown: Progress = Silent() if shown is None else shown

    def mute(self) -> None:
        self.shown = Silent()

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        self.shown.searching(states, depth, seconds, measure)

    def proved(self, horizon: int, plan: int | None) -> None:
        self.shown.proved(horizon, plan)

    def note(self, text: str) -> None:
        self.shown.note(text)

    def start(self, total: int, skipped: int, resumed: Any = None) -> None:
        self.shown.start(total, skipped, resumed)

    def advance(self, tally: Any) -> None:
        self.shown.advance(tally)

    def stop(self) -> None:
        self.shown.stop()


@dataclass(frozen=True)
class HorizonCalls(Silent):
    """A plain function ``(horizon, seconds, memo states)`` as a :class:`Progress`, which
    ``rhasp.solve(progress=...)`` takes too."""

    function: Callable[[int, float, int], None]

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        self.function(depth, seconds, states)
