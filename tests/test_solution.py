"""What a solution says, said once: as a record (:meth:`rhasp.solution.Solution.findings`),
whose fields the JSON of ``rhasp solve`` and each record of ``rhasp deck`` take, so that the
two say the same of the same puzzle, field by field; and as text
(:meth:`~rhasp.solution.Solution.lines`), what ``print(solution)`` and ``rhasp solve`` show."""

from __future__ import annotations

import json
import re

import pytest

from rhasp import api
from rhasp.formats import read_path
from rhasp.limits import Limit
from rhasp.output import advised
from rhasp.solution import ANYTIME, Solution
from tests.boards import (
    ANYTIME_CARD,
    ANYTIME_STATES,
    CARD_MOVES,
    EXAMPLES,
    ORIGINAL,
    PUZZLES,
    card,
)
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


def without_seconds(text: str) -> str:
    """``text`` with each duration (``0.12 s``) as ``T s``: two runs never take the same time."""
    return re.sub(r"\b\d+\.\d\d s\b", "T s", text)


#: (puzzle file, options): BFS's plan of the fewest moves; A*'s of the fewest slides with the
#: confirming BFS stopped at its share; no solution, proven by static analysis; a target the
#: reader inferred (the ``read:`` line); and each with the engines' work.
SAID = [
    (ORIGINAL / "card01.txt", ("--engine", "bfs")),
    (
        ORIGINAL / "card07.txt",
        ("--engine", "astar", "--objective", "slides", "--max-states", "5000"),
    ),
    (EXAMPLES / "unsolvable.txt", ("--engine", "bfs")),
    (EXAMPLES / "two-targets.txt", ("--engine", "bfs")),
]


@pytest.mark.parametrize("verbose", [False, True])
@pytest.mark.parametrize(("path", "options"), SAID, ids=[path.stem for path, _ in SAID])
def test_print_says_what_rhasp_solve_prints(path, options, verbose):
    printed = rhasp("solve", str(path), *options, *(["--verbose"] if verbose else []))
    assert printed.exit_code in (0, 1), printed.stderr  # 1: no solution
    engine, *rest = options[1:]
    named = dict(zip(rest[::2], rest[1::2], strict=True))
    solution = api.solve(
        api.read(str(path)),
        named.get("--objective", "moves"),
        engine=engine,
        max_states=int(named["--max-states"]) if "--max-states" in named else None,
    )
    # print shows the plain words; --verbose adds the engines' work, a limit as advised.
    text = "\n".join(solution.lines(verbose=True, advised=advised)) if verbose else str(solution)
    assert without_seconds(text + "\n") == without_seconds(printed.stdout)


def test_print_says_a_limit_without_the_command_lines_advice():
    printed = rhasp("solve", str(ORIGINAL / "card40.txt"), "--engine", "bfs", "--max-states", "50")
    assert printed.exit_code == 4
    found = api.solve(card(40), engine="bfs", max_states=50)
    said = str(found)
    assert "--max-states" not in said and "--max-states" in printed.stdout
    assert without_seconds(said) == without_seconds(printed.stdout.strip()).replace(
        " (raise --max-states)", ""
    )
    assert said.startswith(f"card40 · moves: {found.limit} · nothing proven beyond that · ")


def test_a_printed_solution_reads_back_as_its_plan():
    # Card 1 takes 8 moves (by hand): what print shows is a plan that solves it in 8.
    checked = api.check(card(1), str(api.solve(card(1), engine="bfs")))
    assert checked.solves and checked.moves == 8


WIDTH = 100  # the summary line's most: it reads at a glance on any terminal


@pytest.mark.parametrize("engine", ["bfs", "astar"])
@pytest.mark.parametrize("objective", ["moves", "slides"])
def test_the_summary_line_of_every_card_fits_100_columns(engine, objective):
    for number in range(1, 41):
        line = api.solve(card(number), objective, engine=engine).summary()
        assert len(line) <= WIDTH, line
        assert line.startswith(f"card{number:02d} · {objective} ")
        assert " · optimal: proven by " in line and "states" not in line


@pytest.mark.usefixtures("uncompiled")
def test_the_summary_line_of_asp_and_of_large_and_unsolvable_boards_fits_100_columns():
    boards = [
        # ASP, BFS agreeing, counts of two digits as on every card (card 40, the longest,
        # is one character wider for its 28 s, and takes that long).
        api.solve(card(12), "slides"),
        api.solve(api.read(str(PUZZLES / "large" / "left12.txt")), "slides"),  # A*'s share
        api.solve(api.read(str(EXAMPLES / "unsolvable.txt"))),  # static, its proof below
        api.solve(api.read(str(PUZZLES / "large" / "walled12.txt"))),
    ]
    for solution in boards:
        assert len(solution.summary()) <= WIDTH, solution.summary()


# --- a plan past a limit -----------------------------------------------------------------------


def test_a_plan_found_past_a_limit_is_never_called_optimal_and_says_its_gap():
    found = api.solve(card(ANYTIME_CARD), engine="astar", max_states=ANYTIME_STATES)
    fewest = CARD_MOVES[ANYTIME_CARD - 1]  # the card's back
    assert found.limit is not None and found.plan is not None
    assert not found.optimal and found.proofs == ()
    assert found.lower_bound is not None
    assert found.lower_bound <= fewest <= found.moves and found.lower_bound < found.moves
    summary = found.summary()
    assert "optimal" not in summary
    gap = f"not proven minimal: between {found.lower_bound} and {found.moves} moves"
    assert gap in summary
    # The limit, not in the summary, is under it even without --verbose.
    stopped = [line for line in found.notes() if line.startswith("stopped: astar stopped: ")]
    assert len(stopped) == 1 and "state limit reached after" in stopped[0]
    assert f"every plan takes at least {found.lower_bound} moves" in stopped[0]  # A*'s bound


@pytest.mark.usefixtures("uncompiled")
def test_a_plan_past_a_limit_no_longer_than_the_proven_bound_is_optimal():
    # The crowded deck's third board (9×9): 5 moves; A* stops within 200 states at f-value
    # 5, and the anytime plan takes 5: the bound proves it minimal, so the limit no longer
    # stands.
    third = read_path(str(PUZZLES / "large" / "crowded.txt"))[2]
    found = api.solve(third, max_states=200)
    assert found.optimal and found.limit is None and found.moves == 5
    assert found.proofs == ("astar", ANYTIME) and "astar" in found.stopped
    assert "optimal: proven by astar's lower bound, met by the anytime plan" in found.summary()
