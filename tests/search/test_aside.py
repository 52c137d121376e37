"""A pattern chosen beside the search (rhasp.search.aside): a child process's answer is the
table the parent would build for the same vehicles, and a child closed or without Python to
run fails without an answer; a thread's answer is the choice made here, what it raised is
raised where the table is asked for, and closing it stops it."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from rhasp.search import PatternAside, PatternTable, PatternThread, aside
from tests.boards import card


def answered(aside: PatternAside | PatternThread, seconds: float = 120):
    """``aside`` once it has answered (or failed)."""
    ends = time.perf_counter() + seconds
    while not aside.ready:
        assert time.perf_counter() < ends, "the child never answered"
        time.sleep(0.01)
    return aside


@pytest.fixture(autouse=True)
def _not_asked(monkeypatch):
    monkeypatch.setattr(PatternAside, "asked", False)


@pytest.mark.parametrize(("number", "objective"), [(26, "moves"), (16, "slides")])
def test_the_childs_table_is_the_one_built_here_for_its_vehicles(number, objective):
    puzzle = card(number)
    by_slides = objective == "slides"
    aside = answered(PatternAside(puzzle.board, puzzle.start, by_slides=by_slides))
    aside.close()
    table = aside.table()
    assert not aside.failed and table is not None
    assert puzzle.board.index(puzzle.board.targets[0]) in table.keep
    here = PatternTable.kept(puzzle.board, puzzle.start, table.keep, by_slides=by_slides)
    assert table == here  # the same vehicles, mask, fewest by key, unit


def test_a_child_closed_before_it_answers_fails():
    puzzle = card(40)  # its choice takes a good part of a second
    aside = PatternAside(puzzle.board, puzzle.start)
    aside.close()
    assert answered(aside, 10).failed
    assert aside.table() is None


def test_a_child_without_python_to_run_or_an_answer_fails_or_is_refused(monkeypatch):
    puzzle = card(26)
    monkeypatch.setattr(sys, "executable", "/bin/false")  # runs, and ends without an answer
    aside = answered(PatternAside(puzzle.board, puzzle.start), 10)
    assert aside.failed and aside.table() is None
    monkeypatch.setattr(sys, "executable", "/bin/echo")  # ends well, with no answer
    aside = answered(PatternAside(puzzle.board, puzzle.start), 10)
    assert aside.failed and aside.table() is None
    monkeypatch.setattr(sys, "executable", "/no/such/python")
    with pytest.raises(OSError):
        PatternAside(puzzle.board, puzzle.start)


def test_a_childs_answer_is_taken_before_the_child_ends(monkeypatch, tmp_path):
    """The answer is read once the child has closed its output, not at its end (numba's
    teardown): a child that answers and then lingers has answered."""
    lingering = tmp_path / "python"
    program = (
        "import os, pickle, sys, time; sys.stdout.buffer.write(pickle.dumps(None)); "
        "sys.stdout.flush(); os.close(1); time.sleep(60)"
    )
    lingering.write_text(f"#!/bin/sh\nexec {sys.executable} -c '{program}'\n")
    lingering.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(lingering))
    asked = PatternAside(card(26).board, card(26).start)
    try:
        answered(asked, 10)
        assert asked._process.poll() is None  # still there
        assert not asked.failed and asked.table() is None
    finally:
        asked.close()
    assert asked._process.poll() is not None


def test_a_child_is_worth_asking_once_a_process_and_only_where_nothing_is_loaded(monkeypatch):
    board = card(26).board
    monkeypatch.setattr(PatternTable, "costs_no_load", staticmethod(lambda board: False))
    monkeypatch.setattr(aside.os, "cpu_count", lambda: 2)
    assert PatternAside.worth(board)
    monkeypatch.setattr(aside.os, "cpu_count", lambda: 1)  # no other core to run on
    assert not PatternAside.worth(board)
    monkeypatch.setattr(aside.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(PatternAside, "asked", True)
    assert not PatternAside.worth(board)
    monkeypatch.setattr(PatternAside, "asked", False)
    monkeypatch.setattr(PatternTable, "costs_no_load", staticmethod(lambda board: True))
    assert not PatternAside.worth(board)


def test_a_child_that_runs_another_rhasp_fails(monkeypatch, tmp_path):
    """The child answers only from this very module: one that finds another file where this
    process's is (another rhasp ahead on its path) ends without an answer."""
    monkeypatch.setattr(aside, "HERE", Path(tmp_path, "rhasp", "search", "aside.py"))
    puzzle = card(26)
    assert answered(PatternAside(puzzle.board, puzzle.start), 30).failed


def test_the_child_runs_this_rhasp_from_another_folder(monkeypatch, tmp_path):
    """From a folder with a package ``rhasp`` of its own (a checkout, where ``python -m``
    would import it first), the child still runs this one and answers."""
    fake = tmp_path / "rhasp"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('the wrong rhasp')\n")
    monkeypatch.chdir(tmp_path)
    puzzle = card(26)
    found = answered(PatternAside(puzzle.board, puzzle.start))
    assert not found.failed and found.table() is not None


@pytest.mark.parametrize(("number", "objective"), [(26, "moves"), (16, "slides")])
def test_a_threads_pattern_is_the_one_chosen_here(number, objective):
    puzzle = card(number)
    by_slides = objective == "slides"
    here = PatternTable.of(puzzle.board, puzzle.start, by_slides=by_slides, seconds=60)
    beside = answered(PatternThread(puzzle.board, puzzle.start, by_slides=by_slides, seconds=60))
    beside.close()
    assert here is not None and beside.table() == here


def test_what_a_threads_choice_raises_is_raised_where_its_table_is_asked_for(monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("broken on purpose")

    monkeypatch.setattr(PatternTable, "of", broken)
    beside = answered(PatternThread(card(26).board, card(26).start))
    with pytest.raises(ValueError, match="on purpose"):
        beside.table()


def test_closing_a_thread_stops_its_choice(monkeypatch):
    stops = []

    def waiting(board, start, stop, **choice):  # a choice that runs until it is stopped
        while not stop():
            time.sleep(0.001)
        stops.append(True)

    monkeypatch.setattr(PatternTable, "of", waiting)
    beside = PatternThread(card(26).board, card(26).start)
    beside.close()
    assert stops == [True] and beside.ready and beside.table() is None
