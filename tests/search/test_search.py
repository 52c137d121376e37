"""The fast core must agree with the reference search on the readable model, and run the same
compiled (numba) and uncompiled (Python integers)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings

import rhasp
from rhasp import generation, limits, search
from rhasp.canonical import cluster_graph
from rhasp.engines import reference
from rhasp.errors import SearchLimit
from rhasp.limits import Budget
from rhasp.model import plan_slides, replay
from rhasp.search import core, pattern_bound, runner
from rhasp.search.geometry import Geometry, cell_words, key_words
from tests.boards import CARD_MOVES, card, crowded_puzzles, example, grid, puzzles
from tests.volume import examples


@contextmanager
def core_mode(mode: str) -> Iterator[None]:
    """Run the core compiled ("always") or uncompiled ("never") inside the block."""
    before = os.environ.get("RHASP_JIT")
    os.environ["RHASP_JIT"] = mode
    try:
        yield
    finally:
        if before is None:
            del os.environ["RHASP_JIT"]
        else:
            os.environ["RHASP_JIT"] = before


def agree(puzzle) -> None:
    board, start = puzzle.board, puzzle.start
    fast_plan, fast_explored = search.fewest_moves(board, start, Budget())
    slow_plan, slow_explored = reference.fewest_moves(board, start)
    # Same successor order, so BFS gives the very same plan and count.
    assert (fast_plan, fast_explored) == (slow_plan, slow_explored)
    fast_plan, fast_explored = search.fewest_slides(board, start, Budget())
    slow_plan, slow_explored = reference.fewest_slides(board, start)
    if slow_plan is None:
        assert fast_plan is None and fast_explored == slow_explored
        return
    # Dijkstra ties may break differently; the optimum (slides, then moves) is the same.
    assert (plan_slides(fast_plan), len(fast_plan)) == (plan_slides(slow_plan), len(slow_plan))
    assert replay(puzzle, fast_plan).solved


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_compiled_core_agrees_with_the_reference_on_random_boards(puzzle):
    with core_mode("always"):
        agree(puzzle)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(min_side=8, max_side=12, max_others=3))
def test_core_agrees_with_the_reference_on_boards_up_to_12x12(puzzle):
    # Few vehicles: on a large board every unsolvable puzzle's whole state space is searched.
    # Uncompiled: the compiled core against the reference on boards past 63 cells is
    # test_every_board_up_to_12x12_compiles's (cells of two and of three words, one board
    # each), and against the uncompiled core the crowded boards' property's and
    # tests/search/test_jit.py's; compiled here, random boards of both sizes cost the suite
    # 20-45 s of CPU on a cold cache for 0.6 s of searching.
    with core_mode("never"):
        agree(puzzle)


@pytest.mark.parametrize("mode", ["always", "never"])
@pytest.mark.parametrize("number", [1, 13, 26, 40])
def test_fast_core_agrees_on_cards(number, mode):
    with core_mode(mode):
        agree(card(number))


@pytest.mark.parametrize("mode", ["always", "never"])
@pytest.mark.parametrize(
    "name", ["4x4", "walls", "unsolvable", "two-targets", "limousine", "vertical-target"]
)
def test_fast_core_agrees_on_the_examples(name, mode):
    with core_mode(mode):
        agree(example(name))


def _reference(puzzle, objective: str):
    find = reference.fewest_moves if objective == "moves" else reference.fewest_slides
    return find(puzzle.board, puzzle.start)[0]


def optimum(puzzle, plan, objective: str):
    """A plan's cost by the objective (None for no plan), checked by replaying it."""
    if plan is None:
        return None
    assert replay(puzzle, plan).solved
    return len(plan) if objective == "moves" else (plan_slides(plan), len(plan))


def every_result(puzzle) -> tuple:
    """What each search of the core returns for the puzzle, in plain Python values."""
    board, start, placement = puzzle.board, puzzle.start, puzzle.placement
    found = [
        search.fewest_moves(board, start, Budget()),
        search.fewest_slides(board, start, Budget()),
        search.cluster_size(board, placement, Budget()),
    ]
    if len(board.targets) == 1:
        found += [
            search.solve_and_count(board, placement, Budget()),
            _graph(cluster_graph(puzzle, Budget())),
        ]
    return tuple(found)


