"""`rhasp enumerate`: the puzzle database, against the published figures and a brute-force
reference, the same bytes however it runs, resumable, filtered in the enumeration itself."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

import rhasp
from rhasp import enumeration
from rhasp.cli import app
from rhasp.journal import JournaledOutput
from rhasp.search import core, shards
from rhasp.search.runner import RUNNER
from tests import reference
from tests.command import runner
from tests.processes import started

BUDGET = 1_000_000


def enumerate_cli(*args: str):
    return runner.invoke(app, ["enumerate", *args])


def lines_of(result) -> list[str]:
    return result.stdout.splitlines()


def vehicles(line: str) -> int:
    return len(set(line.split()[1]) - {"o", "x"})


@pytest.fixture(scope="module")
def five(shards_of_5x5):
    """The complete 5×5 database, and the run's tally, from two worker processes."""
    tally = enumeration.Tally()
    lines = []
    for shard in shards_of_5x5:
        tally.add(shard)
        lines += shard.lines
    return lines, tally


def test_the_5x5_database_has_the_published_figures(five):
    # The published figures: 62,106 solvable clusters, 1,730 puzzles, the hardest 20 moves.
    lines, tally = five
    assert tally.solvable == 62_106
    assert len(lines) == tally.puzzles == 1_730
    assert max(tally.by_moves) == 20
    assert len(set(lines)) == len(lines)


@pytest.mark.parametrize(
    ("size", "walls", "pieces"),
    [
        (4, (0, 0), (1, 16)),
        (4, (0, 1), (1, 16)),
        # 5×5 with no walls (30-40 s, most of it the reference's): walls are the 4×4 run's.
        pytest.param(5, (0, 0), (1, 4), marks=pytest.mark.slow),
    ],
)
def test_the_database_is_the_brute_force_one(size, walls, pieces):
    expected, clusters, solvable = reference.database(size, walls=walls, pieces=pieces)
    for from_goals in (False, True):  # from every packed layout, or from goal layouts only
        options = enumeration.Options(size, 2, *walls, *pieces, from_goals=from_goals)
        tally = enumeration.Tally()
        found = []
        shards = range(enumeration.shard_count(enumeration.prepared(options)))
        for shard in enumeration.shard_results(options, shards, BUDGET, 1, None):
            tally.add(shard)
            found += shard.lines
        assert sorted(found) == expected
        assert tally.solvable == solvable
        assert tally.least == (solvable if from_goals else clusters)


def test_the_core_finds_the_same_uncompiled_and_compiled():
    jit = RUNNER.compiled()
    if jit is None:
        pytest.skip("numba is not installed")
    options = enumeration.Options(size=4, max_walls=1)
    lines = enumeration.line_tables(options)
    limits = shards.ShardLimits(1, 16, 0, 1, 1, BUDGET)
    for number in range(0, enumeration.shard_count(lines), 48):
        prefix = enumeration.shard_prefix(lines, number)
        plain = shards.enumerate_shard(lines, prefix, limits, core.new_buffer(3))
        fast = jit.enumerate_shard(jit.tables(lines), jit.keys(prefix), limits, jit.watch())
        assert (plain[0], list(plain[1]), list(plain[2])) == (fast[0], list(fast[1]), list(fast[2]))


