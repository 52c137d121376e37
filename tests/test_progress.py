"""One progress protocol (rhasp.progress): an enumeration reports through it in order, and the
terminal's display of a resumed enumeration counts only what this run did."""

from __future__ import annotations

import io
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from rich.console import Console

import rhasp
from rhasp import enumeration, output
from rhasp.progress import Silent
from tests.boards import card


class Recorder(Silent):
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def start(self, total: int, skipped: int, resumed: Any = None) -> None:
        self.calls.append(("start", (total, skipped, resumed.shards)))

    def advance(self, tally: Any) -> None:
        self.calls.append(("advance", tally.shards))

    def stop(self) -> None:
        self.calls.append(("stop", None))


def test_an_enumeration_reports_start_each_shard_and_stop(capsys):
    options = enumeration.Options(size=4)
    recorder = Recorder()
    tally = enumeration.run_enumeration(options, max_states=100_000, progress=recorder)
    total = tally.shards
    assert total >= enumeration.SHARDS_AT_LEAST[4]
    # Started with nothing skipped (the figures it starts at: no shard), then each shard.
    expected = [("start", (total, 0, 0)), *(("advance", n) for n in range(1, total + 1))]
    expected.append(("stop", None))
    assert recorder.calls == expected
    assert len(capsys.readouterr().out.splitlines()) == tally.puzzles


@dataclass
class Figures:
    shards: int
    layouts: int
    puzzles: int


def test_a_resumed_enumerations_line_counts_this_runs_layouts_only(monkeypatch):
    clock = iter([100.0, 102.0, 103.0])
    monkeypatch.setattr(output.time, "perf_counter", lambda: next(clock))
    screen = io.StringIO()
    shown = output.EnumerationProgress(Console(file=screen, force_terminal=False), every=0.0)
    # At 100 s: 2 shards done before (1,000 layouts), 4 to go.
    shown.start(4, 2, Figures(shards=2, layouts=1_000, puzzles=5))
    shown.advance(Figures(shards=3, layouts=1_600, puzzles=7))  # at 102 s
    shown.advance(Figures(shards=4, layouts=1_900, puzzles=8))  # at 103 s
    # 600 layouts in 2 s, then 900 in 3 s; no pace before the second shard, then 1 shard in
    # the 1 s since the first, so the 2 left take 2 s.
    assert screen.getvalue().splitlines() == [
        "resuming: 2 shards already done, 4 to go",
        "1/4 shards · 300 layouts/s · 7 puzzles",
        "2/4 shards · 300 layouts/s · 8 puzzles · 2 s left",
    ]
    assert shown.kept() == "4 of 6 shards"


def test_the_time_left_leaves_out_the_wait_for_the_first_result(monkeypatch):
    # Issue 55: a fresh install compiles the search core before the first shard (here 60 s),
    # then shards come every second: 8 left at that pace take 8 s, not 8 x 30.5.
    clock = iter([0.0, 60.0, 61.0, 62.0])
    monkeypatch.setattr(output.time, "perf_counter", lambda: next(clock))
    screen = io.StringIO()
    shown = output.DeckProgress(Console(file=screen, force_terminal=False), every=0.0)
    shown.start(10, 0)
    for done in (1, 2):
        shown.advance(SimpleNamespace(puzzles=done))
    assert screen.getvalue().splitlines()[-1].endswith("· 8 s left")


class Horizons(Silent):
    def __init__(self) -> None:
        self.started: list[int] = []
        self.ended: list[tuple[int, int | None]] = []

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        if not self.started or self.started[-1] != depth or len(self.ended) == len(self.started):
            self.started.append(depth)

    def proved(self, horizon: int, plan: int | None) -> None:
        self.ended.append((horizon, plan))


def test_an_asp_proof_reports_each_horizon_and_how_it_ended():
    # Card 1 takes 8 moves (by hand): each horizon solved ends with a plan of 8 or more
    # steps, or none of that many or fewer below 8; the last has none of 7 or fewer.
    shown = Horizons()
    solution = rhasp.solve(card(1), progress=shown, confirm=False)
    assert solution.moves == 8 and shown.ended[-1] == (7, None)
    assert shown.started == [horizon for horizon, _ in shown.ended]
    for horizon, plan in shown.ended:
        assert horizon < 8 if plan is None else 8 <= plan <= horizon


@dataclass
class OnlySearching:
    """A display written before the protocol had ``proved``."""

    seen: list[int]

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        self.seen.append(depth)

    def stop(self) -> None:
        pass


def test_a_display_without_proved_still_follows_an_asp_proof():
    shown = OnlySearching([])
    assert rhasp.solve(card(1), progress=shown, confirm=False).moves == 8
    assert shown.seen
