"""The public Python API (``import rhasp``), checked against the naive reference solver and
hand-counted boards, and the README's example run as it is written."""

from __future__ import annotations

import inspect
import json
import os
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import rhasp
from rhasp import api
from rhasp.limits import Budget
from rhasp.model import Move, Puzzle
from rhasp.pictures.boards import TARGET
from rhasp.requests import DeckRequest, SolveRequest
from rhasp.search import MOST_STATES
from tests import reference
from tests.boards import (
    CARD1_BFS_ATOMS,
    CARD1_BFS_PLAN,
    CARD1_CLINGO_ATOMS,
    CARD_MOVES,
    EXAMPLES,
    card,
    card_backs,
    example,
)

ROOT = Path(__file__).resolve().parents[1]
CARD01 = ROOT / "puzzles" / "original" / "card01.txt"
SVG = "{http://www.w3.org/2000/svg}"


def fewest(puzzle: Puzzle, objective: str = "moves") -> int | None:
    """The naive reference's minimum for the puzzle's position."""
    rows = ["".join(row) for row in puzzle.board.grid(puzzle.start)]
    return reference.fewest(rows, dict(puzzle.board.exits), objective)


def readme_block(marker: str) -> str:
    """The fenced block after ``<!-- marker -->`` in the README."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- {marker} -->\n```\w*\n(.*?)```", text, re.S)
    assert found, f"README has no block after <!-- {marker} -->"
    return found[1]


def test_the_readme_example_prints_what_the_readme_says():
    code, shown = readme_block("api:example"), readme_block("api:output")
    assert len(code.strip().splitlines()) == 5
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout == shown


def test_read_takes_a_file_a_path_or_the_text_itself():
    from_file = rhasp.read(str(CARD01))
    assert from_file.name == "card01"
    assert rhasp.read(CARD01) == from_file
    assert rhasp.read(CARD01.read_text()) == from_file
    assert rhasp.read("AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR.") == from_file  # the deck's line 1


def test_read_says_what_is_wrong_in_one_line():
    with pytest.raises(rhasp.InputError, match=r"^missing\.txt: no such file or directory$"):
        rhasp.read("missing.txt")
    with pytest.raises(rhasp.InputError, match=r"^game1\.csv: no such file or directory$"):
        rhasp.read("game1.csv")  # a course CSV's name, not a board
    with pytest.raises(rhasp.InputError, match="holds 40 puzzles"):
        rhasp.read(ROOT / "puzzles" / "original40.txt")
    with pytest.raises(rhasp.InputError, match=r"^board:1:1: a one-line board"):
        rhasp.parse("AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR")  # 35 cells


def test_parse_never_reads_a_file():
    with pytest.raises(rhasp.InputError) as error:
        rhasp.parse(str(CARD01))
    assert "AA...O" not in str(error.value)


@pytest.mark.parametrize("name", ["4x4", "walls", "two-targets"])
@pytest.mark.parametrize("objective", ["moves", "slides"])
def test_solve_agrees_with_the_reference(name, objective):
    puzzle = example(name)
    for engine in ("asp", "bfs"):
        solution = rhasp.solve(puzzle, objective, engine=engine)
        assert solution.length == fewest(puzzle, objective), engine
        assert rhasp.play(puzzle, solution.plan).solved


def test_solve_says_what_proves_the_plan():
    solution = rhasp.solve(card(1))
    assert solution.proofs == ("asp", "bfs")
    assert len(solution.asp.move_atoms) == solution.moves == 8
    assert rhasp.solve(card(1), engine="asp", confirm=False).proofs == ("asp",)


@pytest.mark.parametrize("arg", ["--models=0", "--enum-mode=brave", "--project", "-c h=v"])
def test_clingo_options_that_change_what_an_answer_means_are_refused(arg):
    """Issue 39: ``clingo_args=("--models=0",)`` once merged every plan of the first
    satisfiable horizon into one, printed as optimal."""
    with pytest.raises(rhasp.InputError) as caught:
        rhasp.solve(card(1), engine="asp", confirm=False, clingo_args=("--seed=1", arg))
    assert caught.value.where == "clingo_args" and arg in caught.value.what


def test_an_unconfirmed_plan_is_replayed_too(monkeypatch):
    from rhasp.engines import asp

    real = asp.plan_from_atoms
    monkeypatch.setattr(asp, "plan_from_atoms", lambda atoms, **kw: real(atoms, **kw)[:-1])
    with pytest.raises(rhasp.EngineDisagreement, match="does not solve the puzzle"):
        rhasp.solve(card(1), engine="asp", confirm=False)


def test_check_and_play_read_the_atoms_the_encodings_print():
    """Issue 39: the atoms clingo prints are a plan; card 1's minimum by the naive reference
    solver."""
    result = rhasp.check(card(1), CARD1_CLINGO_ATOMS)
    assert result.solves and result.moves == result.minimal_moves == fewest(card(1))
    bfs = rhasp.play(card(1), CARD1_BFS_PLAN)
    assert rhasp.play(card(1), CARD1_BFS_ATOMS) == bfs and bfs.solved


def test_check_reads_a_plan_as_text_or_as_moves():
    backs = card_backs()
    for number in (1, 2, 3):
        result = rhasp.check(card(number), backs[number])
        assert result.solves and result.moves_minimal, number
        assert result.minimal_moves == fewest(card(number))
    moves = (Move("B", -1), Move("X", 1))
    assert rhasp.check(example("4x4"), moves).failed_move == 2


def test_analyze_counts_the_cluster_as_the_reference_does():
    analysis = rhasp.analyze(card(1))
    states, _ = reference.cluster(["".join(row) for row in card(1).board.grid(card(1).placement)])
    assert analysis.cluster_states == len(states)
    assert sum(analysis.profile.values()) == len(states)
    assert analysis.minimal_moves == 8
    assert analysis.graph is not None and analysis.graph.states == len(states)


def random_position(puzzle: Puzzle, rng: random.Random, moves: int) -> tuple[Move, ...]:
    """``moves`` random legal moves from the start (stopping short of a win)."""
    board, state, played = puzzle.board, puzzle.start, []
    for _ in range(moves):
        options = [(m, s) for m, s in board.successors(state) if not board.is_solved(s)]
        move, state = rng.choice(options)
        played.append(move)
    return tuple(played)


@pytest.mark.parametrize("number", [1, 2, 3, 12])
def test_a_hint_starts_an_optimal_plan_from_any_position(number):
    rng = random.Random(number)
    puzzle = card(number)
    for length in (0, 1, 3, 6):
        here = rhasp.play(puzzle, random_position(puzzle, rng, length))
        found = rhasp.hint(here)
        assert found.moves_left == fewest(here), (number, length)
        after = rhasp.play(here, (found.move,))
        assert after.solved if found.moves_left == 1 else fewest(after) == found.moves_left - 1


def test_a_hint_on_a_solved_or_hopeless_position():
    plan = rhasp.solve(card(1), engine="bfs").plan
    solved = rhasp.play(card(1), plan)
    assert solved.solved and solved.board.targets == ()
    hint = rhasp.hint(solved)
    assert (hint.move, hint.moves_left, hint.puzzle) == (None, 0, solved)
    walled = rhasp.parse("....\nXX#.\n....\n....")  # X faces a wall on the exit row
    assert fewest(walled) is None
    assert rhasp.hint(walled).moves_left is None


def solved_positions() -> dict[str, Puzzle]:
    """Positions solved by hand: card 1 after the plan its back prints (every target has
    left), that with no vehicle at all, and a lone target at its exit edge at the start."""
    gone = rhasp.play(card(1), card_backs()[1])
    return {
        "targets left": gone,
        "empty board": gone.without([vehicle.label for vehicle in gone.board.vehicles]),
        "target at its exit": rhasp.parse("....AA\n......\n....XX\n......\n......\n......"),
    }


@pytest.mark.parametrize("name", ["targets left", "empty board", "target at its exit"])
@pytest.mark.parametrize("engine", ["asp", "bfs", "astar"])
@pytest.mark.parametrize("objective", ["moves", "slides"])
@pytest.mark.parametrize("confirm", [True, False])
def test_a_solved_position_takes_no_move_with_every_engine(name, engine, objective, confirm):
    position = solved_positions()[name]
    assert position.solved
    found = rhasp.solve(position, objective, engine=engine, confirm=confirm, max_states=1_000)
    assert (found.plan, found.moves, found.slides, found.limit) == ((), 0, 0, None)
    assert found.proofs[0] == engine and found.objective == objective


@pytest.mark.parametrize("name", ["targets left", "empty board", "target at its exit"])
def test_the_empty_plan_of_a_solved_position_checks_as_minimal(name):
    record = rhasp.check(solved_positions()[name], "", max_states=1_000).record()
    assert (record["solves"], record["moves"], record["slides"]) == (True, 0, 0)
    assert (record["minimal_moves"], record["minimal_slides"]) == (0, 0)
    assert record["moves_minimal"] and record["slides_minimal"]


def test_a_hint_for_two_targets_comes_from_a_search():
    puzzle = example("two-targets")
    found = rhasp.hint(puzzle)
    assert found.moves_left == fewest(puzzle)
    after = rhasp.play(puzzle, (found.move,))
    assert after.solved or fewest(after) == found.moves_left - 1


def test_play_takes_departed_targets_off_the_board():
    plan = rhasp.solve(example("two-targets"), engine="bfs").plan
    before_last = rhasp.play(example("two-targets"), plan[:-1])
    assert len(before_last.board.targets) == 1  # one target has left already
    with pytest.raises(rhasp.InputError, match="move 1: "):
        rhasp.play(card(1), "XR1")  # X is blocked by Q: bad input, as the README promises


def test_a_misspelt_asp_option_is_one_line():
    with pytest.raises(rhasp.InputError, match=r"^solve: no ASP option timout \(there are "):
        rhasp.solve(card(1), timout=5)


def test_an_illegal_move_is_a_plan_error_naming_it():
    with pytest.raises(rhasp.PlanError) as raised:
        rhasp.play(card(1), "AR1 XR1")
    assert raised.value.index == 2 and str(raised.value).startswith("move 2: X is blocked")


def test_print_shows_the_board_and_the_plan_not_the_fields():
    assert str(card(1)).splitlines()[1:] == [  # card 1 as printed on it
        "AA...O",
        "P..Q.O",
        "PXXQ.O",
        "P..Q..",
        "B...CC",
        "B.RRR.",
    ]
    solution = rhasp.solve(card(1), engine="bfs")
    assert str(solution).startswith("card01 · moves 8 · optimal: proven by bfs · ")
    assert rhasp.check(card(1), str(solution)).moves_minimal
    unsolvable = rhasp.solve(rhasp.parse("AAB\n..B\n..B"), engine="bfs")  # B fills column 3
    summary, read, why = str(unsolvable).splitlines()
    assert summary.startswith("puzzle · no solution · proven by static analysis · ")
    assert read == "  read: target A, leaving right of row 1" and why.startswith("  why: ")


def test_generate_makes_a_puzzle_of_at_least_the_moves_asked():
    made = rhasp.generate(min_moves=6, seed=7)
    assert made.meta["moves"] >= 6
    assert made.meta["moves"] == fewest(made)
    assert rhasp.generate(min_moves=6, seed=7) == made  # the seed makes it again


def test_generate_gives_up_at_its_time_limit():
    with pytest.raises(rhasp.SearchLimit, match=r"no puzzle of at least 40 moves in 0\.5 s"):
        rhasp.generate(min_moves=40, seed=1, seconds=0.5)


def svg_tree(text: str) -> ElementTree.Element:
    return ElementTree.fromstring(text)


class FakeFormatter:
    """IPython's SVG formatter as far as rhasp uses it (IPython is not installed here):
    ``for_type_by_name`` keeps a function per module and class name."""

    def __init__(self) -> None:
        self.by_name: dict[tuple[str, str], Any] = {}

    def for_type_by_name(self, module: str, name: str, function: Any) -> None:
        self.by_name[module, name] = function

    def __call__(self, shown: object) -> str:
        kind = type(shown)
        return self.by_name[kind.__module__, kind.__name__](shown)


def notebook_svg() -> FakeFormatter:
    """The SVG formatter of a shell that ``import rhasp`` found running."""
    svg = FakeFormatter()
    shell = SimpleNamespace(display_formatter=SimpleNamespace(formatters={"image/svg+xml": svg}))
    rhasp._show_pictures(shell)
    return svg


def test_a_puzzle_shows_as_its_board_in_a_notebook():
    puzzle = card(1)
    picture = svg_tree(notebook_svg()(puzzle))
    labels = [node.text for node in picture.iter(f"{SVG}text")]
    assert sorted(labels) == sorted(v.label for v in puzzle.board.vehicles)
    assert any(node.get("fill") == TARGET for node in picture.iter(f"{SVG}rect"))


def test_a_solution_shows_as_its_strip_of_boards():
    solution = rhasp.solve(card(1), engine="bfs")
    picture = svg_tree(notebook_svg()(solution))
    captions = [
        node.text for node in picture.iter(f"{SVG}text") if "." in node.text or node.text == "start"
    ]
    assert captions[0] == "start"
    assert len(captions) == solution.moves + 1
    assert captions[-1].endswith(" out")  # the last move drives the target out


def test_importing_rhasp_in_ipython_registers_the_pictures(tmp_path):
    """``import rhasp`` in a running IPython registers both pictures; the model, solution and
    pictures are imported only when one is shown."""
    (tmp_path / "IPython.py").write_text(
        "from types import SimpleNamespace\n"
        "registered = []\n"
        "class SVG:\n"
        "    def for_type_by_name(self, module, name, function):\n"
        "        registered.append((module, name))\n"
        "shell = SimpleNamespace(display_formatter=SimpleNamespace("
        "formatters={'image/svg+xml': SVG()}))\n"
        "def get_ipython():\n"
        "    return shell\n"
    )
    script = (
        "import sys, IPython, rhasp\n"
        "print(sorted(IPython.registered))\n"
        "drawn = ('rhasp.model', 'rhasp.solution', 'rhasp.pictures')\n"
        "print([m for m in drawn if m in sys.modules])"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    ).stdout.splitlines()
    assert shown == ["[('rhasp.model', 'Puzzle'), ('rhasp.solution', 'Solution')]", "[]"]


def test_a_limit_one_engine_meets_never_hides_what_the_other_proved():
    card1 = card(1)
    fewest = rhasp.solve(card1, engine="bfs")
    past_asp = rhasp.solve(card1, max_horizon=5)
    assert past_asp.plan == fewest.plan and past_asp.proofs == ("bfs",)
    assert str(past_asp.stopped["asp"]) == "no plan up to horizon 5" and past_asp.limit is None
    past_bfs = rhasp.solve(card1, max_states=100)
    assert past_bfs.moves == fewest.moves and past_bfs.proofs == ("asp",)
    assert past_bfs.stopped["bfs"].ran_out == "states"
    neither = rhasp.solve(card1, max_horizon=5, max_states=100)
    assert neither.plan is None and str(neither.limit).startswith("no plan up to horizon 5; bfs:")


# --- every public function checks its arguments (issue 30) -------------------------------------

LARGEST = 2**63 - 1  # the largest int64: past what any count may be


@pytest.mark.parametrize("engine", ["bfs", "astar", "asp"])
def test_a_misspelt_objective_is_refused_never_answered_as_another(engine):
    # Card 7 takes 13 moves (its back) and more slides: "move" once got the fewest slides,
    # labelled "fewest move" (bfs), a disagreement "bug" (astar) or a KeyError (asp).
    assert rhasp.solve(card(7), "moves", engine="bfs").moves == len(card_backs()[7].split()) == 13
    with pytest.raises(rhasp.InputError) as raised:
        rhasp.solve(card(7), "move", engine=engine)
    assert (raised.value.where, raised.value.what) == (
        "objective",
        "give 'moves' or 'slides', not 'move'",
    )


BAD_CALLS = {
    "engine": lambda: rhasp.solve(card(1), "moves", engine="BFS"),
    "confirm": lambda: rhasp.solve(card(1), confirm="no"),
    "puzzle": lambda: rhasp.solve("puzzles/original/card01.txt"),
    "max_states": lambda: rhasp.solve(card(1), engine="bfs", max_states="10"),
    "timeout": lambda: rhasp.solve(card(1), timeout=float("nan")),
    "clingo_args": lambda: rhasp.solve(card(1), clingo_args="--stats"),
    "max_horizon": lambda: rhasp.solve(card(1), max_horizon=-1),
    "max_atoms": lambda: rhasp.solve(card(1), max_atoms=0),
    "asp": lambda: rhasp.solve(card(1), asp={"timeout": 5}),
    "budget": lambda: rhasp.check(card(1), "XR1", budget=10),
    "plan": lambda: rhasp.check(card(1), [Move("X", "3")]),
    "search": lambda: rhasp.hint(card(1), search="no"),
    "source": lambda: rhasp.read(5),
    "targets": lambda: rhasp.read(str(CARD01), targets="X"),
    "text": lambda: rhasp.parse(CARD01.read_bytes()),
    "min_moves": lambda: rhasp.generate(min_moves="3"),
    "seed": lambda: rhasp.generate(seed=1.5),
    "seconds": lambda: rhasp.generate(seconds=-1),
    "jobs": lambda: rhasp.enumerate(jobs=0),
    "size": lambda: rhasp.enumerate(size=3),
    "walls": lambda: rhasp.enumerate(walls=[0, 1, 2]),
    "scheduler": lambda: rhasp.enumerate(scheduler=8786),
}


@pytest.mark.parametrize("name", BAD_CALLS)
def test_a_bad_argument_is_an_input_error_naming_it(name):
    with pytest.raises(rhasp.InputError) as raised:
        BAD_CALLS[name]()
    assert raised.value.where == name and raised.value.what.startswith("give ")
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda states: rhasp.solve(card(1), engine="bfs", max_states=states),
        lambda states: rhasp.check(card(1), "XR1", max_states=states),
        lambda states: rhasp.analyze(card(1), max_states=states),
        lambda states: rhasp.hardest(card(1), max_states=states),
        lambda states: rhasp.hint(card(1), max_states=states),
        lambda states: rhasp.generate(max_states=states, seconds=1),
        lambda states: rhasp.enumerate(size=4, max_states=states),
    ],
)
@pytest.mark.parametrize("states", ["10", True, 0, MOST_STATES + 1, LARGEST + 1, 2**64, 1.0])
def test_max_states_is_a_whole_number_from_1_to_what_a_search_keeps(call, states):
    with pytest.raises(rhasp.InputError, match=r"^max_states: give a whole number from 1 to "):
        call(states)


def test_max_states_takes_numpy_integers_up_to_what_a_search_keeps():
    numpy = pytest.importorskip("numpy")
    limited = rhasp.solve(card(1), engine="bfs", max_states=numpy.int64(10))
    assert limited.plan is None and limited.limit.reached > 10
    assert (limited.limit.ran_out, limited.limit.amount) == ("states", 10)
    assert rhasp.solve(card(1), engine="bfs", max_states=numpy.int64(MOST_STATES)).moves == 8
    with pytest.raises(rhasp.InputError, match=f"^max_states: .* to {MOST_STATES:,}, not "):
        rhasp.solve(card(1), engine="bfs", max_states=LARGEST)


def test_enumerate_checks_its_arguments_at_the_call_not_at_the_first_line():
    with pytest.raises(rhasp.InputError, match=r"^jobs: give a whole number from 1 to 1,024"):
        rhasp.enumerate(jobs=0)  # never iterated: a generator would not have started
    with pytest.raises(rhasp.InputError, match=r"^max_states: "):
        rhasp.enumerate(max_states="10")


def test_an_empty_source_is_named_as_the_argument():
    with pytest.raises(
        rhasp.InputError,
        match=r"^source: no such file, nor a card \(card01–card40\), nor a one-line board",
    ):
        rhasp.read("")


def test_max_states_is_checked_even_where_a_budget_or_no_search_makes_it_unused():
    with pytest.raises(rhasp.InputError, match=r"^max_states: "):
        rhasp.solve(card(1), engine="bfs", max_states="10", budget=Budget(100))
    with pytest.raises(rhasp.InputError, match=r"^max_states: "):
        rhasp.hint(card(1), max_states=-1, search=False)


def test_deck_solves_the_original_deck_as_the_card_backs_say(tmp_path):
    out = tmp_path / "results.jsonl"
    tally = rhasp.deck(ROOT / "puzzles" / "original40.txt", out=out, jobs=1)
    assert (tally.solved, tally.unsolvable, tally.limited, tally.errors) == (40, 0, 0, 0)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((r["line"], r["length"]) for r in records) == list(
        enumerate(CARD_MOVES, 1)  # the lengths printed on the card backs
    )


def test_deck_without_out_returns_the_records_in_deck_order_and_prints_nothing(capsys):
    tally = rhasp.deck(ROOT / "puzzles" / "original40.txt", jobs=2)
    assert capsys.readouterr().out == ""
    assert [record.line for record in tally.records] == list(range(1, 41))
    assert [record.length for record in tally.records] == CARD_MOVES  # the card backs'
    echoed = rhasp.deck(EXAMPLES / "4x4.txt", jobs=1, echo=True)
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed == [record.record() for record in echoed.records] and len(printed) == 1


@pytest.mark.parametrize(
    ("argument", "value"),
    [("out", 5), ("out", b"x.jsonl"), ("progress", 5), ("echo", "yes"), ("confirm", "no")],
)
def test_a_bad_deck_argument_is_one_input_error_naming_it(argument, value):
    with pytest.raises(rhasp.InputError, match=rf"^{argument}: give "):
        rhasp.deck(EXAMPLES / "4x4.txt", jobs=1, **{argument: value})


def test_generate_takes_a_numpy_integer_as_it_takes_an_int():
    numpy = pytest.importorskip("numpy")
    as_int = rhasp.generate(min_moves=5, seed=3, size=5, seconds=30)
    as_numpy = rhasp.generate(
        min_moves=numpy.int64(5), seed=numpy.int64(3), size=numpy.int64(5), seconds=30
    )
    assert (as_numpy.board, as_numpy.placement) == (as_int.board, as_int.placement)


def test_a_deck_line_is_solved_by_the_policy_of_solve(tmp_path):
    # unsolvable.txt: truck A on a wall across X's row, by hand: static analysis proves it.
    board, out = str(EXAMPLES / "unsolvable.txt"), tmp_path / "results.jsonl"
    alone = rhasp.solve(rhasp.read(board), engine="bfs")
    tally = rhasp.deck(board, out=out, jobs=1)
    assert alone.plan is None and alone.proofs == ("static analysis",)
    assert tally.unsolvable == 1 and tally.solved == 0
    assert json.loads(out.read_text())["proven_by"] == ["static analysis"]


def test_enumerate_reads_a_range_as_text_as_the_command_line_gives_it():
    as_text = list(rhasp.enumerate(size=4, walls="0..1"))
    assert as_text == list(rhasp.enumerate(size=4, walls=(0, 1)))
    with pytest.raises(rhasp.InputError, match=r"^walls: give a count or a range LOW..HIGH"):
        rhasp.enumerate(walls="many")


def test_a_request_is_checked_when_built():
    with pytest.raises(rhasp.InputError, match=r"^objective: give 'moves' or 'slides'"):
        SolveRequest(card(1), "move")  # type: ignore[arg-type]
    with pytest.raises(rhasp.InputError, match=r"^jobs: give a whole number from 1 to 1,024"):
        DeckRequest("deck.txt", jobs=0)
    with pytest.raises(rhasp.InputError, match=r"^engine: "):
        rhasp.deck("deck.txt", engine="dfs")


def test_a_puzzle_says_what_its_reader_inferred_and_a_solution_carries_it():
    # Issue 39: the card in lowercase is the card; what was inferred travels with the puzzle.
    lower = rhasp.parse("aa...o\np..q.o\npxxq.o\np..q..\nb...cc\nb.rrr.")
    assert lower == rhasp.read("card01")
    assert lower.reading[0] == "target X, leaving right of row 3"
    assert rhasp.solve(lower, engine="bfs").puzzle.reading == lower.reading
    named = rhasp.parse("aa...o\np..q.o\npxxq.o\np..q..\nb...cc\nb.rrr.", targets=["x"])
    assert named == lower and not any(note.startswith("target") for note in named.reading)
    with pytest.raises(rhasp.InputError, match=r"A .database style. or x"):
        rhasp.parse("AA...O\nP..Q.O\nPxxQ.O\nP..Q..\nB...CC\nB.RRR.")


def test_dir_lists_the_api_alone():
    import rhasp.model  # a module loaded is an attribute of rhasp, but not the API

    names = set(dir(rhasp))
    assert not names & {"sys", "TYPE_CHECKING", "model", "api", "errors"}
    assert {"solve", "hint", "check", "analyze", "Puzzle", "Solution", "enumerate"} <= names
    assert all(getattr(rhasp, name) is not None for name in names)  # each one loads


#: Each command's three names (docs/api.md, "Names"): the function for people, its request,
#: and the function that runs a request for the command line and the page.
COMMANDS = {
    "solve": "solve",
    "analyze": "analyze",
    "generate": "generate",
    "enumerate": "enumerate_puzzles",
    "deck": "deck",
}


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_its_function_request_and_runner_by_one_rule(command):
    assert getattr(rhasp, command) is getattr(api, COMMANDS[command])
    request = getattr(api, f"{command.capitalize()}Request")
    runner = getattr(api, f"run_{command}")
    first = next(iter(inspect.signature(runner).parameters.values()))
    assert first.annotation in (request, request.__name__), (runner, first)
    assert {f"run_{command}", f"{command.capitalize()}Request"} <= set(api.__all__)


def test_generate_takes_keywords_alone():
    with pytest.raises(TypeError):
        rhasp.generate(6)  # size or min_moves? Neither: said by name
    with pytest.raises(TypeError):
        rhasp.solve(card(1), "moves", "bfs")  # the engine, by name too
