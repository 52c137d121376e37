"""A cluster reached (rhasp.search.clusters.reach) says what the cluster explored whole says
(clusters.cluster) and no more: its size and its first state's fewest moves, compiled or
not, and what card 1 and a way barred by a wall give by hand. The cluster's distances in
slides are every state's fewest slides by the readable model's own search."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from rhasp.engines import reference
from rhasp.model import plan_slides
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
    whole = clusters.cluster(g, key, BUDGET, core.new_buffer(core.WATCH_FIELDS), False)
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


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_side=5, max_others=4, max_targets=1))
def test_the_slides_to_the_goal_are_each_states_fewest_slides(puzzle):
    # Every state of the cluster (targets staying, as clusters are counted): its slides to
    # the nearest goal against the readable model's Dijkstra from it (where the target
    # leaves, as it does on reaching its exit edge); compiled, the same list.
    geometry = Geometry.of(puzzle.board, targets_leave=False)
    g, key = geometry.tables, geometry.key(puzzle.placement)
    found = clusters.cluster(g, key, BUDGET, core.new_buffer(core.WATCH_FIELDS), True)
    if found[0] == core.BUDGET:
        return
    order, slides = found[1], found[6]
    for state_key, fewest in zip(order, slides, strict=True):
        plan, _ = reference.fewest_slides(
            puzzle.board, puzzle.board.settle(geometry.state(state_key))
        )
        assert fewest == (-1 if plan is None else plan_slides(plan))
    if jit is not None:
        compiled = jit.cluster(jit.tables(g), jit.key(g, key), BUDGET, jit.watch(), True)
        assert [int(d) for d in compiled[6]] == list(slides)
