"""The core's lower bound as a table (what the ASP engine's state memo prunes by): by hand on
a card, and the same as the core's own on every state of random boards."""

from __future__ import annotations

import heapq

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rhasp.model import Puzzle
from rhasp.search import BoundTable, core
from rhasp.search.bound_table import NEVER
from rhasp.search.geometry import Geometry
from tests.boards import card, puzzles
from tests.volume import examples


@pytest.mark.parametrize(("by_slides", "expected"), [(False, 3), (True, 8)])
def test_the_bound_counts_the_way_out_by_hand(by_slides, expected):
    # Card 1: X (row 3, columns 2-3) needs 3 cells to the exit. Across its way stand the trucks
    # Q (column 4, rows 2-4) and O (column 6, rows 1-3); neither has room to go up past row 3,
    # so Q must slide down 2 cells and O 3. By moves 1 + 2; by slides 3 + 2 + 3.
    puzzle = card(1)
    geometry = Geometry.of(puzzle.board)
    key = geometry.key(puzzle.board.settle(puzzle.start))
    targets = core.target_vehicles(geometry.tables)
    assert core.lower_bound(geometry.tables, targets, key, by_slides) == expected
    assert BoundTable.of(puzzle.board, by_slides).bound(key) == expected


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_side=6, max_others=5), st.booleans())
def test_the_table_is_the_cores_bound_on_every_state(puzzle, by_slides):
    geometry = Geometry.of(puzzle.board)
    table = BoundTable.of(puzzle.board, by_slides)
    targets = core.target_vehicles(geometry.tables)
    start = geometry.key(puzzle.board.settle(puzzle.start))
    seen, frontier = {start}, [start]
    while frontier and len(seen) < 2_000:
        key = frontier.pop()
        computed = core.lower_bound(geometry.tables, targets, key, by_slides)
        looked_up = table.bound(key)
        if computed < 0:
            assert looked_up >= NEVER, key
        else:
            assert looked_up == computed, key
            assert looked_up <= table.most  # the memo skips the bound where none reaches it
        for after in geometry.neighbours(key):
            if after not in seen:
                seen.add(after)
                frontier.append(after)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_side=6, max_others=5), st.sampled_from(["moves", "slides"]))
def test_the_bound_never_exceeds_the_steps_left(puzzle, objective):
    """What makes A*'s and the state memo's pruning sound: from every state that can still
    reach the goal, the bound is at most the true fewest moves (or slides) to it, by the
    readable model's own search."""
    geometry = Geometry.of(puzzle.board)
    targets = core.target_vehicles(geometry.tables)
    for state, left in distances_to_goal(puzzle, objective).items():
        key = geometry.key(state)
        bound = core.lower_bound(geometry.tables, targets, key, objective == "slides")
        assert 0 <= bound <= left, (state, left)


def distances_to_goal(puzzle: Puzzle, objective: str) -> dict:
    """Every reachable state's fewest moves (or slides) to the goal, by the readable model:
    the graph of moves from the start, then Dijkstra backwards from the solved states."""
    board = puzzle.board
    start = board.settle(puzzle.start)
    edges: dict = {}  # state -> [(cost, state before)]
    seen, frontier = {start}, [start]
    while frontier:
        state = frontier.pop()
        for move, after in board.successors(state):
            cost = abs(move.delta) if objective == "slides" else 1
            edges.setdefault(after, []).append((cost, state))
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    queue = [(0, n, s) for n, s in enumerate(s for s in seen if board.is_solved(s))]
    heapq.heapify(queue)
    distance: dict = {}
    while queue:
        d, _, state = heapq.heappop(queue)
        if state in distance:
            continue
        distance[state] = d
        for cost, before in edges.get(state, ()):
            if before not in distance:
                heapq.heappush(queue, (d + cost, id(before), before))
    return distance