def test_the_api_streams_the_lines_of_the_command():
    result = enumerate_cli("--size", "4", "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    assert list(rhasp.enumerate(size=4)) == lines_of(result)


def test_the_same_bytes_on_a_dask_cluster(tmp_path, dask_cluster):
    local, remote = tmp_path / "local.txt", tmp_path / "remote.txt"
    assert enumerate_cli("--size", "5", "--pieces", "1..4", "--out", str(local)).exit_code == 0
    result = enumerate_cli(
        "--size", "5", "--pieces", "1..4", "--scheduler", dask_cluster, "--out", str(remote)
    )
    assert result.exit_code == 0, result.stderr
    assert remote.read_bytes() == local.read_bytes()


def test_filters_and_one_process_give_the_lines_of_the_full_run_on_two(five):
    # five: the whole run by the API on two worker processes; here a slice on one.
    result = enumerate_cli("--size", "5", "--pieces", "1..5", "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    fewer = lines_of(result)
    assert sorted(fewer) == sorted(line for line in five[0] if vehicles(line) <= 5)
    assert summary(result.stderr, "puzzles") == f"{len(fewer):,}"
    both = lines_of(enumerate_cli("--size", "4", "--walls", "0..1"))
    walled = lines_of(enumerate_cli("--size", "4", "--walls", "1"))
    assert sorted(walled) == sorted(line for line in both if "x" in line.split()[1])


def test_a_killed_run_resumes_to_the_uninterrupted_output(tmp_path):
    whole, out = tmp_path / "whole.txt", tmp_path / "db.txt"
    journal = tmp_path / "db.txt.shards"
    slice_ = ("--size", "6", "--pieces", "1..4", "--jobs", "2")  # thousands of small shards
    uninterrupted = enumerate_cli(*slice_, "--out", str(whole))
    assert uninterrupted.exit_code == 0
    command = [sys.executable, "-m", "rhasp", "enumerate", *slice_, "--out", str(out)]
    with started(command, stderr=subprocess.DEVNULL) as process:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and _shards_in(journal) < 300:
            time.sleep(0.002)
        process.send_signal(signal.SIGKILL)
        process.wait()
    written = _shards_in(journal)
    assert (
        0
        < written
        < enumeration.shard_count(enumeration.prepared(enumeration.Options(6, max_pieces=4)))
    )
    result = enumerate_cli(*slice_, "--out", str(out), "--resume")
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes() == whole.read_bytes()
    assert f"resuming: {written:,} shards already done" in result.stderr
    # The summary counts the shards done before the kill.
    assert summary(result.stderr, "puzzles") == summary(uninterrupted.stderr, "puzzles")


def test_the_workers_of_a_killed_run_stop_with_it(tmp_path):
    # The first shards of the complete 6x6 run take many seconds each: a worker that outlived
    # its main process would go on computing one nobody reads.
    out = tmp_path / "db.txt"
    command = [sys.executable, "-m", "rhasp", "enumerate", "--size", "6", "--jobs", "2"]
    with started([*command, "--out", str(out)], stderr=subprocess.DEVNULL) as process:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(workers := _children(process.pid)) < 2:
            time.sleep(0.01)
        time.sleep(1)  # into their first shards
        process.send_signal(signal.SIGKILL)
        process.wait()
        deadline = time.monotonic() + 5  # within the group, which leaving the block kills
        while time.monotonic() < deadline and any(map(_running, workers)):
            time.sleep(0.05)
        assert len(workers) == 2 and not any(map(_running, workers))
    assert _shards_in(out.with_name("db.txt.shards")) == 0


def summary(stderr: str, name: str) -> str:
    """A figure of the summary table."""
    (row,) = [line for line in stderr.splitlines() if f"│ {name} " in line]
    return row.split("│")[2].strip()


def _children(pid: int) -> list[int]:
    """The process's children, over its threads; a thread that ends while they are read has none."""
    children = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):
            children += [int(child) for child in (task / "children").read_text().split()]
    return children


def _running(pid: int) -> bool:
    """Whether the process exists and is not a zombie (an orphan waits for init to reap it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def _shards_in(journal) -> int:
    try:
        return max(0, journal.read_bytes().count(b"\n") - 1)
    except FileNotFoundError:
        return 0


def test_a_torn_journal_and_output_resume_whole(tmp_path, five):
    out = tmp_path / "db.txt"
    assert enumerate_cli("--size", "5", "--jobs", "1", "--out", str(out)).exit_code == 0
    journal = out.with_name("db.txt.shards")
    entries = journal.read_text().splitlines(keepends=True)
    kept = json.loads(entries[60])
    journal.write_text("".join(entries[:61]) + entries[61][:10])  # torn mid-line
    with out.open("r+b") as handle:  # more output than the journal vouches for, torn too
        handle.truncate(kept["end"] + 17)
    result = enumerate_cli("--size", "5", "--jobs", "2", "--out", str(out), "--resume")
    assert result.exit_code == 0, result.stderr
    assert out.read_text().splitlines() == five[0]


@pytest.mark.parametrize("row", [1, 4])
def test_the_exit_row_counts_rows_from_1_at_the_top(row):
    # The reference counts rows from 0 at the top: the flag's row 1 is its 0.
    result = enumerate_cli("--size", "4", "--exit-row", str(row), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert sorted(lines) == reference.database(4, exit_row=row - 1)[0]
    boards = [line.split()[1] for line in lines]
    assert boards and all("AA" in board[(row - 1) * 4 : row * 4] for board in boards)


@pytest.mark.parametrize("row", ["0", "5", "-1"])
def test_an_exit_row_off_the_board_is_refused_naming_the_range(row):
    result = enumerate_cli("--size", "4", "--exit-row", row)
    assert result.exit_code == 2
    said = result.stderr.strip()
    assert len(said.splitlines()) == 1 and "Traceback" not in said
    assert "--exit-row" in said and "from 1 (the top) to 4" in said


def test_a_journal_names_the_exit_row_as_the_flag_counts_it(tmp_path):
    out = tmp_path / "db.txt"
    assert enumerate_cli("--size", "4", "--exit-row", "1", "--out", str(out)).exit_code == 0
    result = enumerate_cli("--size", "4", "--exit-row", "2", "--out", str(out), "--resume")
    assert result.exit_code == 2
    assert "begun with --exit-row 1, where this run has --exit-row 2" in result.stderr
    assert "db.txt.shards" in result.stderr and str(out) in result.stderr


def test_resuming_with_other_options_refuses(tmp_path):
    out = tmp_path / "db.txt"
    assert enumerate_cli("--size", "4", "--out", str(out)).exit_code == 0
    before = out.read_bytes()
    result = enumerate_cli("--size", "4", "--walls", "1", "--out", str(out), "--resume")
    assert result.exit_code == 2
    assert "begun with --walls 0..0, where this run has --walls 1..1" in result.stderr
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--walls", "1..0"), "--walls: give a count or a range"),
        (("--walls", "many"), "--walls: give a count or a range"),
        (("--pieces", "0"), "--pieces: give a count or a range"),
        (("--resume",), "--resume: needs --out"),
        (("--histogram", "h.txt"), "this picture can be a"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(args, words):
    result = enumerate_cli("--size", "4", *args)
    assert result.exit_code == 2
    assert words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


@pytest.mark.parametrize("size", ["3", "8"])
def test_a_size_out_of_range_is_a_usage_error(size):
    run = subprocess.run(
        [sys.executable, "-m", "rhasp", "enumerate", "--size", size], capture_output=True, text=True
    )
    assert run.returncode == 2
    assert run.stderr.startswith("rhasp enumerate: Invalid value for '--size'")
    assert run.stderr.count("\n") == 1 and run.stdout == ""


def test_the_output_is_a_deck_that_verifies(tmp_path):
    out = tmp_path / "db.txt"
    assert enumerate_cli("--size", "5", "--pieces", "1..6", "--out", str(out)).exit_code == 0
    result = runner.invoke(app, ["deck", str(out), "--cluster", "--verify", "--jobs", "2"])
    assert result.exit_code == 0, result.stderr
    assert "mismatches" in result.stderr
    lengths = Counter(json.loads(line)["length"] for line in result.stdout.splitlines())
    assert lengths == Counter(int(line.split()[0]) for line in out.read_text().splitlines())


def test_the_histogram_is_drawn(tmp_path):
    picture = tmp_path / "moves.png"
    result = enumerate_cli("--size", "4", "--histogram", str(picture))
    assert result.exit_code == 0, result.stderr
    assert picture.read_bytes().startswith(b"\x89PNG")


def test_a_histogram_that_cannot_be_written_is_refused_before_the_work(tmp_path):
    out = tmp_path / "db.txt"
    result = enumerate_cli("--size", "5", "--out", str(out), "--histogram", "/nonexistent/x.png")
    assert result.exit_code == 2
    assert "there is no folder /nonexistent" in result.stderr
    assert not out.exists()  # refused before the first shard


def test_a_full_disk_names_the_file_it_could_not_write(tmp_path, monkeypatch):
    out = tmp_path / "db.txt"
    opened = JournaledOutput.__init__

    def on_a_full_disk(self, *args, **kwargs):
        opened(self, *args, **kwargs)
        self.output = FullDisk(self.output)

    monkeypatch.setattr(JournaledOutput, "__init__", on_a_full_disk)
    result = enumerate_cli("--size", "4", "--jobs", "1", "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr == f"rhasp: {out}: No space left on device\n"


class FullDisk:
    """A file whose writes fail as on a full disk: with no file name of their own."""

    def __init__(self, handle):
        self.handle = handle

    def write(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def close(self):
        # Closing flushes what is still buffered, which fails too (and its error takes the
        # place of the write's): closed, but with the same nameless error.
        self.handle.close()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name):
        return getattr(self.handle, name)


def test_analyze_and_hardest_choose_the_hardest_state_enumerate_keeps(five):
    # One choice of hardest state everywhere: each database line, read back, is its own
    # cluster's hardest state for rhasp.hardest and the first one rhasp.analyze lists.
    lines, _ = five
    chosen = [line for line in lines if int(line.split()[0]) >= 14] + lines[::97]
    for line in chosen:
        puzzle = rhasp.parse(line)
        found, moves = rhasp.hardest(puzzle)
        assert (moves, found.placement) == (int(line.split()[0]), puzzle.placement), line
        assert rhasp.analyze(puzzle).hardest[0] == puzzle.placement, line


def test_a_7x7_run_stops_at_once_on_ctrl_c_or_sigterm_and_resumes(tmp_path):
    # A 7×7 shard can run for minutes: the signal stops it mid-shard, the journal stays whole.
    out = tmp_path / "db7.txt"
    command = [
        sys.executable,
        "-m",
        "rhasp",
        "enumerate",
        "--size",
        "7",
        "--jobs",
        "1",
        "--out",
        str(out),
    ]
    stops = (
        (signal.SIGINT, 130, "interrupted", []),
        (signal.SIGTERM, 143, "terminated", ["--resume"]),
    )
    before = ""  # the journal as the last run left it
    for signum, code, words, resume in stops:
        with started(command + resume, stderr=subprocess.PIPE, text=True) as process:
            journal = out.with_name("db7.txt.shards")
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not (journal.exists() and journal.stat().st_size):
                time.sleep(0.05)  # until the run has begun (its journal's first line)
            time.sleep(2)  # and is in its first shard
            process.send_signal(signum)
            began = time.monotonic()
            _, stderr = process.communicate(timeout=60)
            if process.returncode == -signum and not stderr:  # in Python's start, before rhasp's
                assert resume and journal.read_text() == before
                continue
            assert process.returncode == code
        assert time.monotonic() - began < 10
        assert stderr.splitlines()[-1] == f"rhasp: {words}"
        header = json.loads(out.with_name("db7.txt.shards").read_text().splitlines()[0])
        assert header["options"]["size"] == 7 and header["shards"] > 0
        kept = _shards_in(journal)
        said = stderr.splitlines()
        # Stopped while the command line read its arguments (one line), or while loading.
        if len(said) == 1 or said[-2].endswith("nothing written"):
            assert resume and journal.read_text() == before
        else:
            assert stderr.splitlines()[-2] == (
                f"rhasp: {kept:,} of {header['shards']:,} shards kept in {out}; "
                "the same command with --resume goes on"
            )
        before = journal.read_text()


@pytest.mark.parametrize(
    "line",
    [
        "51 GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo 4780",
        "51 xCCoLMooJoLMAAJoLNHIDDDNHIoKEExooKGG 9360",
    ],
)
def test_published_lines_are_their_clusters_hardest_by_the_shared_tie_break(line):
    # Lines of the published 6×6 database: the tie-break enumerate shares with hardest picks
    # the published state, the cluster has the published size, every vehicle is needed.
    puzzle = rhasp.parse(line)
    moves, cluster = int(line.split()[0]), int(line.split()[2])
    found, length = rhasp.hardest(puzzle)
    assert (length, found.placement) == (moves, puzzle.placement)
    assert rhasp.analyze(puzzle).cluster_states == cluster
    for vehicle in puzzle.board.vehicles:
        if vehicle.label != "A":
            smaller = puzzle.without({vehicle.label})
            assert rhasp.solve(smaller, engine="bfs").moves < moves


def test_a_lost_dask_scheduler_is_one_line_exit_5_and_resume_finishes(
    tmp_path, dask_cluster_to_lose, five
):
    # Issue 42 item 8: the scheduler dying mid-run ended in Dask's FutureCancelledError
    # traceback and exit code 1 ("no solution"), saying nothing of the shards kept.
    address, lose = dask_cluster_to_lose
    out = tmp_path / "db.txt"
    journal = out.with_name("db.txt.shards")
    command = [sys.executable, "-m", "rhasp", "enumerate", "--size", "5", "--out", str(out)]
    with started([*command, "--scheduler", address], stderr=subprocess.PIPE, text=True) as process:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None and _shards_in(journal) < 10:
            time.sleep(0.01)  # until the run has written ten shards
        lose()
        _, stderr = process.communicate(timeout=60)
        kept, total = _shards_in(journal), json.loads(journal.read_text().splitlines()[0])["shards"]
        assert 10 <= kept < total, stderr
        assert process.returncode == 5, stderr
    assert "Traceback" not in stderr and stderr.count("\n") == 1
    assert stderr.startswith(f"rhasp: {address}: ")
    assert f"{kept:,} of {total:,} shards kept in {out}" in stderr and "--resume" in stderr
    resumed = enumerate_cli("--size", "5", "--jobs", "2", "--out", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert f"shards 1–{kept} verified" in resumed.stderr
    assert out.read_text().splitlines() == five[0]


#: ``rhasp enumerate ARGS`` whose preparation (the shard count) waits until SIGTERM comes: it
#: says so by creating the file named first.
PAUSED_WHILE_PREPARING = """
import sys, time
from pathlib import Path
from rhasp import enumeration
from rhasp.cli import main

PREPARING = Path(sys.argv[1])

def paused(lines):
    PREPARING.touch()
    for _ in range(1200):  # short sleeps: the signal may come to another thread
        time.sleep(0.05)

enumeration.shard_count = paused
sys.argv = ["rhasp", *sys.argv[2:]]
main()
"""


@pytest.mark.parametrize("resumed", [False, True], ids=["a new run", "--resume"])
def test_sigterm_before_the_shard_count_is_known_says_nothing_was_written(tmp_path, resumed):
    # Issue 42 item 8: a run terminated while it still prepared said "0 of 0 shards kept".
    out = tmp_path / "db.txt"
    if resumed:
        assert enumerate_cli("--size", "4", "--out", str(out)).exit_code == 0
    before = (out.read_bytes(), out.with_name("db.txt.shards").read_bytes()) if resumed else None
    preparing = tmp_path / "preparing"
    args = ["enumerate", "--size", "4", "--out", str(out), *(["--resume"] * resumed)]
    with started(
        [sys.executable, "-c", PAUSED_WHILE_PREPARING, str(preparing), *args],
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not preparing.exists():
            time.sleep(0.01)
        assert preparing.exists(), "the run never began to prepare"
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
        assert process.returncode == 143, stderr
    said = stderr.splitlines()
    assert said[-1] == "rhasp: terminated" and len(said) == 2
    assert said[0].startswith(f"rhasp: {out}: ") and "nothing written" in said[0]
    assert "0 of 0" not in stderr
    if resumed:
        assert (out.read_bytes(), out.with_name("db.txt.shards").read_bytes()) == before
    else:
        assert not out.exists()
