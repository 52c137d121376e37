"""The one way to run the core (rhasp.search.runner): any function of core or layouts by
reference, compiled or not, warmed once, bounded, and stopped at once when asked."""

from __future__ import annotations

import ast
import errno
import json
import math
import os
import shutil
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from rhasp import enumeration
from rhasp.api import read
from rhasp.engines import reference
from rhasp.errors import SearchLimit
from rhasp.limits import Budget
from rhasp.progress import Silent
from rhasp.search import cache, clusters, core, geometry, runner, shards
from rhasp.search.runner import RUNNER, UNLIMITED
from tests.boards import CARD_MOVES, card
from tests.search.conftest import ONE_WORD, numba_files, read_only

BOTH_WAYS = pytest.mark.parametrize("jit", ["always", "never"])
FOUR = enumeration.Options(size=4, max_walls=1)


def test_geometry_is_data_that_imports_no_runner():
    # The runner converts tables for the compiled core; the geometry does not know it exists
    # (importing rhasp imports everything, so its own imports are read).
    tree = ast.parse(Path(geometry.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert imported & {"rhasp.search.runner", "rhasp.search.compiled", "rhasp.search.jit"} == set()
    assert not hasattr(geometry.Geometry, "compiled")


@BOTH_WAYS
def test_a_layouts_function_runs_by_reference_as_it_does_called_by_hand(monkeypatch, jit):
    monkeypatch.setenv("RHASP_JIT", jit)
    lines = enumeration.line_tables(FOUR)
    limits = shards.ShardLimits(1, 16, 0, 1, 1, 10_000)
    for number in range(0, enumeration.shard_count(lines), 5):
        prefix = enumeration.shard_prefix(lines, number)
        by_hand = shards.enumerate_shard(lines, prefix, limits, core.new_buffer(3))
        ran = RUNNER.call(shards.enumerate_shard, lines, prefix, limits, budget=Budget(UNLIMITED))
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
    assert limit.what.endswith(f"states in one cluster of shard {number + 1}")


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
    # Loaded where the suite's cache holds the code, else asked of the background: either way
    # the process has switched.
    loaded = RUNNER.warm_up(shards.enumerate_shard, lines, [0], nothing)
    assert loaded == (("enumerate_shard", runner.shape(lines)) in RUNNER._loaded)
    assert RUNNER.uncompiled_states >= RUNNER.switch_states


@pytest.mark.parametrize("load_seconds, loads", [(5.0, False), (0.5, True)])
def test_a_search_starts_a_load_only_with_the_seconds_for_it(monkeypatch, load_seconds, loads):
    # Past the switch, cached code is loaded in a thread only when the search has the seconds
    # a load takes: a load that cannot end first shares the GIL with the search and outlives it.
    if RUNNER.compiled() is None:
        pytest.skip("numba is not installed")
    monkeypatch.setenv("RHASP_JIT", "auto")
    monkeypatch.setattr(runner, "LOAD_SECONDS", load_seconds)
    monkeypatch.setattr(runner.cache, "ready", lambda *_: True)
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


@pytest.mark.parametrize("seconds_left, loads", [(1.0, False), (math.inf, True)])
def test_a_warm_up_loads_cached_code_only_with_the_seconds_for_it(monkeypatch, seconds_left, loads):
    # A warm-up loads cached code at once, and a load cannot be stopped: a search with less
    # than LOAD_SECONDS left (A*'s patterns chosen for a solve's last second) goes on
    # uncompiled rather than outlast its time limit by the load (3.5 s for 2 s in a CI run).
    if RUNNER.compiled() is None:
        pytest.skip("numba is not installed")
    monkeypatch.setenv("RHASP_JIT", "auto")
    monkeypatch.setattr(runner.cache, "ready", lambda *_: True)
    started = []
    monkeypatch.setattr(runner.Runner, "load", lambda self, *where: started.append(where[:2]))
    fresh = runner.Runner()
    puzzle = card(13)
    plan = geometry.Geometry.of(puzzle.board, targets_leave=False)
    key = plan.key(puzzle.start)
    assert not fresh.warm_up(
        clusters.cluster, plan.tables, key, UNLIMITED, seconds_left=seconds_left
    )
    assert started == ([("cluster", runner.shape(plan.tables))] if loads else [])


def test_a_request_that_came_to_nothing_is_asked_again_a_few_times(monkeypatch):
    # Asked once while it may still come; again where it came to nothing (a failed compile,
    # a background process ended with its command), at most ASKS times a process.
    asked = []
    monkeypatch.setattr(runner.cache, "start", lambda *where: asked.append(where[:2]) or True)
    lost = []
    monkeypatch.setattr(runner.cache, "lost", lambda *where: bool(lost))
    fresh = runner.Runner()
    where = ("breadth_first", "9x9")
    for _ in range(3):
        fresh._ask(where, ())
    assert asked == [where]
    lost.append(True)
    for _ in range(runner.ASKS + 2):
        fresh._ask(where, ())
    assert asked == [where] * runner.ASKS


def test_a_load_takes_the_gil_back_promptly_and_leaves_the_interval_as_it_was(monkeypatch):
    # A load lets go of the GIL at every file read and LLVM call; beside a search running
    # uncompiled each took up to Python's switch interval to come back (a 0.65 s load had
    # not ended after 12 s). Loads run with a short interval, restored when the last ends,
    # also where it fails and where two overlap.
    if RUNNER.compiled() is None:
        pytest.skip("numba is not installed")
    seen = []
    fresh = runner.Runner()

    def load_code(jit, where, call, ask_again, compiling):
        seen.append(sys.getswitchinterval())
        if where[0] == "outer":  # a second load starts and ends while this one runs
            fresh.load("inner", "1x1", call)
            seen.append(sys.getswitchinterval())
        if where[0] == "failing":
            raise RuntimeError("numba's error")
        return True

    monkeypatch.setattr(runner, "load_code", load_code)
    before = sys.getswitchinterval()
    fresh.load("outer", "1x1", ())
    assert seen == [pytest.approx(runner.LOADING_SWITCH_INTERVAL)] * 3
    assert sys.getswitchinterval() == before
    with pytest.raises(RuntimeError):
        fresh.load("failing", "1x1", ())
    assert sys.getswitchinterval() == before


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked on POSIX only")
def test_a_worker_forked_during_a_load_has_the_usual_interval_and_a_free_guard():
    # A fork copies the interval a load set and the guard as its thread held it; neither
    # thread is in the child, so the child must not keep them.
    before = sys.getswitchinterval()
    reading, writing = os.pipe()
    with RUNNER._prompt_switches(), RUNNER._guard:
        child = os.fork()
        if child == 0:  # the worker
            free = RUNNER._guard.acquire(timeout=1)
            os.write(writing, f"{sys.getswitchinterval()} {free}".encode())
            os._exit(0)
    os.waitpid(child, 0)
    interval, free = os.read(reading, 100).decode().split()
    os.close(reading)
    os.close(writing)
    assert float(interval) == pytest.approx(before) and free == "True"


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


# --- the cache never fails a run (docs/design.md, "The cache never fails a run") -----------

#: A process that warms the compiled core as a deck of 100 lines does (the four searches, for
#: boards of one word), then finds the fewest moves of a card: what the warm-up said, the
#: plan's length and the states it reached, and whether the process has the compiled core at
#: all. Its background compiles are not started: the test reads the requests in the queue.
WARMED_SEARCH = """
import json, sys
from rhasp.search import cache
cache._serve_in_background = lambda version: None
from rhasp import search
from rhasp.limits import Budget
from rhasp.search.runner import RUNNER
from tests.boards import card
loaded = search.prefer_compiled()
puzzle = card(int(sys.argv[1]))
plan, states = search.fewest_moves(puzzle.board, puzzle.start, Budget())
print(json.dumps([loaded, len(plan), states, RUNNER.compiled() is not None]))
"""


def warmed_search(number: int, command: list[str] | None = None) -> tuple[list, list[str]]:
    """:data:`WARMED_SEARCH` on card ``number`` in a process of its own (numba reads the cache
    as it starts; this one's compiled core is loaded already): its answer and the lines it
    wrote on standard error, checked to hold no traceback."""
    done = subprocess.run(
        [*(command or []), sys.executable, "-c", WARMED_SEARCH, str(number)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "RHASP_JIT": "auto"},
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Exception" not in done.stderr, done.stderr
    return json.loads(done.stdout), done.stderr.splitlines()


def reference_answer(number: int) -> tuple[int, int]:
    """Card ``number``'s fewest moves, from its back, and the states BFS reaches, from the
    readable reference search: what the core answers compiled or not."""
    puzzle = card(number)
    _, states = reference.fewest_moves(puzzle.board, puzzle.start)
    return CARD_MOVES[number - 1], states


def test_a_cache_folder_that_cannot_be_made_leaves_the_searches_uncompiled(
    tmp_path, monkeypatch, capfd
):
    # RHASP_CACHE_DIR naming a file: a deck's warm-up and a search past the switch ask for
    # the folder, and "Not a directory" must be said once, never stop them.
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("RHASP_CACHE_DIR", str(tmp_path / "a-file"))
    monkeypatch.setenv("RHASP_JIT", "auto")
    monkeypatch.setattr(cache, "_folder", None)
    monkeypatch.setattr(cache, "_told", False)
    fresh = runner.Runner(switch_states=0)  # asks for the compiled code at its first look
    puzzle = card(13)
    plan = geometry.Geometry.of(puzzle.board)
    bfs = {"stop_at_goal": True, "with_links": True}
    key = plan.key(puzzle.start)
    assert not fresh.warm_up(core.breadth_first, plan.tables, key, UNLIMITED, **bfs)
    budget = Budget(progress=Silent())  # watched, so that it looks for the compiled code
    goal, states, _ = fresh.run(plan, core.breadth_first, key, budget=budget, **bfs)
    assert goal >= 0 and states == reference_answer(13)[1]
    said = capfd.readouterr().err.splitlines()
    assert len(said) == 1 and str(tmp_path / "a-file") in said[0], said
    assert "Not a directory" in said[0]


@pytest.mark.parametrize("damage", ["empty index", "code cut short", "another function's code"])
def test_damaged_compiled_code_is_set_aside_and_compiled_again(compiled_cache, damage):
    # numba writes without fsync (a crash leaves an empty index), a copy may be cut short, a
    # file may be another function's: each would raise on loading (EOFError,
    # UnpicklingError, "expected 4 arguments") on every run, or, where the other function
    # takes the same arguments (A*'s best_first for breadth_first), run the wrong search.
    files = numba_files(compiled_cache, "breadth_first")  # one index, code for each shape
    index = next(p for p in files if p.suffix == ".nbi")
    other = next(p for p in numba_files(compiled_cache, "best_first") if p.suffix == ".nbc")
    for code in (p for p in files if p.suffix == ".nbc"):  # the index says which is whose
        if damage == "code cut short":
            code.write_bytes(code.read_bytes()[:1000])
        elif damage == "another function's code":
            shutil.copy(other, code)
    if damage == "empty index":
        index.write_bytes(b"")
    (loaded, moves, states, compiled), said = warmed_search(1)
    assert (moves, states) == reference_answer(1)  # BFS's own count: not A*'s
    assert not loaded  # breadth_first's code is not, the others' are
    assert compiled  # the compiled core is in use: only the damaged code is not
    assert len(said) == 1 and "breadth_first" in said[0] and "set aside" in said[0], said
    assert numba_files(compiled_cache, "breadth_first") == []
    assert sorted(p.name for p in (compiled_cache / "damaged").iterdir()) == [p.name for p in files]
    assert not (compiled_cache / "ready" / f"breadth_first.{ONE_WORD}").exists()
    assert (compiled_cache / "queue" / f"breadth_first.{ONE_WORD}").exists()  # asked again
    assert numba_files(compiled_cache, "best_first")  # the others untouched
    assert (compiled_cache / "ready" / f"best_first.{ONE_WORD}").exists()


def test_a_read_only_cache_is_not_used_and_nothing_is_cached_beside_the_package(
    compiled_cache,
):
    # numba, refused the folder, cached beside the package instead (rhasp/search/__pycache__,
    # where no key keeps stale code out), compiling in the search's process meanwhile.
    pycache = Path(runner.__file__).parent / "__pycache__"
    before = sorted(pycache.glob("*.nb[ci]"))
    cached = sorted(p for p in compiled_cache.rglob("*"))
    for path in [compiled_cache, *cached]:
        path.chmod(path.stat().st_mode & ~0o222)
    try:
        (loaded, moves, states, compiled), said = warmed_search(1, read_only([]))
    finally:
        for path in [compiled_cache, *cached]:
            path.chmod(path.stat().st_mode | 0o200)
    assert (moves, states) == reference_answer(1)
    assert not loaded and not compiled
    assert len(said) == 1 and str(compiled_cache) in said[0], said
    assert "Permission denied" in said[0]
    assert sorted(pycache.glob("*.nb[ci]")) == before
    assert sorted(p for p in compiled_cache.rglob("*")) == cached


def test_code_a_full_disk_cannot_take_is_used_from_memory(tmp_path, monkeypatch, capfd):
    # numba keeps the code it compiled before it saves it (numba/core/dispatcher.py: the
    # overload is added, then saved), so a save refused for want of room leaves the code in
    # memory: the compiled twin here answers its first call and then fails as numba's save
    # does; the process that compiles it (RHASP_JIT=always) uses it, marks nothing ready,
    # and says so once (the OSError must not reach the command line).
    jit = RUNNER.compiled()
    if jit is None:
        pytest.skip("numba is not installed")
    monkeypatch.setenv("RHASP_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("RHASP_JIT", "always")
    monkeypatch.setattr(cache, "_folder", None)
    monkeypatch.setattr(cache, "_told", False)
    saves = []

    def compiled_then_not_saved(*arguments, **flags):
        answer = jit.breadth_first(*arguments, **flags)
        if not saves:
            saves.append("refused")
            raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "code.nbc"))
        return answer

    full = types.SimpleNamespace(**{**vars(jit), "breadth_first": compiled_then_not_saved})
    fresh = runner.Runner()
    monkeypatch.setattr(fresh, "compiled", lambda: full)
    puzzle = card(13)
    plan = geometry.Geometry.of(puzzle.board)
    bfs = {"stop_at_goal": True, "with_links": True}
    goal, states, _ = fresh.run(
        plan, core.breadth_first, plan.key(puzzle.start), budget=Budget(), **bfs
    )
    assert goal >= 0 and states == reference_answer(13)[1]
    assert saves == ["refused"] and fresh.is_loaded(core.breadth_first, plan.tables)
    assert not cache.ready("breadth_first", runner.shape(plan.tables))
    said = capfd.readouterr().err.splitlines()
    assert len(said) == 1 and "No space left on device" in said[0], said
