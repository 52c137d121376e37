"""The BFS oracle (fast core) against hand counts and the card backs."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from rhasp.engines import get_engine
from rhasp.limits import Budget
from rhasp.model import plan_slides, replay
from rhasp.notation import parse_plan
from rhasp.search import fewest_moves, fewest_slides
from tests import reference
from tests.boards import CARD_MOVES, card, card_backs, card_rows, example, puzzles
from tests.volume import examples

# Minimal slides: no published source; computed once with rhasp's reference Dijkstra, and
# confirmed in every run by the naive unit-slide BFS in tests/reference.py (no code shared with
# rhasp), test_card_slides_agree_with_the_naive_reference. Each is at most the card back's
# count, as test_card_backs_solve_in_the_minimal_moves checks.
CARD_SLIDES = [
    16,
    14,
    33,
    22,
    18,
    18,
    21,
    22,
    17,
    32,
    56,
    33,
    32,
    34,
    32,
    41,
    47,
    60,
    44,
    18,
    49,
    46,
    49,
    50,
    52,
    49,
    57,
    51,
    54,
    55,
    69,
    62,
    77,
    71,
    75,
    63,
    65,
    77,
    82,
    81,
]

# Hand counts, written in the examples' own comments: (moves, slides), None for no solution.
EXAMPLES = {
    "4x4": (3, 5),
    "walls": (3, 7),
    "unsolvable": None,
    "two-targets": (3, 6),
    "limousine": (2, 5),
    "vertical-target": (3, 8),
}


@pytest.mark.parametrize("number", range(1, 41))
def test_original_cards_minimal_moves_and_slides(card_solutions, number):
    by_moves = card_solutions[number, "moves"]
    by_slides = card_solutions[number, "slides"]
    assert by_moves.length == CARD_MOVES[number - 1]
    assert by_slides.length == CARD_SLIDES[number - 1]
    for solution in (by_moves, by_slides):
        assert replay(solution.puzzle, solution.plan).solved
        assert solution.proofs == ("bfs",)
    # Fewest slides may cost moves, never the other way round.
    assert by_slides.moves >= by_moves.moves
    assert by_moves.slides >= by_slides.slides


@pytest.mark.parametrize("number", range(1, 41))
def test_card_slides_agree_with_the_naive_reference(number):
    """All 40 cards, about 5 s in all."""
    assert reference.fewest(card_rows(number), {"X": "right"}, "slides") == CARD_SLIDES[number - 1]


@pytest.mark.parametrize("number", range(1, 41))
def test_card_backs_solve_in_the_minimal_moves(number):
    puzzle = card(number)
    played = replay(puzzle, parse_plan(card_backs()[number], puzzle.board))
    assert played.solved
    assert len(played.moves) == CARD_MOVES[number - 1]
    assert plan_slides(played.moves) >= CARD_SLIDES[number - 1]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_hand_made_examples(name):
    puzzle = example(name)
    plan_m, explored_m = fewest_moves(puzzle.board, puzzle.start, Budget())
    plan_s, explored_s = fewest_slides(puzzle.board, puzzle.start, Budget())
    if EXAMPLES[name] is None:
        assert plan_m is None and plan_s is None
        assert explored_m == explored_s == 3  # X in columns 1, 2 or 3: counted by hand
        return
    moves, slides = EXAMPLES[name]
    assert len(plan_m) == moves
    assert plan_slides(plan_s) == slides


def test_results_are_deterministic():
    engine = get_engine("bfs", budget=Budget())
    for objective in ("moves", "slides"):
        assert engine.solve(card(7), objective).plan == engine.solve(card(7), objective).plan


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_oracle_plans_replay_and_moves_never_exceed_slides(puzzle):
    plan_m, explored_m = fewest_moves(puzzle.board, puzzle.start, Budget())
    plan_s, explored_s = fewest_slides(puzzle.board, puzzle.start, Budget())
    assert (plan_m is None) == (plan_s is None)
    if plan_m is None:
        assert explored_m == explored_s  # both exhausted the same reachable states
        return
    assert replay(puzzle, plan_m).solved and replay(puzzle, plan_s).solved
    assert len(plan_m) <= len(plan_s) <= plan_slides(plan_s) <= plan_slides(plan_m)
