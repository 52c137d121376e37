"""The ASP engine against the BFS oracle, and the encodings run by the clingo executable."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import clingo
import pytest
from hypothesis import HealthCheck, given, settings

from rhasp.engines import AspOptions, get_engine
from rhasp.engines.asp import AspEngine, ask, encoding_path, ground_step, plan_from_atoms
from rhasp.engines.bfs import BfsEngine
from rhasp.engines.memo import StateMemo
from rhasp.formats import read_path, read_text
from rhasp.formats.facts import write_facts
from rhasp.formats.grid import board_rows
from rhasp.limits import Budget
from rhasp.model import Move, Puzzle, replay
from rhasp.search import fewest_moves
from rhasp.solution import EngineDisagreement, Solution
from rhasp.solving import confirmed
from tests import reference
from tests.boards import EXAMPLES, LARGE_CLUSTERS, ORIGINAL, card, example, puzzles
from tests.volume import examples

BFS = BfsEngine(budget=Budget())
ASP = AspEngine(budget=Budget())  # with the state memo, as rhasp solve runs it
PLAIN = AspEngine(
    AspOptions(memo=False), budget=Budget()
)  # exactly the encodings, as the clingo executable does
CLIMB = AspEngine(
    stride=1, budget=Budget()
)  # every horizon in turn, as the clingo executable runs them
ENGINES = {"memo": ASP, "plain": PLAIN, "climb": CLIMB}
# Cards each variant proves within a few seconds on the development machine (see
# bench/README.md); the rest run in the benchmark, not in the test suite. The plain encodings
# (what the clingo executable runs) on the cards each takes in about a second: on longer
# plans they are checked against BFS on random boards (test_random_boards_asp_agrees_with_bfs)
# and by the clingo executable on card 26 (test_the_encodings_readme_shows_what_clingo_prints);
# what ships, the memo, proves the harder cards here.
PLAIN_MOVES = [*range(1, 11), 12, 14, 20, 21]
PLAIN_SLIDES = [*range(1, 7), 8, 9]
MEMO_MOVES = [*range(1, 13), 14, 15, *range(17, 24), 27, 28, 30, 32]
MEMO_SLIDES = [*range(1, 11), 12, 15, 19, 20, 21]
CARDS = [("memo", n) for n in MEMO_MOVES] + [("plain", n) for n in PLAIN_MOVES]
SLIDES_CARDS = [("memo", n) for n in MEMO_SLIDES] + [("plain", n) for n in PLAIN_SLIDES]


def agree(puzzle, objective, engine: AspEngine = ASP) -> Solution:
    """Solve with ASP and BFS independently and check that they agree."""
    found = engine.solve(puzzle, objective)
    expected = BFS.solve(puzzle, objective)
    assert found.length == expected.length, (puzzle.name, objective)
    assert found.asp.horizon == expected.length
    assert replay(puzzle, found.plan).solved
    return found


def test_a_board_lp_where_rhasp_runs_is_not_read_instead_of_rhasps(tmp_path, monkeypatch):
    # clingo looks for an included file in the working directory first: a board.lp of one's
    # own there (a student's copy) was read instead of rhasp's, and the engine failed with a
    # traceback, or searched other rules than the puzzle's without a word.
    (tmp_path / "board.lp").write_text("#program base.\n#program step(t).\n#program check(t).\n")
    monkeypatch.chdir(tmp_path)
    for objective in ("moves", "slides"):
        agree(card(1), objective)


@pytest.mark.slow
@pytest.mark.usefixtures("uncompiled")
def test_a_large_cluster_decks_line_asp_agrees_with_bfs():
    # Issue 43's deck: line 3, a cluster of 37,894 states, 36 moves (a plan may end early and
    # the driver skips horizons). Uncompiled (its property is ASP's, not the compiled code's):
    # 10 s alone, against 1.4 s compiled but 59-69 s in CI's cold run, where it waited on the
    # compiles of its pattern's code. bench/asp.py runs the whole deck.
    agree(read_path(str(LARGE_CLUSTERS))[2], "moves")


@pytest.mark.parametrize(("variant", "number"), CARDS)
def test_original_cards_minimal_moves_agree(variant, number):
    agree(card(number), "moves", ENGINES[variant])


@pytest.mark.parametrize(("variant", "number"), SLIDES_CARDS)
def test_original_cards_minimal_slides_agree(variant, number):
    found = agree(card(number), "slides", ENGINES[variant])
    # The slides encoding plans cells; runs of one vehicle in one direction are its moves.
    assert all(
        a.label != b.label or (a.delta > 0) != (b.delta > 0)
        for a, b in zip(found.plan, found.plan[1:], strict=False)
    )


@pytest.mark.parametrize(
    "name", ["4x4", "5x5", "walls", "two-targets", "limousine", "vertical-target"]
)
@pytest.mark.parametrize("objective", ["moves", "slides"])
@pytest.mark.parametrize("variant", ["memo", "plain"])
def test_examples_agree(name, objective, variant):
    agree(example(name), objective, ENGINES[variant])


def test_unsolvable_example_has_no_plan_up_to_its_state_count():
    # Three states are reachable, so any plan would have at most two moves.
    solution = AspEngine(budget=Budget(horizon=3)).solve(example("unsolvable"), "moves")
    assert not solution.has_plan
    assert str(solution.limit) == "no plan up to horizon 3"


@pytest.mark.parametrize("objective", ["moves", "slides"])
def test_a_limit_says_what_the_horizons_proved_every_plan_takes(objective):
    # Card 1 takes 8 moves and 16 slides (its back, and BFS): horizon 5 has no plan of 5 or
    # fewer, so every plan takes 6 or more; a time limit before any horizon proves nothing.
    short = AspEngine(budget=Budget(horizon=5)).solve(card(1), objective)
    assert str(short.limit) == "no plan up to horizon 5" and short.limit.at_least == 6
    slow = AspEngine(budget=Budget(seconds=0.0)).solve(card(1), objective)
    assert slow.limit is not None and slow.limit.at_least is None


def test_confirmed_reports_unsolvable_before_the_asp_search():
    solution = confirmed(ASP, BFS, example("unsolvable"), "moves")
    assert not solution.has_plan and solution.limit is None
    assert solution.proofs == ("bfs",) and solution.engine == "asp"
    assert solution.asp is None  # the ASP search never started


def test_confirmed_solution_carries_both_proofs():
    solution = confirmed(ASP, BFS, card(1), "moves")
    assert solution.proofs == ("asp", "bfs")
    assert solution.proofs == ("asp", "bfs")  # BFS agrees
    assert solution.asp.horizon == 8


def test_a_disagreement_is_loud():
    class OffByOne:
        name = "broken"

        def solve(self, puzzle, objective):
            plan = BFS.solve(puzzle, objective).plan
            return Solution(
                puzzle,
                objective,
                (Move("A", 1), Move("A", -1), *plan),
                self.name,
                (self.name,),
                None,
                0.0,
            )

    with pytest.raises(EngineDisagreement, match="broken found moves 10 but bfs found 8"):
        confirmed(OffByOne(), BFS, card(1), "moves")


def test_timeout_and_max_horizon_are_limits_not_answers():
    slow = AspEngine(budget=Budget(seconds=0.0)).solve(card(26), "moves")
    assert str(slow.limit) == "timed out at horizon 0" and not slow.has_plan
    short = AspEngine(budget=Budget(horizon=5)).solve(card(26), "moves")
    assert str(short.limit) == "no plan up to horizon 5" and short.proofs == ()


def test_clingo_options_pass_through_and_bad_ones_are_named():
    engine = get_engine(
        "asp", budget=Budget(), asp=AspOptions(clingo_args=("--configuration=crafty",), memo=False)
    )
    solution = engine.solve(card(1), "moves")
    assert solution.length == 8
    assert solution.asp.clingo_args == ("--configuration=crafty",)
    with pytest.raises(Exception, match="clingo refuses the options"):
        get_engine("asp", budget=Budget(), asp=AspOptions(clingo_args=("--seed=x",))).solve(
            card(1), "moves"
        )
    with pytest.raises(Exception, match="'--no-such-option'"):
        get_engine("asp", budget=Budget(), asp=AspOptions(clingo_args=("--no-such-option",))).solve(
            card(1), "moves"
        )


def test_each_of_clingos_warnings_is_printed_once_a_run(capfd, monkeypatch):
    # Issue 53: more threads than cores and a heuristic that implies lookahead each made clingo
    # warn once a Control took the options and again at the first solve: on every puzzle of
    # a file, two or four lines each.
    import rhasp.engines.asp as asp

    threads = (os.cpu_count() or 1) + 1
    if threads > 64:  # clingo's most threads: no oversubscription to ask for
        pytest.skip("more than 63 cores")
    monkeypatch.setattr(asp, "_said", set(), raising=False)  # a run that has said nothing yet
    given = (f"--parallel-mode={threads}", "--heuristic=Unit")
    (four,) = read_text("..A.XXA......BB.", "four", name="four")  # 3 moves, by hand
    for _ in range(3):
        assert (
            AspEngine(AspOptions(clingo_args=given), budget=Budget()).solve(four, "moves").length
            == 3
        )
    lines = capfd.readouterr().err.splitlines()
    assert len(lines) == len(set(lines)), lines
    assert sum("Oversubscription" in line for line in lines) == 1, lines
    assert sum("implies lookahead" in line for line in lines) == 1, lines


@pytest.mark.parametrize("given", [("--models=0",), ("-n", "2"), ("--enum-mode=brave",)])
def test_the_driver_checks_clingos_options_itself(given):
    """An engine made without a request (rhasp.requests) refuses them too (issue 39)."""
    with pytest.raises(Exception, match="one model"):
        AspEngine(AspOptions(clingo_args=given), budget=Budget()).solve(card(1), "moves")


@pytest.mark.parametrize("objective", ["moves", "slides"])
def test_the_driver_reads_one_model_whatever_clingo_was_told(objective, monkeypatch):
    """Past the check (here taken away), clingo told to report every model still gives the
    driver one: the plan of card 1, which replays, and BFS's length (issue 39)."""
    import rhasp.engines.asp as asp

    monkeypatch.setattr(asp, "checked_clingo_args", lambda args, where="": tuple(args), False)
    found = AspEngine(AspOptions(clingo_args=("--models=0",)), budget=Budget()).solve(
        card(1), objective
    )
    assert replay(card(1), found.plan).solved
    assert found.length == BFS.solve(card(1), objective).length