def same_both_ways(results, puzzle) -> tuple:
    """``results(puzzle)`` uncompiled, which it must equal compiled."""
    with core_mode("never"):
        uncompiled = results(puzzle)
    with core_mode("always"):
        compiled = results(puzzle)
    assert compiled == uncompiled
    return uncompiled


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_compiled_and_uncompiled_core_return_the_same(puzzle):
    # One source, two ways of running it: the same plans, counts and orders, to the state.
    same_both_ways(every_result, puzzle)


@pytest.mark.parametrize("mode", ["never", "always"])
def test_a_board_with_no_target_left_is_its_own_goal(mode):
    # Card 1 without X: every target has left, so the start is the goal, the one state
    # reached, by every search; and so on a board with no vehicle at all.
    no_target = card(1).without(["X"])
    empty = no_target.without([vehicle.label for vehicle in no_target.board.vehicles])
    with core_mode(mode):
        for puzzle in (no_target, empty):
            board, start = puzzle.board, puzzle.start
            assert search.fewest_moves(board, start, Budget()) == ((), 1)
            assert search.fewest_slides(board, start, Budget()) == ((), 1)
            for objective in ("moves", "slides"):
                assert search.best_first(board, start, objective, Budget()) == ((), 1)


def test_every_board_up_to_12x12_compiles():
    assert Geometry.of(card(40).board).compiles  # 13 vehicles of 3 bits, 36 cells
    wide = grid("AA......\n" + "........\n" * 7)
    assert Geometry.of(wide.board).compiles  # 64 cells: over a 63-bit word
    crowded = grid("""
        AABBCCDDEE.
        FFGGHHIIJJ.
        KKLLMMNNOO.
        PPQQRRSSTTZ
        XX........Z
    """)  # 22 vehicles of 4 bits on 55 cells: the key is over a word
    geometry = Geometry.of(crowded.board)
    assert (geometry.bits, geometry.compiles) == (4, True)
    # 15 fields of 4 bits to a word: the 16th vehicle's field starts the second word.
    assert geometry.tables.shift[14:17] == (56, 64, 68)
    widest = grid("AA...B......\n.....B......\n" + "............\n" * 9 + ".CCC........")
    tables = Geometry.of(widest.board).tables
    assert (key_words(tables), cell_words(tables)) == (1, 3)  # 144 cells: three words
    with core_mode("always"):
        agree(crowded)
        agree(wide)
        agree(widest)


#: A search's budget on crowded boards: their clusters can be far too large to search.
CROWDED_STATES = 3_000


def bounded_results(puzzle) -> tuple:
    """What each search of the core gives on the puzzle within CROWDED_STATES, a limit met
    included (its line names the states and the depth where it stopped)."""
    board, start, placement = puzzle.board, puzzle.start, puzzle.placement
    budget = Budget(states=CROWDED_STATES)
    searches = [
        lambda: search.fewest_moves(board, start, budget),
        lambda: search.fewest_slides(board, start, budget),
        lambda: search.best_first(board, start, "moves", budget),
        lambda: search.best_first(board, start, "slides", budget),
        lambda: search.cluster_size(board, placement, budget),
        lambda: search.best_first(board, start, "moves", budget, 2, estimated=True),
    ]
    if len(board.targets) == 1:
        searches.append(lambda: search.solve_and_count(board, placement, budget))
        searches.append(lambda: _graph(cluster_graph(puzzle, budget)))
    return tuple(_outcome(find) for find in searches)


def _graph(graph) -> tuple:
    arrays = (graph.keys, graph.first_edge, graph.edges, graph.distance, graph.by_distance)
    hardest = graph.hardest if graph.by_distance else None
    return (*map(list, arrays), hardest)


def _outcome(find):
    try:
        return find()
    except SearchLimit as limit:
        return str(limit)


@pytest.mark.slow
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded_puzzles())
def test_compiled_and_uncompiled_core_agree_on_crowded_boards_of_every_size(puzzle):
    # Sides 3 to 12, up to 40 vehicles, keys of one to three words and cells of one to three,
    # often just below or past a word's edge: the same plans, counts, orders and limits.
    uncompiled = same_both_ways(bounded_results, puzzle)
    plan, explored = uncompiled[0] if not isinstance(uncompiled[0], str) else (None, None)
    if explored is not None:  # BFS ended within the budget: the reference search agrees
        assert (plan, explored) == reference.fewest_moves(puzzle.board, puzzle.start)
        # The reference searches without a budget: only where the whole cluster is known
        # to be small (the reference by slides can search far past the core's plan).
        small = not isinstance(uncompiled[4], str)
        for objective, found in (("moves", uncompiled[2]), ("slides", uncompiled[3])):
            if small and not isinstance(found, str):
                assert optimum(puzzle, found[0], objective) == optimum(
                    puzzle, _reference(puzzle, objective), objective
                )


