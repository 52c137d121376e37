"""The compiled core's cache and its preparation away from the searches: no search waits on a
compile, from the first run with an empty cache, and no edit can leave stale code in use."""

from __future__ import annotations

import ast
import fcntl
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import rhasp
from rhasp.search import cache
from tests.conftest import processes_naming
from tests.processes import started
from tests.volume import examples

PACKAGE = Path(rhasp.__file__).parent
LEFT12 = "puzzles/large/left12.txt"  # 12x12: a shape (2 key words, 3 cell words) of its own


def test_an_edit_of_any_file_the_compiled_code_is_built_from_is_a_new_cache(tmp_path):
    # numba checks a function against its own file only: the key must see every file.
    sources = tmp_path / "search"
    shutil.copytree(PACKAGE / "search", sources, ignore=shutil.ignore_patterns("__pycache__"))
    before = cache.key(sources)
    for name in cache.SOURCES:
        source = sources / f"{name}.py"
        text, stamp = source.read_text(), source.stat()
        source.write_text(text.replace('"""', '""" ', 1))  # a docstring's space
        assert cache.key(sources) != before, name
        source.write_text(text)
        os.utime(source, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert cache.key(sources) == before


def test_another_copy_of_the_same_source_has_a_cache_of_its_own(tmp_path):
    # numba keeps code under the source file's folder and drops it when the file's time
    # changes: a copy elsewhere (another virtual environment) or the same bytes rewritten
    # (a reinstall) that shared the folder found markers for code numba had not got for it,
    # and compiled in the loading process.
    sources = tmp_path / "search"
    shutil.copytree(PACKAGE / "search", sources, ignore=shutil.ignore_patterns("__pycache__"))
    for name in cache.SOURCES:
        assert (sources / f"{name}.py").read_bytes() == (
            PACKAGE / "search" / f"{name}.py"
        ).read_bytes()
    assert cache.key(sources) != cache.key()
    before = cache.key(sources)
    source = sources / "core.py"
    stamp = source.stat()
    os.utime(source, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000_000))
    assert cache.key(sources) != before