def test_slides_are_grouped_into_moves_only_for_the_slides_objective():
    atoms = [
        clingo.parse_term(f'move({t},"{v}",{d})')
        for t, v, d in [(1, "A", 1), (2, "A", 1), (3, "B", -1), (4, "A", 1)]
    ]
    grouped = plan_from_atoms(atoms, group_slides=True)
    assert grouped == (Move("A", 2), Move("B", -1), Move("A", 1))
    assert len(plan_from_atoms(atoms, group_slides=False)) == 4


#: The highest horizon an unsolvable random board is asked up to (see below).
UNSOLVABLE_HORIZON = 40


@pytest.mark.parametrize("variant", ["memo", "plain", "climb"])
@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=puzzles(max_side=6, max_others=3))
def test_random_boards_asp_agrees_with_bfs(variant, puzzle):
    """Sizes 4-6, walls, one or two targets, 200 boards each: the memo and the stride (what
    ships), the encodings alone, and the memo climbing every horizon."""
    plan, explored = fewest_moves(puzzle.board, puzzle.start, Budget())
    if plan is None:
        # A shortest plan never repeats a state, so none can be longer than the state count:
        # ASP finding nothing up to that horizon agrees that there is no plan at all. Asked
        # up to UNSOLVABLE_HORIZON at most: each horizon costs more than the last, and a
        # cluster of a few hundred states took a minute (climbing every horizon).
        horizon = min(explored, UNSOLVABLE_HORIZON)
        bounded = dataclasses.replace(ENGINES[variant], budget=Budget(horizon=horizon))
        for objective in ("moves", "slides"):
            found = bounded.solve(puzzle, objective)
            assert str(found.limit) == f"no plan up to horizon {horizon}"
        return
    for objective in ("moves", "slides"):
        agree(puzzle, objective, ENGINES[variant])


