"""The state memo propagator: its bookkeeping, its pruning, and the optimum it must keep."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import ClassVar

import clingo
import pytest
from hypothesis import HealthCheck, assume, given, settings

from rhasp.engines import AspOptions
from rhasp.engines.asp import AspEngine, encoding_path, ground_horizon, memo_options
from rhasp.engines.bfs import BfsEngine
from rhasp.engines.memo import StateMemo
from rhasp.formats.facts import write_facts
from rhasp.limits import Budget
from rhasp.model import Puzzle
from rhasp.search import PatternAside, PatternTable, fewest_moves, fewest_slides
from rhasp.search.geometry import Geometry
from tests.boards import card, example, puzzles
from tests.volume import examples

BFS = BfsEngine(budget=Budget())


class RescannedMemo(StateMemo):
    """The memo, checked against a full rescan of the assignment at every total assignment.

    The memo keeps its boards incrementally (each step's from the one before and the step's
    ``go`` atom); here every step's board is recomputed from scratch from the solver's state
    atoms and compared, and every recorded board is checked to be one the model can
    reach in at most its recorded number of moves.
    """

    def init(self, init) -> None:
        super().init(init)
        atoms = init.symbolic_atoms
        labels = sorted(atom.symbol.arguments[0] for atom in atoms.by_signature("vehicle", 4))
        index = {label: i for i, label in enumerate(labels)}
        gone = self._board.table.gone
        self.state_literals = [
            ((step.number, index[label], position.number - 1), init.solver_literal(atom.literal))
            for atom in atoms.by_signature("at", 3)
            for label, position, step in [atom.symbol.arguments]
        ] + [
            ((step.number, index[label], gone), init.solver_literal(atom.literal))
            for atom in atoms.by_signature("gone", 2)
            for label, step in [atom.symbol.arguments]
        ]
        init.check_mode = clingo.PropagatorCheckMode.Total
        self.checks = 0

    def check(self, control) -> None:
        assignment = control.assignment
        thread = self._threads[control.thread_id]
        assert len(thread.key) == self._steps  # a total assignment: every board is known
        for step, key in enumerate(thread.key):
            true = [
                (vehicle, code)
                for (at, vehicle, code), literal in self.state_literals
                if at == step and assignment.is_true(literal)
            ]
            assert len(true) == len(self._board.labels), step  # one state atom per vehicle
            shift = self._board.table.shift
            assert key == sum(field << shift[vehicle] for vehicle, field in true)
        self.checks += 1


def solve_with(memo: StateMemo | None, puzzle: Puzzle, objective: str, threads: int = 1):
    """The first satisfiable horizon and the total choices, with or without the memo."""
    options = ["--warn=none", f"--parallel-mode={threads}"]
    control = clingo.Control([*options, "--heuristic=Domain"] if memo else options)
    control.load(str(encoding_path(objective)))
    control.add("base", [], write_facts(puzzle))
    if memo is not None:
        control.register_propagator(memo)
    choices = 0
    for horizon in range(60):
        ground_horizon(control, horizon)
        result = control.solve()
        choices += int(control.statistics["solving"]["solvers"]["choices"])
        if result.satisfiable:
            return horizon, choices
    raise AssertionError("no plan within 60 steps")


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(
    ("puzzle", "objective"),
    [
        (card(1), "moves"),
        (card(3), "moves"),
        (card(9), "slides"),
        (example("two-targets"), "moves"),
        (example("walls"), "slides"),
        (example("vertical-target"), "moves"),
    ],
    ids=["card1", "card3", "card9-slides", "two-targets", "walls-slides", "vertical"],
)
def test_incremental_keys_match_a_rescan(puzzle, objective, threads):
    memo = RescannedMemo()
    horizon, _ = solve_with(memo, puzzle, objective, threads)
    assert horizon == BFS.solve(puzzle, objective).length
    assert memo.checks > 0  # a total assignment was checked at least once per horizon


def test_recorded_boards_are_reachable_in_at_most_their_step():
    """What makes the pruning sound: every board recorded at step s is reachable in s moves.
    Checked against the model's own distances from the start (breadth-first, by moves)."""
    puzzle = card(3)
    memo = StateMemo()
    solve_with(memo, puzzle, "moves")
    board = puzzle.board
    depth = {board.settle(puzzle.start): 0}
    frontier = [board.settle(puzzle.start)]
    while frontier:
        following = []
        for state in frontier:
            for _, successor in board.successors(state):
                if successor not in depth:
                    depth[successor] = depth[state] + 1
                    following.append(successor)
        frontier = following

    distance = {memo_key(puzzle, state): moves for state, moves in depth.items()}
    assert len(memo.memo) > 50
    for board_key, step in memo.memo.items():
        assert board_key in distance, "the memo recorded a board the model cannot reach"
        assert distance[board_key] <= step


