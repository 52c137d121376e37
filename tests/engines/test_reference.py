"""The reference searches on the readable model against an independent, naive solver."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from rhasp.engines.reference import fewest_moves, fewest_slides
from rhasp.formats.grid import board_rows
from rhasp.model import plan_slides
from tests import reference
from tests.boards import puzzles
from tests.volume import examples


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_side=6, max_others=4))
def test_oracle_agrees_with_the_naive_reference(puzzle):
    rows, exits = board_rows(puzzle), dict(puzzle.board.exits)
    for search, objective in ((fewest_moves, "moves"), (fewest_slides, "slides")):
        plan, _ = search(puzzle.board, puzzle.start)
        expected = reference.fewest(rows, exits, objective)
        if expected is None:
            assert plan is None
        else:
            assert plan is not None
            assert (len(plan) if objective == "moves" else plan_slides(plan)) == expected