def test_ask_leaves_the_goal_at_the_horizon_asked_last_only():
    # The driver tells clingo only what changed (the horizon before, the one now): whatever
    # order the horizons come in, going up or down, one query is true, the last asked.
    control = clingo.Control(["--warn=none"])
    control.add("base", [], "#external query(0..9). asked(T) :- query(T). #show asked/1.")
    control.ground([("base", [])])
    before = None
    for horizon in (0, 4, 8, 7, 5, 9, 2):
        ask(control, horizon, before)
        before = horizon
        with control.solve(yield_=True) as handle:
            (model,) = list(handle)
            assert [str(atom) for atom in model.symbols(shown=True)] == [f"asked({horizon})"]


def test_the_horizon_goes_up_at_once_to_the_memos_bound_of_the_start():
    # Card 1 by slides: 16 (BFS), and the start's bound (no pattern) 8, by hand in
    # tests/search/test_bound_table.py. Horizon 0 has no plan; 4 lies below the bound, so the
    # driver asks 8 next, then climbs by the stride, and proves 16 by 15.
    engine = AspEngine(AspOptions(), memo_pattern=False, budget=Budget())
    solution = engine.solve(card(1), "slides")
    assert solution.length == BFS.solve(card(1), "slides").length == 16
    assert [horizon for horizon, _, _ in solution.asp.horizons] == [0, 8, 12, 16, 15]