def test_the_memo_prunes_and_keeps_the_optimum():
    """On card 3 the memo adds nogoods and the solver needs fewer choices than without it
    (measured: about 1,300 against 9,000), while the optimum stays BFS's."""
    memo = StateMemo()
    with_memo, choices_with = solve_with(memo, card(3), "moves")
    without, choices_without = solve_with(None, card(3), "moves")
    assert with_memo == without == BFS.solve(card(3), "moves").length == 14
    assert memo.nogoods > 0
    assert choices_with < choices_without / 2


@pytest.mark.parametrize("objective", ["moves", "slides"])
@pytest.mark.parametrize("bound", [True, False])
def test_the_bound_keeps_the_optimum_either_way(objective, bound):
    """With the bound on the steps left (the default) or without, the first satisfiable
    horizon is BFS's. Card 8: 12 moves, 22 slides."""
    memo = StateMemo(bound=bound)
    horizon, _ = solve_with(memo, card(8), objective)
    assert horizon == BFS.solve(card(8), objective).length
    assert memo.bound is bound


@settings(max_examples=examples(90), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_side=6, max_others=4, max_targets=1))
def test_the_pattern_from_the_first_horizon_keeps_the_optimum(puzzle):
    """The pattern database (chosen at horizon 12 by default, past most random boards' plans)
    chosen at once, by moves and by slides: the first satisfiable horizon is still BFS's
    (Dijkstra's search by slides)."""
    for objective, search in (("moves", fewest_moves), ("slides", fewest_slides)):
        plan, _ = search(puzzle.board, puzzle.start, Budget())
        assume(plan is not None)
        memo = StateMemo(pattern_from=0, pattern_rent=0)
        horizon, _ = solve_with(memo, puzzle, objective)
        length = len(plan) if objective == "moves" else sum(abs(m.delta) for m in plan)
        assert horizon == length, objective
        assert memo._patterned


@pytest.mark.parametrize(("number", "objective"), [(26, "moves"), (16, "slides")])
def test_the_pattern_prunes_a_card_and_keeps_its_optimum(monkeypatch, number, objective):
    """Card 26 by moves (28) and card 16 by slides (41), with the pattern from horizon 12 (the
    default) and without it (never chosen): the same optimum, BFS's, and fewer than half the
    choices with it (one thread; measured: card 26 about 1,400 against 17,000, card 16 580
    against 15,335). The choice's cluster search compiled here, as a warm cache gives it: on
    an empty cache it would run uncompiled, greedy, and prune less (card 26: 7,141 against
    10,389)."""
    monkeypatch.setenv("RHASP_JIT", "always")
    with_pattern, without = StateMemo(pattern_rent=0), StateMemo(pattern_from=1000)
    horizon, choices = solve_with(with_pattern, card(number), objective)
    horizon_without, choices_without = solve_with(without, card(number), objective)
    assert horizon == horizon_without == BFS.solve(card(number), objective).length
    patterns = with_pattern._board.table.patterns
    assert patterns and all(p.by_slides is (objective == "slides") for p in patterns)
    assert without._board.table.patterns == ()
    assert choices < choices_without / 2


