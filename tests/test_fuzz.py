"""Fuzzing every reader (issue 13): no input may raise a traceback.

Hypothesis drives the generators of ``tests/fuzzing.py`` (real puzzles, decks, plans and
command lines, mutated) and gives plain text of its own. Each case must end in a
puzzle that is valid all the way or in an InputError of one line that names its place; a
command line must exit 0, 1, 2 or 4 and, on exit 2, say one line. The runs are deterministic
(``derandomize``): 250 cases for each of eight readers, 200 command lines and 200 texts of
hypothesis's own, 2,400 in all. ``bench/fuzz.py`` runs the same generators for 100,000 cases.

The failures it found in the commands, outside the readers, have a test each at the end.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzzing import (
    PUZZLES,
    READERS,
    Case,
    cli_files,
    make_case,
    run_case,
    run_command_line,
    seeds,
)

TEXT_READERS = tuple(reader for reader in READERS if reader != "options")


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


def test_the_seeds_are_read():
    chosen = seeds()
    assert len(chosen.grids) == 47 and len(chosen.puzzles) == 47
    assert len(chosen.lines) >= 1040 and len(chosen.plans) >= 120


# What the fuzzing found in the commands, outside the readers (fixed in the commands): one
# command line each, so that none comes back unseen.

EXAMPLES = PUZZLES / "examples"


def one_line_or_clean_exit(*argv: str) -> None:
    outcome = run_command_line(argv)
    assert outcome.kind in ("valid", "error"), outcome.detail


def test_a_missing_option_with_choices_is_one_line():
    one_line_or_clean_exit("convert", str(EXAMPLES / "4x4.txt"))


def test_generate_with_max_boards_past_sys_maxsize():
    one_line_or_clean_exit("generate", "--size", "3", "--count", "1", "--max-boards", "9" * 20)


def test_check_a_long_plan_given_as_text():
    one_line_or_clean_exit("check", str(EXAMPLES / "4x4.txt"), "\n".join(["BL1 AD2"] * 40))


def test_convert_a_puzzle_that_cannot_be_written_to_a_directory(tmp_path):
    one_line_or_clean_exit(
        "convert", str(EXAMPLES / "4x4.txt"), "--to", "carlist", "-o", str(tmp_path)
    )


def test_an_output_file_name_with_a_line_break():
    one_line_or_clean_exit("deck", cli_files()["deck"], "--out", "\n")


def test_render_at_the_smallest_cell(tmp_path):
    picture = tmp_path / "limousine.png"
    one_line_or_clean_exit(
        "render", str(EXAMPLES / "limousine.txt"), "-o", str(picture), "--cell", "8"
    )


def test_deck_on_a_scheduler_address_without_a_port():
    one_line_or_clean_exit("deck", cli_files()["deck"], "--jobs", "1", "--scheduler", "garbage")


def test_solve_with_a_clingo_arg_that_is_not_utf8():
    one_line_or_clean_exit("solve", str(EXAMPLES / "4x4.txt"), "--clingo-arg", "\udcff")


def test_analyze_with_a_second_picture_that_cannot_be_written(tmp_path):
    graph, profile = tmp_path / "graph.svg", tmp_path / "no" / "profile.png"
    one_line_or_clean_exit(
        "analyze", str(EXAMPLES / "walls.txt"), "--graph", str(graph), "--profile", str(profile)
    )


# Found by bench/fuzz.py in the commands' newest options, since fixed.


def test_max_states_past_a_64_bit_integer_on_the_compiled_core(monkeypatch):
    monkeypatch.setenv("RHASP_JIT", "always")
    one_line_or_clean_exit(
        "solve", str(EXAMPLES / "4x4.txt"), "--engine", "bfs", "--max-states", "9" * 20
    )


def test_analyze_an_unsolvable_board_with_both_pictures(tmp_path):
    graph, profile = tmp_path / "graph.svg", tmp_path / "profile.png"
    one_line_or_clean_exit(
        "analyze",
        str(EXAMPLES / "unsolvable.txt"),
        "--graph",
        str(graph),
        "--profile",
        str(profile),
    )