@pytest.mark.parametrize(("objective", "stride"), [("moves", 3), ("slides", 4)])
def test_the_horizon_climbs_by_the_objectives_stride(objective, stride):
    # Without the memo (no bound to jump to), the horizons without a plan are 0, the stride,
    # twice it, ... (by moves 3, by slides 4: bench/README.md, "the stride by moves").
    engine = AspEngine(AspOptions(memo=False), budget=Budget())
    solution = engine.solve(card(1), objective)
    assert solution.length == BFS.solve(card(1), objective).length
    climbed = [horizon for horizon, plan, _ in solution.asp.horizons if plan is None]
    assert climbed[:3] == [0, stride, 2 * stride]


def plan_within(puzzle: Puzzle, objective, horizon: int, encodings: Path, memo: bool) -> bool:
    """Whether the encodings in ``encodings`` have a plan at ``horizon``, asked directly, with
    every step up to it and a few beyond grounded (as the driver leaves them when it goes
    down), and the state memo told the horizon when ``memo``."""
    control = clingo.Control(["--warn=none", "--heuristic=Domain"])
    control.load(str(encodings / f"{objective}.lp"))
    control.add("base", [], write_facts(puzzle))
    if memo:
        propagator = StateMemo(horizon=horizon)
        control.register_propagator(propagator)
    for step in range(horizon + 3):
        ground_step(control, step)
    ask(control, horizon)
    return bool(control.solve().satisfiable)


def early_end_holds(puzzle: Puzzle, encodings: Path) -> bool:
    """The early end's key step, against BFS: a horizon has a plan exactly when a plan has
    that many steps or fewer, just below, at and past the optimum."""
    for objective in ("moves", "slides"):
        fewest = BFS.solve(puzzle, objective).length
        for horizon in {max(0, fewest - 1), fewest, fewest + 1, fewest + 2}:
            for memo in (False, True):
                found = plan_within(puzzle, objective, horizon, encodings, memo)
                if found != (horizon >= fewest):
                    return False
    return True


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=puzzles(max_side=6, max_others=3))
def test_a_horizon_has_a_plan_exactly_when_one_has_that_many_steps_or_fewer(puzzle):
    # What lets one unsatisfiable horizon prove every shorter one (encodings/README.md).
    if fewest_moves(puzzle.board, puzzle.start, Budget())[0] is not None:
        assert early_end_holds(puzzle, encoding_path("moves").parent)


def test_the_early_end_check_catches_plans_that_cannot_end_early(tmp_path):
    # Broken on purpose: board.lp with a move at every step. A lone car one move from its exit
    # has no plan of exactly two moves (no vehicle moves twice in a row), and the check says so.
    shipped = encoding_path("moves").parent
    for name in ("moves.lp", "slides.lp"):
        shutil.copy(shipped / name, tmp_path / name)
    rule = "1 { go(t,V,P) : pos(V,P) } 1 :- open(t-1)."
    board = (shipped / "board.lp").read_text()
    assert rule in board
    (tmp_path / "board.lp").write_text(board.replace(rule, "1 { go(t,V,P) : pos(V,P) } 1."))
    (lone,) = read_text("......\n......\n...XX.\n......\n......\n......\n", "lone.txt", name="lone")
    assert early_end_holds(lone, shipped)
    assert not early_end_holds(lone, tmp_path)


def steps(puzzle: Puzzle, objective) -> list[tuple[Move, frozenset]]:
    """The plan as the encoding found it, one step per move or slide, each with its footprint:
    the cells the vehicle stood on or crossed (computed here from the model, not clingo)."""
    atoms, _, limit = ASP.search(puzzle, objective)
    assert limit is None
    plan = plan_from_atoms(atoms, group_slides=False)
    board, states = puzzle.board, replay(puzzle, plan).states
    found = []
    for move, state in zip(plan, states, strict=False):
        i = board.index(move.label)
        vehicle = board.vehicles[i]
        low, high = sorted((state[i], state[i] + move.delta))
        footprint = frozenset(
            cell for position in range(low, high + 1) for cell in vehicle.cells(position)
        )
        found.append((move, footprint))
    return found