@pytest.mark.parametrize("loaded", [False, True])
def test_the_pattern_waits_for_its_rent_unless_its_code_is_loaded(monkeypatch, loaded):
    """A solve that has not yet spent what the pattern's first load costs chooses none,
    unless the code is loaded in the process already: card 26 (28 moves) with the rent out
    of reach, its answer BFS's either way."""
    monkeypatch.setattr(PatternTable, "costs_no_load", staticmethod(lambda board: loaded))
    memo = StateMemo(pattern_rent=math.inf)
    horizon, _ = solve_with(memo, card(26), "moves")
    assert horizon == BFS.solve(card(26), "moves").length
    assert bool(memo._board.table.patterns) is loaded


@pytest.mark.parametrize("memo", [True, False])
def test_the_engine_records_the_memo_figures(memo):
    solution = AspEngine(AspOptions(memo=memo), budget=Budget()).solve(card(3), "moves")
    figures = solution.asp.memo
    options = solution.asp.clingo_args
    if memo:
        assert figures["states"] > 0 and figures["nogoods"] > 0
        assert "--heuristic=Domain" in options
    else:
        assert figures is None and options == ()


@pytest.mark.parametrize(
    ("given", "added"),
    [
        ((), ["--heuristic=Domain"]),
        (("-t", "2"), ["--heuristic=Domain"]),
        (("--parallel-mode=2",), ["--heuristic=Domain"]),
        (("--heuristic=Berkmin",), []),
    ],
)
def test_memo_options_leave_what_the_user_set(given, added, monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 8)  # one thread, however many cores
    assert memo_options(given) == added


def test_the_users_clingo_options_win_over_the_memos():
    # Each option in one argument: a bare "1" after -t is refused (rhasp.engines.clingo_options).
    engine = AspEngine(AspOptions(clingo_args=("--heuristic=Vsids", "-t1")), budget=Budget())
    assert engine.arguments() == ["--heuristic=Vsids", "-t1"]
    solution = engine.solve(card(1), "moves")
    assert solution.length == 8


def memo_key(puzzle: Puzzle, state) -> int:
    """The memo's key: the search core's, of the board with its vehicles in label order."""
    order = sorted(range(len(state)), key=lambda i: puzzle.board.vehicles[i].label)
    board = replace(puzzle.board, vehicles=tuple(puzzle.board.vehicles[i] for i in order))
    return Geometry.of(board).key(tuple(state[i] for i in order))


class _Aside:
    """A child that has answered at once: with ``keep``'s table, or failed (None)."""

    keep: tuple[int, ...] | None = None
    asked: ClassVar[list[tuple[int, ...] | None]] = []

    def __init__(self, board, start, **choice):
        self.board, self.start, self.by_slides = board, start, choice["by_slides"]
        self.given = False
        _Aside.asked.append(self.keep)

    done = True

    @property
    def failed(self):
        return self.keep is None

    def arrived(self):
        if self.keep is None or self.given:
            return []
        self.given = True
        return [PatternTable.kept(self.board, self.start, self.keep, by_slides=self.by_slides)]

    def close(self):
        pass

    @staticmethod
    def worth(board):
        return not _Aside.asked


def test_a_pattern_asked_of_a_child_comes_without_rent(monkeypatch):
    """With ``pattern_aside``, card 26's pattern is asked of a child at once, the rent out of
    reach, and taken as the child answers: the answer is BFS's."""
    puzzle = card(26)
    target = puzzle.board.index(puzzle.board.targets[0])
    monkeypatch.setattr(_Aside, "keep", (0, target))
    monkeypatch.setattr(_Aside, "asked", [])
    monkeypatch.setattr("rhasp.engines.memo.PatternAside", _Aside)
    memo = StateMemo(pattern_aside=True, pattern_rent=math.inf)
    horizon, _ = solve_with(memo, puzzle, "moves")
    assert horizon == BFS.solve(puzzle, "moves").length
    assert _Aside.asked == [(0, target)]  # once
    assert [p.keep for p in memo._board.table.patterns] == [(0, target)]