def test_the_key_covers_every_module_of_rhasp_the_compiled_code_imports():
    # The compiled functions come from these modules, which may import only each other.
    for name in cache.SOURCES:
        if name == "geometry":  # jit reads its word sizes only: constants, not code
            continue
        tree = ast.parse((PACKAGE / "search" / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rhasp"):
                modules = [f"{node.module}.{alias.name}" for alias in node.names]
                if node.module != "rhasp.search":
                    modules = [node.module]
                for module in modules:
                    assert module.rsplit(".", 1)[-1] in cache.SOURCES, (name, module)


def test_the_cache_folder_moves_with_rhasp_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("RHASP_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "_folder", None)
    folder = cache.folder()
    assert folder.parent == tmp_path and folder.name == cache.key()
    assert not cache.ready("breadth_first", "1x1")
    cache.mark_ready("breadth_first", "1x1")
    assert cache.ready("breadth_first", "1x1")


def test_a_request_is_lost_only_when_nothing_is_left_of_it(tmp_path, monkeypatch):
    # Lost: its code not ready, no request waiting, no background process serving the folder.
    monkeypatch.setenv("RHASP_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "_folder", None)
    where = ("breadth_first", "1x1")
    assert cache.lost(*where)
    queue = cache.folder() / "queue"
    queue.mkdir()
    (queue / "breadth_first.2x2").write_bytes(b"")  # another shape's request
    assert cache.lost(*where)
    (queue / "breadth_first.1x1").write_bytes(b"")
    assert not cache.lost(*where)
    (queue / "breadth_first.1x1").unlink()
    with open(cache.folder() / "serving.lock", "a+") as lock:  # as a background process holds it
        fcntl.flock(lock, fcntl.LOCK_EX)
        serving = subprocess.run(
            [sys.executable, "-c", f"from rhasp.search import cache; print(cache.lost{where})"],
            env={**os.environ, "RHASP_CACHE_DIR": str(tmp_path)},
            capture_output=True,
            text=True,
        )
    assert serving.stdout.strip() == "False"
    assert cache.lost(*where)
    cache.mark_ready(*where)
    assert not cache.lost(*where)


def test_only_the_newest_folders_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("RHASP_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "_folder", None)
    for age, name in enumerate(["a", "b", "c", "d"]):
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (1000 + age, 1000 + age))
    cache.folder()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["c", "d", cache.key()])


def _elapsed(command: list[str], **run: object) -> tuple[float, subprocess.CompletedProcess]:
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, **run)
    return time.perf_counter() - began, done


SWITCHED_SOLVE = """
import json, time, rhasp, rhasp.api
from rhasp.limits import Budget
rhasp.api.warm_up()  # a process that searches a lot: the compiled core preferred from the start
puzzle = rhasp.read({board!r})
began = time.perf_counter()
solution = rhasp.solve(puzzle, engine="bfs", budget=Budget(seconds=0.2), anytime=False)
print(json.dumps([time.perf_counter() - began, solution.moves]))
"""


def test_a_time_limit_holds_while_the_core_is_not_compiled_yet(empty_compile_cache):
    # The API: on a shape never compiled, in a process that prefers the compiled core.
    code = SWITCHED_SOLVE.format(board=LEFT12)
    _, done = _elapsed([sys.executable, "-c", code])
    assert done.returncode == 0, done.stderr
    seconds, moves = json.loads(done.stdout)
    assert moves is None and seconds < 1.2


def test_generate_s_seconds_hold_on_the_command_line_with_an_empty_cache(empty_compile_cache):
    # Generation prefers the compiled core from the start; with nothing cached it runs
    # uncompiled while the core compiles elsewhere, and stops at its seconds.
    command = [sys.executable, "-m", "rhasp", "generate", "--size", "10", "--seconds", "3"]
    seconds, done = _elapsed([*command, "--count", "1", "--min-moves", "8", "--seed", "1"])
    assert done.returncode in (0, 4), done.stderr
    startup = 1.5  # Python and rhasp's imports, generously
    assert seconds < 3 + 1 + startup


def test_a_new_server_answers_within_its_time_limit_with_an_empty_cache(empty_compile_cache):
    process = subprocess.Popen(
        [sys.executable, "-m", "rhasp", "serve", "--port", "0", "--time-limit", "1"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        address = re.search(r"(http://\S+/)", process.stderr.readline())[1]
        board = Path(LEFT12).read_text()
        request = urllib.request.Request(
            address + "api/solve",
            data=json.dumps({"board": board, "engine": "bfs"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        began = time.perf_counter()
        try:  # the anytime plan within the quarter of the seconds kept for it, or a refusal
            with urllib.request.urlopen(request, timeout=60) as answered:
                record = json.loads(answered.read())  # proven where the plan meets the bound
                assert record["optimal"] or record["limit"].startswith("time limit of 1 s")
        except urllib.error.HTTPError as refused:
            assert refused.code == 422
            assert "time limit of 1 s" in json.loads(refused.read())["error"]
        assert time.perf_counter() - began < 2
    finally:
        process.terminate()
        process.wait(timeout=10)


def _ends_as_stopped(process: subprocess.Popen, out: Path) -> None:
    """SIGTERM's exit code and the run's own last lines: what it kept, or that it had not
    begun; never a traceback or an exception swallowed on the way. Before rhasp's handler is
    set (Python's start), SIGTERM's own default ends it, as silently and with nothing begun;
    while the command line reads its arguments, it says it was terminated, nothing written."""
    _, stderr = process.communicate(timeout=60)
    if process.returncode == -signal.SIGTERM:  # while Python started: the shell's 143 too
        assert stderr == "" and not out.exists()
        return
    assert process.returncode == 143, stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr
    lines = stderr.splitlines()
    assert lines[-1] == "rhasp: terminated"
    if lines == ["rhasp: terminated"]:  # while the command line read its arguments
        assert not out.exists()
        return
    kept = lines[-2].endswith("the same command with --resume goes on")
    assert kept or lines[-2] == f"rhasp: {out}: stopped before the run began, nothing written"


@pytest.mark.slow
def test_sigterm_at_any_moment_of_a_first_run_ends_it(empty_compile_cache, tmp_path):
    # A SIGTERM while the compiled core loads must not be swallowed in an LLVM callback (the
    # run would go on to exit 0). Runs on a fresh cache (they ask for the
    # core in the background), then as many on a cache that holds it (they load it as they
    # start: the suite's own cache, where the core is compiled once).
    rng = random.Random(40)
    command = [sys.executable, "-m", "rhasp", "enumerate", "--size", "5", "--jobs", "2"]
    cached = {k: v for k, v in os.environ.items() if k != "RHASP_CACHE_DIR"}
    tries = examples(20)  # half on a fresh cache, half on one that holds the core
    for attempt in range(tries):
        env = None if attempt < tries // 2 else cached
        if (
            attempt == tries // 2
        ):  # the core for the enumeration, compiled (once) where it is cached
            small = [*command[:4], "--size", "4", "--out", str(tmp_path / "db4.txt")]
            subprocess.run(small, env={**cached, "RHASP_JIT": "always"}, check=True)
        out = tmp_path / f"db{attempt}.txt"
        with started(
            [*command, "--out", str(out)], stderr=subprocess.PIPE, text=True, env=env
        ) as process:
            time.sleep(rng.uniform(0.3, 2.5))
            process.send_signal(signal.SIGTERM)
            _ends_as_stopped(process, out)


def test_many_requests_at_once_start_one_background_process(empty_compile_cache):
    # A server's warm-up asks for a dozen functions and shapes in a moment: the first request
    # starts the process, handing it the lock it serves under, and the rest find it held.
    code = "import rhasp.api; rhasp.api.warm_up(range(6, 11))"
    subprocess.run([sys.executable, "-c", code], check=True)
    queued = list((next(empty_compile_cache.iterdir()) / "queue").iterdir())
    assert len(queued) >= 8  # still waiting: one process compiles them in turn
    assert len(processes_naming(str(empty_compile_cache))) == 1
    assert cache.serving(next(empty_compile_cache.iterdir()))


# --- the cache never fails a command (docs/design.md, "The cache never fails a run") -------


def deck_of(tmp_path: Path, number: int, lines: int = 100) -> Path:
    """A deck of ``lines`` copies of card ``number``'s line: with 100 or more, ``rhasp deck``
    warms the compiled core before it starts."""
    line = (PACKAGE.parent / "puzzles" / "original40.txt").read_text().splitlines()[number - 1]
    deck = tmp_path / f"card{number}x{lines}.txt"
    deck.write_text(f"{line}\n" * lines)
    return deck


def rhasp_run(*arguments: str) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, "-m", "rhasp", *arguments], capture_output=True, text=True, timeout=300
    )
    assert "Traceback" not in done.stderr and "Exception" not in done.stderr, done.stderr
    return done


def said_by_rhasp(stderr: str) -> list[str]:
    """The lines rhasp said on standard error (a deck's summary table aside)."""
    return [line for line in stderr.splitlines() if line.startswith("rhasp: ")]


@pytest.mark.parametrize("command", ["solve", "deck"])
def test_a_cache_dir_naming_a_file_never_stops_a_command(tmp_path, monkeypatch, command):
    # "…/ready: Not a directory" must not stop rhasp solve on a 12×12 board past the switch,
    # nor a deck of 100 lines or more, which switches at once.
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("RHASP_CACHE_DIR", str(tmp_path / "a-file"))
    if command == "solve":  # BFS meets the limit before its answer at depth 5, as uncached
        # (the anytime plan then meets the depth it proved: exit 0, the stop said)
        done = rhasp_run("solve", LEFT12, "--engine", "bfs", "--max-states", "300000")
        assert done.returncode == 0 and "(bfs stopped)" in done.stdout
    else:
        done = rhasp_run("deck", str(deck_of(tmp_path, 1)), "--jobs", "1")
        assert done.returncode == 0
        records = [json.loads(line) for line in done.stdout.splitlines()]
        assert [record["moves"] for record in records] == [8] * 100  # card 1's back
    said = said_by_rhasp(done.stderr)
    assert len(said) == 1 and str(tmp_path / "a-file") in said[0], said


def test_a_deck_on_a_damaged_cache_answers_and_says_so_once(compiled_cache, tmp_path):
    # An empty index (a crash after numba's unsynced write) must not stop the deck with
    # EOFError's traceback, on this run or the next.
    index = next(compiled_cache.glob("*/core.breadth_first-*.nbi"))
    index.write_bytes(b"")
    done = rhasp_run("deck", str(deck_of(tmp_path, 1)), "--jobs", "1")
    assert done.returncode == 0
    assert [json.loads(line)["moves"] for line in done.stdout.splitlines()] == [8] * 100
    said = said_by_rhasp(done.stderr)
    assert len(said) == 1 and "breadth_first" in said[0] and "set aside" in said[0], said
    assert (compiled_cache / "damaged" / index.name).exists()


@pytest.mark.parametrize(
    ("stop", "code", "compile_goes_on"),
    [(signal.SIGTERM, 143, False), (signal.SIGINT, 130, True)],
    ids=["SIGTERM", "Ctrl-C"],
)
def test_sigterm_ends_the_background_compile_and_ctrl_c_leaves_it_to_finish(
    empty_compile_cache, tmp_path, stop, code, compile_goes_on
):
    # A scheduler that kills a job expects nothing of it to run on: the compile the deck
    # started went on for about 15 s at full CPU. Ctrl-C leaves it to serve the next run.
    with started(
        [sys.executable, "-m", "rhasp", "deck", str(deck_of(tmp_path, 40)), "--jobs", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        ends = time.monotonic() + 60
        while not processes_naming(str(empty_compile_cache)) and time.monotonic() < ends:
            time.sleep(0.05)
        assert processes_naming(str(empty_compile_cache)), "no background compile started"
        process.send_signal(stop)
        _, stderr = process.communicate(timeout=60)
        # A shell reports 130 for a process that exits 130 and for one that SIGINT ended (-2 here),
        # which Python does, after "rhasp: interrupted", in about one run of fifteen (a rare
        # interrupt at exit, not this test's matter).
        assert process.returncode in (
            (code, -signal.SIGINT) if stop == signal.SIGINT else (code,)
        ), stderr
        assert "Traceback" not in stderr, stderr
        # The background process's own end: it runs niced, and on a machine whose cores the
        # suite keeps busy it may take seconds to be scheduled and end (once more than the
        # one second waited before, in a fresh-clone run of CI).
        ends = time.monotonic() + (1 if compile_goes_on else 30)
        while processes_naming(str(empty_compile_cache)) and time.monotonic() < ends:
            time.sleep(0.1)
    assert bool(processes_naming(str(empty_compile_cache))) == compile_goes_on
