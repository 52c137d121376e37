"""``rhasp solve`` at the command line: a plan found past a limit is printed as a plan, never
called optimal, and exits 4 (a limit stays a limit); ``rhasp check`` accepts it."""

from __future__ import annotations

import json

from rhasp.api import moves_of
from rhasp.model import replay
from tests.boards import ANYTIME_CARD, ANYTIME_STATES, CARD_MOVES, ORIGINAL, card
from tests.command import rhasp

CARD = str(ORIGINAL / f"card{ANYTIME_CARD:02d}.txt")
PAST_THE_LIMIT = ("--engine", "astar", "--max-states", str(ANYTIME_STATES))


def test_a_plan_past_a_limit_exits_4_with_the_plan_and_its_gap(tmp_path):
    result = rhasp("solve", CARD, *PAST_THE_LIMIT)
    assert result.exit_code == 4, result.stderr
    summary = result.stdout.splitlines()[0]
    assert "not proven minimal: between " in summary and "optimal" not in summary
    assert "raise --max-states" in result.stdout  # the limit, with its advice
    plan = moves_of(card(ANYTIME_CARD), result.stdout)
    assert f"and {len(plan)} moves" in summary
    assert replay(card(ANYTIME_CARD), plan).solved
    assert len(plan) >= CARD_MOVES[ANYTIME_CARD - 1]  # the card's back
    # rhasp check reads the answer back and replays it: a legal plan that solves the puzzle.
    printed = tmp_path / "plan.txt"
    printed.write_text(result.stdout)
    checked = rhasp("check", CARD, str(printed))
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    assert "the plan solves the puzzle" in checked.stdout
    assert f"moves: {len(plan)}," in checked.stdout


def test_the_json_of_a_plan_past_a_limit_exits_4_and_says_not_optimal():
    result = rhasp("solve", CARD, *PAST_THE_LIMIT, "--format", "json")
    assert result.exit_code == 4, result.stderr
    record = json.loads(result.stdout)
    assert record["optimal"] is False and record["plan"] and record["limit"]
    assert record["lower_bound"] <= CARD_MOVES[ANYTIME_CARD - 1] <= record["moves"]
