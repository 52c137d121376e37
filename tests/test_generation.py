"""Random boards: valid, reproducible, and written database style."""

from __future__ import annotations

import random
import re

import pytest

from rhasp import generation
from rhasp.api import generate
from rhasp.engines.bitboard import cluster_size, fewest_moves
from rhasp.errors import SearchLimit
from rhasp.formats import read_text
from rhasp.formats.line import database_board
from rhasp.generation import board_number, random_board
from tests.command import rhasp
from tests.reference import cluster, database_deck, fewest, goal_distance


def test_the_same_seed_gives_the_same_board():
    first = random_board(random.Random(5), vehicles=10, walls=1)
    again = random_board(random.Random(5), vehicles=10, walls=1)
    assert first == again
    assert len(first.board.walls) == 1
    assert first.board.targets == ("A",)


def test_a_database_line_reads_back_as_the_same_puzzle_up_to_labels():
    for seed in range(10):
        puzzle = random_board(random.Random(seed), vehicles=9, walls=seed % 2)
        (again,) = read_text(database_board(puzzle), "db", name="db")
        assert again.board.walls == puzzle.board.walls
        assert cluster_size(again.board, again.placement) == cluster_size(
            puzzle.board, puzzle.placement
        )
        lengths = [
            len(plan) if plan else plan
            for plan, _ in (fewest_moves(p.board, p.start) for p in (puzzle, again))
        ]
        assert lengths[0] == lengths[1]


# --- rhasp generate: every figure checked by the naive string solver of tests/reference ------


def deck_lines(*options: str) -> list[tuple[int, list[str], int]]:
    """(moves, rows, cluster) of every line of a generated deck."""
    result = rhasp("generate", *options)
    assert result.exit_code == 0, result.stderr
    return database_deck(result.stdout)


def relabelled(cells: str) -> str:
    """The board with A kept and the other vehicles renamed in reading order."""
    names = {"A": "A", ".": ".", "#": "#"}
    spare = iter("BCDEFGHIJKLMNOPQRSTUVWYZ")
    return "".join(
        names.setdefault(ch, next(spare)) if ch not in names else names[ch] for ch in cells
    )


SMALL_RUN = ("--size", "5", "--seed", "3", "--count", "4", "--min-moves", "6", "--walls", "1")


def test_generated_puzzles_replay_their_lengths_and_clusters():
    lines = deck_lines(*SMALL_RUN, "--jobs", "1")
    assert len(lines) == 4
    for moves, rows, cluster_states in lines:
        assert moves >= 6
        assert fewest(rows, {"A": "right"}, "moves") == moves
        assert len(cluster(rows)[0]) == cluster_states
        assert sum(row.count("#") for row in rows) == 1


def test_generated_puzzles_are_hardest_and_from_different_clusters():
    lines = deck_lines(*SMALL_RUN)
    named = []
    for moves, rows, _ in lines:
        distance = goal_distance(rows)
        board = "".join(rows)
        assert distance[board] == max(distance.values()) == moves  # the hardest state
        named.append(({relabelled(cells) for cells in distance}, relabelled(board)))
    for i, (states, _) in enumerate(named):
        assert all(board not in states for j, (_, board) in enumerate(named) if j != i)


def _rows(cells: str, side: int) -> list[str]:
    return [cells[i : i + side] for i in range(0, len(cells), side)]


def test_minimal_puzzles_need_every_vehicle_and_wall():
    # Minimal as the puzzle database defines it: each vehicle or wall but A taken off in
    # turn (by the naive solver) shortens the puzzle. The same run without --minimal keeps
    # puzzles that are not, so the check has something to catch.
    not_minimal = 0
    for minimal in (True, False):
        for moves, rows, _ in deck_lines(*SMALL_RUN, *["--minimal"] * minimal):
            cells = "".join(rows)
            pieces = [cells.replace(label, ".") for label in set(cells) - {"A", ".", "#"}]
            pieces += [cells[:i] + "." + cells[i + 1 :] for i, ch in enumerate(cells) if ch == "#"]
            needed = [fewest(_rows(c, len(rows)), {"A": "right"}, "moves") < moves for c in pieces]
            if minimal:
                assert all(needed), rows
            else:
                not_minimal += not all(needed)
    assert not_minimal


def test_the_same_seed_makes_the_same_deck_on_any_number_of_workers():
    assert deck_lines(*SMALL_RUN, "--jobs", "1") == deck_lines(*SMALL_RUN, "--jobs", "2")
    assert deck_lines(*SMALL_RUN) != deck_lines(*SMALL_RUN[:3], "4", *SMALL_RUN[4:])


def test_a_generated_deck_passes_rhasp_deck_verify(tmp_path):
    deck_file = tmp_path / "new.txt"
    assert rhasp("generate", *SMALL_RUN, "-o", str(deck_file)).exit_code == 0
    result = rhasp("deck", str(deck_file), "--verify", "--jobs", "1")
    assert result.exit_code == 0, result.stderr  # a length or cluster mismatch is exit 3


