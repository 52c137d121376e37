"""Fixtures shared across the test modules."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from rhasp.engines import get_engine
from rhasp.limits import Budget
from rhasp.search import runner
from tests.boards import card
from tests.processes import started

# Where PYTHONDONTWRITEBYTECODE is set (this project's machines set it), pytest rewrites every
# test module's asserts anew in each worker (3 s of each worker's start) and every rhasp
# process a test starts compiles the checkout's source again: the suite keeps bytecode, as
# Python does by default, for itself and the processes it starts.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# The rhasp processes a test starts import the checkout's rhasp, as the tests do, wherever
# they start: CI installs the package too (the README's commands), and a process started
# elsewhere than the checkout imported that copy, whose compiled core is cached apart (the
# cache's key holds the sources' folder: rhasp/search/cache.py), so a cold run compiled the
# core's code for 6x6 boards twice, some 40 s of CPU (bench/README.md, "The test suite's
# time"). The installed copy is what the README's own command runs (.ci/run).
ROOT = Path(__file__).resolve().parents[1]
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
)


@pytest.hookimpl(optionalhook=True)  # a hook of xdist's: the suite also runs -p no:xdist
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker more than the machine has cores (``--numprocesses=logical`` in
    pyproject.toml): many tests wait on the processes they start (rhasp's start-up, a Dask
    cluster, a server, a timeout), and a worker beside them keeps the cores busy. Measured
    on this project's 2-core machine, an empty cache: the suite in 572 s on 3 workers against
    645-721 s on 2 (bench/README.md, "The test suite's time")."""
    return (os.cpu_count() or 1) + 1


@pytest.fixture(autouse=True)
def unswitched() -> Iterator[None]:
    """Each test starts with this worker unswitched to the compiled core, as a command's
    process starts (``rhasp.search.runner``, "the switch"); the code it has loaded stays
    loaded. A worker runs many tests: once one had switched it (a generation's or a deck's
    warm-up, a race's start, 100,000 states searched uncompiled), every later search in it
    asked for the code of its board's shape, and each shape of wide board met in passing
    cost a compile in the background (5-20 s of CPU a function; bench/README.md, "The test
    suite's time")."""
    yield
    runner.RUNNER.uncompiled_states = 0


T = TypeVar("T")


def once_a_run(factory: pytest.TempPathFactory, name: str, compute: Callable[[], T]) -> T:
    """``compute()``, made once for the whole run of the suite: under xdist the first worker
    to ask makes it, under a lock, and leaves it pickled in the run's own temporary folder
    (every worker's folder is in it, and a new run has a new one); the others read it there.
    A fixture each worker would otherwise make again (a 5×5 enumeration, a deck run) is made
    once, not once a worker. Without xdist, simply ``compute()``."""
    if "PYTEST_XDIST_WORKER" not in os.environ:  # not an xdist worker: nothing to share with
        return compute()
    run = factory.getbasetemp().parent  # the run's folder, which holds each worker's
    kept, lock = run / f"{name}.pickle", run / f"{name}.lock"
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if kept.exists():
            return pickle.loads(kept.read_bytes())
        made = compute()
        part = kept.with_suffix(".part")  # whole or not at all, should this worker die
        part.write_bytes(pickle.dumps(made))
        part.replace(kept)
        return made


@pytest.fixture(scope="session")
def shards_of_5x5(tmp_path_factory) -> list:
    """The complete 5×5 enumeration's shards, in order, from two worker processes."""

    def enumerated() -> list:
        from rhasp import enumeration

        options = enumeration.Options(size=5)
        numbers = range(enumeration.shard_count(enumeration.prepared(options)))
        return list(enumeration.shard_results(options, numbers, 1_000_000, 2, None))

    return once_a_run(tmp_path_factory, "shards_of_5x5", enumerated)


@pytest.fixture(scope="session")
def card_solutions(tmp_path_factory):
    """The oracle's solutions of the 40 original cards, by (card number, objective)."""

    def solved() -> dict:
        engine = get_engine("bfs", budget=Budget())
        return {
            (number, objective): engine.solve(card(number), objective)
            for number in range(1, 41)
            for objective in ("moves", "slides")
        }

    return once_a_run(tmp_path_factory, "card_solutions", solved)


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
    worker = [sys.executable, "-m", "distributed.cli.dask_worker", address]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    # Killed on leaving, each with its group (tests/processes.py), not asked to close: a
    # nanny's orderly close of its workers takes 8 s, and the test has what it needs.
    with (
        started(
            [*dask, "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], **quiet
        ) as scheduler,
        started([*worker, "--nworkers", "2", "--nthreads", "1", "--no-dashboard"], **quiet),
    ):
        with distributed.Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, scheduler


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


@pytest.fixture
def uncompiled(monkeypatch):
    """The search core uncompiled (``RHASP_JIT=never``), here and in the commands the test
    starts: for a test of wide boards whose property is not the compiled code's (that the
    compiled core returns what the uncompiled one does is tests/search/test_jit.py's), so
    that it asks no compile of their shapes. Each function compiled for a shape costs the
    suite 5-20 s of CPU on a cold cache, as CI's always is (bench/README.md, "The test
    suite's time")."""
    monkeypatch.setenv("RHASP_JIT", "never")


def processes_naming(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if text in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
    return found
