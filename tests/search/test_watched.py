"""A search watched while it runs (rhasp.search.watched): a handle stops it from another
thread, at once or past a number of states, as its state limit would."""

from __future__ import annotations

import threading
import time

import pytest

from rhasp import search
from rhasp.api import read
from rhasp.errors import SearchLimit
from rhasp.limits import Budget
from rhasp.search import core, watched
from rhasp.search.watched import Handle
from tests.boards import PUZZLES
from tests.search.test_search import core_mode

LEFT12 = PUZZLES / "large" / "left12.txt"  # BFS walks millions of states before its plan


@pytest.mark.parametrize("mode", ["always", "never"])
def test_a_handle_marked_past_n_states_stops_the_search_where_a_limit_of_n_would(mode):
    puzzle = read(LEFT12)
    with core_mode(mode):
        with pytest.raises(SearchLimit) as limited:
            search.fewest_moves(puzzle.board, puzzle.start, Budget(states=5_000))
        handle = Handle()
        handle.stop_past(5_000)  # before the search starts: it is marked as it is attached
        with pytest.raises(SearchLimit) as marked:
            search.fewest_moves(puzzle.board, puzzle.start, Budget(handle=handle))
    assert marked.value.limit.reached == limited.value.limit.reached > 5_000
    assert handle.states == marked.value.limit.reached


def test_a_handle_stops_a_running_search_from_another_thread():
    puzzle, handle = read(LEFT12), Handle()
    stopped: list[BaseException] = []

    def solve() -> None:
        try:
            search.fewest_moves(puzzle.board, puzzle.start, Budget(handle=handle))
        except SearchLimit as limit:
            stopped.append(limit)

    with core_mode("always"):
        thread = threading.Thread(target=solve, daemon=True)
        thread.start()
        while handle.states < 20_000:
            time.sleep(0.01)
        handle.stop_past(handle.states - 1)  # past it already: at once
        thread.join(5)
    assert not thread.is_alive() and stopped
    assert 20_000 <= stopped[0].limit.reached < 5_000_000  # BFS needs millions more


def test_a_lower_mark_stays():
    watch = [0, 0, 0]
    handle = Handle()
    handle.attach(watch)
    handle.stop_past(100)
    handle.stop_past(1_000)
    assert watch[core.STOP] == 101
    handle.stop()
    assert watch[core.STOP] == 1


def test_a_limit_past_the_most_a_store_keeps_says_where_the_search_stopped():
    """A budget past MOST_STATES (Budget's own default, on a machine of much memory) stops
    the search at MOST_STATES: its limit says so, not the budget it never reached."""
    watch = [0] * (max(core.STATES, core.DEPTH) + 1)
    watch[core.STATES] = search.MOST_STATES
    reached = watched.reached_by(core.breadth_first, {"stop_at_goal": True})
    stopped = watched.limit(watch, reached, Budget(states=search.MOST_STATES * 2))
    assert stopped.limit.amount == search.MOST_STATES
    assert watched.limit(watch, reached, Budget(states=5)).limit.amount == 5