def test_giving_up_keeps_the_puzzles_made_and_says_why(tmp_path):
    deck_file = tmp_path / "new.txt"
    result = rhasp(
        "generate",
        "--size",
        "4",
        "--seed",
        "1",
        "--count",
        "50",
        "--max-boards",
        "20",
        "-o",
        str(deck_file),
    )
    assert result.exit_code == 4
    assert "of 50 puzzles of at least 1 move in 20 boards" in result.stderr
    kept = [line for line in deck_file.read_text().splitlines() if not line.startswith(";")]
    assert 0 < len(kept) < 50


def test_too_many_walls_is_one_line():
    result = rhasp("generate", "--size", "4", "--walls", "15")
    assert result.exit_code == 2
    assert result.stderr.strip() == "rhasp: --walls: 15 walls leave no room on a 4×4 board"


@pytest.mark.parametrize("size", range(3, 13))
def test_every_board_size_draws_boards(size):
    # 10×10 and up once asked for more vehicles than there are letters (a traceback).
    for number in range(3):
        puzzle = board_number(5, number, size, walls=2)
        board = puzzle.board
        assert (board.width, board.height) == (size, size)
        assert len(board.walls) == 2 or (size == 3 and len(board.walls) < 2)  # as room allows
        assert 1 <= len(board.vehicles) <= 25


def test_a_large_board_run_stops_at_its_limits_in_one_line():
    result = rhasp(
        "generate", "--size", "12", "--walls", "2", "--max-boards", "2", "--max-states", "1000"
    )
    assert result.exit_code == 4, result.stderr
    assert "Traceback" not in result.stderr
    assert "2 boards skipped at the state limit" in result.stderr.splitlines()[-1]


# --- every run ends (issue 30): bounds on boards, seconds and states, and what was found ----


def deepest_of_boards(seed: int, size: int, boards: int) -> int:
    """The most moves any of a run's first boards needs from its hardest state, by the naive
    goal-distance search of this file (not rhasp's)."""
    depths = []
    for number in range(boards):
        puzzle = board_number(seed, number, size, walls=0)
        distance = goal_distance(["".join(row) for row in puzzle.board.grid(puzzle.start)])
        depths.extend(distance.values())
    return max(depths)


def test_a_depth_the_boards_never_reach_ends_saying_the_deepest_found():
    # No 5×5 board needs 60 moves; before issue 30 the message did not say what was found.
    result = rhasp(
        "generate", "--size", "5", "--seed", "2", "--min-moves", "60", "--max-boards", "30"
    )
    assert result.exit_code == 4, result.stderr
    deepest = deepest_of_boards(2, 5, 30)
    assert result.stderr.splitlines()[-1] == (
        f"rhasp: generate: no puzzle of at least 60 moves in 30 boards; the deepest found took "
        f"{deepest} moves; ask for fewer moves, or allow more boards"
    )


def test_the_api_takes_max_boards_and_says_the_deepest_found():
    # Boards 0 to 3 of seed 1 need 11, 6, 7 and 15 moves at their hardest: the naive
    # goal-distance search of this file (deepest_of_boards(1, 6, 4), 45 s, so not run here).
    with pytest.raises(SearchLimit) as stopped:
        generate(min_moves=60, seed=1, max_boards=4)
    assert str(stopped.value) == (
        "generate: no puzzle of at least 60 moves in 4 boards; the deepest found took 15 moves;"
        " ask for fewer moves, or allow more boards"
    )


def test_the_api_gives_up_by_default(monkeypatch):
    # generate(min_moves=60) once drew boards for ever: no 6×6 puzzle needs 60 moves.
    monkeypatch.setattr(generation, "BOARDS_PER_PUZZLE", 3)
    with pytest.raises(SearchLimit, match=r"no puzzle of at least 60 moves in 3 boards"):
        generate(min_moves=60, seed=1)


def test_boards_all_skipped_at_the_state_limit_are_blamed_on_it():
    # Once: no end without seconds, and with them the time was blamed. A cluster of one state
    # is a board where nothing moves: none of these boards is one.
    with pytest.raises(SearchLimit) as stopped:
        generate(min_moves=5, seed=1, max_states=1, seconds=60, max_boards=40)
    assert str(stopped.value).startswith("generate: all 40 boards skipped at the state limit")
    result = rhasp("generate", "--seed", "1", "--max-states", "1", "--max-boards", "40")
    assert result.exit_code == 4
    assert "all 40 boards skipped at the state limit" in result.stderr


def test_a_run_past_its_seconds_says_so_and_what_it_found():
    result = rhasp("generate", "--seed", "1", "--min-moves", "60", "--seconds", "0.5")
    assert result.exit_code == 4
    assert re.search(
        r"no puzzle of at least 60 moves in 0\.5 s \([\d,]+ boards?\); the deepest found took "
        r"\d+ moves; ask for fewer moves, or allow more seconds",
        result.stderr,
    ), result.stderr
