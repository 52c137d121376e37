"""Patterns built beside the search (rhasp.search.aside): a child process's are the tables the
parent would build for the same vehicles, each handed over as it comes; a child closed or
without Python to run fails without one, and one that breaks off keeps those it wrote
whole; a thread's are the patterns built here, what it raised is raised where they are
asked for, and closing it stops it."""

from __future__ import annotations

import pickle
import signal
import sys
import time
from pathlib import Path

import pytest

from rhasp import early
from rhasp.search import PatternAside, PatternTable, PatternThread, aside, pattern
from rhasp.search.pattern import NO_SHORT
from tests.boards import card


def answered(beside: PatternAside | PatternThread, seconds: float = 120) -> list[PatternTable]:
    """Every pattern ``beside`` hands over, once it is done (or failed)."""
    ends = time.perf_counter() + seconds
    tables = []
    while True:
        done = beside.done
        tables += beside.arrived()
        if done:
            return tables
        assert time.perf_counter() < ends, "it never ended"
        time.sleep(0.01)


@pytest.fixture(autouse=True)
def _not_asked(monkeypatch):
    monkeypatch.setattr(PatternAside, "asked", False)


@pytest.mark.parametrize(("number", "objective"), [(26, "moves"), (16, "slides")])
def test_the_childs_tables_are_the_ones_built_here_for_their_vehicles(number, objective):
    puzzle = card(number)
    board, by_slides = puzzle.board, objective == "slides"
    asked = PatternAside(board, puzzle.start, by_slides=by_slides)
    tables = answered(asked)
    asked.close()
    assert not asked.failed and tables
    assert all(board.index(board.targets[0]) in table.keep for table in tables)
    plain = [table for table in tables if table.short == NO_SHORT]
    lifts = [table for table in plain if len(table.keep) == len(board.vehicles) - 1]
    assert len(plain) - len(lifts) <= 1  # the lifts, and the choice where it is another
    assert len(tables) - len(plain) <= pattern.SHORT_KEPT  # and vehicles a cell shorter
    for table in tables:
        here = built_here(board, puzzle.start, table, by_slides)
        assert table == here  # the same vehicles, mask, fewest by key, unit, vehicle shortened


def test_a_child_closed_before_it_answers_fails():
    puzzle = card(40)  # its choice takes a good part of a second
    asked = PatternAside(puzzle.board, puzzle.start)
    asked.close()
    assert answered(asked, 10) == [] and asked.failed


def test_a_child_without_python_to_run_or_an_answer_fails_or_is_refused(monkeypatch):
    puzzle = card(26)
    monkeypatch.setattr(sys, "executable", "/bin/false")  # runs, and ends without an answer
    asked = PatternAside(puzzle.board, puzzle.start)
    assert answered(asked, 10) == [] and asked.failed
    monkeypatch.setattr(sys, "executable", "/bin/echo")  # ends well, with no answer
    asked = PatternAside(puzzle.board, puzzle.start)
    assert answered(asked, 10) == [] and asked.failed
    monkeypatch.setattr(sys, "executable", "/no/such/python")
    with pytest.raises(OSError):
        PatternAside(puzzle.board, puzzle.start)


def fake_child(tmp_path, answer: bytes, then: str = "") -> str:
    """A child that reads its question, writes ``answer``, then runs the shell's ``then``."""
    written = tmp_path / "answer"
    written.write_bytes(answer)
    child = tmp_path / "python"
    child.write_text(f"#!/bin/sh\ncat > /dev/null\ncat {written}\n{then}\n")
    child.chmod(0o755)
    return str(child)


def test_a_childs_answer_is_taken_before_the_child_ends(monkeypatch, tmp_path):
    """The answer is read to its end, which the child writes and closes its output after,
    not to the child's end (numba's teardown): a child that answers and then lingers has
    answered."""
    then = "exec 1>&-; sleep 60"
    monkeypatch.setattr(sys, "executable", fake_child(tmp_path, pickle.dumps(None), then))
    asked = PatternAside(card(26).board, card(26).start)
    try:
        assert answered(asked, 10) == []
        assert asked._process.poll() is None  # still there
        assert not asked.failed
    finally:
        asked.close()
    assert asked._process.wait(timeout=10) == -signal.SIGKILL  # killed (and reaped beside)


