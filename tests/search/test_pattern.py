"""The pattern database: the fewest moves (or slides) with some vehicles lifted off, or one a
cell shorter, a lower bound on the real puzzle's, by hand on small boards, never above the
true moves or slides left on every state of random boards (and caught when built wrong on
purpose), and chosen within its limits."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from dataclasses import replace
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings

from rhasp.engines import reference
from rhasp.limits import Budget
from rhasp.model import Puzzle, plan_slides
from rhasp.search import BoundTable, PatternTable, explore_cluster, pattern
from rhasp.search.geometry import Geometry
from rhasp.search.pattern import NO_SHORT
from tests.boards import ROOT, THREE_DEEP, card, grid, puzzles
from tests.search.test_bound_table import EITHER_WAY, ONE_WAY, distances_to_goal
from tests.volume import examples


def test_the_choice_keeps_what_the_way_out_needs_by_hand():
    # EITHER_WAY: A, B, C; at most two kept. With A and B, B goes down and A out: 2 moves (the
    # optimum, B's way down is free). With A and C, A's way is clear: 1. The choice takes B.
    puzzle = grid(EITHER_WAY)
    table = PatternTable.of(puzzle.board, puzzle.start)
    board = puzzle.board
    assert table.keep == (board.index("A"), board.index("B"))
    assert table.bound(Geometry.of(board).key(board.settle(puzzle.start))) == 2


def test_a_pattern_counts_what_blocks_the_blockers_by_hand():
    # THREE_DEEP with D lifted off: C out of B's way, B down, A out: 3, the optimum. With C
    # lifted off too, B goes down at once: 2.
    puzzle = grid(THREE_DEEP)
    board = puzzle.board
    key = Geometry.of(board).key(board.settle(puzzle.start))
    a, b, c = (board.index(label) for label in "ABC")
    assert PatternTable.kept(board, puzzle.start, (a, b, c)).bound(key) == 3
    assert PatternTable.kept(board, puzzle.start, (a, b)).bound(key) == 2
    assert PatternTable.kept(board, puzzle.start, (a,)).bound(key) == 1


def test_a_pattern_counts_the_slides_of_what_blocks_the_blockers_by_hand():
    # THREE_DEEP by slides: C one cell left, off B's column (two right), B two down (a wall
    # above), A four to its exit: 7, the optimum. Without C: 2 + 4; A alone: 4.
    puzzle = grid(THREE_DEEP)
    board = puzzle.board
    key = Geometry.of(board).key(board.settle(puzzle.start))
    a, b, c = (board.index(label) for label in "ABC")
    kept = {
        keep: PatternTable.kept(board, puzzle.start, keep, by_slides=True)
        for keep in [(a, b, c), (a, b), (a,)]
    }
    assert [table.bound(key) for table in kept.values()] == [7, 6, 4]
    assert all(table.by_slides for table in kept.values())


@pytest.mark.parametrize(("by_slides", "expected"), [(False, [1, 2, 3]), (True, [4, 6, 7])])
def test_a_vehicle_a_cell_shorter_by_hand(by_slides, expected):
    # THREE_DEEP, every vehicle kept (the optimum 3 moves, 7 slides). B on one cell (its upper)
    # leaves A's row: A out, 1 move (4 slides). C on one cell (its left) leaves B's column: B
    # two down and A out, 2 moves (2 + 4 slides). D on one cell matters to nobody: 3 moves
    # (7 slides), the optimum itself.
    puzzle = grid(THREE_DEEP)
    board = puzzle.board
    key = Geometry.of(board).key(board.settle(puzzle.start))
    every = tuple(range(len(board.vehicles)))
    tables = [
        PatternTable.kept(board, puzzle.start, every, by_slides, short=board.index(label))
        for label in "BCD"
    ]
    assert [table.bound(key) for table in tables] == expected


@pytest.mark.parametrize("objective", ["moves", "slides"])
@pytest.mark.parametrize("number", [1, 26, 40])
def test_the_table_gives_the_patterns_own_fewest_for_vehicles_kept_anywhere(number, objective):
    # The target and the last two vehicles kept (their fields sit elsewhere in the pattern's
    # keys than in the real board's): the table, looked up by the real start's key, gives
    # the fewest moves (slides) of the pattern puzzle, by the readable model's own search.
    puzzle = card(number)
    board = puzzle.board
    keep = tuple(
        sorted({board.index(board.targets[0]), len(board.vehicles) - 2, len(board.vehicles) - 1})
    )
    table = PatternTable.kept(board, puzzle.start, keep, by_slides=objective == "slides")
    lifted = {v.label for i, v in enumerate(board.vehicles) if i not in keep}
    pattern = Puzzle(board, puzzle.start).without(lifted)
    search = reference.fewest_slides if objective == "slides" else reference.fewest_moves
    plan, _ = search(pattern.board, pattern.start)
    fewest = plan_slides(plan) if objective == "slides" else len(plan)
    assert table.bound(Geometry.of(board).key(board.settle(puzzle.start))) == fewest


@pytest.mark.parametrize("objective", ["moves", "slides"])
@pytest.mark.parametrize("number", [1, 26, 40])
def test_the_table_in_arrays_is_the_table_built_key_by_key(monkeypatch, number, objective):
    """A pattern's table of one-word real keys, built in numpy's arrays, against the same
    built key by key in plain Python (the way of keys of several words): the same entries.
    (The pattern's positions are read by ``ClusterGraph.positions``: tests/search/test_graph.py.)"""
    puzzle = card(number)
    board = puzzle.board
    keep = tuple(
        sorted({board.index(board.targets[0]), len(board.vehicles) - 2, len(board.vehicles) - 1})
    )
    by_slides = objective == "slides"
    in_arrays = PatternTable.kept(board, puzzle.start, keep, by_slides=by_slides)
    monkeypatch.setattr(pattern, "key_words", lambda tables: 2)
    key_by_key = PatternTable.kept(board, puzzle.start, keep, by_slides=by_slides)
    assert len(in_arrays.fewest) > 1
    assert in_arrays.fewest == key_by_key.fewest
    assert all(type(k) is int and type(v) is int for k, v in in_arrays.fewest.items())


@pytest.mark.parametrize("objective", ["moves", "slides"])
@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_side=6, max_others=5, max_targets=1))
def test_the_pattern_never_exceeds_the_moves_or_slides_left(objective, puzzle):
    """What makes the memo's pruning by the pattern sound: from every state, reachable from
    the start, that can still reach the goal, the pattern's moves (or slides; and the
    table's bound with it) are at most the true fewest, by the readable model's own search;
    from one that cannot, a pattern may say so (-1)."""
    board, by_slides = puzzle.board, objective == "slides"
    table = PatternTable.of(board, puzzle.start, max_boards=200, by_slides=by_slides)
    if table is None:  # small above: a real subset
        return
    assert len(table.keep) < len(board.vehicles)
    geometry = Geometry.of(board)
    bounds = BoundTable.of(board, by_slides=by_slides).with_pattern(table)
    for state, left in distances_to_goal(puzzle, objective).items():
        key = geometry.key(state)
        assert table.bound(key) <= left, (state, left)
        assert bounds.bound(key) <= left, (state, left)


