"""The terminal's displays of running work (:class:`rhasp.progress.Progress`): a live line for
a long search or proof, a line for ``rhasp generate``, a bar for a deck or an enumeration.
Each writes through a :class:`Screen`."""

from __future__ import annotations

import math
import sys
import time
from typing import Any

from rich.console import Console, RenderableType
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, TaskID, TextColumn, TimeRemainingColumn
from rich.progress import Progress as Bar  # rich's bar; rhasp's Progress is rhasp.progress's
from rich.text import Text

from rhasp.errors import counted
from rhasp.progress import Silent


class Screen:
    """Where a display writes, on ``console``.

    On a terminal, one region that :meth:`draw` rewrites in place (rich's ``Live``), begun
    at the first draw: a line, redrawn at each draw and wiped by :meth:`stop`; or, with
    ``bar``, a bar that redraws itself ten times a second (its time left moves between
    advances) and stays when stopped. While a bar is shown, what the program writes to
    standard output goes above it when standard output is a terminal too, and to standard
    output, untouched, when it is a file or a pipe. Off a terminal :meth:`draw` does nothing
    and nothing writes an escape: :meth:`now_and_then` prints a plain line at most once every
    ``every`` seconds instead."""

    def __init__(self, console: Console, every: float = math.inf, bar: bool = False) -> None:
        self.console = console
        self.every = every
        self.bar = bar
        self.live: Live | None = None
        self.last = -math.inf  # when the last plain line was printed

    @property
    def terminal(self) -> bool:
        return self.console.is_terminal

    def draw(self, shown: RenderableType) -> None:
        """Show ``shown`` in the region, on a terminal (a bar is drawn once: it redraws
        itself)."""
        if not self.terminal:
            return
        if self.live is None:
            self.live = Live(
                shown,
                console=self.console,
                auto_refresh=self.bar,
                refresh_per_second=10,
                transient=not self.bar,
                redirect_stdout=self.bar and is_a_terminal(sys.stdout),
                redirect_stderr=self.bar,
            )
            self.live.start()
        self.live.update(shown, refresh=True)

    def now_and_then(self, text: str, now: float) -> bool:
        """Print ``text`` as a line of its own if ``every`` seconds have passed since the last
        one (``now``, by :func:`time.perf_counter`); whether it did."""
        if now - self.last < self.every:
            return False
        self.last = now
        self.say(text)
        return True

    def say(self, text: str) -> None:
        """A line of its own, as written (no markup read in it)."""
        self.console.print(text, markup=False)

    def stop(self) -> None:
        """End the region: wiped if a line, left as it stands if a bar."""
        if self.live is not None:
            self.live.stop()
            self.live = None


