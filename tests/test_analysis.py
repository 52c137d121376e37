"""rhasp analyze / hardest: exact figures on a hand-checked board, cross-checks elsewhere."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from rhasp.analysis import analysis_of
from rhasp.canonical import hardest_puzzle
from rhasp.engines.reference import fewest_moves, fewest_slides
from rhasp.formats import read_text
from rhasp.limits import Budget
from rhasp.model import Puzzle
from tests.boards import EXAMPLES, ORIGINAL, card, card_rows, example, grid
from tests.command import rhasp
from tests.reference import all_moves, cluster, fewest


def test_the_4x4_board_counted_by_hand():
    # Positions (X column, A row, B column), 0-based; A at row 2 needs B at 0, and X can pass
    # column 2 only then. x=0: 3 + 3 + 1 states; x=1, 2: one each. Edges: B among 3 places
    # with A up (2 x 3), A among its places (3 with B at 0, 1 for each other B), X among 3.
    # Distances to the goal (2,2,0): 1 at 0, (0,2,0) (1,2,0) at 1, (0,0,0) (0,1,0) at 2, the
    # four other x=0 states at 3. Game graph: the six x=0 states with A up, levels 0..2 from
    # (0,0,1); its winning edges are A dropping from (0,0,0) and from (0,1,0).
    found = analysis_of(example("4x4"), Budget())
    assert (found.cluster_states, found.cluster_edges, found.goal_states) == (9, 14, 1)
    assert (found.minimal_moves, found.minimal_slides) == (3, 5)
    assert (found.game_states, found.game_levels, found.winning_edges) == (6, 3, 2)
    assert found.profile == {0: 1, 1: 2, 2: 2, 3: 4}
    assert found.hardest_distance == 3 and len(found.hardest) == 4


def test_an_analysis_prints_as_rhasp_analyze_says_it():
    # The 4×4 figures above, by hand; the profile's bars are 40 '#' for the widest (4 states).
    found = analysis_of(example("4x4"), Budget())
    shown = str(found).splitlines()
    assert shown[:4] == [
        "4x4",
        "  cluster: 9 states, 14 edges, 1 goal states",
        "  minimal moves: 3 · minimal slides: 5 (proven by bfs)",
        "  game graph: 6 states, 3 levels, 2 winning edges",
    ]
    assert shown[5:11] == [
        "  distance profile (moves to the nearest goal: states):",
        f"     0        1 {'#' * 10}",
        f"     1        2 {'#' * 20}",
        f"     2        2 {'#' * 20}",
        f"     3        4 {'#' * 40}",
        "  hardest: 4 states at 3 moves; the first:",
    ]
    # The first hardest state in a frame, X's exit (row 2, right) marked '>'.
    rows = ["".join(row) for row in found.board.grid(found.hardest[0])]
    assert shown[11:] == [
        "+----+",
        f"|{rows[0]}|",
        f"|{rows[1]}>",
        f"|{rows[2]}|",
        f"|{rows[3]}|",
        "+----+",
    ]
    printed: list[str] = []
    found._repr_pretty_(SimpleNamespace(text=printed.append), cycle=False)  # IPython's way
    assert printed == [str(found)]


@pytest.mark.parametrize("name", ["4x4", "5x5", "walls", "limousine"])
def test_cluster_states_and_edges_match_a_naive_count(name):
    puzzle = example(name)
    rows = ["".join(row) for row in puzzle.board.grid(puzzle.placement)]
    states, edges = cluster(rows)
    found = analysis_of(puzzle, Budget())
    assert (found.cluster_states, found.cluster_edges) == (len(states), len(edges))
    assert sum(found.profile.values()) == found.cluster_states


@pytest.mark.parametrize("number", [1, 6, 26])
def test_hardest_state_takes_its_reported_length_and_minimal_lengths_agree(number):
    puzzle = card(number)
    found = analysis_of(puzzle, Budget())
    plan, _ = fewest_moves(puzzle.board, puzzle.start)
    assert found.minimal_moves == len(plan)
    slides, _ = fewest_slides(puzzle.board, puzzle.start)
    assert found.minimal_slides == sum(move.slides for move in slides)
    hardest, moves = hardest_puzzle(puzzle, Budget())
    assert moves == found.hardest_distance >= found.minimal_moves
    assert len(fewest_moves(hardest.board, hardest.start)[0]) == moves
    assert isinstance(hardest, Puzzle) and hardest.board == puzzle.board


def test_json_and_text_carry_the_figures():
    record = json.loads(rhasp("analyze", str(EXAMPLES / "4x4.txt"), "--format", "json").stdout)
    assert record["cluster"] == {"states": 9, "edges": 14}
    assert record["game_graph"] == {"states": 6, "levels": 3, "winning_edges": 2}
    assert record["distance_profile"] == {"0": 1, "1": 2, "2": 2, "3": 4}
    text = rhasp("analyze", str(EXAMPLES / "4x4.txt")).stdout
    assert "9 states, 14 edges" in text and "6 states, 3 levels, 2 winning edges" in text


def test_several_targets_are_refused_in_one_line():
    result = rhasp("analyze", str(EXAMPLES / "two-targets.txt"))
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("analysis needs exactly one target")
    assert "Traceback" not in result.stderr


LOCKED = """
    E...
    EXXC
    BBDC
    ..DC