@pytest.mark.parametrize("objective", ["moves", "slides"])
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_side=6, max_others=5, max_targets=1))
def test_a_vehicle_a_cell_shorter_never_exceeds_the_moves_or_slides_left(objective, puzzle):
    """The same for the patterns that keep every vehicle, one a cell shorter: from every state
    that can still reach the goal, at most the true fewest moves (slides); and the table holds
    only boards whose shorter vehicle stands where the real one can."""
    board, by_slides = puzzle.board, objective == "slides"
    geometry = Geometry.of(board)
    left = distances_to_goal(puzzle, objective)
    for table in shortened(puzzle, by_slides, 1_000):
        vehicle = board.vehicles[table.short]
        farthest = board.line_length(vehicle) - vehicle.length
        field = geometry.tables.shift[table.short]
        assert all((key >> field) & geometry.tables.gone <= farthest for key in table.fewest)
        for state, fewest in left.items():
            assert table.bound(geometry.key(state)) <= fewest, (table.short, state, fewest)


@pytest.mark.usefixtures("uncompiled")
def test_a_vehicle_is_shortened_only_where_the_key_keeps_its_words():
    # 8x8, 19 vehicles: a position takes 3 bits (the farthest, 6, below "gone", 7), 19 fields
    # one word. A car a cell shorter has 8 positions: every field takes 4 bits, the key two
    # words, another search than the board's; the truck Q a cell shorter is a car, 3 bits.
    puzzle = grid(
        """
        BBCCDDEE
        FFGGHHII
        JJKKLLMM
        AANNOOPP
        QQQRRSS.
        ........
        ........
        ........
        """
    )
    board = puzzle.board
    tried = pattern._shortened(board, puzzle.start, 1_000, math.inf, lambda: False)
    assert [board.vehicles[short].label for _, _, short in tried] == ["Q"]