class _Thread(_Aside):
    """A thread that has chosen at once, ``keep``'s table."""

    asked: ClassVar[list[tuple[int, ...] | None]] = []

    def __init__(self, board, start, **choice):
        self.board, self.start, self.by_slides = board, start, choice["by_slides"]
        self.given = False
        _Thread.asked.append(self.keep)

    @staticmethod
    def worth():
        return True


def test_a_pattern_is_chosen_in_a_thread_where_its_code_is_loaded(monkeypatch):
    """With ``pattern_aside`` and the choice's code loaded in this process, card 26's
    pattern is chosen in a thread, asked once, and taken: the answer is BFS's."""
    puzzle = card(26)
    target = puzzle.board.index(puzzle.board.targets[0])
    monkeypatch.setattr(_Thread, "keep", (0, target))
    monkeypatch.setattr(_Thread, "asked", [])
    monkeypatch.setattr(PatternAside, "asked", False)
    monkeypatch.setattr("rhasp.engines.memo.PatternThread", _Thread)
    monkeypatch.setattr(PatternTable, "costs_no_load", staticmethod(lambda board: True))
    memo = StateMemo(pattern_aside=True, pattern_rent=math.inf)
    horizon, _ = solve_with(memo, puzzle, "moves")
    assert horizon == BFS.solve(puzzle, "moves").length
    assert _Thread.asked == [(0, target)] and not PatternAside.asked  # no child
    assert [p.keep for p in memo._board.table.patterns] == [(0, target)]


@pytest.mark.parametrize("aside", [False, True])
def test_a_pattern_beside_the_search_is_asked_at_the_first_horizon(monkeypatch, aside):
    """Card 1 (8 moves) ends below ``pattern_from`` (12): in the search's own thread no
    pattern is chosen for it, beside the search (a thread here) one is asked at horizon 0,
    the first solved. The answer is BFS's either way."""
    puzzle = card(1)
    target = puzzle.board.index(puzzle.board.targets[0])
    horizons = []
    monkeypatch.setattr(_Thread, "keep", (0, target))
    monkeypatch.setattr(_Thread, "asked", [])
    monkeypatch.setattr(PatternAside, "asked", False)
    monkeypatch.setattr("rhasp.engines.memo.PatternThread", _Thread)
    monkeypatch.setattr(PatternTable, "costs_no_load", staticmethod(lambda board: True))
    memo = StateMemo(pattern_aside=aside, pattern_rent=0)
    chosen = StateMemo._add_pattern

    def add_pattern(self: StateMemo, where: str) -> None:  # the horizon it is added at, kept
        horizons.append(self._last())
        chosen(self, where)

    monkeypatch.setattr(StateMemo, "_add_pattern", add_pattern)
    horizon, _ = solve_with(memo, puzzle, "moves")
    assert horizon == BFS.solve(puzzle, "moves").length < memo.pattern_from
    assert horizons == ([0] if aside else [])
    assert _Thread.asked == ([(0, target)] if aside else [])


def test_a_pattern_a_child_failed_to_give_is_chosen_here(monkeypatch):
    """Where the child fails, the memo chooses the pattern itself (the rent paid at once
    here), and asks no child again: the answer is BFS's."""
    puzzle = card(26)
    monkeypatch.setattr(_Aside, "keep", None)
    monkeypatch.setattr(_Aside, "asked", [])
    monkeypatch.setattr("rhasp.engines.memo.PatternAside", _Aside)
    monkeypatch.setattr(PatternTable, "costs_no_load", staticmethod(lambda board: False))
    memo = StateMemo(pattern_aside=True, pattern_rent=0)
    horizon, _ = solve_with(memo, puzzle, "moves")
    assert horizon == BFS.solve(puzzle, "moves").length
    assert _Aside.asked == [None]
    assert memo._board.table.patterns
