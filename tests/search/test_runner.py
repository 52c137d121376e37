"""The one way to run the core (rhasp.search.runner): any function of core or layouts by
reference, compiled or not, warmed once, bounded, and stopped at once when asked."""

from __future__ import annotations

import ast
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rhasp import enumeration
from rhasp.api import read
from rhasp.errors import SearchLimit
from rhasp.limits import Budget
from rhasp.progress import Silent
from rhasp.search import core, geometry, runner, shards
from rhasp.search.runner import RUNNER, UNLIMITED

BOTH_WAYS = pytest.mark.parametrize("jit", ["always", "never"])
FOUR = enumeration.Options(size=4, max_walls=1)


def test_geometry_is_data_that_imports_no_runner():
    # The runner converts tables for the compiled core; the geometry does not know it exists
    # (importing rhasp imports everything, so its own imports are read).
    tree = ast.parse(Path(geometry.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert imported & {"rhasp.search.runner", "rhasp.search.jit"} == set()
    assert not hasattr(geometry.Geometry, "compiled")


@BOTH_WAYS
def test_a_layouts_function_runs_by_reference_as_it_does_called_by_hand(monkeypatch, jit):
    monkeypatch.setenv("RHASP_JIT", jit)
    lines = enumeration.line_tables(FOUR)
    limits = shards.ShardLimits(1, 16, 0, 1, 1, 10_000)
    for number in range(0, enumeration.shard_count(lines), 5):
        prefix = enumeration.shard_prefix(lines, number)
        by_hand = shards.enumerate_shard(lines, prefix, limits, core.new_buffer(3))
        ran = RUNNER.call(shards.enumerate_shard, lines, prefix, limits)
        assert (ran[0], list(ran[1]), list(ran[2])) == (
            by_hand[0],
            list(by_hand[1]),
            list(by_hand[2]),
        )


@BOTH_WAYS
def test_a_shard_past_its_budget_is_a_limit_that_names_the_shard(monkeypatch, jit):
    # The 4x4 board's clusters have more than one state (the target alone slides along its
    # row), so a budget of one state stops the first shard that meets a layout.
    monkeypatch.setenv("RHASP_JIT", jit)
    lines = enumeration.prepared(FOUR)
    stopped = []
    for number in range(enumeration.shard_count(lines)):
        try:
            enumeration.run_shard(FOUR, 1, number)
        except SearchLimit as limit:
            stopped.append((number, limit))
    assert stopped
    number, limit = stopped[0]
    assert limit.limit.ran_out == "states" and limit.limit.amount == 1
    assert limit.what.startswith("state limit reached after ")
    assert limit.what.endswith(f"states in one cluster of shard {number}")


def test_the_warm_up_switches_for_good_unless_told_never(monkeypatch):
    lines = enumeration.line_tables(FOUR)
    nothing = shards.ShardLimits(1, 0, 0, 0, 1, 1)
    monkeypatch.setattr(RUNNER, "uncompiled_states", 0)
    monkeypatch.setenv("RHASP_JIT", "never")
    assert not RUNNER.warm_up(shards.enumerate_shard, lines, [0], nothing)
    assert RUNNER.uncompiled_states == 0
    monkeypatch.setenv("RHASP_JIT", "auto")
    if RUNNER.compiled() is None:
        pytest.skip("numba is not installed")
    assert RUNNER.warm_up(shards.enumerate_shard, lines, [0], nothing)
    assert RUNNER.uncompiled_states >= RUNNER.switch_states


@pytest.mark.parametrize("load_seconds, loads", [(5.0, False), (0.5, True)])
def test_a_search_starts_a_load_only_with_the_seconds_for_it(monkeypatch, load_seconds, loads):
    # Past the switch, cached code is loaded in a thread only when the search has the seconds
    # a load takes: a load that cannot end first shares the GIL with the search and outlives it.
    if RUNNER.compiled() is None:
        pytest.skip("numba is not installed")
    monkeypatch.setenv("RHASP_JIT", "auto")
    monkeypatch.setattr(runner, "LOAD_SECONDS", load_seconds)
    monkeypatch.setattr(runner.prepare, "ready", lambda *_: True)
    started = []
    monkeypatch.setattr(runner.Runner, "load", lambda self, *where: started.append(where[:2]))
    fresh = runner.Runner(switch_states=0)
    puzzle = read(Path("puzzles/large/left12.txt"))  # millions of states: the 1 s runs out
    plan = geometry.Geometry.of(puzzle.board)
    bfs = {"stop_at_goal": True, "with_links": True}
    with pytest.raises(SearchLimit):
        fresh.run(plan, core.breadth_first, plan.key(puzzle.start), budget=Budget(seconds=1), **bfs)
    fresh.settle()
    assert started == ([("breadth_first", runner.shape(plan.tables))] if loads else [])


class Interrupter(Silent):
    """Presses Ctrl-C at the first sight of the search's progress."""

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        raise KeyboardInterrupt


def test_ctrl_c_stops_a_long_shard_at_once(monkeypatch):
    # Uncompiled, a 6×6 shard of up to 8 pieces takes many seconds; stopped, it ends at once.
    monkeypatch.setenv("RHASP_JIT", "never")
    options = enumeration.Options(size=6, max_pieces=8)
    lines = enumeration.line_tables(options)
    limits = shards.ShardLimits(1, 8, 0, 0, 1, UNLIMITED)
    prefix = enumeration.shard_prefix(lines, enumeration.shard_count(lines) // 2)
    began = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        budget = Budget(UNLIMITED, progress=Interrupter())
        RUNNER.call(shards.enumerate_shard, lines, prefix, limits, budget=budget)
    assert time.perf_counter() - began < 2.0


@pytest.mark.parametrize(("cap", "compiles"), [(200 * 2**20, False), (2**31, True), (None, True)])
def test_numba_is_loaded_only_with_room_in_the_address_space(monkeypatch, cap, compiles):
    # Under a tight ulimit -v, loading numba may abort the process (exit code 1, no line of
    # ours): the core runs uncompiled there, and meets the cap as a MemoryError (exit 4).
    import resource

    limit = resource.RLIM_INFINITY if cap is None else cap
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (limit, resource.RLIM_INFINITY))
    monkeypatch.setenv("RHASP_JIT", "always")
    assert (RUNNER.compiled() is not None) == compiles


def test_numba_never_swaps_standard_output_from_a_loading_thread():
    # numba's highlighted messages run colorama's init and deinit, which assign sys.stdout and
    # sys.stderr, from the thread that loads the compiled core: a test run lost the output
    # of commands run meanwhile in the main thread. rhasp turns the highlighting off.
    code = (
        "import sys, types\n"
        "import rhasp.search\n"
        "from rhasp.search import runner\n"
        "swaps = []\n"
        "class Watched(types.ModuleType):\n"
        "    def __setattr__(self, name, value):\n"
        "        swaps.append(name) if name in ('stdout', 'stderr') else None\n"
        "        super().__setattr__(name, value)\n"
        "sys.__class__ = Watched\n"
        "jit = runner.compiled_core()\n"
        "import numba.core.errors as errors\n"
        "errors.termcolor().errmsg('a message numba would highlight')\n"
        "print(swaps)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"
