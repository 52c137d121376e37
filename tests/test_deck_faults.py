"""`rhasp deck` under faults, with real signals sent to a real process: killed at any moment and
resumed, it ends with exactly the records of an uninterrupted run; SIGTERM flushes and exits
143; two runs on one results file cannot interleave."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.boards import ROOT, database_deck_file
from tests.conftest import once_a_run
from tests.processes import started

LINES = 200  # a run of about two seconds on two workers, with the cluster counted


@pytest.fixture(scope="module")
def deck(tmp_path_factory) -> Path:
    return database_deck_file(tmp_path_factory.mktemp("deck") / "deck.txt", LINES)


@pytest.fixture(scope="module")
def uninterrupted(deck, tmp_path_factory) -> dict[int, tuple]:
    def run_whole() -> dict[int, tuple]:
        out = tmp_path_factory.mktemp("whole") / "out.jsonl"
        run = subprocess.run(command(deck, out), capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        return records(out)

    return once_a_run(tmp_path_factory, "deck_faults_uninterrupted", run_whole)


def command(deck: Path, out: Path, *more: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "rhasp",
        "deck",
        str(deck),
        "--out",
        str(out),
        "--cluster",
        "--jobs",
        "2",
        *more,
    ]


def records(out: Path) -> dict[int, tuple]:
    """Every line of ``out`` as a whole record, keyed by deck line; fails on a torn line or a
    duplicate. The times a puzzle took (``seconds``, each engine's) are left out: they differ
    from run to run."""
    found: dict[int, tuple] = {}
    for text in out.read_text().splitlines():
        record = json.loads(text)
        assert record["line"] not in found, f"line {record['line']} twice"
        found[record["line"]] = tuple(
            sorted((k, v) for k, v in record.items() if not k.endswith("seconds"))
        )
    return found


@contextlib.contextmanager
def started_and_waited(deck: Path, out: Path, records_first: int) -> Iterator[subprocess.Popen]:
    """A deck run, once ``out`` holds at least ``records_first`` lines; killed on leaving
    where it still runs (:func:`tests.processes.started`)."""
    with started(
        command(deck, out), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= records_first:
                yield process
                return
            time.sleep(0.01)
        pytest.fail(f"the run ended or stalled before {records_first} records")


@pytest.mark.parametrize(
    "kill_after", [0, 1, *(pytest.param(n, marks=pytest.mark.slow) for n in (80, 160))]
)
def test_a_run_killed_at_any_moment_resumes_to_exactly_the_uninterrupted_records(
    deck, uninterrupted, tmp_path, kill_after
):
    out = tmp_path / "out.jsonl"
    with started_and_waited(deck, out, kill_after) as process:
        process.send_signal(signal.SIGKILL)
        process.communicate()
        assert process.returncode == -signal.SIGKILL
    resumed = subprocess.run(command(deck, out, "--resume"), capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert records(out) == uninterrupted


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_resuming_cuts_a_torn_last_line(tmp_path, suffix):
    small = tmp_path / "small.txt"
    small.write_text("..A.XXA......BB.\n" * 5)  # the 4x4 example, 3 moves, five times
    out = tmp_path / f"out{suffix}"
    first = [sys.executable, "-m", "rhasp", "deck", str(small), "--out", str(out), "--jobs", "1"]
    assert subprocess.run(first, capture_output=True).returncode == 0
    whole = out.read_bytes().splitlines(keepends=True)
    kept = 1 + 2 if suffix == ".csv" else 2  # the header, then two records
    out.write_bytes(b"".join(whole[:kept]) + whole[kept][:17])  # a record cut short
    resumed = subprocess.run([*first, "--resume"], capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == len(whole) and out.read_text().endswith("\n")
    if suffix == ".jsonl":
        assert sorted(json.loads(line)["line"] for line in lines) == [1, 2, 3, 4, 5]
    else:
        assert lines[0] == whole[0].decode().rstrip("\r\n") and sorted(
            line[0] for line in lines[1:]
        ) == list("12345")


#: How many records a run has written when it is sent a signal.
SIGNALLED_AFTER = 80


@pytest.mark.parametrize(
    ("sent", "code", "said"),
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")],
)
def test_sigterm_and_ctrl_c_flush_the_records_and_exit_cleanly(
    deck, uninterrupted, tmp_path, sent, code, said
):
    out = tmp_path / "out.jsonl"
    with started_and_waited(deck, out, SIGNALLED_AFTER) as process:
        process.send_signal(sent)
        _, stderr = process.communicate(timeout=60)
        assert process.returncode == code
    assert stderr.strip().splitlines()[-1] == f"rhasp: {said}"
    assert "Traceback" not in stderr
    partial = records(out)  # whole records only
    assert SIGNALLED_AFTER <= len(partial) < LINES
    kept = f"{len(partial):,} of {len(uninterrupted):,} puzzles kept"
    said_kept = f"rhasp: {kept} in {out}; the same command with --resume goes on"
    assert stderr.strip().splitlines()[-2] == said_kept
    assert all(uninterrupted[line] == record for line, record in partial.items())
    resumed = subprocess.run(command(deck, out, "--resume"), capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert records(out) == uninterrupted


def test_a_second_run_on_the_same_results_file_refuses(deck, uninterrupted, tmp_path):
    out = tmp_path / "out.jsonl"
    with started_and_waited(deck, out, 1) as first:
        # Held still meanwhile (its lock with it), so that it cannot end first on a slow machine.
        first.send_signal(signal.SIGSTOP)
        try:
            second = subprocess.run(command(deck, out), capture_output=True, text=True)
        finally:
            first.send_signal(signal.SIGCONT)
        assert second.returncode == 2
        assert second.stderr.count("\n") == 1
        assert "another rhasp deck run is writing this file" in second.stderr
        first.communicate(timeout=120)
        assert first.returncode == 0
    assert records(out) == uninterrupted  # the refused run neither truncated nor wrote


def test_a_full_disk_names_the_results_file(tmp_path, monkeypatch):
    from rhasp.deck import ResultFile
    from tests.command import rhasp
    from tests.test_enumeration import FullDisk

    out, opened = tmp_path / "results.jsonl", ResultFile.__init__

    def on_a_full_disk(self, *args, **kwargs):
        opened(self, *args, **kwargs)
        self.handle = FullDisk(self.handle)

    monkeypatch.setattr(ResultFile, "__init__", on_a_full_disk)
    result = rhasp(
        "deck", str(ROOT / "puzzles" / "original40.txt"), "--jobs", "1", "--out", str(out)
    )
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == f"rhasp: {out}: No space left on device"


def test_a_lost_dask_scheduler_is_one_line_exit_5_and_resume_finishes(
    deck, uninterrupted, tmp_path, dask_cluster_to_lose
):
    # Issue 42 item 8: the scheduler dying mid-run ended in Dask's FutureCancelledError
    # traceback and exit code 1 ("no solution"), saying nothing of the records kept.
    address, lose = dask_cluster_to_lose
    out = tmp_path / "out.jsonl"
    with started(
        command(deck, out, "--scheduler", address), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= 10:
                break
            time.sleep(0.01)
        lose()
        _, said = process.communicate(timeout=60)
        stderr = said.decode()
        partial = records(out)
        assert 10 <= len(partial) < LINES, stderr
        assert process.returncode == 5, stderr
    # One line says it; before it, only the plain progress lines a run that is not on a
    # terminal prints every few seconds (a loaded machine reaches the first).
    *progress, said_last = stderr.splitlines()
    assert "Traceback" not in stderr and stderr.endswith("\n")
    assert all(re.match(r"[\d,]+/[\d,]+ puzzles · ", line) for line in progress), stderr
    assert said_last.startswith(f"rhasp: {address}: ")
    assert f"{len(partial):,} of {len(uninterrupted):,} puzzles kept in {out}" in stderr
    assert "--resume" in stderr
    resumed = subprocess.run(command(deck, out, "--resume"), capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert records(out) == uninterrupted
