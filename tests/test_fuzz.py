"""Fuzzing every reader (issue 13): no input may raise a traceback.

Hypothesis drives the generators of ``tests/fuzzing.py`` (real puzzles, decks, plans and
command lines, mutated) and gives plain text of its own. Each case must end in a
puzzle that is valid all the way or in an InputError of one line that names its place; a
command line must exit 0, 1, 2 or 4 and, on exit 2, say one line. The runs are deterministic
(``derandomize``): 250 cases for each of nine readers, 200 command lines, 200 texts of
hypothesis's own and 400 calls of the Python API with arguments of any type (issue 30), 3,050
in all; and 400 HTTP requests to every route of ``rhasp serve``'s app (random JSON bodies:
fields missing or of any type, huge numbers, odd strings, nesting), each answered with a 2xx
or a JSON one-line ``error``, never a 500. ``bench/fuzz.py`` runs the same generators for
100,000 cases.

The failures it found in the commands, outside the readers, have a test each at the end.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rhasp
from rhasp.search import MOST_STATES
from tests.fuzzing import (
    API,
    PUZZLES,
    READERS,
    Case,
    cli_files,
    http_app,
    http_routes,
    make_case,
    run_case,
    run_command_line,
    scratch,
    seeds,
)

TEXT_READERS = tuple(reader for reader in READERS if reader not in ("options", "api", "http"))


def fuzzed(examples: int):
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


def judged(case: Case) -> None:
    outcome = run_case(case)
    assert outcome.kind in ("valid", "error"), f"{case!r}\n{outcome.kind}: {outcome.detail}"


@pytest.mark.usefixtures("uncompiled")
@pytest.mark.parametrize("reader", TEXT_READERS)
@fuzzed(250)
@given(rng=st.randoms(use_true_random=False))
def test_a_mutated_input_is_a_valid_puzzle_or_a_one_line_error(reader: str, rng: random.Random):
    judged(make_case(rng, reader))


def _as_case(reader: str, text: str) -> Case:
    if reader in ("stream", "file"):
        data = text.encode("utf-8", "surrogatepass")
        return Case(reader, data if reader == "stream" else (data, ()))
    if reader == "plan":
        return Case(reader, (0, text))
    return Case(reader, text)


@fuzzed(200)
@given(reader=st.sampled_from(TEXT_READERS), text=st.text())
def test_any_text_is_a_valid_puzzle_or_a_one_line_error(reader: str, text: str):
    judged(_as_case(reader, text))


@fuzzed(200)
@given(rng=st.randoms(use_true_random=False))
def test_a_command_line_exits_0_1_2_or_4_with_one_line_on_exit_2(rng: random.Random):
    judged(make_case(rng, "options"))


@fuzzed(400)
@given(rng=st.randoms(use_true_random=False))
def test_an_api_call_with_any_arguments_is_right_or_a_one_line_error(rng: random.Random):
    # Issue 30: any type and value for any argument of any public function; a good call
    # (tiny boards and budgets) returns a right answer, a bad one an InputError naming the
    # argument, or a SearchLimit; never another exception, never the wrong question answered.
    judged(make_case(rng, "api"))


def test_the_api_fuzzing_calls_every_function_to_answers_and_to_errors():
    public = {name for name in rhasp.__all__ if name.islower() and not name.startswith("_")}
    assert set(API) == public and len(public) == 11
    rng = random.Random(30)
    kinds = set()
    for _ in range(300):
        case = make_case(rng, "api")
        kinds.add((case.data.function, run_case(case).kind))
    assert kinds == {(function, kind) for function in API for kind in ("valid", "error")}


@fuzzed(400)
@given(rng=st.randoms(use_true_random=False))
def test_any_request_to_any_route_is_an_answer_or_a_json_error(rng: random.Random):
    # Issue 30: every error the server gives is JSON with an "error" line, and none is a 500.
    judged(make_case(rng, "http"))


def test_every_route_of_the_app_is_fuzzed():
    paths = {make_case(random.Random(n), "http").data[1] for n in range(400)}
    for route in http_app().routes:
        assert any(path.startswith(route.path) for path in paths), route.path
    posted = {path for path, methods, fields, _ in http_routes() if "POST" in methods}
    assert posted >= {"/api/solve", "/api/check", "/api/generate", "/api/database"}
    assert dict((path, fields) for path, _, fields, _ in http_routes())["/api/check"] == (
        "board",
        "moves",
        "plan",
    )


def test_the_seeds_are_read():
    chosen = seeds()
    assert len(chosen.grids) == 48 and len(chosen.puzzles) == 48
    assert len(chosen.lines) >= 1040 and len(chosen.plans) >= 120


# What the fuzzing found in the commands, outside the readers (fixed in the commands): one
# command line each, so that none comes back unseen.

EXAMPLES = PUZZLES / "examples"


def outcome(*argv: str) -> tuple[int, str, str]:
    """``rhasp ARGV`` as a person runs it (the command's usage errors included): its exit
    code, standard output and standard error, after the fuzzing's own check of the outcome."""
    found = run_command_line(argv)
    assert found.kind in ("valid", "error"), found.detail
    result = subprocess.run(
        [sys.executable, "-m", "rhasp", *argv],
        capture_output=True,
        text=True,
        cwd=scratch(),
        stdin=subprocess.DEVNULL,
    )
    return result.returncode, result.stdout, result.stderr


def test_a_missing_option_with_choices_is_one_line():
    code, _, said = outcome("convert", str(EXAMPLES / "4x4.txt"))
    assert code == 2 and said.count("\n") == 1
    assert said.startswith("rhasp convert: Missing option '--to'. Choose from: grid, line, ")
    assert said.endswith(", pddl (see rhasp convert --help)\n")


def test_generate_with_max_boards_past_sys_maxsize():
    # On 4×4: generate refuses 3×3 since issue 33 (a 3×3 board holds no puzzle worth it).
    args = ("--size", "4", "--count", "1", "--seed", "1", "--max-boards", "9" * 20)
    code, _, said = outcome("generate", *args)  # seeded: a random seed's run took 2 to 30 s
    # (Past 30 s, on a busy machine, a line of progress comes first.)
    assert code == 0 and said.splitlines()[-1].startswith("rhasp generate: 1 puzzle from ")


def test_check_a_long_plan_given_as_text():
    # 4×4 by hand: BL1 AD2 leaves B at its left edge, so the second BL1 cannot be played.
    code, shown, _ = outcome("check", str(EXAMPLES / "4x4.txt"), "\n".join(["BL1 AD2"] * 40))
    assert code == 1 and "the plan fails at move 3: " in shown


def test_convert_a_puzzle_that_cannot_be_written_to_a_directory(tmp_path):
    code, _, said = outcome(
        "convert", str(EXAMPLES / "4x4.txt"), "--to", "carlist", "-o", str(tmp_path)
    )
    assert code == 2 and said.count("\n") == 1
    assert "4x4: cannot be written as a car list: the board is not 6×6" in said


def test_an_output_file_name_with_a_line_break():
    code, _, said = outcome("deck", cli_files()["deck"], "--out", "\n")
    assert (code, said) == (2, "rhasp: \\n: results go to a .jsonl or .csv file\n")


def test_render_at_the_smallest_cell(tmp_path):
    picture = tmp_path / "limousine.png"
    code, _, _ = outcome(
        "render", str(EXAMPLES / "limousine.txt"), "-o", str(picture), "--cell", "8"
    )
    assert code == 0 and picture.read_bytes().startswith(b"\x89PNG")


def test_deck_on_a_scheduler_address_without_a_port():
    code, _, said = outcome("deck", cli_files()["deck"], "--jobs", "1", "--scheduler", "garbage")
    assert code == 2 and said.count("\n") == 1
    assert said.startswith("rhasp: garbage: cannot reach the Dask scheduler: missing port")


def test_solve_with_a_clingo_arg_that_is_not_utf8():
    code, _, said = outcome("solve", str(EXAMPLES / "4x4.txt"), "--clingo-arg", "\udcff")
    assert code == 2 and said.count("\n") == 1 and "--clingo-arg" in said


def test_analyze_with_a_second_picture_that_cannot_be_written(tmp_path):
    graph, profile = tmp_path / "graph.svg", tmp_path / "no" / "profile.png"
    code, _, said = outcome(
        "analyze", str(EXAMPLES / "walls.txt"), "--graph", str(graph), "--profile", str(profile)
    )
    assert (code, said) == (
        2,
        f"rhasp: {profile}: there is no folder {profile.parent} to write into\n",
    )
    assert not graph.exists()  # checked before any picture is drawn


# Found by bench/fuzz.py in the commands' newest options, since fixed.


def test_max_states_past_what_a_search_keeps_on_the_compiled_core(monkeypatch):
    # The most states a search keeps is taken, compiled; past it, even past 64 bits, is one
    # line, exit code 2 that names the range (not an OverflowError from a worker).
    monkeypatch.setenv("RHASP_JIT", "always")
    solve = ("solve", str(EXAMPLES / "4x4.txt"), "--engine", "bfs", "--max-states")
    code, shown, _ = outcome(*solve, str(MOST_STATES))
    assert code == 0 and "moves 3" in shown  # the 4×4 example: 3 moves, by hand
    for past in (str(MOST_STATES + 1), str(2**63 - 1), "9" * 20):
        code, _, said = outcome(*solve, past)
        assert code == 2 and said.count("\n") == 1 and f"from 1 to {MOST_STATES:,}" in said


def test_analyze_an_unsolvable_board_with_both_pictures(tmp_path):
    graph, profile = tmp_path / "graph.svg", tmp_path / "profile.png"
    code, _, said = outcome(
        "analyze",
        str(EXAMPLES / "unsolvable.txt"),
        "--graph",
        str(graph),
        "--profile",
        str(profile),
    )
    assert (code, said) == (
        2,
        f"rhasp: {graph}: no goal state is reachable: nothing to rank the states by\n",
    )