def test_the_distance_check_catches_a_vehicle_a_cell_longer(monkeypatch):
    # THREE_DEEP by slides (the optimum 7): C a cell longer is no relaxation. C must then go two
    # left off B's column, not one: 8 at the start, caught. Built right, C a cell shorter: 6.
    puzzle = grid(THREE_DEEP)
    board = puzzle.board
    every, c = tuple(range(len(board.vehicles))), board.index("C")
    real = pattern._pattern

    def longer(board, start, keep, short=NO_SHORT):
        if short != NO_SHORT:
            vehicles = list(board.vehicles)
            vehicles[short] = replace(vehicles[short], length=vehicles[short].length + 1)
            board = replace(board, vehicles=tuple(vehicles))
        return real(board, start, keep)

    start = Geometry.of(board).key(board.settle(puzzle.start))
    right = PatternTable.kept(board, puzzle.start, every, True, short=c)
    monkeypatch.setattr(pattern, "_pattern", longer)
    broken = PatternTable.kept(board, puzzle.start, every, True, short=c)
    too_high = [
        state
        for state, left in distances_to_goal(puzzle, "slides").items()
        if not 0 <= broken.bound(Geometry.of(board).key(state)) <= left
    ]
    assert board.settle(puzzle.start) in too_high
    assert (broken.bound(start), right.bound(start)) == (8, 6)


@pytest.mark.parametrize(("objective", "fewest"), [("moves", 2), ("slides", 6)])
def test_the_distance_check_catches_a_pattern_built_wrong_on_purpose(objective, fewest):
    # Lifted vehicles left standing as walls, instead of lifted off: a pattern that is no
    # relaxation. ONE_WAY keeping A and B: B cannot go down with D frozen across its way, so
    # the pattern says "no plan" where there is one of 3 moves (10 slides). Built right: B
    # two down and A out, 2 moves (6 slides).
    puzzle = grid(ONE_WAY)
    board = puzzle.board
    a, b = board.index("A"), board.index("B")
    frozen = {
        cell for i, p in enumerate(puzzle.start) if i not in (a, b) for cell in board.cells_at(i, p)
    }
    walled = replace(board, walls=board.walls | frozen)
    by_slides = objective == "slides"
    broken = PatternTable.kept(walled, puzzle.start, (a, b), by_slides)
    too_high = [
        state
        for state, left in distances_to_goal(puzzle, objective).items()
        if not 0 <= broken.bound(Geometry.of(board).key(state)) <= left
    ]
    assert board.settle(puzzle.start) in too_high
    right = PatternTable.kept(board, puzzle.start, (a, b), by_slides)
    assert right.bound(Geometry.of(board).key(board.settle(puzzle.start))) == fewest


def test_the_choice_stays_within_its_limits():
    # Card 26: twelve vehicles, 5,028 boards in its cluster. With room for 2,000 boards the
    # pattern has at most that many, never every vehicle, and the start's bound is at most
    # its 28 moves; a table with a pattern is never weaker than without.
    puzzle = card(26)
    board = puzzle.board
    table = PatternTable.of(board, puzzle.start, max_boards=2_000)
    assert len(table.fewest) <= 2_000 and len(table.keep) < len(board.vehicles)
    key = Geometry.of(board).key(board.settle(puzzle.start))
    plain = BoundTable.of(board, by_slides=False)
    assert plain.bound(key) <= plain.with_pattern(table).bound(key) <= 28
    assert explore_cluster(board, puzzle.start, Budget()).distance[0] == 28
    assert PatternTable.of(board, puzzle.start, seconds=0) is None  # no time: no pattern


