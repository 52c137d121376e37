"""The tests' own helper for the processes they start (tests/processes.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tests.processes import started

#: A process that starts a child in its group and a grandchild in a session of its own (as
#: rhasp starts its background compile), prints both pids, then waits.
PARENT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
apart = subprocess.Popen(
    [sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True
)
print(child.pid, apart.pid, flush=True)
time.sleep(120)
"""


def running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_failed_test_leaves_its_process_group_killed_and_a_session_apart_running():
    command = [sys.executable, "-c", PARENT]
    with (
        pytest.raises(AssertionError),
        started(command, stdout=subprocess.PIPE, text=True) as process,
    ):
        parent = process.pid
        child, apart = map(int, process.stdout.readline().split())
        raise AssertionError("a test failing while its process runs")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (running(parent) or running(child)):
        time.sleep(0.05)
    try:
        assert not running(parent) and not running(child)
        assert running(apart)
    finally:
        os.kill(apart, 9)