#: How many steps back board.lp's order reaches (its ``order_window``).
ORDER_WINDOW = 3


def steps_apart(number: int, objective) -> dict[int, list[tuple[Move, Move]]]:
    """Card ``number``'s plan by the encoding: per distance D (1 to :data:`ORDER_WINDOW`), the
    pairs of steps D apart, the later of which touches no cell of any step between them or
    of the earlier one."""
    found = steps(card(number), objective)
    assert len(found) == BFS.solve(card(number), objective).length
    apart: dict[int, list[tuple[Move, Move]]] = {d: [] for d in range(1, ORDER_WINDOW + 1)}
    for t, (move, cells) in enumerate(found):
        touched = frozenset()
        for d in range(1, min(ORDER_WINDOW, t) + 1):
            before, before_cells = found[t - d]
            touched |= before_cells
            if cells & touched:
                break
            apart[d].append((before, move))
    return apart


ORDERED = list(itertools.product([2, 3, 7, 10, 12], ["moves", "slides"]))


@pytest.mark.parametrize(("number", "objective"), ORDERED)
def test_steps_that_touch_no_common_cell_come_in_label_order(number, objective):
    """The canonical order that board.lp imposes as a redundant constraint: a step that
    touches no cell of the steps before it, up to its window, comes after each in label
    order."""
    apart = steps_apart(number, objective)
    assert apart[1], "no independent pair: the test would prove nothing"
    assert all(a.label < b.label for pairs in apart.values() for a, b in pairs)


def test_the_order_is_met_at_every_distance_on_some_card():
    """The check above meets steps at every distance of the window on some card and
    objective: it can fail."""
    met = [steps_apart(number, objective) for number, objective in ORDERED]
    assert all(any(apart[d] for apart in met) for d in range(1, ORDER_WINDOW + 1))


def test_the_order_window_is_board_lps():
    board = encoding_path("moves").parent / "board.lp"
    assert f"#const order_window = {ORDER_WINDOW}." in board.read_text()


@pytest.mark.parametrize("number", [1, 3, 7, 10, 12])
def test_no_vehicle_moves_twice_in_a_row_nor_slides_straight_back(number):
    moves = [move for move, _ in steps(card(number), "moves")]
    assert all(a.label != b.label for a, b in itertools.pairwise(moves))
    slides = [move for move, _ in steps(card(number), "slides")]
    assert all(
        not (a.label == b.label and a.delta == -b.delta) for a, b in itertools.pairwise(slides)
    )


# --- the encodings as a product of their own: every clingo people install, on rhasp facts ---

CLINGO = shutil.which("clingo")
REPOSITORY = Path(__file__).resolve().parents[2]
#: The commands the encodings' README gives for each clingo: the executable (Debian's
#: package gringo), and pip's clingo package (this venv's) through encodings/run.py.
RUNNERS = {"executable": [CLINGO or "clingo"], "pip": [sys.executable, "encodings/run.py"]}
needs_clingo = pytest.mark.skipif(
    CLINGO is None and not os.environ.get("CI"),
    reason="the clingo executable is not installed (Debian package gringo); CI installs it",
)
every_clingo = pytest.mark.parametrize(
    "runner", [pytest.param("executable", marks=needs_clingo), "pip"]
)


@functools.cache
def facts_of(puzzle_file: Path) -> str:
    """What ``rhasp facts FILE`` writes (tests/test_docs.py runs the command itself)."""
    return write_facts(read_path(str(puzzle_file))[0])


@functools.cache
def clingo_run(
    puzzle_file: Path, encoding: str, *options: str, runner: str = "executable"
) -> subprocess.CompletedProcess:
    """clingo run as the READMEs show it, from the checkout's root on ``encodings/ENCODING``
    and the facts ``rhasp facts`` writes (read from standard input): the executable, or pip's
    clingo through ``encodings/run.py`` (``runner``). Each run is made once a session: card 26
    takes seconds."""
    command = [*RUNNERS[runner], f"encodings/{encoding}", "-", *options]
    # memo.lp loads the propagator from the rhasp package: the checkout's root here.
    environment = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    return subprocess.run(
        command,
        input=facts_of(puzzle_file),
        capture_output=True,
        text=True,
        env=environment,
        cwd=REPOSITORY,
    )


