"""The fast bitboard core must agree with the reference search on the readable model."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from rhasp.engines import bitboard, reference
from rhasp.engines.bitboard import Geometry
from rhasp.model import plan_slides, replay
from tests.boards import card, example, puzzles


def agree(puzzle) -> None:
    board, start = puzzle.board, puzzle.start
    fast_plan, fast_explored = bitboard.fewest_moves(board, start)
    slow_plan, slow_explored = reference.fewest_moves(board, start)
    # Same successor order, so BFS gives the very same plan and count.
    assert (fast_plan, fast_explored) == (slow_plan, slow_explored)
    fast_plan, fast_explored = bitboard.fewest_slides(board, start)
    slow_plan, slow_explored = reference.fewest_slides(board, start)
    if slow_plan is None:
        assert fast_plan is None and fast_explored == slow_explored
        return
    # Dijkstra ties may break differently; the optimum (slides, then moves) is the same.
    assert (plan_slides(fast_plan), len(fast_plan)) == (plan_slides(slow_plan), len(slow_plan))
    assert replay(puzzle, fast_plan).solved


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_fast_core_agrees_with_the_reference_on_random_boards(puzzle):
    agree(puzzle)


@pytest.mark.parametrize("number", [1, 13, 26, 40])
def test_fast_core_agrees_on_cards(number):
    agree(card(number))


@pytest.mark.parametrize("name", ["4x4", "walls", "unsolvable", "two-targets", "limousine",
                                  "vertical-target"])  # fmt: skip
def test_fast_core_agrees_on_the_examples(name):
    agree(example(name))


def test_keys_and_occupancy_round_trip():
    puzzle = card(1)
    geometry = Geometry.of(puzzle.board)
    key = geometry.key(puzzle.start)
    rows = puzzle.board.grid(puzzle.start)
    cells = sum(
        1 << (r * 6 + c) for r, row in enumerate(rows) for c, x in enumerate(row) if x != "."
    )
    assert geometry.occupancy(key) == cells
    moves = {geometry.move(key, after) for after in geometry.neighbours(key)}
    assert moves == {move for move, _ in puzzle.board.successors(puzzle.start)}


def test_cluster_of_the_4x4_board_counted_by_hand():
    # A has 3 places; with A in the top two, X is stuck left and B takes any of 3 places;
    # with A at the bottom, B is stuck left and X (which may stand at its exit) takes 3.
    puzzle = example("4x4")
    assert bitboard.cluster_size(puzzle.board, puzzle.placement) == 9


@pytest.mark.parametrize("number", [1, 40])
def test_goal_distances_equal_the_searched_lengths(number):
    puzzle = card(number)
    geometry, distance = bitboard.goal_distances(puzzle.board, puzzle.placement)
    assert distance[geometry.key(puzzle.placement)] == len(
        bitboard.fewest_moves(puzzle.board, puzzle.start)[0]
    )
    # Every state of the cluster: its distance is what the search finds from it.
    sample = sorted(distance)[:: max(1, len(distance) // 25)]
    for key in sample:
        start = puzzle.board.settle(geometry.state(key))
        plan, _ = reference.fewest_moves(puzzle.board, start)
        assert len(plan) == distance[key]
    if number == 40:
        assert max(distance.values()) == 51  # card 40 is the hardest state of its cluster


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_others=5))
def test_one_pass_solve_and_count_agrees_with_the_separate_searches(puzzle):
    if len(puzzle.board.targets) != 1:
        return
    plan, _, size = bitboard.solve_and_count(puzzle.board, puzzle.placement)
    expected, _ = reference.fewest_moves(puzzle.board, puzzle.start)
    assert (plan is None) == (expected is None)
    if plan is not None:
        assert len(plan) == len(expected)
        assert replay(puzzle, plan).solved
    assert size == bitboard.cluster_size(puzzle.board, puzzle.placement)
