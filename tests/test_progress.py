"""One progress protocol (rhasp.progress): an enumeration and an ASP proof report through it
in order, and a display written for fewer calls still follows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import rhasp
from rhasp import enumeration
from rhasp.progress import Silent, UntilMuted
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
    """A display without ``proved``."""

    seen: list[int]

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        self.seen.append(depth)

    def stop(self) -> None:
        pass


def test_a_display_without_proved_still_follows_an_asp_proof():
    shown = OnlySearching([])
    assert rhasp.solve(card(1), progress=shown, confirm=False).moves == 8
    assert shown.seen


def test_a_search_beside_another_shows_its_progress_until_muted():
    shown = SearchRecorder()
    beside = UntilMuted(shown)
    beside.searching(10, 1, 0.1, "depth")
    beside.mute()
    beside.searching(20, 2, 0.2, "depth")
    beside.stop()  # its end, after A* took the display, clears nothing
    assert shown.calls == [("searching", 10)]


class SearchRecorder(Silent):
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        self.calls.append(("searching", states))

    def stop(self) -> None:
        self.calls.append(("stop", None))
