"""Hints as a server asks them: from many threads at once (one cluster search a board), and
looked up without a search once the cluster is kept."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest

from rhasp import hints, play
from rhasp.api import read
from rhasp.engines import get_engine
from rhasp.errors import SearchLimit, TimeLimit
from rhasp.hints import ClusterBook, Hint, kept_hint, next_move
from rhasp.limits import Budget, time_limit
from rhasp.static import STATIC
from tests.boards import EXAMPLES, PUZZLES, card


def counted_searches(monkeypatch, pause: float) -> list[str]:
    """Every cluster search hints start, by puzzle name; each made slow enough that the other
    threads ask while it runs."""
    searched: list[str] = []
    search = hints.cluster_graph

    def slow(puzzle, budget):
        searched.append(puzzle.name)
        time.sleep(pause)
        return search(puzzle, budget)

    monkeypatch.setattr(hints, "cluster_graph", slow)
    return searched


def test_hints_asked_at_once_share_one_search_of_the_cluster(monkeypatch):
    searched = counted_searches(monkeypatch, 0.3)
    book, puzzles = ClusterBook(), [card(1), card(6)]
    start = threading.Barrier(16)

    def ask(n: int):
        start.wait()
        return next_move(puzzles[n % 2], Budget(), book)

    with ThreadPoolExecutor(16) as pool:
        found = list(pool.map(ask, range(16)))
    assert sorted(searched) == ["card01", "card06"]  # one search a board, not one a hint
    for n, answer in enumerate(found):
        expected = get_engine("bfs", budget=Budget()).solve(puzzles[n % 2], "moves").moves
        assert answer.moves_left == expected and answer.move is not None


def test_hints_waiting_on_a_search_that_stops_at_a_limit_search_from_their_position(
    monkeypatch,
):
    searched = counted_searches(monkeypatch, 0.3)
    book, start = ClusterBook(), threading.Barrier(6)
    small = Budget(200)  # card 1's cluster has 1,247 states; a search from its start 1,058

    def ask(_: int):
        start.wait()
        try:
            return next_move(card(1), small, book)
        except Exception as error:  # the test looks at what came back
            return error

    with ThreadPoolExecutor(6) as pool:
        found = list(pool.map(ask, range(6)))
    # The waiters share the first search's limit rather than each repeating it; each then
    # searches from its position (over the budget too): a limit, never a wrong answer.
    assert len(searched) <= 2
    assert all(isinstance(outcome, SearchLimit) for outcome in found), found


def test_a_kept_hint_needs_the_cluster_searched_first():
    book, puzzle = ClusterBook(), card(1)
    assert kept_hint(puzzle, book) is None  # nothing kept yet: no search here
    searched = next_move(puzzle, Budget(), book)
    assert kept_hint(puzzle, book) == searched and searched.moves_left == 8
    later = play(puzzle, "CL3 OD3")  # in the same cluster
    assert kept_hint(later, book) == next_move(later, Budget(), book)
    assert (
        kept_hint(later, book).moves_left
        == get_engine("bfs", budget=Budget()).solve(later, "moves").moves
    )
    solved = play(puzzle, "CL3 OD3 AR1 PU1 BU1 RL2 QD2 XR5")
    assert kept_hint(solved, ClusterBook()) == Hint(None, 0, puzzle=solved)
    assert kept_hint(card(2), book) is None  # another board


def test_the_kept_clusters_stay_within_their_states(monkeypatch):
    searched = counted_searches(monkeypatch, 0)
    one, two = card(1), card(2)
    book = ClusterBook(states=1_300)  # card 1's cluster has 1,247 states (tests/test_api.py)
    next_move(one, Budget(10**6), book)
    assert book.kept(one) is not None
    next_move(two, Budget(10**6), book)  # kept too: the least recently used board goes
    assert book.kept(one) is None and book.kept(two) is not None
    assert searched == ["card01", "card02"]


def test_a_board_too_large_to_keep_is_searched_from_the_position_and_remembered(monkeypatch):
    searched = counted_searches(monkeypatch, 0)
    monkeypatch.setattr(hints, "CLUSTER_STATES", 100)  # card 1's cluster is over it
    book = ClusterBook()
    bfs = get_engine("bfs", budget=Budget()).solve(card(1), "moves")
    for _ in range(2):
        found = next_move(card(1), Budget(10**6), book)
        assert found.moves_left == bfs.moves  # from a search of its own
        assert play(card(1), (found.move,)) is not None
    assert searched == ["card01"]  # the second hint did not try the cluster again


def test_a_cluster_search_out_of_time_ends_the_hint_and_is_not_taken_for_a_large_board(
    monkeypatch,
):
    search = hints.cluster_graph
    calls: list[str] = []

    def out_of_time_once(puzzle, budget):
        calls.append(puzzle.name)
        if len(calls) == 1:
            raise time_limit(0.2, 1_000, "at depth 3")
        return search(puzzle, budget)

    monkeypatch.setattr(hints, "cluster_graph", out_of_time_once)
    book = ClusterBook()
    with pytest.raises(TimeLimit, match=r"time limit of 0\.2 s"):
        next_move(card(1), Budget(10**6, seconds=0.2), book)  # no BFS with fresh time after it
    found = next_move(card(1), Budget(10**6), book)  # searched again: the board is not "large"
    assert found.moves_left == get_engine("bfs", budget=Budget()).solve(card(1), "moves").moves
    assert calls == ["card01", "card01"]


def test_a_position_static_analysis_proves_unsolvable_has_no_hint_and_no_search():
    # walled12's target faces a wall: the solve policy says so at once; a hint searched its
    # cluster (millions of states) to the limit, then the position, before this.
    walled12 = read(PUZZLES / "large" / "walled12.txt")
    assert next_move(walled12, Budget(states=1_000), ClusterBook()) == Hint(
        None, None, STATIC, puzzle=walled12
    )


def test_a_hint_prints_as_rhasp_hint_says_it_in_card_notation():
    # 4×4 by hand: only BL1 lets A down (BR1 keeps column 3 shut), then AD2, then XR2.
    four = read(EXAMPLES / "4x4.txt")
    shown = [str(next_move(play(four, plan), Budget(), ClusterBook())) for plan in ("", "BL1")]
    assert shown == [
        "4x4 · next move BL1 · 3 moves left · proven by bfs",
        "4x4 · next move AD2 · 2 moves left · proven by bfs",  # A is vertical: down
    ]
    solved = next_move(play(four, "BL1 AD2 XR2"), Budget(), ClusterBook())
    assert str(solved) == "4x4 · solved"
    assert repr(solved) == "Hint(move=None, moves_left=0, proven_by='bfs')"  # for debugging


def test_a_hint_shows_in_ipython_as_it_prints():
    hint = next_move(read(EXAMPLES / "4x4.txt"), Budget(), ClusterBook())
    shown: list[str] = []
    hint._repr_pretty_(SimpleNamespace(text=shown.append), cycle=False)
    assert shown == ["4x4 · next move BL1 · 3 moves left · proven by bfs"]