def test_no_pattern_for_two_targets_nor_of_another_unit():
    puzzle = grid(
        """
        ......
        ..B...
        AAB...
        ......
        CC....
        ......
        """,
    )
    assert PatternTable.of(puzzle.board, puzzle.start) is not None
    two = replace(puzzle.board, exits=(*puzzle.board.exits, ("C", "right")))
    assert PatternTable.of(two, puzzle.start) is None
    by_moves = PatternTable.of(puzzle.board, puzzle.start)
    by_slides = PatternTable.of(puzzle.board, puzzle.start, by_slides=True)
    with pytest.raises(ValueError, match="slides"):
        BoundTable.of(puzzle.board, by_slides=True).with_pattern(by_moves)
    with pytest.raises(ValueError, match="moves"):
        BoundTable.of(puzzle.board, by_slides=False).with_pattern(by_slides)


@pytest.mark.parametrize("jit", ["always", "never"])
def test_a_process_knows_whether_a_choice_would_load_code(jit):
    # In a process of its own: nothing loaded before the first choice, and asking loads
    # nothing; loaded after it where the code is compiled here (RHASP_JIT=always).
    program = (
        "from rhasp.search import PatternTable\n"
        "from tests.boards import card\n"
        "board, start = card(26).board, card(26).start\n"
        "before = [PatternTable.costs_no_load(board) for _ in range(2)]\n"
        "PatternTable.of(board, start)\n"
        "print(*before, PatternTable.costs_no_load(board))\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        env=os.environ | {"RHASP_JIT": jit},
        cwd=ROOT,
        timeout=300,
        check=True,
    ).stdout.split()
    assert shown == ["False", "False", str(jit == "always")]


def test_a_choice_told_to_stop_gives_no_pattern():
    puzzle = card(26)
    assert PatternTable.of(puzzle.board, puzzle.start) is not None
    assert PatternTable.of(puzzle.board, puzzle.start, stop=lambda: True) is None


def lifts(puzzle, by_slides: bool, max_boards: int) -> list[PatternTable]:
    """Every pattern that lifts one vehicle off (never the target), within ``max_boards``."""
    board = puzzle.board
    every = range(len(board.vehicles))
    kept = [
        PatternTable.kept(board, puzzle.start, tuple(v for v in every if v != lifted), by_slides)
        for lifted in every
        if lifted != board.index(board.targets[0])
    ]
    return [table for table in kept if table is not None and len(table.fewest) <= max_boards]


@pytest.mark.parametrize("objective", ["moves", "slides"])
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_side=6, max_others=5, max_targets=1))
def test_the_largest_of_the_patterns_never_exceeds_the_moves_or_slides_left(objective, puzzle):
    """The memo bounds by the largest of its patterns (the choice, those that lift one vehicle
    each, those that keep one a cell shorter): from every state that can still reach the
    goal, at most the true fewest moves (slides), by the readable model's own search."""
    board, by_slides = puzzle.board, objective == "slides"
    bounds = BoundTable.of(board, by_slides=by_slides)
    chosen = PatternTable.of(board, puzzle.start, max_boards=200, by_slides=by_slides)
    patterns = lifts(puzzle, by_slides, 200) + shortened(puzzle, by_slides, 1_000)
    for table in [chosen] * (chosen is not None) + patterns:
        bounds = bounds.with_pattern(table)
    geometry = Geometry.of(board)
    for state, left in distances_to_goal(puzzle, objective).items():
        assert bounds.bound(geometry.key(state)) <= left, (state, left)


@pytest.mark.parametrize(("objective", "fewest"), [("moves", 3), ("slides", 7)])
def test_the_distance_check_catches_patterns_added_rather_than_the_largest_taken(objective, fewest):
    # THREE_DEEP (the optimum 3 moves, 7 slides): with D lifted off the pattern counts all
    # of it; with C lifted off, B goes down at once and A out (2 moves, 6 slides). Each
    # counts the target's moves, so their sum is no bound: the check that passes the
    # largest catches the sum at the start.
    puzzle = grid(THREE_DEEP)
    board, by_slides = puzzle.board, objective == "slides"
    tables = lifts(puzzle, by_slides, 10_000)
    key = Geometry.of(board).key(board.settle(puzzle.start))
    assert max(table.bound(key) for table in tables) == fewest
    added = sum(table.bound(key) for table in tables)
    too_high = [
        state
        for state, left in distances_to_goal(puzzle, objective).items()
        if sum(table.bound(Geometry.of(board).key(state)) for table in tables) > left
    ]
    assert added > fewest and board.settle(puzzle.start) in too_high


