"""The pattern child that ``rhasp solve`` starts before its command line loads: for which
command lines, and that a child nobody takes over ends with the process (its taking over by
the ASP search: tests/search/test_aside.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from typer.main import get_command

from rhasp import early
from rhasp.cli import app
from rhasp.engines import ENGINES


@pytest.mark.parametrize(
    ("arguments", "wanted"),
    [
        (["solve", "card.txt"], True),
        (["solve", "card.txt", "--engine", "asp", "--objective", "slides"], True),
        (["solve", "card.txt", "--engine=asp"], True),
        (["solve", "card.txt", "--engine", "bfs"], False),
        (["solve", "card.txt", "--engine=astar"], False),
        (["solve", "card.txt", "--engine"], False),
        (["solve", "card.txt", "--no-memo"], False),
        (["solve", "--help"], False),
        (["analyze", "card.txt"], False),
        ([], False),
    ],
)
def test_a_child_is_started_early_only_for_a_solve_that_may_ask_it(monkeypatch, arguments, wanted):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert early.wanted(arguments) is wanted


def test_the_names_it_reads_are_the_solve_commands_own():
    # early.wanted reads the command line before typer loads it: the options and the engine
    # it looks for must be the ones `rhasp solve` takes.
    solve = get_command(app).commands["solve"]
    names = {name for param in solve.params for name in (*param.opts, *param.secondary_opts)}
    assert {"--engine", "--no-memo"} <= names and "asp" in ENGINES


def test_no_child_is_started_early_on_one_core(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert not early.wanted(["solve", "card.txt"])


def test_a_child_nobody_takes_over_ends_with_the_process():
    program = (
        "import os; os.cpu_count = lambda: 2\n"
        "from rhasp import early\n"
        "early.start_for(['solve', 'card.txt'])\n"
        "print(early._early.pid, flush=True)\n"
    )
    ran = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    child = int(ran.stdout)
    ends = time.monotonic() + 10
    while os.path.exists(f"/proc/{child}") and time.monotonic() < ends:
        time.sleep(0.05)  # ended and reaped by its parent: its /proc entry is gone
    assert not os.path.exists(f"/proc/{child}")