def test_a_process_switches_to_the_compiled_core_midway(monkeypatch):
    # Past the switch, once the compiled code is loaded, a running uncompiled search stops
    # and starts again compiled: the same plan, the states searched uncompiled counted.
    puzzle = card(40)
    with core_mode("never"):
        expected = search.fewest_moves(puzzle.board, puzzle.start, Budget())
    with core_mode("always"):
        search.fewest_moves(puzzle.board, puzzle.start, Budget())  # the code loaded, truly
    monkeypatch.setattr(runner.RUNNER, "switch_states", 1_000)
    monkeypatch.setattr(runner.RUNNER, "uncompiled_states", 0)
    monkeypatch.setattr(runner.RUNNER, "is_loaded", lambda *_: False)  # not at the start
    monkeypatch.setattr(limits, "PROGRESS_EVERY", 0.001)  # the watch looks often
    with core_mode("auto"):
        assert search.fewest_moves(puzzle.board, puzzle.start, Budget()) == expected
    # Stopped past the switch, before the end (how far past depends on the machine's load: a
    # CI run searched 1,824 of card 40's 3,025 states uncompiled before the watch looked).
    assert 1_000 <= runner.RUNNER.uncompiled_states < expected[1]


def test_keys_and_occupancy_round_trip():
    puzzle = card(1)
    geometry = Geometry.of(puzzle.board)
    key = geometry.key(puzzle.start)
    rows = puzzle.board.grid(puzzle.start)
    cells = sum(
        1 << (r * 6 + c) for r, row in enumerate(rows) for c, x in enumerate(row) if x != "."
    )
    assert geometry.occupancy(key) == cells
    moves = {geometry.move(key, after) for after in geometry.neighbours(key)}
    assert moves == {move for move, _ in puzzle.board.successors(puzzle.start)}


def test_cluster_of_the_4x4_board_counted_by_hand():
    # A has 3 places; with A in the top two, X is stuck left and B takes any of 3 places;
    # with A at the bottom, B is stuck left and X (which may stand at its exit) takes 3.
    puzzle = example("4x4")
    assert search.cluster_size(puzzle.board, puzzle.placement, Budget()) == 9


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_others=5))
def test_one_pass_solve_and_count_agrees_with_the_separate_searches(puzzle):
    if len(puzzle.board.targets) != 1:
        return
    plan, _, size = search.solve_and_count(puzzle.board, puzzle.placement, Budget())
    expected, _ = reference.fewest_moves(puzzle.board, puzzle.start)
    assert (plan is None) == (expected is None)
    if plan is not None:
        assert len(plan) == len(expected)
        assert replay(puzzle, plan).solved
    assert size == search.cluster_size(puzzle.board, puzzle.placement, Budget())


def test_without_a_loadable_compiled_core_every_search_runs_uncompiled(monkeypatch):
    # numba broken, or no folder to cache its code in: the searches still answer, the same.
    puzzle = card(26)
    with core_mode("never"):
        expected = every_result(puzzle)
    monkeypatch.setattr(runner, "compiled_core", lambda: None)
    with core_mode("always"):
        assert every_result(puzzle) == expected
        assert not search.prefer_compiled()


def test_the_warm_up_calls_a_star_with_every_flag_a_star_is_called_with(monkeypatch):
    # numba compiles a call that leaves out a flag with a default as another signature: a
    # warm-up without `estimated` had every server's first A* compile in its own process (a
    # cold CI's page waited past 60 s for a generated board).
    called = {}

    def run(geometry, function, start, **flags):
        called.update(flags)
        raise SearchLimit(None)

    monkeypatch.setattr(pattern_bound, "run", run)
    puzzle = card(1)
    with pytest.raises(SearchLimit):
        search.best_first(puzzle.board, puzzle.start, "moves", Budget(10))
    (warmed,) = [flags for function, flags in search.WARM_UP if function is core.best_first]
    assert set(called) - {"budget"} == {*warmed, "patterns"}


