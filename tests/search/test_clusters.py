"""A cluster reached (rhasp.search.clusters.reach) says what the cluster explored whole says
(clusters.cluster) and no more: its size and its first state's fewest moves, compiled or
not, and what card 1 and a way barred by a wall give by hand."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from rhasp.search import clusters, core
from rhasp.search.compiled import compiled_core
from rhasp.search.geometry import Geometry
from tests.boards import card, crowded_puzzles, grid, puzzles
from tests.volume import examples

BUDGET = 3_000

#: Loaded as the runner loads it (tests/search/test_jit.py says why).
jit = compiled_core()


def tables_and_key(puzzle) -> tuple[core.Tables, int]:
    geometry = Geometry.of(puzzle.board, targets_leave=False)  # as clusters are counted
    return geometry.tables, geometry.key(puzzle.placement)


def reached(puzzle, budget: int = BUDGET) -> tuple[int, int]:
    g, key = tables_and_key(puzzle)
    return clusters.reach(g, key, budget, core.new_buffer(core.WATCH_FIELDS))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles() | crowded_puzzles(max_side=8))
def test_reach_finds_the_size_and_the_distance_the_whole_cluster_finds(puzzle):
    g, key = tables_and_key(puzzle)
    whole = clusters.cluster(g, key, BUDGET, core.new_buffer(core.WATCH_FIELDS))
    count, distance = reached(puzzle)
    assert count == whole[0]
    if count != core.BUDGET:
        assert distance == whole[4][0]  # the first state's distance to the nearest goal


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles() | crowded_puzzles(max_side=8))
def test_the_compiled_reach_returns_what_the_core_returns(puzzle):
    if jit is None:
        pytest.skip("no compiled core here")
    g, key = tables_and_key(puzzle)
    found = jit.reach(jit.tables(g), jit.key(g, key), BUDGET, jit.watch())
    assert (int(found[0]), int(found[1])) == reached(puzzle)


def test_reach_counts_card_1_at_8_moves():
    assert reached(card(1))[1] == 8  # the card's solution, counted by hand


def test_reach_says_no_goal_where_a_wall_bars_the_way():
    puzzle = grid(
        """
        ....
        AA.x
        ....
        ....
        """
    )
    assert reached(puzzle) == (2, -1)  # the target's two places, neither at its exit edge


def test_reach_stops_at_its_budget():
    count, _ = reached(card(40), budget=10)
    assert count == core.BUDGET
