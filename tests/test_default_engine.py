"""The engine rhasp picks when none is named (issue 33): A* on a board larger than 6×6, after
a short BFS that answers alone where it ends (issue 56), said in the summary and the JSON; up
to 6×6 the caller's own default (ASP for ``rhasp solve`` and ``rhasp.solve``, BFS for a deck);
a named engine always wins. The page's default is tested with the server
(tests/web/test_server.py)."""

from __future__ import annotations

import json

import pytest

import rhasp
from rhasp import solving
from rhasp.formats import write
from rhasp.requests import SolveRequest
from rhasp.solving import engine_for
from tests.boards import card
from tests.command import rhasp as command
from tests.test_solving import eight_by_eight, fewest

CARD01_MOVES = 8  # printed on the card's back (tests/boards.py CARD_MOVES)


@pytest.fixture
def large_file(tmp_path):
    path = tmp_path / "eight.txt"
    path.write_text(write(eight_by_eight(), "grid"))
    return path


@pytest.mark.parametrize(
    ("width", "height", "engine"),
    [(6, 6, "asp"), (4, 4, "asp"), (7, 6, "astar"), (6, 7, "astar"), (12, 12, "astar")],
)
def test_the_board_size_decides(width, height, engine):
    rows = ["A" * 2 + "." * (width - 2), *["." * width] * (height - 1)]
    puzzle = rhasp.parse("\n".join(rows), targets=["A"])
    chosen, why = engine_for(puzzle, "asp")
    assert chosen == engine
    assert (why is None) == (engine == "asp")


RACED = f"board larger than 6×6; BFS ended within {solving.CONFIRM_FLOOR:,} states"


def test_solve_on_a_large_board_says_which_engine_answered_and_why(large_file):
    # The 8×8 board's BFS ends within a few thousand states: BFS answers alone, before A*.
    result = command("solve", str(large_file))
    assert result.exit_code == 0, result.stderr
    summary, read, why = result.stdout.splitlines()[:3]
    assert read.startswith("  read: target A, leaving right of row 4")
    expected = fewest(eight_by_eight())
    assert f"moves {expected} · optimal: proven by bfs" in summary
    assert why == f"  engine: bfs ({RACED})"  # under the summary, by default
    record = json.loads(command("solve", str(large_file), "--format", "json").stdout)
    assert (record["engine"], record["engine_chosen"]) == ("bfs", RACED)


def test_solve_on_a_card_keeps_asp_and_says_no_reason():
    result = command("solve", "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo", "--format", "json")
    record = json.loads(result.stdout)
    assert record["engine"] == "asp" and "engine_chosen" not in record


def test_a_named_engine_wins_on_a_large_board(large_file):
    record = json.loads(
        command("solve", str(large_file), "--engine", "bfs", "--format", "json").stdout
    )
    assert (record["engine"], record["proven_by"]) == ("bfs", ["bfs"])
    assert "engine_chosen" not in record and record["moves"] == fewest(eight_by_eight())


def test_the_api_has_the_same_default_in_one_place():
    large = rhasp.solve(eight_by_eight())
    assert (large.engine, large.chosen) == ("bfs", RACED)
    assert large.moves == fewest(eight_by_eight())
    small = rhasp.solve(card(1))
    assert (small.engine, small.chosen, small.moves) == ("asp", None, CARD01_MOVES)
    assert SolveRequest(eight_by_eight()).engine == "astar"
    assert SolveRequest(eight_by_eight(), in_deck=True).engine == "astar"
    assert SolveRequest(card(1), in_deck=True).engine == "bfs"
    assert SolveRequest(eight_by_eight(), engine="asp").engine == "asp"


def test_in_deck_is_true_or_false():
    with pytest.raises(rhasp.InputError, match="in_deck"):
        SolveRequest(card(1), in_deck="bfs")  # type: ignore[arg-type]


def test_a_deck_uses_bfs_up_to_6x6_and_astar_beyond(tmp_path):
    source = tmp_path / "mixed.txt"
    lines = [write(card(1), "line").strip(), write(eight_by_eight(), "line").strip()]
    source.write_text("\n".join(lines) + "\n")
    result = command("deck", str(source), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    small, large = (json.loads(line) for line in result.stdout.splitlines())
    assert (small["length"], small["proven_by"]) == (CARD01_MOVES, ["bfs"])
    assert (large["length"], large["proven_by"]) == (fewest(eight_by_eight()), ["bfs"])


def test_past_the_short_bfs_astar_answers_and_bfs_confirms(monkeypatch):
    # With a race of 10 states the 8×8 board's BFS stops: A* answers, and the BFS that
    # confirms it runs within its share (at least the floor, CONFIRM_FACTOR times A*'s
    # states: here 40, as A* takes 121 states and BFS 3,912).
    monkeypatch.setattr(solving, "CONFIRM_FLOOR", 10)
    monkeypatch.setattr(solving, "CONFIRM_FACTOR", 40)
    found = rhasp.solve(eight_by_eight())
    assert (found.engine, found.chosen) == ("astar", "board larger than 6×6")
    assert found.proofs == ("astar", "bfs") and found.moves == fewest(eight_by_eight())
    named = rhasp.solve(eight_by_eight(), engine="astar")  # named: no race
    assert named.proofs == ("astar", "bfs") and named.chosen is None
