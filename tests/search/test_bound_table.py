"""The lower bounds the ASP engine's state memo prunes by: the core's as a table, by hand on a
card and the same as the core's own on every state of random boards; by moves the vehicles
that must move, by hand, never below the core's, and never above the true moves left (with
a rule broken on purpose to show that the check catches one that is)."""

from __future__ import annotations

import dataclasses
import heapq

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rhasp.model import Puzzle
from rhasp.search import BoundTable, core
from rhasp.search.bound_table import NEVER
from rhasp.search.geometry import Geometry
from tests.boards import card, grid, puzzles
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
    assert BoundTable.of(puzzle.board, by_slides).core_bound(key) == expected


def test_every_vehicle_of_card_1_must_move_by_hand():
    # Card 1, as above, by moves. X must leave; Q and O stand across its way. Q can only go
    # down (rows 4-6), past R in row 6, which can only go left (columns 1-3: R is a truck),
    # past B in column 1, which can only go up, into P, which can only go up, into A. O can
    # only go down, past C in row 5. All eight vehicles: eight moves, card 1's optimum.
    puzzle = card(1)
    key = Geometry.of(puzzle.board).key(puzzle.board.settle(puzzle.start))
    table = BoundTable.of(puzzle.board, by_slides=False)
    assert table.must_move(key) == table.bound(key) == 8 == len(puzzle.board.vehicles)


# A (row 3) leaves right; B (column 4) stands across its way and can get off it up or down.
# Up, C stands in its way; down is free. Only A and B must move: two moves do it.
EITHER_WAY = """
...CC.
...B..
AA.B..
......
......
......
"""
# The same with a wall above B and D across its way down: B must go down, and D must move
# first (left or right: nothing stands on both ways, so nothing more must move).
ONE_WAY = """
...#..
...B..
AA.B..
......
...DD.
......
"""


@pytest.mark.parametrize(("text", "vehicles"), [(EITHER_WAY, 2), (ONE_WAY, 3)])
def test_only_what_stands_on_every_way_off_must_move(text, vehicles):
    puzzle = grid(text)
    key = Geometry.of(puzzle.board).key(puzzle.board.settle(puzzle.start))
    assert BoundTable.of(puzzle.board, by_slides=False).must_move(key) == vehicles


# The truck A stands across both targets' ways: it can step off X's row (down one), never off
# Y's (each of its two positions covers row 2), so Y never leaves and no plan is.
ACROSS_TWO_WAYS = """
@target X right
@target Y right
XXA.
YYA.
..A.
....
"""


def test_a_vehicle_across_two_ways_must_stand_off_each():
    puzzle = grid(ACROSS_TWO_WAYS)
    key = Geometry.of(puzzle.board).key(puzzle.board.settle(puzzle.start))
    assert BoundTable.of(puzzle.board, by_slides=False).must_move(key) == NEVER


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
        looked_up = table.core_bound(key)
        bound = table.bound(key)
        if computed < 0:
            assert looked_up >= NEVER, key
            assert bound >= NEVER, key
        else:
            assert looked_up == computed, key
            assert computed <= bound, key  # must_move by moves: never less
            if bound < NEVER:
                assert bound <= table.most  # the memo skips the bound where none reaches it
        for after in geometry.neighbours(key):
            if after not in seen:
                seen.add(after)
                frontier.append(after)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_side=6, max_others=5), st.sampled_from(["moves", "slides"]))
def test_the_bound_never_exceeds_the_steps_left(puzzle, objective):
    """What makes A*'s and the state memo's pruning sound: from every state that can still
    reach the goal, the bounds are at most the true fewest moves (or slides) to it, by the
    readable model's own search."""
    geometry = Geometry.of(puzzle.board)
    targets = core.target_vehicles(geometry.tables)
    table = BoundTable.of(puzzle.board, objective == "slides")
    for state, left in distances_to_goal(puzzle, objective).items():
        key = geometry.key(state)
        bound = core.lower_bound(geometry.tables, targets, key, objective == "slides")
        assert 0 <= bound <= left, (state, left)
        assert 0 <= table.bound(key) <= left, (state, left)


class _AnyWayOff(BoundTable):
    """must_move with its key step broken on purpose: a vehicle on *some* way off counts,
    not only one on every way."""

    def _crossed_by_every_way_off(self, vehicle: int, value: int, avoid: int) -> int:
        crossed = -1
        for there, cells in self.crossed[vehicle][value].items():
            standing = self.cells[vehicle * self.stride + there]
            if there != self.gone and not standing & avoid and not cells & self.walls:
                crossed = cells if crossed < 0 else crossed | cells
        return crossed


def test_the_distance_check_catches_a_bound_broken_on_purpose():
    puzzle = grid(EITHER_WAY)
    geometry = Geometry.of(puzzle.board)
    broken = _AnyWayOff(
        **{
            f.name: getattr(BoundTable.of(puzzle.board, False), f.name)
            for f in dataclasses.fields(BoundTable)
            if f.init
        }
    )
    too_high = [
        state
        for state, left in distances_to_goal(puzzle, "moves").items()
        if broken.must_move(geometry.key(state)) > left
    ]
    assert puzzle.board.settle(puzzle.start) in too_high  # C counted: 3 where 2 do


def distances_to_goal(puzzle: Puzzle, objective: str, max_states: int | None = None) -> dict | None:
    """Every reachable state's fewest moves (or slides) to the goal, by the readable model:
    the graph of moves from the start, then Dijkstra backwards from the solved states. None
    where more than ``max_states`` states are reachable (a property's cap on one example's
    cost: random boards of 8×8 reach clusters of hundreds of thousands)."""
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
        if max_states is not None and len(seen) > max_states:
            return None
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
