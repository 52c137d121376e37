"""Static analysis against the model's own moves: every cell it marks is occupied in every
state a breadth-first walk of the moves reaches, and a puzzle it calls unsolvable has no plan
(the walk reaches no state with every target gone)."""

from __future__ import annotations

from collections import deque

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rhasp
from rhasp.engines.static import Blocked, always_occupied, blocked_exit
from rhasp.model import EMPTY, Puzzle, State
from tests.boards import PUZZLES, example, grid, puzzles


def reachable(puzzle: Puzzle) -> set[State]:
    """Every state the model's moves reach from the start (targets leave as they do)."""
    board, start = puzzle.board, puzzle.start
    seen, queue = {start}, deque([start])
    while queue:
        for _, after in board.successors(queue.popleft()):
            if after not in seen:
                seen.add(after)
                queue.append(after)
    return seen


def check_against_the_walk(puzzle: Puzzle) -> None:
    states = reachable(puzzle)
    for cell in always_occupied(puzzle.board, puzzle.start):
        row, col = cell
        assert all(puzzle.board.grid(state)[row][col] != EMPTY for state in states), cell
    if blocked_exit(puzzle) is not None:
        assert not any(puzzle.board.is_solved(state) for state in states)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_side=6))
def test_marked_cells_stay_occupied_and_unsolvable_means_no_plan(puzzle):
    check_against_the_walk(puzzle)


@st.composite
def crowded(draw):
    """Boards of 4×4 to 6×6 crowded with vehicles and walls, where vehicles get stuck often."""
    return draw(puzzles(min_side=4, max_side=6, max_others=12))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded())
def test_on_crowded_boards_too(puzzle):
    check_against_the_walk(puzzle)


def test_the_hand_made_boards():
    # unsolvable.txt: truck A stands on a wall, across X's way out (the file says so).
    found = blocked_exit(example("unsolvable"))
    assert (found.target, found.cell, found.holder) == ("X", (2, 4), "vehicle A")
    # walled12.txt: a wall at the exit, right of A (row 6, column 12 of the file).
    walled = rhasp.read(PUZZLES / "large" / "walled12.txt")
    assert (
        blocked_exit(walled)
        .proof()
        .startswith("row 6, column 12 is occupied in every reachable state, by a wall")
    )
    assert blocked_exit(example("4x4")) is None


def test_a_ring_of_vehicles_blocking_each_other_is_stuck():
    # A pinwheel, by hand: A's right end meets B, B's lower end C, C's left end D, D's upper
    # end A, and each one's other end the edge. None can move first; X, leaving by the top,
    # would have to pass A.
    ring = grid("@target X top\n..B.\nAAB.\nXDCC\nXD..")
    held = always_occupied(ring.board, ring.start)
    # X too: A above it, the edge below.
    assert {holder for holder in held.values()} == {f"vehicle {label}" for label in "ABCDX"}
    assert blocked_exit(ring) == Blocked("X", (1, 0), "vehicle A")
    check_against_the_walk(ring)