"""  # D and C pin each other and B: the all-moves graph holds states the start cannot reach


SMALL = [*map(example, ["4x4", "5x5", "walls", "limousine"]), grid(LOCKED)]


@pytest.mark.parametrize("puzzle", SMALL)
def test_all_moves_graph_matches_a_brute_force_count(puzzle):
    rows = ["".join(row) for row in puzzle.board.grid(puzzle.placement)]
    tried, states, edges = all_moves(rows)
    found = analysis_of(puzzle, Budget())
    assert found.all_moves_tried == tried
    assert (found.all_moves_states, found.all_moves_edges) == (len(states), len(edges))
    assert states >= cluster(rows)[0]  # it contains the cluster


def test_all_moves_graph_may_be_larger_than_the_cluster():
    found = analysis_of(grid(LOCKED), Budget())
    assert found.all_moves_states > found.cluster_states


def test_all_moves_graph_counted_by_hand():
    # 5x5, row 2 holds A then X; B stands in column 0. In order, (A, X) fit at (0, 2), (0, 3)
    # or (1, 3): 3 ways; B has 4 places: 12 tried. B can sit in rows 1-2 or 2-3 only with A
    # at 1: states = 2 x 2 (A at 0, B at 0 or 3) + 4 (A at 1) = 8. Edges: X 0,2<->0,3 and
    # A 0,3<->1,3 with B at 0 or 3 (4), B among its 4 places with A at 1 (6): 10. With A at
    # 0 B cannot pass row 2, yet the graph is one cluster (A steps aside).
    found = analysis_of(grid("B....\nB....\nAA.XX\n.....\n....."), Budget())
    assert found.all_moves_tried == 12
    assert (found.all_moves_states, found.all_moves_edges) == (8, 10)
    assert (found.cluster_states, found.cluster_edges) == (8, 10)


def test_hardest_of_an_unsolvable_puzzle_is_exit_1_in_one_line():
    result = rhasp("hardest", str(EXAMPLES / "unsolvable.txt"))
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "rhasp: unsolvable: no goal state is reachable, so no state is hardest"
    )


def test_hardest_prints_a_state_of_the_cluster_that_takes_its_stated_moves():
    result = rhasp("hardest", str(ORIGINAL / "card01.txt"))
    assert result.exit_code == 0
    comment, *lines = result.stdout.splitlines()
    stated = int(re.fullmatch(r"; (\d+) moves from the nearest goal \(bfs\)", comment)[1])
    rows = [line for line in lines if not line.startswith(";")]
    assert "".join(rows) in cluster(card_rows(1))[0]  # reachable from card 1
    assert fewest(rows, {"X": "right"}, "moves") == stated == 9  # 9: docs/commands/analyze.md
    (printed,) = read_text(result.stdout, "hardest.txt", name="hardest")
    for fmt in ("line", "json"):
        other = rhasp("hardest", str(ORIGINAL / "card01.txt"), "--to", fmt)
        assert other.exit_code == 0
        (again,) = read_text(other.stdout, f"hardest.{fmt}", name="hardest")
        assert (again.board, again.placement) == (printed.board, printed.placement)
        assert again.meta["moves"] == stated


def test_analyze_of_an_unsolvable_board_exits_1():
    # Truck A stands on a wall and cannot move; X has columns 1 to 3: 3 states, no goal.
    result = rhasp("analyze", str(EXAMPLES / "unsolvable.txt"))
    assert result.exit_code == 1
    assert "cluster: 3 states, 3 edges, 0 goal states" in result.stdout
    assert "minimal moves: no solution" in result.stdout