def last_answer(printed: str) -> str:
    """The line of the last answer clingo printed (under ``Answer: 1``, or ``Answer: 1 (Time:
    ...)`` from clingo 5.8 on)."""
    return re.split(r"^Answer: \d+.*\n", printed, flags=re.MULTILINE)[-1].splitlines()[0]


def answer_atoms(printed: str) -> list[clingo.Symbol]:
    return [clingo.parse_term(atom) for atom in last_answer(printed).split()]


def standalone(puzzle_file, encoding, *, memo=False, runner="executable"):
    """The atoms clingo answers; with ``memo``, also its memo line."""
    options = ("encodings/memo.lp", "--heuristic=Domain") if memo else ()
    run = clingo_run(puzzle_file, encoding.name, *options, runner=runner)
    assert run.returncode in (10, 30), run.stderr  # clingo's exit codes for SATISFIABLE
    atoms = answer_atoms(run.stdout)
    if not memo:
        return atoms
    figures = re.search(r"^Memo: (\d+) states, (\d+) nogoods$", run.stdout, re.MULTILINE)
    assert figures, run.stdout
    return atoms, int(figures[1]), int(figures[2])


@every_clingo
@pytest.mark.parametrize(("number", "objective"), [(1, "moves"), (4, "slides")])
def test_clingo_prints_the_optimal_plan(runner, number, objective):
    # Card 26's 28 moves by the executable: test_the_encodings_readme_shows_what_clingo_prints.
    atoms = standalone(ORIGINAL / f"card{number:02d}.txt", encoding_path(objective), runner=runner)
    plan = plan_from_atoms(atoms, group_slides=objective == "slides")
    puzzle = card(number)
    assert replay(puzzle, plan).solved
    steps = max(atom.arguments[0].number for atom in atoms)
    assert steps == BFS.solve(puzzle, objective).length


@pytest.mark.slow
@every_clingo
def test_clingo_solves_the_first_ten_cards(runner):
    """The README's command, as written (no memo), on cards 1 to 10 by moves. The plain
    encodings take minutes on the hardest of the 40 (cards 29 to 33), and by slides a minute on
    the first ten here, so the slow set takes these through each clingo; card 26 by moves and
    card 4 by slides are above."""
    for number in range(1, 11):
        atoms = standalone(
            ORIGINAL / f"card{number:02d}.txt", encoding_path("moves"), runner=runner
        )
        assert replay(card(number), plan_from_atoms(atoms, group_slides=False)).solved, number
        steps = max(atom.arguments[0].number for atom in atoms)
        assert steps == BFS.solve(card(number), "moves").length, number


@pytest.mark.parametrize("objective", ["moves", "slides"])
def test_python_m_clingo_says_it_runs_no_incremental_mode_and_gives_no_plan(objective):
    """pip's ``python -m clingo`` grounds base and solves once: the answer is the encodings'
    error atom naming what to run, never SATISFIABLE with an empty plan."""
    run = subprocess.run(
        [sys.executable, "-m", "clingo", f"encodings/{objective}.lp", "-"],
        input=facts_of(ORIGINAL / "card01.txt"),
        capture_output=True,
        text=True,
        cwd=REPOSITORY,
    )
    assert "SATISFIABLE" in run.stdout, run.stderr  # and exit code 0: its main drops clingo's
    # One atom (its message has spaces, so the answer is parsed whole), and so no move/3.
    atom = clingo.parse_term(last_answer(run.stdout))
    assert atom.name == "error"
    assert "encodings/run.py" in atom.arguments[0].string


def test_the_python_loop_of_the_encodings_readme_finds_the_optimum(tmp_path):
    """The loop encodings/README.md shows for clingo's Python API, run as shown on card 1."""
    readme = (REPOSITORY / "encodings" / "README.md").read_text()
    program = re.search(r"```python\n(.*?)```", readme, re.DOTALL)[1]
    (tmp_path / "encodings").symlink_to(REPOSITORY / "encodings")
    (tmp_path / "card26.lp").write_text(facts_of(ORIGINAL / "card01.txt"))  # card 1: quicker
    run = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    atoms = [clingo.parse_term(atom) for atom in run.stdout.split()]
    assert replay(card(1), plan_from_atoms(atoms, group_slides=False)).solved
    assert len(atoms) == BFS.solve(card(1), "moves").length


