"""A puzzle's cluster (rhasp.canonical): its graph against the naive solver, its canonical hardest
state, the same from any state and labels, and minimality as the database defines it."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

import rhasp
from rhasp.canonical import cluster_graph, hardest_of, hardest_state, needless_piece
from rhasp.formats import read_text
from rhasp.formats.grid import board_rows
from rhasp.formats.line import database_board
from rhasp.generation import board_number
from rhasp.limits import Budget
from rhasp.model import Piece, Puzzle, TargetSpec, build_puzzle
from tests import reference
from tests.boards import card, example


def test_a_cluster_is_named_the_same_from_any_of_its_states_and_labels():
    puzzle = card(1)
    found = hardest_state(puzzle, Budget())
    moved = Puzzle(puzzle.board, next(puzzle.board.successors(puzzle.placement))[1])
    (relabelled_puzzle,) = read_text(database_board(puzzle), "db", name="db")
    for other in (moved, relabelled_puzzle):
        again = hardest_state(other, Budget())
        assert again.canonical == found.canonical
        assert again.deck_line() == found.deck_line()


# --- the cluster graph against the naive string solver of tests/reference --------------------


BOARDS = [card(1), card(12), example("4x4"), example("walls"), example("unsolvable")]


@pytest.mark.parametrize("jit", ["always", "never"])
@pytest.mark.parametrize("puzzle", BOARDS, ids=lambda p: p.name)
def test_the_cluster_graph_has_the_naive_clusters_states_moves_and_distances(
    monkeypatch, jit, puzzle
):
    monkeypatch.setenv("RHASP_JIT", jit)
    graph = cluster_graph(puzzle, Budget())
    rows = board_rows(puzzle)
    target = puzzle.board.targets[0]
    expected = reference.goal_distance(rows, target)
    states, edges = reference.cluster(rows)
    assert (graph.states, graph.moves) == (len(states), len(edges))
    as_rows = [
        "".join(board_rows(Puzzle(puzzle.board, graph.geometry.state(k)))) for k in graph.keys
    ]
    found = {as_rows[i]: graph.distance[i] for i in graph.by_distance}
    assert found == expected
    assert all(graph.distance[i] == -1 for i in range(graph.states) if as_rows[i] not in expected)
    assert [graph.distance[i] for i in graph.goals] == [0] * sum(d == 0 for d in expected.values())
    for i in range(graph.states):  # every move kept is a move of the naive cluster
        for j in graph.neighbours(i):
            assert i in graph.neighbours(j)
    if expected:
        far = max(expected.values())
        hardest = graph.hardest
        assert graph.farthest == graph.distance[hardest] == far
        way = graph.way_down()
        assert len(way) - 1 == reference.fewest(rows, {target: "right"}, "moves")
        assert all(b in graph.neighbours(a) for a, b in itertools.pairwise(way))
    else:
        assert (
            graph.farthest is None
            and graph.way_down() == []
            and hardest_state(puzzle, Budget()) is None
        )


# --- minimality: rhasp.canonical's test and the enumeration's compiled one agree --------------


def interesting(puzzle: Puzzle) -> bool:
    """The database's layout conditions (docs/commands/enumerate.md) other than minimality:
    no row filled by horizontal vehicles and walls alone, no column by vertical vehicles
    alone, no other horizontal vehicle on the target's row, walls there only left of it."""
    board = puzzle.board
    target = board.vehicles[board.index("A")]
    cells = {}
    for vehicle, p in zip(board.vehicles, puzzle.placement, strict=True):
        for cell in vehicle.cells(p):
            cells[cell] = vehicle
    for row in range(board.height):
        line = [cells.get((row, c)) for c in range(board.width)]
        if all((row, c) in board.walls or (v and v.horizontal) for c, v in enumerate(line)):
            return False
        if row == target.line and any(v and v.horizontal and v is not target for v in line):
            return False
    for col in range(board.width):
        if all((v := cells.get((r, col))) and not v.horizontal for r in range(board.height)):
            return False
    start = puzzle.placement[board.index("A")]
    return all(c < start for r, c in board.walls if r == target.line)


def line_key(line: str) -> tuple[int, str, int]:
    moves, board, states = line.split()
    return int(moves), board, int(states)


@pytest.mark.parametrize(
    ("size", "walls", "minimal_seen"), [(4, 1, 0), pytest.param(5, 0, 3, marks=pytest.mark.slow)]
)
def test_generated_hardest_states_are_database_lines_exactly_when_minimal(
    size, walls, minimal_seen
):
    # The database keeps a cluster's hardest state when its compiled test (layouts.is_minimal)
    # finds it minimal; rhasp.canonical's needless_piece decides the same on random boards
    # (with the database's target row, and its layout conditions). Random 4×4 boards are
    # crowded: their hardest states are not minimal, and the database's own lines (below)
    # show the other side.
    row = (size - 1) // 2 + 1  # where random boards put the target, counted from 1
    database = set(map(line_key, rhasp.enumerate(size, walls=(0, walls), exit_row=row)))
    verdicts = Counter()
    for number in range(400):
        puzzle = board_number(7, number, size, walls)
        graph = cluster_graph(puzzle, Budget())
        found = hardest_of(puzzle, graph)
        if found is None or not interesting(found.puzzle):
            continue
        minimal = needless_piece(found, graph, Budget()) is None
        assert (line_key(found.deck_line()) in database) == minimal, found.deck_line()
        verdicts[minimal] += 1
    assert verdicts[True] >= minimal_seen and verdicts[False] >= 3, verdicts


@pytest.mark.parametrize(("size", "walls", "row", "step"), [(4, 1, 2, 1), (5, 0, 3, 14)])
def test_every_database_line_is_minimal_by_the_cluster_test(size, walls, row, step):
    lines = list(rhasp.enumerate(size, walls=(0, walls), exit_row=row))
    assert lines
    for line in lines[::step]:
        puzzle = rhasp.parse(line)
        graph = cluster_graph(puzzle, Budget())
        found = hardest_of(puzzle, graph)
        assert line_key(found.deck_line()) == line_key(line)
        assert needless_piece(found, graph, Budget()) is None, line


def test_a_needless_wall_is_taken_off():
    # A alone on a 4×4 board, with a wall under it: every state is one move from the goal
    # with the wall or without it, so the wall is needless, and goes.
    lone = [Piece("A", "h", 1, 0, 2)]
    puzzle = build_puzzle(4, 4, lone, [((3, 0), "")], [TargetSpec("A")], where="", name="")
    graph = cluster_graph(puzzle, Budget())
    found = hardest_of(puzzle, graph)
    assert found is not None and found.moves == 1
    smaller = needless_piece(found, graph, Budget())
    assert smaller is not None and not smaller.board.walls
    assert smaller.placement == found.puzzle.placement
