"""A*'s pattern bound (rhasp.search.pattern_bound, core.pattern_bound): never above the true
distance on any state of random clusters of 5×5 to 8×8 boards (and that check catches a bound
made one too high on purpose), consistent, with teeth on a board by hand, and A* with it
agreeing with the card backs and with BFS."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings

from rhasp import search
from rhasp.errors import SearchLimit
from rhasp.limits import Budget
from rhasp.model import Puzzle
from rhasp.search import pattern_bound, uncompiled
from rhasp.search.geometry import Geometry
from rhasp.static import position_ranges
from tests.boards import CARD_MOVES, THREE_DEEP, card, grid, puzzles
from tests.search.test_bound_table import distances_to_goal
from tests.volume import examples

CORE = uncompiled.CORE  # the bound read by the uncompiled core: the same source


@pytest.fixture
def small_patterns(monkeypatch):
    """Patterns of a few hundred boards (a real subset of these small clusters), always
    built: A* probes no states first."""
    monkeypatch.setattr(pattern_bound, "PATTERN_BOARDS", 300)
    monkeypatch.setattr(pattern_bound, "UNCOMPILED_BOARDS", 300)
    monkeypatch.setattr(pattern_bound, "CHOICE_SECONDS", 0.5)
    monkeypatch.setattr(pattern_bound, "PROBE_STATES", 1)


#: The most states a random board's cluster may hold here: the readable model walks it in
#: Python (about 0.1 ms a state), and some 8×8 boards drawn reach 60,000 states and more.
MAX_STATES = 10_000


def too_high(puzzle: Puzzle, objective: str, packed: bool = False) -> list[tuple] | None:
    """The states (with their bound and true distance) where A*'s bound with the patterns
    chosen from the start exceeds the true distance to the goal, by the readable model's
    own search (every state reachable from the start that can reach the goal); None where
    more than :data:`MAX_STATES` are reachable. ``packed``: on packed keys (each vehicle's
    field only as wide as its range from the start), as a search from the start has them
    where they save a word."""
    distances = distances_to_goal(puzzle, objective, MAX_STATES)
    if distances is None:
        return None
    board, settled = puzzle.board, puzzle.board.settle(puzzle.start)
    ranges = position_ranges(board, settled) if packed else None
    geometry = Geometry.of(board, ranges=ranges)
    start = geometry.key(settled)
    patterns = pattern_bound.patterns_for(geometry, start, 0.5)
    targets, by_slides = list(geometry.targets), objective == "slides"
    found = []
    for state, left in distances.items():
        bound = CORE.bound_of(geometry.tables, targets, geometry.key(state), by_slides, patterns)
        if not 0 <= bound <= left:
            found.append((state, bound, left))
    return found


@pytest.mark.usefixtures("uncompiled")
@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(puzzles(min_side=5, max_side=8, max_others=7, max_targets=1))
def test_the_pattern_bound_never_exceeds_the_distance_left(small_patterns, puzzle):
    by_moves = too_high(puzzle, "moves")
    assume(by_moves is not None)
    assert by_moves == []
    assert too_high(puzzle, "slides") == []
    assert too_high(puzzle, "moves", packed=True) == []
    assert too_high(puzzle, "slides", packed=True) == []


def test_the_check_catches_a_bound_one_too_high(small_patterns, monkeypatch):
    # The same check, with the patterns' moves made one more on purpose: a state one move
    # from the goal then has a bound of 2. Card 1 (8 moves) and a hand board.
    honest = CORE.pattern_bound
    monkeypatch.setattr(CORE, "pattern_bound", lambda *arguments: honest(*arguments) + 1)
    for puzzle in (card(1), grid(THREE_DEEP)):
        assert too_high(puzzle, "moves")
        assert too_high(puzzle, "moves", packed=True)


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(puzzles(min_side=5, max_side=8, max_others=7, max_targets=1))
def test_the_pattern_bound_is_consistent(small_patterns, puzzle):
    """One move changes the bound by at most one (by moves): A* never reopens a state."""
    distances = distances_to_goal(puzzle, "moves", MAX_STATES)
    assume(distances is not None)
    geometry = Geometry.of(puzzle.board)
    start = geometry.key(puzzle.board.settle(puzzle.start))
    patterns = pattern_bound.patterns_for(geometry, start, 0.5)
    targets, g = list(geometry.targets), geometry.tables
    for state in distances:
        key = geometry.key(state)
        here = CORE.bound_of(g, targets, key, False, patterns)
        for after in geometry.neighbours(key):
            there = CORE.bound_of(g, targets, after, False, patterns)
            assert here <= there + 1, (state, here, there)


@pytest.mark.usefixtures("uncompiled")
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(min_side=5, max_side=8, max_others=7, max_targets=1))
def test_packed_keys_read_the_same_pattern_moves_as_the_boards_own(puzzle):
    # One pattern's table made for the board's own keys and for packed keys: every state
    # reachable from the start reads the same moves from both (the pattern's boards indexed
    # by the fields each layout holds).
    board = puzzle.board
    start = board.settle(puzzle.start)
    distances = distances_to_goal(puzzle, "moves", MAX_STATES)
    assume(distances and None not in start)
    order = pattern_bound._by_need(board, start)[0]
    found = pattern_bound._grown(board, start, order, 300, math.inf)
    assume(found is not None)
    keep, graph = found
    target = board.index(board.targets[0])
    read = []
    for geometry in (Geometry.of(board), Geometry.of(board, ranges=position_ranges(board, start))):
        patterns = pattern_bound.as_arrays([pattern_bound._table(geometry, keep, graph)])
        g = geometry.tables
        shift = g.shift[target]
        read.append(
            [CORE.pattern_bound(patterns, geometry.key(s), shift, g.gone) for s in distances]
        )
    assert read[0] == read[1]


def test_a_pattern_counts_what_blocks_the_blockers_by_hand(small_patterns):
    # THREE_DEEP: C out of B's way, B down, A out: 3 moves, the optimum. A*'s own bound
    # counts A and B (2); a pattern that keeps A, B and C counts C too.
    puzzle = grid(THREE_DEEP)
    geometry = Geometry.of(puzzle.board)
    key = geometry.key(puzzle.board.settle(puzzle.start))
    targets = list(geometry.targets)
    assert CORE.lower_bound(geometry.tables, targets, key, False) == 2
    patterns = pattern_bound.patterns_for(geometry, key, 0.5)
    assert CORE.bound_of(geometry.tables, targets, key, False, patterns) == 3


def test_a_star_with_patterns_agrees_with_the_card_backs(small_patterns):
    for number, moves in enumerate(CARD_MOVES, start=1):
        puzzle = card(number)
        plan, _ = search.best_first(puzzle.board, puzzle.start, "moves", Budget(), patterned=True)
        assert len(plan) == moves, number


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(puzzles(min_side=5, max_side=8, max_others=7))
def test_a_star_with_patterns_agrees_with_bfs(small_patterns, puzzle):
    board, start = puzzle.board, puzzle.start
    for objective, oracle in (("moves", search.fewest_moves), ("slides", search.fewest_slides)):
        expected, _ = oracle(board, start, Budget())
        found, _ = search.best_first(board, start, objective, Budget(), patterned=True)
        assert (found is None) == (expected is None)
        if expected is not None:
            assert len(found) == len(expected)
            if objective == "slides":
                assert sum(abs(m.delta) for m in found) == sum(abs(m.delta) for m in expected)


def test_small_searches_build_no_pattern(monkeypatch):
    # Card 26 ends within the probe's states: no pattern is chosen (no time spent on one).
    def no_choice(*arguments):
        raise AssertionError("a pattern was chosen")

    monkeypatch.setattr(pattern_bound, "patterns_for", no_choice)
    puzzle = card(26)
    plan, _ = search.best_first(puzzle.board, puzzle.start, "moves", Budget(), patterned=True)
    assert len(plan) == 28


def test_a_limit_after_the_probe_counts_both_runs_states(monkeypatch):
    # A* on card 26 (606 states with its patterns) stopped at 500 states, 400 of them the
    # probe's: the line, the states reached and the budget are the whole search's, as one
    # run's would be.
    monkeypatch.setattr(pattern_bound, "PROBE_STATES", 400)
    puzzle = card(26)
    with pytest.raises(SearchLimit) as stopped:
        search.best_first(puzzle.board, puzzle.start, "moves", Budget(states=500), patterned=True)
    limit = stopped.value.limit
    assert limit.reached >= 500 and limit.amount == 500
    assert f"after {limit.reached:,} states at f-value " in str(stopped.value)