def test_the_warm_up_covers_every_shape_of_board_the_pages_generator_draws(monkeypatch):
    # A server warms the shapes of the boards its page generates (sides 6 to 10), so that no
    # Generate runs uncompiled while its shape compiles: the shapes of the boards the
    # generator draws and changes (its own chains, 10 of 100 steps on each side) are warmed.
    warmed = set()

    def warm_up(function, tables, *arguments, **flags):
        warmed.add(runner.shape(tables))
        return False

    monkeypatch.setattr(runner.RUNNER, "warm_up", warm_up)
    search.prefer_compiled(range(6, 11))
    drawn = set()
    for side in range(6, 11):
        for number in range(10):
            board, rng = generation.board_number(1, number, side, 0), random.Random(number)
            for _ in range(100):
                drawn.add(runner.shape(Geometry.of(board.board).tables))
                board = generation.changed_board(board, rng)
    assert {"1x1", "1x2", "2x2"} <= drawn <= warmed


# --- what a search stopped at a limit proved, and weighted A* ---------------------------------


@pytest.mark.parametrize("number", [6, 13, 25, 40])
@pytest.mark.parametrize("states", [60, 400])
def test_a_search_stopped_at_a_limit_proves_a_bound_no_larger_than_the_fewest(number, states):
    # BFS stopped while expanding depth d found that layer whole: every plan takes d + 1 or
    # more; A*'s smallest f-value still queued is a bound as well. Neither may pass the
    # fewest moves, printed on the card's back.
    puzzle = card(number)
    for find in (search.fewest_moves, search.best_first):
        arguments = (puzzle.board, puzzle.start)
        if find is search.best_first:
            arguments += ("moves",)
        with pytest.raises(SearchLimit) as stopped:
            find(*arguments, Budget(states))
        at_least = stopped.value.limit.at_least
        assert at_least is not None and 1 <= at_least <= CARD_MOVES[number - 1]
        if find is search.best_first:  # and its line says so
            assert f"at least {at_least} moves" in str(stopped.value)


@pytest.mark.parametrize("number", [1, 6, 14, 40])
def test_weighted_a_star_finds_a_plan_at_most_weight_times_the_fewest(number):
    puzzle, fewest = card(number), CARD_MOVES[number - 1]
    plan, _ = search.best_first(puzzle.board, puzzle.start, "moves", Budget(10**6), weight=2)
    assert plan is not None and replay(puzzle, plan).solved
    assert fewest <= len(plan) <= 2 * fewest


def test_weighted_a_star_stopped_at_a_limit_claims_no_bound():
    puzzle = card(40)
    with pytest.raises(SearchLimit) as stopped:
        search.best_first(puzzle.board, puzzle.start, "moves", Budget(100), weight=2)
    assert stopped.value.limit.at_least is None and "at least" not in str(stopped.value)


# --- the estimate that guides the anytime search ------------------------------------------------


def test_the_estimate_follows_the_chain_of_vehicles_in_the_way():
    # Counted by hand: A leaves right of row 3 through M (a car over a wall: it must go up
    # two); M's room needs D off the corner; D, at the edge, moves left into C's place; C
    # cannot move right into D's (D waits for it), so it moves left, where E stands, and E
    # moves down. Five vehicles, one move each: the fewest moves (BFS below). The bound
    # counts A and M; without the rule that D waits, C would move "into" D: four.
    puzzle = rhasp.parse("oEoooooECCDDooAAoMoooooMoooooxoooooo")
    geometry = Geometry.of(puzzle.board)
    g, key = geometry.tables, geometry.key(puzzle.start)
    targets = core.target_vehicles(g)
    assert core.lower_bound(g, targets, key, False) == 2
    assert core.estimate(g, targets, key) == 5 == rhasp.solve(puzzle, engine="bfs").moves


@pytest.mark.parametrize("number", [1, 6, 14, 40])
def test_the_estimated_search_finds_a_valid_plan_and_claims_no_bound(number):
    puzzle = card(number)
    board, start = puzzle.board, puzzle.start
    plan, _ = search.best_first(board, start, "moves", Budget(10**6), 2, estimated=True)
    assert plan is not None and replay(puzzle, plan).solved
    assert len(plan) >= CARD_MOVES[number - 1]
    with pytest.raises(SearchLimit) as stopped:
        search.best_first(board, start, "moves", Budget(50), 2, estimated=True)
    assert stopped.value.limit.at_least is None
