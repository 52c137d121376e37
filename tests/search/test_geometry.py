"""Packed keys (:meth:`Geometry.searching`): the same states, moves and answers as the
board's own keys, in fewer words where the vehicles' ranges allow.

The board's own keys are the independent computation: the same core on a layout that gives
every vehicle its whole line."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings

from rhasp import search
from rhasp.errors import SearchLimit
from rhasp.limits import Budget
from rhasp.model import Piece, TargetSpec, build_puzzle, plan_slides, replay
from rhasp.search import core, runner
from rhasp.search.geometry import Geometry, key_words
from rhasp.static import position_ranges
from tests.boards import crowded_puzzles, grid
from tests.volume import examples


def some(count: int) -> settings:
    return settings(
        max_examples=examples(count), deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


#: States each search may reach here: enough for most crowded boards to end.
STATES = 20_000


def both(puzzle) -> tuple[Geometry, Geometry]:
    """The board's own geometry and the one with packed keys from the puzzle's start."""
    board = puzzle.board
    return Geometry.of(board), Geometry.of(board, ranges=position_ranges(board, puzzle.start))


def walked(geometry: Geometry, start: int, most: int) -> list[int]:
    """The keys a breadth-first walk of ``geometry`` reaches from ``start`` (up to ``most``)."""
    seen, order = {start}, [start]
    for key in order:
        for after in geometry.neighbours(key):
            if after not in seen and len(order) < most:
                seen.add(after)
                order.append(after)
    return order


@some(200)
@given(crowded_puzzles())
def test_packed_keys_give_every_state_the_same_moves_in_the_same_order(puzzle):
    plain, packed = both(puzzle)
    for key in walked(plain, plain.key(puzzle.start), 300):
        state = plain.state(key)
        packed_key = packed.key(state)
        assert packed.state(packed_key) == state
        assert packed.occupancy(packed_key) == plain.occupancy(key)
        assert packed.solved(packed_key) == plain.solved(key)
        after = [packed.state(k) for k in packed.neighbours(packed_key)]
        assert after == [plain.state(k) for k in plain.neighbours(key)]
        for k in packed.neighbours(packed_key):
            assert packed.move(packed_key, k) == plain.move(key, plain.key(packed.state(k)))


def outcome(find):
    try:
        return find()
    except SearchLimit:
        return "limit"


@pytest.mark.usefixtures("uncompiled")
@some(120)
@given(crowded_puzzles(min_side=7))
def test_searches_on_packed_keys_agree_with_the_boards_own_keys(puzzle):
    # Where packing saves a word, the face's searches run on packed keys: BFS reaches the
    # same states in the same order (so the same plan and count); Dijkstra and A* find
    # plans of the same cost, valid on the model.
    plain, packed = both(puzzle)
    assume(key_words(packed.tables) < key_words(plain.tables))
    board, start = puzzle.board, puzzle.start
    budget = Budget(STATES)
    flags = {"stop_at_goal": True, "with_links": True}

    def own_bfs():
        goal, found, path = runner.run(
            plain, core.breadth_first, plain.key(start), budget=budget, **flags
        )
        return (plain.plan(path) if goal >= 0 else None), found

    expected = outcome(own_bfs)
    assert outcome(lambda: search.fewest_moves(board, start, budget)) == expected
    if expected == "limit":
        return
    plan, _ = expected
    fewest = None if plan is None else len(plan)
    found = outcome(lambda: search.best_first(board, start, "moves", Budget(10 * STATES)))
    if found != "limit":
        assert (None if found[0] is None else len(found[0])) == fewest

    def own_dijkstra():
        goal, _, path = runner.run(plain, core.cheapest, plain.key(start), budget=budget)
        return plain.plan(path) if goal >= 0 else None

    cheapest = outcome(own_dijkstra)
    found = outcome(lambda: search.fewest_slides(board, start, budget))
    if cheapest != "limit" and found != "limit":
        assert (found[0] is None) == (cheapest is None)
        if cheapest is not None:
            assert plan_slides(found[0]) == plan_slides(cheapest)
            assert replay(puzzle, found[0]).solved


@pytest.mark.usefixtures("uncompiled")
def test_a_crowded_12x12_board_of_49_vehicles_packs_into_three_words():
    # Twelve rows of four cars; the target X stands upright in column 12 of rows 1-2 and
    # leaves at the bottom (a target may leave, so its cells block no row). Each car stands
    # at one of five positions (eight cells of cars in a row, four free: 3 bits, not the 4 of
    # a car's whole row); X keeps its whole column (4 bits, with gone). 148 bits fit three
    # words of 63, where 49 fields of 4 bits take four (fifteen a word). Only row 4's last
    # car stands in X's way: one move to the left, and X leaves: 2 moves.
    labels = iter("ABCDEFGHIJKLMNPQRSTUVWYZabcdefghijklmnpqrstuvwxyz")
    pieces = [Piece("X", "v", 0, 11, 2)]
    for row in range(12):
        cols = (0, 3, 6, 10) if row == 3 else (0, 3, 6, 9)
        pieces += [Piece(next(labels), "h", row, col, 2) for col in cols]
    targets = [TargetSpec("X", "bottom")]
    puzzle = build_puzzle(12, 12, pieces, [], targets, where="", name="rows")
    packed = Geometry.searching(puzzle.board, puzzle.start)
    assert key_words(Geometry.of(puzzle.board).tables) == 4
    assert key_words(packed.tables) == 3
    index = {v.label: i for i, v in enumerate(puzzle.board.vehicles)}
    assert {packed.widths[i] for label, i in index.items() if label != "X"} == {3}
    assert packed.widths[index["X"]] == 4
    assert [packed.low[index[label]] for label in "MNPQ"] == [0, 2, 4, 6]  # row 4's cars
    plan, _ = search.fewest_moves(puzzle.board, puzzle.start, Budget())
    assert plan is not None and replay(puzzle, plan).solved and len(plan) == 2


def test_a_board_whose_keys_fit_one_word_keeps_its_own_keys():
    puzzle = grid("AA.BB.\nCC....\nXX..DD\n......\n......\n......")
    assert Geometry.searching(puzzle.board, puzzle.start) == Geometry.of(puzzle.board)


def test_a_state_outside_the_packed_ranges_has_no_key():
    # B (AA.BB.) stands at columns 3 to 5, never left of A's two cells: 2 to 4.
    puzzle = grid("AA.BB.\nCC....\nXX..DD\n......\n......\n......")
    _, packed = both(puzzle)
    b = next(i for i, v in enumerate(puzzle.board.vehicles) if v.label == "B")
    assert position_ranges(puzzle.board, puzzle.start)[b] == range(2, 5)
    for position in (0, 1):
        state = list(puzzle.start)
        state[b] = position
        with pytest.raises(ValueError, match=f"vehicle {b} at {position}"):
            packed.key(tuple(state))
