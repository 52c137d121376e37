"""Fixtures shared across the test modules."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from rhasp.engines import get_engine
from rhasp.limits import Budget
from tests.boards import card


@pytest.hookimpl(optionalhook=True)  # a hook of xdist's: the suite also runs -p no:xdist
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker more than the machine has cores (``--numprocesses=logical`` in
    pyproject.toml): many tests wait on the processes they start (rhasp's start-up, a Dask
    cluster, a server, a timeout), and a worker beside them keeps the cores busy. Measured
    on this project's 2-core machine, an empty cache: the suite in 572 s on 3 workers against
    645-721 s on 2 (bench/README.md, "The test suite's time")."""
    return (os.cpu_count() or 1) + 1


@pytest.fixture(scope="session")
def card_solutions():
    """The oracle's solutions of the 40 original cards, by (card number, objective)."""
    engine = get_engine("bfs", budget=Budget())
    return {
        (number, objective): engine.solve(card(number), objective)
        for number in range(1, 41)
        for objective in ("moves", "slides")
    }


@pytest.fixture
def dask_cluster():
    """A scheduler and two single-threaded workers on the loopback address, stopped after."""
    with _dask_processes() as (address, _):
        yield address


@pytest.fixture
def dask_cluster_to_lose():
    """As :func:`dask_cluster`, for a test that loses it mid-run: its address, and a function
    that kills its scheduler (at once, as a machine lost would) and waits for it to be gone."""
    with _dask_processes() as (address, scheduler):

        def lose() -> None:
            scheduler.kill()
            scheduler.wait(timeout=20)

        yield address, lose


@contextlib.contextmanager
def _dask_processes():
    """A Dask scheduler and two single-threaded workers on the loopback address, stopped
    after: the address, and the scheduler's process."""
    distributed = pytest.importorskip("distributed")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    scheduler = subprocess.Popen(
        [*dask, "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a group of its own, its processes killed together after
    )
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "distributed.cli.dask_worker",
            address,
            "--nworkers",
            "2",
            "--nthreads",
            "1",
            "--no-dashboard",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a group of its own, its processes killed together after
    )
    try:
        with distributed.Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, scheduler
    finally:
        # Killed, not asked to close: a nanny's orderly close of its workers takes 8 s, and
        # the test has what it needs.
        for process in (worker, scheduler):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        for process in (worker, scheduler):
            process.wait(timeout=20)


@pytest.fixture
def empty_compile_cache(tmp_path, monkeypatch):
    """An empty cache for the compiled core (``RHASP_CACHE_DIR``), for the commands a test
    starts; afterwards, the background compiles they started are stopped (each names the
    folder in its arguments), so that none goes on taking a core from the suite."""
    folder = tmp_path / "compiled"
    monkeypatch.setenv("RHASP_CACHE_DIR", str(folder))
    yield folder
    for pid in processes_naming(str(folder)):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def processes_naming(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if text in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
    return found
