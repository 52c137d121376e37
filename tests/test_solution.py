"""What a solution says as a record (:meth:`rhasp.solution.Solution.findings`), said once: the
JSON of ``rhasp solve`` and each record of ``rhasp deck`` take those fields from it, so that
the two say the same of the same puzzle, field by field."""

from __future__ import annotations

import json

import pytest

from rhasp import api
from rhasp.errors import Limit
from rhasp.solution import Solution
from tests.boards import EXAMPLES, ORIGINAL, card
from tests.command import rhasp

#: (puzzle file, options): a plan proven by BFS, a puzzle proven unsolvable, a search that
#: meets its limit, and A*'s plan with the confirming BFS stopped at its share.
CASES = [
    (ORIGINAL / "card01.txt", ("--engine", "bfs")),
    (EXAMPLES / "unsolvable.txt", ("--engine", "bfs")),
    (ORIGINAL / "card40.txt", ("--engine", "bfs", "--max-states", "50")),
    (
        ORIGINAL / "card07.txt",
        ("--engine", "astar", "--objective", "slides", "--max-states", "5000"),
    ),
]


@pytest.mark.parametrize(("path", "options"), CASES, ids=[path.stem for path, _ in CASES])
def test_a_deck_record_says_what_the_json_of_a_solve_says_field_by_field(path, options):
    solved = rhasp("solve", str(path), "--format", "json", *options)
    deck = rhasp("deck", str(path), "--jobs", "1", *options)
    assert solved.exit_code == deck.exit_code, (solved.stderr, deck.stderr)
    answer = json.loads(solved.stdout)
    (record,) = [json.loads(line) for line in deck.stdout.splitlines()]
    shared = {"puzzle", "length", "moves", "slides", "plan", "proven_by", "explored", "seconds"}
    if "limit" in answer:  # a deck record of a limit says the puzzle and the limit only
        assert record == {"line": 1, "puzzle": answer["puzzle"], "limit": answer["limit"]}
        return
    shared |= {"stopped"} & answer.keys()
    assert shared <= record.keys() and shared <= answer.keys()
    said = {name: answer[name] for name in shared - {"seconds"}}
    said["plan"] = None if answer["plan"] is None else " ".join(answer["plan"])  # one field
    assert {name: record[name] for name in shared - {"seconds"}} == said
    assert "stopped" in shared or path.stem != "card07"  # the case that says it is here


def test_the_findings_say_a_limit_and_the_searches_stopped_only_where_they_apply():
    puzzle = card(1)
    limit = Limit("state limit reached after 51 states at depth 2", "states", 50, 51)
    stopped = Solution(puzzle, "moves", None, "bfs", (), None, 0.1234567, limit=limit)
    assert stopped.findings() == {
        "puzzle": "card01",
        "length": None,
        "moves": None,
        "slides": None,
        "plan": None,
        "proven_by": [],
        "explored": None,
        "seconds": 0.123457,
        "limit": "state limit reached after 51 states at depth 2",
    }
    asp = Limit("timed out at horizon 4", "time", 1.0)
    proven = Solution(puzzle, "moves", None, "asp", ("bfs",), 9, 0.5, stopped={"asp": asp})
    assert proven.findings()["stopped"] == {"asp": "timed out at horizon 4"}
    assert "limit" not in proven.findings()


def test_each_search_has_its_own_seconds_and_together_they_are_the_seconds():
    puzzle = card(1)
    both = api.solve(puzzle, engine="asp")
    assert both.proofs == ("asp", "bfs")
    assert set(both.search_seconds()) == {"asp", "bfs"}
    assert sum(both.search_seconds().values()) == pytest.approx(both.seconds, abs=2e-6)
    for engine in ("asp", "astar", "bfs"):
        alone = api.solve(puzzle, engine=engine, confirm=False)
        assert alone.proofs == (engine,)
        assert alone.search_seconds() == {engine: pytest.approx(alone.seconds, abs=1e-6)}
    walled = api.read("o" * 12 + "AAxooo" + "o" * 18)  # a wall at the exit
    static = api.solve(walled, engine="bfs")
    assert static.proofs == ("static analysis",) and static.search_seconds() == {}