def is_a_terminal(stream: Any) -> bool:
    """Whether ``stream`` (``sys.stdout``, which may be None or a stand-in) is a terminal."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class LiveLine(Silent):
    """One line on a terminal that a long computation rewrites as it goes.

    Silent for the first ``after`` seconds (most work is over by then) and off the terminal:
    a pipe or a JSON consumer never sees it. ``stop`` wipes the line before the answer
    prints."""

    def __init__(self, console: Console, after: float = 1.0, every: float = math.inf) -> None:
        self.screen = Screen(console, every)
        self.after = after

    def show(self, text: str, seconds: float) -> None:
        """The line reads ``text`` from now on, ``seconds`` into the work."""
        if seconds >= self.after:
            self.screen.draw(Text(text, end=""))

    def stop(self) -> None:
        self.screen.stop()


class ProofProgress(LiveLine):
    """The live line of a long ASP proof: horizon (the depth), time so far, memo size (the
    states)."""

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        memo = f" · {states:,} states in the memo" if states else ""
        self.show(f"proving horizon {depth} · {seconds:.1f} s{memo}", seconds)


class SearchLine(LiveLine):
    """The live line of a long search: states found, depth (or A*'s f-value), rate."""

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        rate = states / seconds if seconds > 0 else 0
        text = f"searching: {counted(states, 'state')} · {measure} {depth} · {rate:,.0f} states/s"
        self.show(text, seconds)


class GenerateProgress(LiveLine):
    """The progress of ``rhasp generate``: boards scored, the deepest puzzle proven so far,
    puzzles kept and the seconds to its time limit (a bound, not an estimate); on a terminal
    a live line, else a plain line every ``every`` seconds, and at the end one with the final
    figures if they moved since."""

    def __init__(self, console: Console, every: float = 30.0) -> None:
        super().__init__(console, every=every)
        self.began = time.perf_counter()
        self.screen.last = self.began
        self.tally: Any = None  # the run's own count, which goes on after the last advance
        self.printed: str | None = None  # the figures of the last plain line

    @property
    def every(self) -> float:
        """The seconds between plain lines, off a terminal."""
        return self.screen.every

    @every.setter
    def every(self, seconds: float) -> None:
        self.screen.every = seconds

    def advance(self, tally: Any) -> None:
        self.tally = tally
        now = time.perf_counter()
        text = f"generating: {self.figures()} · {tally.seconds_left():,.0f} s to its time limit"
        if self.screen.terminal:
            self.show(text, now - self.began)
        elif self.screen.now_and_then(text, now):
            self.printed = self.figures()

    def figures(self) -> str:
        tally = self.tally
        deepest = "none yet" if tally.deepest is None else counted(tally.deepest, "move")
        boards, kept = counted(tally.boards, "board"), counted(tally.kept, "puzzle")
        return f"{boards} · deepest {deepest} · {kept} kept"

    def stop(self) -> None:
        super().stop()
        if self.printed is not None and self.figures() != self.printed:
            self.printed = self.figures()
            self.screen.say(f"generated: {self.printed}")


class DeckProgress(Silent):
    """A progress bar with rate and ETA on a terminal, else a plain line every few seconds."""

    doing, unit = "solving", "puzzles"  # the bar's description, and what it counts

    def __init__(self, console: Console, every: float = 5.0) -> None:
        self.console = console
        self.screen = Screen(console, every, bar=True)
        self.bar: Bar | None = None
        self.task: TaskID | None = None
        self.began = 0.0
        self.total = self.skipped = 0
        self.latest: Any = None  # the last tally shown
        self.first: tuple[float, int] | None = None  # when the first result came, and the count

    def start(self, total: int, skipped: int, resumed: Any = None) -> None:
        self.total, self.skipped = total, skipped
        self.began = self.screen.last = time.perf_counter()
        if skipped:
            self.screen.say(f"resuming: {skipped:,} {self.unit} already done, {total:,} to go")
        if self.screen.terminal:
            self.bar = Bar(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeRemainingColumn(),
                console=self.console,
            )
            self.task = self.bar.add_task(self.doing, total=total, rate="")
            self.screen.draw(self.bar)

    def advance(self, tally: Any) -> None:
        self.latest = tally
        now = time.perf_counter()
        done = self.count(tally)
        if self.first is None:
            self.first = (now, done)
        if self.bar is not None and self.task is not None:
            # Drawn by the bar's own refreshes: an advance costs no redraw.
            self.bar.update(self.task, completed=done, rate=self.detail(tally, now - self.began))
            return
        line = f"{done:,}/{self.total:,} {self.unit} · {self.detail(tally, now - self.began)}"
        left = self.seconds_left(now, done)
        self.screen.now_and_then(line if left is None else f"{line} · {left:,.0f} s left", now)

    def seconds_left(self, now: float, done: int) -> float | None:
        """The time the rest takes at the pace since the first result, or None before a second
        one: the wait for the first result (start-up, compiling the search core on a fresh
        install) says nothing of the pace."""
        began, first = self.first or (now, done)
        if done <= first:
            return None
        return (self.total - done) * (now - began) / (done - first)

    def count(self, tally: Any) -> int:
        """How much of the total this run has done: the tally counts the records a resumed
        run kept too."""
        return tally.puzzles - self.skipped

    def detail(self, tally: Any, seconds: float) -> str:
        """What the line says besides the count: the rate."""
        return f"{self.count(tally) / max(seconds, 1e-9):,.0f}/s"

    def stop(self) -> None:
        self.screen.stop()

    def kept(self) -> str:
        """What a run stopped now keeps, counting what it resumed from: ``12 of 40 puzzles``."""
        done = self.skipped + (self.count(self.latest) if self.latest is not None else 0)
        return f"{done:,} of {self.skipped + self.total:,} {self.unit}"

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.began


class EnumerationProgress(DeckProgress):
    """The progress of ``rhasp enumerate``: shards done, layouts a second, puzzles found, ETA.
    On a resumed run, what was done before is counted in neither the bar nor the rate."""

    doing, unit = "enumerating", "shards"

    def __init__(self, console: Console, every: float = 30.0) -> None:
        super().__init__(console, every)
        self.layouts_before = 0  # layouts done before this run

    def note(self, text: str) -> None:
        """A line on what an earlier run's files held (what ``--resume`` verified)."""
        self.screen.say(text)

    def start(self, total: int, skipped: int, resumed: Any = None) -> None:
        """``resumed``, the tally of the shards kept, is counted in neither bar nor rate."""
        self.layouts_before = 0 if resumed is None else resumed.layouts
        super().start(total, skipped, resumed)

    def count(self, tally: Any) -> int:
        return tally.shards - self.skipped

    def detail(self, tally: Any, seconds: float) -> str:
        rate = (tally.layouts - self.layouts_before) / max(seconds, 1e-9)
        return f"{rate:,.0f} layouts/s · {counted(tally.puzzles, 'puzzle')}"