@needs_clingo
def test_clingo_executable_handles_walls_and_two_targets():
    for name in ("walls", "two-targets", "vertical-target"):
        atoms = standalone(EXAMPLES / f"{name}.txt", encoding_path("moves"))
        assert replay(example(name), plan_from_atoms(atoms, group_slides=False)).solved


@every_clingo
@pytest.mark.parametrize(
    ("puzzle_file", "objective"),
    [
        (ORIGINAL / "card01.txt", "moves"),
        (ORIGINAL / "card03.txt", "moves"),
        (ORIGINAL / "card04.txt", "slides"),
        (EXAMPLES / "walls.txt", "moves"),
        (EXAMPLES / "two-targets.txt", "moves"),
    ],
    ids=["card1", "card3", "card4-slides", "walls", "two-targets"],
)
def test_clingo_runs_the_memo(runner, puzzle_file, objective):
    """memo.lp: the same propagator inside clingo's own main (clingo 5.4 in CI, and pip's)."""
    atoms, states, _ = standalone(puzzle_file, encoding_path(objective), memo=True, runner=runner)
    puzzle = read_path(str(puzzle_file))[0]
    plan = plan_from_atoms(atoms, group_slides=objective == "slides")
    assert replay(puzzle, plan).solved
    assert max(atom.arguments[0].number for atom in atoms) == BFS.solve(puzzle, objective).length
    assert states > 0


def excerpt_pattern(excerpt: str) -> re.Pattern[str]:
    """The output an excerpt shows: a line ``...`` stands for lines left out, ``A ... B`` for
    a line from A to B, and the times, which vary from run to run, are left unread."""
    lines = []
    for line in excerpt.splitlines():
        if line == "...":
            lines.append(r"(?:.*\n)*?")
            continue
        if line.startswith(("Time", "CPU Time")):
            pattern = re.escape(line.split(":")[0]) + ":.*"
        else:
            pattern = r" .* ".join(map(re.escape, line.split(" ... ")))
        lines.append(pattern + r"\n")
    return re.compile("".join(lines))


@needs_clingo
def test_the_encodings_readme_shows_what_clingo_prints():
    readme = (REPOSITORY / "encodings" / "README.md").read_text()
    excerpt = re.search(r"```\n(clingo version .*?)```", readme, re.DOTALL)[1]
    printed = clingo_run(ORIGINAL / "card26.txt", "moves.lp").stdout
    version = printed.splitlines()[0]
    if version != excerpt.splitlines()[0]:
        pytest.skip(f"the excerpt is of {excerpt.splitlines()[0]}, this is {version}")
    assert excerpt_pattern(excerpt).fullmatch(printed), printed
    # One Solving... per horizon, 0 to 28: card 26 takes 28 moves (its card back).
    assert printed.count("Solving...\n") == 29


@every_clingo
def test_imax_bounds_the_horizons_and_ends_an_unsolvable_board(runner):
    # Without -c imax an unsolvable board never ends (see encodings/README.md); with it clingo
    # tries horizons 0 to N-1. The 4x4 board takes 3 moves (counted by hand in its file).
    def run(name, imax):
        return clingo_run(EXAMPLES / name, "moves.lp", "-c", f"imax={imax}", runner=runner)

    unsolvable = run("unsolvable.txt", 10)
    assert unsolvable.returncode == 20  # UNSATISFIABLE
    assert unsolvable.stdout.count("Solving...\n") == 10
    assert "\nUNSATISFIABLE\n" in unsolvable.stdout
    assert run("4x4.txt", 3).returncode == 20
    assert run("4x4.txt", 4).returncode in (10, 30)


# --- hand-made boards: other exits, other sizes, three targets ----------------------------
# Each with its hand count (moves, slides), checked again by the naive reference solver.

HAND_MADE = {
    # X must leave by the left edge of row 2; A (column 2) goes down 2 to clear it: AD2 XL3.
    "left": ("@target X left\n.A...\n.A.XX\n.....\n.....\n.....\n", 2, 5),
    # X must leave by the top of column 3; B steps left 1 (right 1 would still block): BL1 XU3.
    "top": ("@target X top\n.....\n.BB..\n.....\n..X..\n..X..\n", 2, 4),
    # The smallest board: A goes down 1, X right 1.
    "3x3": ("XXA\n..A\n...\n", 2, 2),
    # A up 1 (1 slide; down needs 2), Y right 1 and is gone, X right 4, Z down 4: every
    # vehicle must move, none can do with fewer cells.
    "three-targets": (
        "@target X right\n@target Y right\n@target Z bottom\n"
        ".....Z\n..A..Z\nXXAYY.\n......\n......\n......\n",
        4,
        10,
    ),
}


