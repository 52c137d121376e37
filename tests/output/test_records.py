"""The JSON of a solve (:func:`rhasp.output.solution_dict`): a plan found past a limit is
``solved`` but never ``optimal``, with its ``lower_bound`` and the anytime search's figures."""

from __future__ import annotations

from rhasp import api
from rhasp.output import solution_dict
from tests.boards import ANYTIME_CARD, ANYTIME_STATES, CARD_MOVES, card


def test_a_plan_past_a_limit_is_solved_but_not_optimal_with_its_lower_bound():
    found = api.solve(card(ANYTIME_CARD), engine="astar", max_states=ANYTIME_STATES)
    record = solution_dict(found, "card")
    fewest = CARD_MOVES[ANYTIME_CARD - 1]  # the card's back
    assert record["solved"] is True and record["optimal"] is False
    assert record["limit"].startswith("state limit reached") and record["proven_by"] == []
    assert record["lower_bound"] <= fewest <= record["moves"] == len(record["plan"])
    assert record["anytime"]["length"] == record["moves"]
    assert record["astar"]["length"] is None  # A* itself found none


def test_a_proven_plan_has_no_lower_bound_and_is_optimal():
    record = solution_dict(api.solve(card(1), engine="bfs"), "card")
    assert record["optimal"] is True and "lower_bound" not in record and "anytime" not in record