def test_a_child_that_breaks_off_keeps_the_patterns_it_wrote_whole(monkeypatch, tmp_path):
    puzzle = card(26)
    board = puzzle.board
    whole = PatternTable.kept(board, puzzle.start, (board.index(board.targets[0]), 0))
    cut = pickle.dumps(whole)
    broken = cut + cut[: len(cut) // 2]  # one pattern, then half of another, and no end
    monkeypatch.setattr(sys, "executable", fake_child(tmp_path, broken))
    asked = PatternAside(board, puzzle.start)
    assert answered(asked, 10) == [whole] and not asked.failed
    asked.close()
    monkeypatch.setattr(sys, "executable", fake_child(tmp_path, cut + pickle.dumps("other")))
    asked = PatternAside(board, puzzle.start)
    assert answered(asked, 10) == [whole] and not asked.failed
    asked.close()


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
    monkeypatch.setattr(early, "ANSWERER", str(Path(tmp_path, "rhasp", "search", "aside.py")))
    puzzle = card(26)
    asked = PatternAside(puzzle.board, puzzle.start)
    assert answered(asked, 30) == [] and asked.failed


def test_a_child_started_early_is_the_one_the_search_asks(monkeypatch):
    # rhasp.early started it as the process started; the first child asked is that one, and
    # it answers as a child started then would.
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    early.start_for(["solve", "card26.txt"])
    started = early._early
    assert started is not None
    puzzle = card(26)
    asked = PatternAside(puzzle.board, puzzle.start)
    assert asked._process is started and early.adopt() is None
    tables = answered(asked)
    assert tables and not asked.failed
    board, start = puzzle.board, puzzle.start
    assert all(table == built_here(board, start, table) for table in tables)


def test_the_child_runs_this_rhasp_from_another_folder(monkeypatch, tmp_path):
    """From a folder with a package ``rhasp`` of its own (a checkout, where ``python -m``
    would import it first), the child still runs this one and answers."""
    fake = tmp_path / "rhasp"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('the wrong rhasp')\n")
    monkeypatch.chdir(tmp_path)
    puzzle = card(26)
    asked = PatternAside(puzzle.board, puzzle.start)
    assert answered(asked) and not asked.failed


@pytest.mark.parametrize(("number", "objective"), [(26, "moves"), (16, "slides")])
def test_a_threads_patterns_are_the_ones_built_here(monkeypatch, number, objective):
    monkeypatch.setattr(pattern, "SECONDS", 60.0)  # every one, however loaded the machine
    puzzle = card(number)
    by_slides = objective == "slides"
    here = list(PatternTable.collection(puzzle.board, puzzle.start, by_slides=by_slides))
    beside = PatternThread(puzzle.board, puzzle.start, by_slides=by_slides)
    assert here and answered(beside) == here
    beside.close()


def test_what_a_threads_building_raises_is_raised_where_its_patterns_are_asked_for(
    monkeypatch,
):
    def broken(*args, **kwargs):
        raise ValueError("broken on purpose")

    monkeypatch.setattr(pattern, "_chosen", broken)
    beside = PatternThread(card(26).board, card(26).start)
    with pytest.raises(ValueError, match="on purpose"):
        answered(beside)


def test_closing_a_thread_stops_its_choice(monkeypatch):
    stops = []

    def waiting(*args):  # a choice that runs until it is stopped
        stop = args[-1]
        while not stop():
            time.sleep(0.001)
        stops.append(True)

    monkeypatch.setattr(pattern, "_chosen", waiting)
    beside = PatternThread(card(26).board, card(26).start)
    beside.close()
    assert stops == [True] and beside.done and beside.arrived() == []


def built_here(board, start, table, by_slides=False):
    """The table of ``table``'s pattern, built in this process."""
    most = pattern.MAX_BOARDS * (1 if table.short == NO_SHORT else pattern.SHORT_SCALE)
    return PatternTable.kept(board, start, table.keep, by_slides, most, table.short)