def blocked_truck(side: int) -> str:
    """A side×side board: X in row 2 behind truck B in the last column (rows 1-3), which can
    only go down 2 once car C in row 5 steps left: CL1 BD2 X right side-2 cells; 3 moves and
    side+1 slides, as no vehicle can do with fewer."""
    rows = [["."] * side for _ in range(side)]
    rows[1][:2] = ["X", "X"]
    for row in range(3):
        rows[row][-1] = "B"
    rows[4][-2:] = ["C", "C"]
    return "\n".join(map("".join, rows)) + "\n"


HAND_MADE |= {f"{side}x{side}": (blocked_truck(side), 3, side + 1) for side in range(8, 13)}


@pytest.mark.usefixtures("uncompiled")
@pytest.mark.parametrize("name", list(HAND_MADE))
def test_hand_made_boards_asp_bfs_and_the_naive_reference_agree(name):
    text, moves, slides = HAND_MADE[name]
    (puzzle,) = read_text(text, f"{name}.txt", name=name)
    rows, exits = board_rows(puzzle), dict(puzzle.board.exits)
    for objective, length in (("moves", moves), ("slides", slides)):
        assert reference.fewest(rows, exits, objective) == length
        assert agree(puzzle, objective).length == length


@needs_clingo
@pytest.mark.parametrize("name", ["left", "top"])
@pytest.mark.parametrize("objective", ["moves", "slides"])
def test_clingo_executable_drives_targets_out_left_and_top(tmp_path, name, objective):
    text, moves, slides = HAND_MADE[name]
    board = tmp_path / f"{name}.txt"
    board.write_text(text)
    atoms = standalone(board, encoding_path(objective))
    (puzzle,) = read_text(text, "board", name=name)
    assert replay(puzzle, plan_from_atoms(atoms, group_slides=objective == "slides")).solved
    steps = max(atom.arguments[0].number for atom in atoms)
    assert steps == (moves if objective == "moves" else slides)


def test_clingo_solves_only_with_room_for_its_threads_under_an_address_space_limit(monkeypatch):
    # The first solve of a process maps an arena and a stack for each solver thread (72 MiB
    # each measured); later solves reuse them and need only the margin. Short of either,
    # clingo would abort the process from C++ (exit code 127): the search stops first.
    from rhasp.engines import asp

    stack = asp.stack_bytes()
    first = 2 * (asp.ARENA_BYTES + stack) + asp.SOLVE_MARGIN
    monkeypatch.setattr(asp, "_threads_started", 0)
    monkeypatch.setattr(asp, "address_space_left", lambda: first - 1)
    short = asp.memory_short(2, 0)
    assert short is not None and short.ran_out == "address space"
    assert short.text.startswith("out of memory for clingo's solver at horizon")
    said = short.text
    assert f"{(first - 1) >> 20} MiB left" in said and f"{first >> 20} MiB needed" in said
    assert asp._threads_started == 0  # refused: nothing started
    monkeypatch.setattr(asp, "address_space_left", lambda: first)
    assert asp.memory_short(2, 0) is None and asp._threads_started == 2
    monkeypatch.setattr(asp, "address_space_left", lambda: asp.SOLVE_MARGIN)
    assert asp.memory_short(2, 5) is None  # the threads' arenas and stacks are there already
    third = asp.memory_short(3, 6)  # one thread more than ever: its arena and stack too
    assert third is not None and "at horizon 6" in third.text
    monkeypatch.setattr(asp, "address_space_left", lambda: None)  # no limit: nothing to check
    assert asp.memory_short(64, 7) is None


def test_the_solver_threads_are_those_clingo_reads():
    from rhasp.engines.asp import solver_threads

    assert solver_threads(clingo.Control(["--warn=none"])) == 1
    assert solver_threads(clingo.Control(["--warn=none", "--parallel-mode=2"])) == 2
    assert solver_threads(clingo.Control(["--warn=none", "-t2,split"])) == 2