def test_the_collection_is_every_lift_the_choice_and_the_shorter_vehicles_that_beat_them(
    monkeypatch,
):
    # Card 26 (12 vehicles): every pattern that lifts one vehicle within the 10,000 boards,
    # and the choice's own where it is another: the lift that puts the start farthest by
    # moves first, then the choice, which puts it farther still here, then the rest; and of
    # the patterns with a vehicle a cell shorter those (two at most) that put the start
    # farther than all of them, after the first two, the start farthest first.
    monkeypatch.setattr(pattern, "SECONDS", 60.0)  # every one, however loaded the machine
    monkeypatch.setattr(pattern, "_compiled", lambda *args: True)  # compiled or not
    puzzle = card(26)
    board = puzzle.board
    key = Geometry.of(board).key(board.settle(puzzle.start))
    tables = list(PatternTable.collection(board, puzzle.start))
    plain = [table for table in tables if table.short == NO_SHORT]
    lifted = lifts(puzzle, False, pattern.MAX_BOARDS)
    expected = {table.keep for table in lifted}
    chosen = {table.keep for table in plain} - expected
    assert expected <= {table.keep for table in plain} and len(expected) > 3
    assert len(chosen) == 1 and len(plain) == len(expected) + 1
    assert tables[0].keep in expected
    assert tables[0].bound(key) == max(table.bound(key) for table in lifted)
    best = max(table.bound(key) for table in plain)
    assert tables[1].keep in chosen and tables[1].bound(key) == best > tables[0].bound(key)
    beyond = 5 * pattern.MAX_BOARDS
    farther = sorted(
        (table.bound(key), table.short)
        for table in shortened(puzzle, False, beyond)
        if table.bound(key) > best
    )
    taken = [(table.bound(key), table.short) for table in tables if table.short != NO_SHORT]
    assert len(farther) >= 2 and sorted(taken) == farther[-2:]  # (no tie at the edge here)
    starts = [table.bound(key) for table in tables[2:]]
    assert starts == sorted(starts, reverse=True)
    assert list(PatternTable.collection(board, puzzle.start, stop=lambda: True)) == []


def test_the_choice_keeps_every_vehicle_whose_own_lift_is_among_the_patterns(monkeypatch):
    # A pattern without a vehicle whose lift is taken is bounded by that lift on every board
    # (tests above: more vehicles kept, a bound no smaller), so the choice never lifts one.
    monkeypatch.setattr(pattern, "SECONDS", 60.0)
    monkeypatch.setattr(pattern, "_compiled", lambda *args: True)
    for number in (26, 33):
        puzzle = card(number)
        board = puzzle.board
        every = set(range(len(board.vehicles)))
        lifted = {(every - set(t.keep)).pop() for t in lifts(puzzle, False, pattern.MAX_BOARDS)}
        tables = list(PatternTable.collection(board, puzzle.start))
        chosen = [table for table in tables if len(table.keep) < len(every) - 1]
        assert lifted and chosen
        assert all(lifted <= set(table.keep) for table in chosen)


def test_the_patterns_that_lift_a_vehicle_share_the_choices_time(monkeypatch):
    # The choice and the patterns after it share one deadline: a choice that uses all of its
    # time leaves none for them (the memo's search waits on them where it builds them itself).
    monkeypatch.setattr(pattern, "_compiled", lambda *args: True)
    clock = [0.0]
    monkeypatch.setattr(pattern, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    real = pattern._chosen

    def slow(*args):  # the beam's answer, found as its time runs out
        found = real(*args)
        clock[0] += pattern.SECONDS
        return found

    monkeypatch.setattr(pattern, "_chosen", slow)
    puzzle = card(26)
    tables = list(PatternTable.collection(puzzle.board, puzzle.start))
    assert [t.keep for t in tables] == [PatternTable.of(puzzle.board, puzzle.start).keep]


def shortened(puzzle, by_slides: bool, max_boards: int) -> list[PatternTable]:
    """Every pattern that keeps every vehicle, one (never the target) a cell shorter, within
    ``max_boards``."""
    board = puzzle.board
    every = tuple(range(len(board.vehicles)))
    kept = [
        PatternTable.kept(board, puzzle.start, every, by_slides, max_boards, short)
        for short in every
        if short != board.index(board.targets[0])
    ]
    return [table for table in kept if table is not None]
