"""The state memo propagator: its bookkeeping, its pruning, and the optimum it must keep."""

from __future__ import annotations

import heapq

import clingo
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rhasp.engines import AspOptions
from rhasp.engines.asp import AspEngine, encoding_path, ground_horizon, memo_options
from rhasp.engines.bfs import BfsEngine
from rhasp.engines.memo import BITS, StateMemo, _Board
from rhasp.formats.facts import write_facts
from rhasp.model import Puzzle
from tests.boards import card, example, puzzles
from tests.volume import examples

BFS = BfsEngine()


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
        self.state_literals = [
            ((step.number, index[label], position.number), init.solver_literal(atom.literal))
            for atom in atoms.by_signature("at", 3)
            for label, position, step in [atom.symbol.arguments]
        ] + [
            ((step.number, index[label], 0), init.solver_literal(atom.literal))
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
            assert key == sum(code << (BITS * vehicle) for vehicle, code in true)
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
    labels = sorted(vehicle.label for vehicle in board.vehicles)
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

    def key(state) -> int:
        # The memo's key: 1-based position per vehicle in label order, 0 for gone.
        positions = {v.label: p for v, p in zip(board.vehicles, state, strict=True)}
        return sum(
            (0 if positions[label] is None else positions[label] + 1) << (BITS * i)
            for i, label in enumerate(labels)
        )

    distance = {key(state): moves for state, moves in depth.items()}
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
@pytest.mark.parametrize("bound", [None, True, False])
def test_the_bound_keeps_the_optimum_either_way(objective, bound):
    """The bound is used by slides only unless forced; forced on by moves (where the default
    leaves it off) or off by slides, the first satisfiable horizon is still BFS's. Card 8:
    12 moves, 22 slides."""
    memo = StateMemo(bound=bound)
    horizon, _ = solve_with(memo, card(8), objective)
    assert horizon == BFS.solve(card(8), objective).length
    assert memo.bound is (objective == "slides" if bound is None else bound)


@pytest.mark.parametrize("memo", [True, False])
def test_the_engine_records_the_memo_figures(memo):
    solution = AspEngine(AspOptions(memo=memo)).solve(card(3), "moves")
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
        ((), ["--heuristic=Domain", "--parallel-mode=2"]),
        (("-t", "1"), ["--heuristic=Domain"]),
        (("-t1",), ["--heuristic=Domain"]),
        (("--parallel-mode=1",), ["--heuristic=Domain"]),
        (("--heuristic=Berkmin",), ["--parallel-mode=2"]),
    ],
)
def test_memo_options_leave_what_the_user_set(given, added, monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 8)  # two threads at most, however many cores
    assert memo_options(given) == added


def test_the_users_clingo_options_win_over_the_memos():
    # Each option in one argument: a bare "1" after -t is refused (rhasp.engines.clingo_options).
    engine = AspEngine(AspOptions(clingo_args=("--heuristic=Vsids", "-t1")))
    assert engine.arguments() == ["--heuristic=Vsids", "-t1"]
    solution = engine.solve(card(1), "moves")
    assert solution.length == 8


def memo_board(puzzle: Puzzle, objective: str) -> _Board:
    """The memo's reading of the puzzle, from the ground base program, as the solver gives it."""
    control = clingo.Control(["--warn=none"])
    control.load(str(encoding_path(objective)))
    control.add("base", [], write_facts(puzzle))
    control.ground([("base", [])])
    return _Board.read(control.symbolic_atoms)


def memo_key(puzzle: Puzzle, state) -> int:
    """The memo's key: 1-based position per vehicle in label order, 0 for gone."""
    labels = sorted(vehicle.label for vehicle in puzzle.board.vehicles)
    positions = {v.label: p for v, p in zip(puzzle.board.vehicles, state, strict=True)}
    return sum(
        (0 if positions[label] is None else positions[label] + 1) << (BITS * i)
        for i, label in enumerate(labels)
    )


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


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(max_side=6, max_others=5), st.sampled_from(["moves", "slides"]))
def test_the_memo_bound_never_exceeds_the_steps_left(puzzle, objective):
    """What makes the bound's prune sound: from every state that can still reach the goal,
    the bound is at most the true fewest moves (or slides) to it, by the model's own search."""
    board = memo_board(puzzle, objective)
    for state, left in distances_to_goal(puzzle, objective).items():
        bound = board.bound(memo_key(puzzle, state))
        assert bound <= left, (state, left)
        assert bound <= board.most  # the propagator skips the bound where no board reaches it


def test_the_memo_bound_counts_the_way_out_by_hand():
    # Card 1: X (row 3, columns 2-3) needs 3 cells to the exit. Across its way stand the trucks
    # Q (column 4, rows 2-4) and O (column 6, rows 1-3); neither has room to go up past row 3,
    # so Q must slide down 2 cells and O 3. By moves 1 + 2; by slides 3 + 2 + 3.
    puzzle = card(1)
    key = memo_key(puzzle, puzzle.board.settle(puzzle.start))
    assert memo_board(puzzle, "moves").bound(key) == 3
    assert memo_board(puzzle, "slides").bound(key) == 8
