"""`rhasp deck`: all cores, streamed records, resume after an interruption, verification."""

from __future__ import annotations

import csv
import importlib
import io
import json
import os
import re
from pathlib import Path

import pytest

from rhasp import api
from rhasp.cli import app
from rhasp.deck import FIELDS, read_results, record_digest
from rhasp.errors import InputError
from rhasp.formats import read_text
from rhasp.static import blocked_exit
from tests.boards import CARD_MOVES, PUZZLES
from tests.command import runner
from tests.reference import database_rows, fewest
from tests.static.test_static import reachable

DECK = PUZZLES / "original40.txt"
# The 4×4 example as a deck line; its cluster counted by hand: A has 3 places, and for each
# either X or B is free to take 3 places while the other is fixed: 9 states.
FOUR = "..A.XXA......BB."


def deck(*args: str):
    return runner.invoke(app, ["deck", *args])


def lengths(path) -> dict[int, int]:
    return {record["line"]: int(record["length"]) for record in read_results(path)}


def test_a_deck_on_two_processes_streams_one_record_per_puzzle(tmp_path):
    out = tmp_path / "results.jsonl"
    result = deck(str(DECK), "--jobs", "2", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert lengths(out) == dict(enumerate(CARD_MOVES, 1))
    assert "puzzles/s" in result.stderr and "solved" in result.stderr


def test_records_go_to_stdout_without_out(tmp_path):
    small = tmp_path / "small.txt"
    small.write_text(f"{FOUR}\n{FOUR}\n")
    result = deck(str(small), "--jobs", "1")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["line"], r["length"], r["plan"]) for r in records] == [
        (1, 3, "BL1 AD2 XR2"),
        (2, 3, "BL1 AD2 XR2"),
    ]


def test_an_interrupted_run_resumes_to_the_same_result(tmp_path):
    full = tmp_path / "full.jsonl"
    deck(str(DECK), "--jobs", "1", "--out", str(full))
    # An interruption: ten records written, the eleventh torn halfway through.
    partial = tmp_path / "partial.jsonl"
    lines = full.read_text().splitlines(keepends=True)
    partial.write_text("".join(lines[:10]) + lines[10][:25])
    # What says which run the records are of: the same deck and options as this run's.
    (tmp_path / "partial.jsonl.run").write_bytes((tmp_path / "full.jsonl.run").read_bytes())
    result = deck(str(DECK), "--jobs", "2", "--out", str(partial), "--resume")
    assert result.exit_code == 0, result.stderr
    assert "resuming: 10 puzzles already done, 30 to go" in result.stderr
    assert lengths(partial) == lengths(full)
    assert len(list(read_results(partial))) == 40


def test_csv_output_resumes_too(tmp_path):
    out = tmp_path / "results.csv"
    deck(str(DECK), "--out", str(out), "--jobs", "1")
    cut_to(out, 5, header=1)
    result = deck(str(DECK), "--out", str(out), "--resume", "--jobs", "1")
    assert result.exit_code == 0
    assert lengths(out) == dict(enumerate(CARD_MOVES, 1))


def test_verify_compares_with_the_deck_numbers(tmp_path):
    # The 4x4 board: 3 moves (hand count), 9 states in its cluster (counted by hand in
    # test_cluster_counts_goal_states_too's board); card 1 takes 8 moves.
    good = tmp_path / "good.txt"
    good.write_text(f"3 {FOUR} 9\n8 AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR.\n")
    ok = deck(str(good), "--verify", "--cluster", "--jobs", "1")
    assert ok.exit_code == 0, ok.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text(f"3 {FOUR} 10\n7 AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR.\n")
    wrong = deck(str(bad), "--verify", "--cluster", "--jobs", "1")
    assert wrong.exit_code == 3
    assert "mismatch line 1" in wrong.stderr and "cluster: found 9, deck says 10" in wrong.stderr
    assert "mismatch line 2" in wrong.stderr and "length: found 8, deck says 7" in wrong.stderr
    assert "1 of 2 verified" not in wrong.stderr and "2 of 2 verified" in wrong.stderr


def test_verify_on_a_deck_without_figures_says_nothing_was_verified(tmp_path):
    bare = tmp_path / "bare.txt"
    bare.write_text(f"{FOUR}\n{FOUR}\n")  # no MOVES or CLUSTER on either line
    result = deck(str(bare), "--verify", "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    assert "nothing verified: no line gives MOVES or CLUSTER figures" in result.stderr
    assert "0 of" not in result.stderr


def only_record(tmp_path, line: str, *options: str) -> dict:
    """The one record of a one-line deck, run with ``options``, which must end with exit 0."""
    path = tmp_path / "deck.txt"
    path.write_text(line + "\n")
    result = deck(str(path), *options, "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    (record,) = map(json.loads, result.stdout.splitlines())
    return record


def test_a_resumed_run_with_nothing_left_counts_what_it_kept(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text(f"3 {FOUR} 9\n3 {FOUR} 9\n")
    out = tmp_path / "out.jsonl"
    assert deck(str(good), "--verify", "--jobs", "1", "--out", str(out)).exit_code == 0
    result = deck(str(good), "--verify", "--jobs", "1", "--out", str(out), "--resume")
    assert result.exit_code == 0, result.stderr
    assert summary_row(result.stderr, "mismatches") == "0 of 2 verified"
    assert "no line gives" not in result.stderr
    assert summary_row(result.stderr, "kept from --out") == "2"
    assert summary_row(result.stderr, "puzzles") == "2"


def summary_row(stderr: str, name: str) -> str:
    (row,) = [line for line in stderr.splitlines() if f"│ {name} " in line]
    return row.split("│")[2].strip()


def test_verify_finds_a_line_whose_puzzle_is_unsolvable(tmp_path):
    # A wall right of the target, by hand: no plan, whatever the line says.
    walled = "o" * 12 + "AAxooo" + "o" * 18
    path = tmp_path / "deck.txt"
    path.write_text(f"03 {walled} 1\n")
    result = deck(str(path), "--verify", "--jobs", "1")
    assert result.exit_code == 3, result.stderr  # a mismatch outranks the unsolvable puzzle
    (record,) = map(json.loads, result.stdout.splitlines())
    assert record["length"] is None and record["expected_length"] == 3
    assert record["mismatch"] == "length"


def test_verify_checks_the_cluster_only_when_it_is_counted(tmp_path):
    # The rule: --verify compares what was computed; the cluster is counted only with --cluster.
    record = only_record(tmp_path, f"3 {FOUR} 10", "--verify")
    assert record["expected_length"] == 3 and "cluster" not in record
    assert "expected_cluster" not in record and "mismatch" not in record


def test_without_verify_records_carry_no_expectations(tmp_path):
    record = only_record(tmp_path, f"7 {FOUR} 10", "--cluster")
    assert record["cluster"] == 9 and record["length"] == 3
    assert not {"expected_length", "expected_cluster", "mismatch"} & record.keys()


def test_cluster_counts_goal_states_too(tmp_path):
    small = tmp_path / "small.txt"
    small.write_text(f"{FOUR}\n{FOUR}\n")
    result = deck(str(small), "--cluster", "--jobs", "1")
    assert [json.loads(line)["cluster"] for line in result.stdout.splitlines()] == [9, 9]


def test_bad_lines_are_reported_and_skipped(tmp_path):
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(f"{FOUR}\nnot a board\n{FOUR}\n")
    out = tmp_path / "out.jsonl"
    result = deck(str(mixed), "--out", str(out), "--jobs", "1")
    assert result.exit_code == 2
    assert f"rhasp: {mixed}:2:1: not a deck line" in result.stderr
    records = {r["line"]: r for r in read_results(out)}
    assert records[1]["length"] == 3 and records[3]["length"] == 3
    assert "error" in records[2]


def test_a_dask_cluster_gives_the_same_records_as_the_local_run(tmp_path, dask_cluster):
    local, remote = tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    assert deck(str(DECK), "--cluster", "--jobs", "2", "--out", str(local)).exit_code == 0
    result = deck(str(DECK), "--cluster", "--scheduler", dask_cluster, "--out", str(remote))
    assert result.exit_code == 0, result.stderr

    def by_line(path):
        return {
            r["line"]: {k: v for k, v in r.items() if not k.endswith("seconds")}
            for r in read_results(path)
        }

    assert by_line(remote) == by_line(local)
    assert len(by_line(remote)) == 40


def test_a_deck_file_is_read_lazily_to_the_same_entries(tmp_path):
    # The streamed reading (each line read where it is solved) must give what reading the
    # whole file gives: the same numbers, names, puzzles and errors, comments skipped.
    from rhasp.formats import DeckLine, read_path_numbered, stream_deck

    path = tmp_path / "mixed.txt"
    path.write_text(f"; a comment\n{FOUR}\n\nnot a board\n 3 {FOUR} 9\n")
    total, numbered = stream_deck(str(path))
    numbered = list(numbered)
    assert total == 3 and all(isinstance(entry, DeckLine) for _, entry in numbered)
    streamed = [(number, entry.read()) for number, entry in numbered]
    whole = read_path_numbered(str(path))
    assert [n for n, _ in streamed] == [n for n, _ in whole] == [2, 4, 5]
    for (_, lazy), (_, eager) in zip(streamed, whole, strict=True):
        assert str(lazy) == str(eager) if isinstance(eager, Exception) else lazy == eager


def test_a_line_that_is_not_text_is_an_error_of_its_own(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_bytes(f"{FOUR}\n".encode() + b"\xff\xfe bad\n" + f"{FOUR}\n".encode())
    out = tmp_path / "out.jsonl"
    result = deck(str(path), "--out", str(out), "--jobs", "2")
    assert result.exit_code == 2
    assert f"rhasp: {path}:2: binary data or not UTF-8 text" in result.stderr
    records = {r["line"]: r for r in read_results(out)}
    assert records[1]["length"] == records[3]["length"] == 3 and "error" in records[2]


def test_workers_are_fed_only_as_they_free_up():
    # A million-line deck must not be queued whole: when the first records come back, only a
    # few batches per worker have been taken from the input.
    from rhasp.deck import BATCH, Job, Settings, run_jobs
    from rhasp.formats import DeckLine
    from rhasp.parallel import IN_FLIGHT

    taken = 0

    def endless():
        nonlocal taken
        while True:
            taken += 1
            yield Job(taken, DeckLine(FOUR, "deck", taken, "four"), Settings(1000, 10_000))

    records = run_jobs(endless(), processes=2)
    first = next(records)
    assert first.length == 3
    assert taken <= 2 * (IN_FLIGHT + 1) * BATCH  # in hand, and the next for each that answered
    records.close()


# The 4x4 example and cards 1, 2 and 4: small enough for the naive reference and for ASP.
SMALL_DECK = [FOUR, *(DECK.read_text().splitlines()[number - 1] for number in (1, 2, 4))]


@pytest.mark.parametrize(
    ("engine", "objective"), [("asp", "moves"), ("asp", "slides"), ("bfs", "slides")]
)
def test_deck_lengths_by_either_engine_and_objective_match_the_naive_reference(
    tmp_path, engine, objective
):
    small = tmp_path / "small.txt"
    small.write_text("\n".join(SMALL_DECK) + "\n")
    result = deck(str(small), "--engine", engine, "--objective", objective, "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    found = {record["line"]: record for record in map(json.loads, result.stdout.splitlines())}
    expected = [fewest(database_rows(line), {"X": "right"}, objective) for line in SMALL_DECK]
    assert [found[line]["length"] for line in (1, 2, 3, 4)] == expected
    assert all(found[line][objective] == found[line]["length"] for line in found)


# An unsolvable board that static analysis does not prove so (checked below), and one it does:
# a wall at the exit.
BEYOND, WALLED = "DDDoGGLLxEooAAoEFICCCoFIoHKJBBoHKJoo", "o" * 12 + "AAxooo" + "o" * 18


def test_an_asp_deck_proves_unsolvable_by_bfs_and_answers_past_an_asp_limit(tmp_path):
    # Line 1: unsolvable, which static analysis does not prove (checked below) and the walk
    # of the model's moves confirms. Line 2: card 1, whose ASP proof meets a small bound on
    # its ground program; BFS has proven its 8 moves. Line 3: a wall at the exit, proven at
    # once.
    small = tmp_path / "small.txt"
    beyond, walled = BEYOND, WALLED
    (beyond_static,) = read_text(beyond, "line.txt", name="line")
    assert blocked_exit(beyond_static) is None
    assert not any(map(beyond_static.board.is_solved, reachable(beyond_static)))
    small.write_text(f"{beyond}\n{DECK.read_text().splitlines()[0]}\n{walled}\n")
    result = deck(str(small), "--engine", "asp", "--jobs", "1", "--max-atoms", "1400")
    assert result.exit_code == 1, result.stderr  # the most serious outcome: unsolvable
    unsolvable, card1, at_once = map(json.loads, result.stdout.splitlines())
    assert unsolvable["length"] is None and unsolvable["proven_by"] == ["bfs"]
    assert at_once["length"] is None and at_once["proven_by"] == ["static analysis"]
    assert "limit" not in unsolvable
    assert card1["length"] == CARD_MOVES[0] and card1["proven_by"] == ["bfs"]
    assert card1["stopped"]["asp"].startswith("ground program limit reached")


# Issue 54: records a researcher can use. CARD1's 8 moves are on its card back (CARD_MOVES);
# the rest is said where the boards are. With --engine asp and --max-atoms 1400: the 4×4
# example found by ASP and confirmed by BFS; BEYOND proven unsolvable by BFS before ASP
# starts; card 1's ASP proof stopped at its atoms, BFS proving it; WALLED proven by static
# analysis, no search run.
CARD1 = "AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR."
ASP_DECK = [FOUR, BEYOND, CARD1, WALLED]
ASP_OPTIONS = ("--engine", "asp", "--max-atoms", "1400", "--jobs", "1")
ENGINE_SECONDS = ("asp_seconds", "bfs_seconds", "astar_seconds")


def deck_file(tmp_path, lines: list[str]):
    path = tmp_path / "deck.txt"
    path.write_text("".join(line + "\n" for line in lines))
    return path


def printed(result) -> list[dict]:
    """The records a run printed, each a JSON line."""
    assert result.exit_code in (0, 1), result.stderr  # solved, or an unsolvable puzzle
    return [json.loads(line) for line in result.stdout.splitlines()]


def spent(record: dict) -> dict[str, float]:
    """The seconds of each engine that ran, by the record's field."""
    return {name: record[name] for name in ENGINE_SECONDS if record[name] is not None}


def test_every_record_has_each_engines_own_seconds_summing_to_its_seconds(tmp_path):
    records = printed(deck(str(deck_file(tmp_path, ASP_DECK)), *ASP_OPTIONS))
    assert all(set(ENGINE_SECONDS) <= record.keys() for record in records)
    assert [sorted(spent(record)) for record in records] == [
        ["asp_seconds", "bfs_seconds"],
        ["bfs_seconds"],
        ["asp_seconds", "bfs_seconds"],
        [],
    ]
    for record in records:
        assert all(0 <= seconds <= record["seconds"] for seconds in spent(record).values())
    for record in records[:3]:  # each to the microsecond: their sum, to two
        assert sum(spent(record).values()) == pytest.approx(record["seconds"], abs=2e-6)


@pytest.mark.parametrize("engine", ["asp", "astar"])
def test_no_confirm_records_the_engine_alone_and_says_so(tmp_path, engine):
    path = deck_file(tmp_path, [FOUR, CARD1])
    confirmed = printed(deck(str(path), "--engine", engine, "--jobs", "1"))
    alone = printed(deck(str(path), "--engine", engine, "--no-confirm", "--jobs", "1"))
    assert [record["length"] for record in alone] == [3, CARD_MOVES[0]]
    assert [record["length"] for record in confirmed] == [3, CARD_MOVES[0]]
    for record in confirmed:
        assert record["confirm"] is True and record["proven_by"] == [engine, "bfs"]
        assert sorted(spent(record)) == sorted([f"{engine}_seconds", "bfs_seconds"])
    for record in alone:
        assert record["confirm"] is False and record["proven_by"] == [engine]
        assert spent(record) == {f"{engine}_seconds": record["seconds"]}
        if engine == "asp":  # ASP counts no states: those were the confirming BFS's
            assert record["explored"] is None


def test_no_confirm_leaves_a_bfs_deck_as_it_was_but_says_so(tmp_path):
    path = deck_file(tmp_path, [FOUR, CARD1, BEYOND])
    confirmed = printed(deck(str(path), "--jobs", "1"))
    alone = printed(deck(str(path), "--no-confirm", "--jobs", "1"))
    assert [record["confirm"] for record in alone] == [False] * 3
    assert [untimed(record) | {"confirm": False} for record in confirmed] == list(
        map(untimed, alone)
    )
    assert all(list(spent(record)) == ["bfs_seconds"] for record in alone)


def csv_text(value) -> str:
    """A JSON record's value as a CSV cell holds it."""
    if isinstance(value, list):
        return ", ".join(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def test_a_csv_record_says_what_the_json_record_says_proven_by_too(tmp_path):
    path = deck_file(tmp_path, ASP_DECK)
    as_json, as_csv = tmp_path / "out.jsonl", tmp_path / "out.csv"
    for out in (as_json, as_csv):
        assert deck(str(path), *ASP_OPTIONS, "--out", str(out)).exit_code == 1  # BEYOND
    records = [json.loads(line) for line in as_json.read_text().splitlines()]
    with as_csv.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    by_whom = [["asp", "bfs"], ["bfs"], ["bfs"], ["static analysis"]]
    assert [record["proven_by"] for record in records] == by_whom
    assert [row["proven_by"] for row in rows] == ["asp, bfs", "bfs", "bfs", "static analysis"]
    for record, row in zip(records, rows, strict=True):
        for name, value in record.items():
            if name.endswith("seconds"):  # a time: another run's
                assert (row[name] == "") == (value is None), name
            elif name != "stopped":  # JSON's alone: the text of why a search stopped
                assert row[name] == csv_text(value), name
    assert [record["proven_by"] for record in read_results(as_csv)] == by_whom


def resident_mib() -> float:
    """This process's resident memory now, in MiB, as /proc says it."""
    status = Path("/proc/self/status").read_text()
    (kib,) = re.findall(r"^VmRSS:\s+(\d+) kB", status, re.M)
    return int(kib) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's /proc")
def test_the_summary_says_the_peak_memory_of_the_run(tmp_path):
    # The command runs in this process: its peak is at least what it holds now, but for the
    # pages the kernel has not yet added to the peak it keeps (it counts them in batches).
    before = resident_mib()
    result = deck(str(deck_file(tmp_path, [FOUR])), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    mib, unit = summary_row(result.stderr, "peak memory").split()[:2]
    assert unit == "MiB" and float(mib.replace(",", "")) >= before - 2


# Issue 39, items 10-14: a resumed deck is the same run; what it keeps is read within bounds
# and checked as records; the output is never the deck. The figures: the 4×4 example takes
# 3 moves (counted by hand, above), card 1 8 moves (its card back, CARD_MOVES).


def finished(tmp_path, lines: list[str], *options: str, suffix: str = ".jsonl"):
    """A deck of ``lines`` and its finished results (run with ``options``, one process, so
    that the records are in deck order), ``(deck, out, result)``."""
    path = tmp_path / "deck.txt"
    path.write_text("".join(line + "\n" for line in lines))
    out = tmp_path / f"out{suffix}"
    result = deck(str(path), "--jobs", "1", "--out", str(out), *options)
    return path, out, result


def cut_to(out, records: int, header: int = 0) -> bytes:
    """``out`` cut after its first ``records`` records (an interrupted run's), and its bytes."""
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[: header + records]))
    return out.read_bytes()


def refused(result, out, line: int | None = None) -> str:
    """The one line of a refusal (exit 2) naming ``out`` (and its ``line``)."""
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    where = str(out) if line is None else f"{out}:{line}"
    assert result.stderr.startswith(f"rhasp: {where}: "), result.stderr
    return result.stderr


def test_resume_refuses_the_records_of_another_deck(tmp_path):
    # Item 10: the partial output of one deck was finished with another's records.
    path, out, first = finished(tmp_path, [FOUR, CARD1, FOUR])
    assert first.exit_code == 0, first.stderr
    kept = cut_to(out, 1)
    other = tmp_path / "other.txt"
    other.write_text(f"{CARD1}\n{FOUR}\n{CARD1}\n")
    said = refused(deck(str(other), "--jobs", "1", "--out", str(out), "--resume"), out)
    assert "another deck" in said
    assert out.read_bytes() == kept
    with pytest.raises(InputError, match="another deck"):
        api.deck(other, jobs=1, out=out, resume=True)
    assert out.read_bytes() == kept
    resumed = deck(str(path), "--jobs", "1", "--out", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert lengths(out) == {1: 3, 2: 8, 3: 3}


@pytest.mark.parametrize(
    ("given", "was", "now"),
    [
        (("--objective", "slides"), "--objective moves", "--objective slides"),
        (("--cluster",), "no --cluster", "--cluster"),
        (("--verify",), "no --verify", "--verify"),
        (("--engine", "astar"), "no --engine", "--engine astar"),
        (("--no-confirm",), "--confirm", "--no-confirm"),
        (("--max-states", "100000"), "no --max-states", "--max-states 100000"),
    ],
)
def test_resume_refuses_other_options_naming_the_option_and_both_values(tmp_path, given, was, now):
    # Item 10: another --objective mixed two meanings of "length" in one file.
    path, out, first = finished(tmp_path, [FOUR, CARD1])
    assert first.exit_code == 0, first.stderr
    kept = cut_to(out, 1)
    said = refused(deck(str(path), "--jobs", "1", "--out", str(out), "--resume", *given), out)
    assert f"begun with {was}, where this run has {now}" in said and "out.jsonl.run" in said
    assert out.read_bytes() == kept


def test_resume_names_every_option_that_differs(tmp_path):
    path, out, _ = finished(tmp_path, [FOUR, CARD1])
    cut_to(out, 1)
    other = ("--cluster", "--objective", "slides")
    said = refused(deck(str(path), "--jobs", "1", "--out", str(out), "--resume", *other), out)
    assert "begun with --objective moves and no --cluster" in said
    assert "this run has --objective slides and --cluster" in said


def test_resume_refuses_records_with_nothing_to_say_what_run_they_are_of(tmp_path):
    path, out, _ = finished(tmp_path, [FOUR, CARD1])
    kept = cut_to(out, 1)
    (tmp_path / "out.jsonl.run").unlink()
    said = refused(deck(str(path), "--jobs", "1", "--out", str(out), "--resume"), out)
    assert "out.jsonl.run" in said
    assert out.read_bytes() == kept


@pytest.mark.parametrize("version", [1, 2, "3"])
def test_resume_refuses_a_run_file_of_another_version_naming_both(tmp_path, version):
    # Issue 42 item 8: said as damage, "or from another version of rhasp", versions unnamed.
    # Version 1 held no digests of the records (issue 53); version 2's records had no
    # engine's own seconds nor confirm (issue 54).
    path, out, _ = finished(tmp_path, [FOUR, CARD1])
    kept = cut_to(out, 1)
    run = tmp_path / "out.jsonl.run"
    header, *entries = run.read_text().splitlines(keepends=True)
    run.write_text(json.dumps({**json.loads(header), "version": version}) + "\n" + "".join(entries))
    said = refused(deck(str(path), "--jobs", "1", "--out", str(out), "--resume"), out)
    assert "out.jsonl.run" in said and "reads version 3 only" in said
    assert f"version {version}," in said if type(version) is int else "no version" in said
    assert "damaged" not in said
    assert out.read_bytes() == kept


@pytest.mark.parametrize(
    ("suffix", "damage"),
    [
        (".jsonl", b"[" * 100_000 + b"]" * 100_000),
        (".jsonl", b'{"line": ' + b"9" * 5001 + b"}"),
        (".jsonl", b'{"line": 2, "puzzle": "deck-2\xff"}'),
        (".csv", b'2,"' + b"x" * 131_073 + b'"' + b"," * 14),
    ],
    ids=["nested deeply", "a 5,001-digit number", "not UTF-8", "a CSV field over 131,072"],
)
def test_a_damaged_results_file_is_refused_in_one_line_naming_the_line(tmp_path, suffix, damage):
    # Item 11: each of these ended in a traceback, exit 1.
    path, out, _ = finished(tmp_path, [FOUR, CARD1, FOUR], suffix=suffix)
    header = 1 if suffix == ".csv" else 0
    cut_to(out, 1, header)
    with out.open("ab") as handle:
        handle.write(damage + b"\n")
    kept = out.read_bytes()
    result = deck(str(path), "--jobs", "1", "--out", str(out), "--resume")
    refused(result, out, line=header + 2)
    assert out.read_bytes() == kept


@pytest.mark.parametrize("name", ["itself", "symlink", "hard link"])
def test_the_deck_is_never_its_own_output(tmp_path, name):
    # Item 12: --out the deck truncated it before it was read: 0 puzzles, exit 0.
    source = tmp_path / "deck.jsonl"
    source.write_text(f"{FOUR}\n{CARD1}\n")
    out = {
        "itself": source,
        "symlink": tmp_path / "link.jsonl",
        "hard link": tmp_path / "hard.jsonl",
    }[name]
    if name == "symlink":
        out.symlink_to(source)
    elif name == "hard link":
        os.link(source, out)
    refused(deck(str(source), "--jobs", "1", "--out", str(out)), out)
    assert source.read_text() == f"{FOUR}\n{CARD1}\n"
    with pytest.raises(InputError, match="deck"):
        api.deck(source, jobs=1, out=out)
    assert source.read_text() == f"{FOUR}\n{CARD1}\n"


def test_the_output_is_not_put_among_a_directory_decks_puzzles(tmp_path):
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "four.txt").write_text(FOUR + "\n")
    out = folder / "results.jsonl"
    refused(deck(str(folder), "--jobs", "1", "--out", str(out)), out)
    assert not out.exists()
    hidden = folder / ".results.jsonl"  # a directory deck skips hidden files
    assert deck(str(folder), "--jobs", "1", "--out", str(hidden)).exit_code == 0
    assert lengths(hidden) == {1: 3}


@pytest.mark.parametrize(
    ("lines", "options", "code"),
    [
        ([f"4 {FOUR}", f"3 {FOUR}"], ("--verify",), 3),  # line 1 says 4: a mismatch
        (["not a board", FOUR], (), 2),
        ([CARD1, FOUR], ("--max-states", "5"), 4),  # card 1 needs more than 5 states
    ],
    ids=["a mismatch", "a bad line", "a limit"],
)
def test_a_resumed_run_exits_as_the_whole_run_would(tmp_path, lines, options, code):
    # Item 13: the mismatch kept from before the interruption was forgotten: exit 0.
    path, out, whole = finished(tmp_path, lines, *options)
    assert whole.exit_code == code, whole.stderr
    cut_to(out, 1)  # the record of line 1 kept, line 2 to do
    resumed = deck(str(path), "--jobs", "1", "--out", str(out), "--resume", *options)
    assert resumed.exit_code == code, resumed.stderr
    assert summary_row(resumed.stderr, "kept from --out") == "1"
    assert summary_row(resumed.stderr, "puzzles") == "2"
    assert summary_row(whole.stderr, "puzzles") == "2"
    if code == 3:
        assert "mismatch line 1" in resumed.stderr
        assert summary_row(resumed.stderr, "mismatches") == "1 of 2 verified"


def test_the_api_counts_the_records_a_resume_kept(tmp_path):
    path, out, _ = finished(tmp_path, [f"4 {FOUR}", f"3 {FOUR}"], "--verify")
    cut_to(out, 1)
    tally = api.deck(path, jobs=1, verify=True, out=out, resume=True)
    assert (tally.kept, tally.puzzles, tally.solved, tally.verified) == (1, 2, 2, 2)
    assert [record.line for record in tally.mismatches] == [1]


def edited(record: dict, **changes) -> dict:
    return {name: value for name, value in (record | changes).items() if value is not ...}


def untimed(record: dict) -> dict:
    """The record without its times (``seconds``, each engine's), which differ run to run."""
    return {name: value for name, value in record.items() if not name.endswith("seconds")}


def rows(out) -> list[dict]:
    """The records of a results file as rows of fields (CSV's as text, as in the file)."""
    if out.suffix == ".csv":
        return list(csv.DictReader(io.StringIO(out.read_bytes().decode(), newline="")))
    return [json.loads(line) for line in out.read_text().splitlines()]


def rewritten(out, records: list[dict]) -> bytes:
    """``out`` holding ``records`` in its own format, written as rhasp writes it (an unedited
    record's bytes are the same again), and its bytes."""
    if out.suffix == ".csv":
        text = io.StringIO(newline="")
        writer = csv.DictWriter(text, list(rows(out)[0]) if rows(out) else FIELDS)
        writer.writeheader()
        writer.writerows({k: "" if v is None else v for k, v in r.items()} for r in records)
        out.write_bytes(text.getvalue().encode())
    else:
        out.write_text("".join(json.dumps(record) + "\n" for record in records))
    return out.read_bytes()


def forged(out) -> None:
    """``out.run``'s digests made again for what ``out`` holds now, as one who edits a record
    on purpose and knows how rhasp vouches for it would: then only the checks of a record
    against its deck line are left to catch it."""
    run = out.with_name(out.name + ".run")
    key = run.read_bytes().split(b"\n", 1)[0]
    raw = out.read_bytes().splitlines(keepends=True)
    first = 1 if out.suffix == ".csv" else 0
    entries = [
        json.dumps({"line": int(row["line"]), "sha256": record_digest(key, line)})
        for row, line in zip(rows(out), raw[first:], strict=True)
    ]
    run.write_bytes(key + b"\n" + "".join(entry + "\n" for entry in entries).encode())


# Issue 53: what --resume keeps, it can prove rhasp wrote: FILE.run holds a digest of each
# record's bytes as written, keyed on the run's header. Card 1 takes 8 moves (its card), the
# 4x4 example 3 (counted by hand); a plan two moves longer is legal (Q up and down again).
def unsolvable(records: list[dict]) -> list[dict]:
    return [records[0], edited(records[1], length=None, moves=None, slides=None, plan=None)]


def longer(records: list[dict]) -> list[dict]:
    card = records[1]
    plan = f"QU1 QD1 {card['plan']}"
    moves, slides = int(card["moves"]) + 2, int(card["slides"]) + 2
    return [records[0], edited(card, plan=plan, length=moves, moves=moves, slides=slides)]


def other_cluster(records: list[dict]) -> list[dict]:
    return [records[0], edited(records[1], cluster=int(records[1]["cluster"]) + 1), records[2]]


def swapped(records: list[dict]) -> list[dict]:
    # The 4x4 example's record and card 1's, each given the other's deck line and name.
    # (Not the example's two records, lines 1 and 3: the same puzzle, their bytes differ only
    # by their times, and a run whose two times came out equal wrote them so: once in a
    # fresh-clone run the swap was the file rhasp wrote, rightly resumed.)
    first, second = records[0], records[1]
    return [
        edited(second, line=first["line"], puzzle=first["puzzle"]),
        edited(first, line=second["line"], puzzle=second["puzzle"]),
        records[2],
    ]


def slower(records: list[dict]) -> list[dict]:
    return [records[0], edited(records[1], seconds=99.5), records[2]]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
@pytest.mark.parametrize(
    ("tamper", "at"),
    [(unsolvable, 2), (longer, 2), (other_cluster, 2), (swapped, 1), (slower, 2)],
    ids=["unsolvable", "a longer legal plan", "another cluster", "swapped", "seconds"],
)
def test_resume_refuses_a_record_rhasp_did_not_write(tmp_path, suffix, tamper, at):
    path, out, first = finished(tmp_path, [FOUR, CARD1, FOUR], "--cluster", suffix=suffix)
    assert first.exit_code == 0, first.stderr
    records = tamper(rows(out))
    kept = rewritten(out, records)
    header = 1 if suffix == ".csv" else 0
    said = refused(
        deck(str(path), "--cluster", "--jobs", "1", "--out", str(out), "--resume"),
        out,
        line=header + at,
    )
    assert f"deck line {records[at - 1]['line']}" in said and ".run" in said
    assert out.read_bytes() == kept


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_resume_refuses_a_record_copied_from_another_decks_results(tmp_path, suffix):
    # The other deck's line 2 is card 1 too, its record a true one, its digest copied along.
    path, out, _ = finished(tmp_path, [FOUR, CARD1, FOUR], suffix=suffix)
    other = tmp_path / "other"
    other.mkdir()
    _, theirs, _ = finished(other, [FOUR, CARD1, FOUR, CARD1], suffix=suffix)
    header = 1 if suffix == ".csv" else 0
    ours, copied = out.read_bytes().splitlines(True), theirs.read_bytes().splitlines(True)
    out.write_bytes(b"".join([*ours[: header + 1], copied[header + 1], *ours[header + 2 :]]))
    run, their_run = (p.with_name(p.name + ".run") for p in (out, theirs))
    entries, their_entries = (
        run.read_bytes().splitlines(True),
        their_run.read_bytes().splitlines(True),
    )
    run.write_bytes(b"".join([entries[0], entries[1], their_entries[2], entries[3]]))
    kept = out.read_bytes()
    said = refused(deck(str(path), "--jobs", "1", "--out", str(out), "--resume"), out, header + 2)
    assert "deck line 2" in said
    assert out.read_bytes() == kept


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_deleted_record_is_solved_again(tmp_path, suffix):
    path, out, _ = finished(tmp_path, [FOUR, CARD1, FOUR], suffix=suffix)
    whole = [untimed(record) for record in rows(out)]
    header = 1 if suffix == ".csv" else 0
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[: header + 1] + lines[header + 2 :]))
    resumed = deck(str(path), "--jobs", "1", "--out", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert summary_row(resumed.stderr, "kept from --out") == "2"
    again = sorted(map(untimed, rows(out)), key=lambda r: int(r["line"]))
    assert again == whole


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_records_no_digest_vouches_for_at_the_end_are_solved_again(tmp_path, suffix):
    # What a run killed between a record and its digest leaves; and a record added by hand at
    # the end, which is not taken on trust either.
    path, out, _ = finished(tmp_path, [FOUR, CARD1, FOUR], suffix=suffix)
    records = rows(out)
    run = out.with_name(out.name + ".run")
    run.write_bytes(b"".join(run.read_bytes().splitlines(True)[:2]))  # line 1's digest only
    rewritten(out, [records[0], edited(records[1], length=3, moves=3), records[2]])
    resumed = deck(str(path), "--jobs", "1", "--out", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert summary_row(resumed.stderr, "kept from --out") == "1"
    assert lengths(out) == {1: 3, 2: 8, 3: 3}
    again = deck(str(path), "--jobs", "1", "--out", str(out), "--resume")  # all vouched for now
    assert summary_row(again.stderr, "kept from --out") == "3", again.stderr


def test_a_record_no_digest_vouches_for_before_others_is_refused(tmp_path):
    # Line 2's digest taken out of FILE.run: its record is not rhasp's, though line 3's is.
    path, out, _ = finished(tmp_path, [FOUR, CARD1, FOUR])
    run = out.with_name(out.name + ".run")
    lines = run.read_bytes().splitlines(keepends=True)
    run.write_bytes(b"".join([*lines[:2], *lines[3:]]))
    kept = out.read_bytes()
    said = refused(deck(str(path), "--jobs", "1", "--out", str(out), "--resume"), out, line=2)
    assert "deck line 2" in said and "no digest" in said
    assert out.read_bytes() == kept


@pytest.mark.parametrize("damage", [b"{not json}\n", b'{"line": 2, "sha256": 5}\n'])
def test_a_damaged_run_file_is_refused_naming_its_line(tmp_path, damage):
    path, out, _ = finished(tmp_path, [FOUR, CARD1, FOUR])
    run = out.with_name(out.name + ".run")
    lines = run.read_bytes().splitlines(keepends=True)
    run.write_bytes(b"".join([*lines[:2], damage, *lines[3:]]))
    kept = out.read_bytes()
    result = deck(str(path), "--jobs", "1", "--out", str(out), "--resume")
    assert result.exit_code == 2 and result.stderr.startswith(f"rhasp: {run}:3: "), result.stderr
    assert out.read_bytes() == kept


def test_a_run_file_that_is_a_folder_leaves_the_results_as_they_were(tmp_path):
    # It emptied the results file before refusing.
    path, out, _ = finished(tmp_path, [FOUR, CARD1])
    kept = out.read_bytes()
    run = out.with_name(out.name + ".run")
    run.unlink()
    run.mkdir()
    refused(deck(str(path), "--jobs", "1", "--out", str(out)), run)
    assert out.read_bytes() == kept


def test_a_csv_record_of_a_puzzle_solved_as_it_stands_is_kept(tmp_path):
    # The target already at its exit: no move, an empty plan, which CSV writes as "".
    solved = "....XX" + "." * 30
    path, out, first = finished(tmp_path, [solved, CARD1], suffix=".csv")
    assert first.exit_code == 0, first.stderr
    assert [record["plan"] for record in read_results(out)] == ["", rows(out)[1]["plan"]]
    cut_to(out, 1, header=1)
    resumed = deck(str(path), "--jobs", "1", "--out", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert summary_row(resumed.stderr, "kept from --out") == "1"
    assert lengths(out) == {1: 0, 2: 8}


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda record: {"line": record["line"]}, "field"),  # a stub: no fields at all
        (lambda record: edited(record, length=3), "length 3"),
        (lambda record: edited(record, moves=3, length=3), "length 3"),
        (lambda record: edited(record, plan=record["plan"].rsplit(" ", 1)[0]), "not solve"),
        (lambda record: edited(record, plan="AR9 " + record["plan"]), "does not replay"),
        (lambda record: edited(record, board=FOUR), "board"),
        (lambda record: edited(record, puzzle="deck-9"), "puzzle"),
        (lambda record: edited(record, seconds=...), "'seconds'"),
        (lambda record: edited(record, bfs_seconds=...), "'bfs_seconds'"),
        (lambda record: edited(record, bfs_seconds="fast"), "'bfs_seconds'"),
        (lambda record: edited(record, confirm=...), "'confirm'"),
        (lambda record: edited(record, confirm="yes"), "'confirm'"),
        (lambda record: edited(record, confirm=False), "--no-confirm"),
        (lambda record: edited(record, proven_by="bfs"), "'proven_by'"),
        (lambda record: edited(record, length="8"), "whole number"),
        (lambda record: edited(record, error="not a board"), "bad line"),
        (lambda record: edited(record, cluster=9), "cluster"),
        (lambda record: {"line": record["line"], "error": "no"}, "reads as a puzzle"),
    ],
)
def test_a_kept_record_is_checked_as_a_record_of_its_line(tmp_path, edit, said):
    # Item 14 of issue 39: a stub {"line": 2} was taken as done (line 2 never got a result),
    # and a length edited from 8 to 3 was kept. With its digest forged, a record is still
    # checked against what its line's puzzle and the plan replayed on it say.
    path, out, first = finished(tmp_path, [FOUR, CARD1, FOUR])
    assert first.exit_code == 0, first.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[1]["line"] == 2 and records[1]["length"] == 8
    out.write_text("".join(json.dumps(record) + "\n" for record in [records[0], edit(records[1])]))
    forged(out)
    kept = out.read_bytes()
    result = refused(deck(str(path), "--jobs", "1", "--out", str(out), "--resume"), out, line=2)
    assert said in result
    assert out.read_bytes() == kept


def test_a_kept_csv_record_is_checked_too(tmp_path):
    path, out, _ = finished(tmp_path, [FOUR, CARD1, FOUR], suffix=".csv")
    header, first, second = out.read_bytes().splitlines(keepends=True)[:3]
    assert second.startswith(f"2,deck-2,{CARD1},8,8,".encode())  # length and moves
    edited_row = second.replace(f"{CARD1},8,8,".encode(), f"{CARD1},3,8,".encode(), 1)
    out.write_bytes(header + first + edited_row)
    forged(out)
    said = refused(deck(str(path), "--jobs", "1", "--out", str(out), "--resume"), out, line=3)
    assert "deck line 2" in said and "length 3" in said


def test_a_kept_mismatch_must_be_what_the_line_says(tmp_path):
    # A mismatch deleted by hand from a --verify record would make the run pass.
    path, out, _ = finished(tmp_path, [f"4 {FOUR}", f"3 {FOUR}"], "--verify")
    record = json.loads(out.read_text().splitlines()[0])
    assert record["mismatch"] == "length"
    out.write_text(json.dumps(edited(record, mismatch=...)) + "\n")
    forged(out)
    said = refused(
        deck(str(path), "--verify", "--jobs", "1", "--out", str(out), "--resume"), out, 1
    )
    assert "deck line 1" in said and "mismatch" in said


def test_many_kept_records_are_checked_on_the_workers_to_the_same_refusal(tmp_path, monkeypatch):
    monkeypatch.setattr(importlib.import_module("rhasp.deck.kept"), "CHECK_ON_WORKERS_FROM", 2)
    path, out, _ = finished(tmp_path, [FOUR, CARD1, FOUR, CARD1])
    records = [json.loads(line) for line in out.read_text().splitlines()]
    records[3]["length"] = 3  # card 1 takes 8
    out.write_text("".join(json.dumps(record) + "\n" for record in records[:-1] + records[3:]))
    forged(out)
    said = refused(deck(str(path), "--jobs", "2", "--out", str(out), "--resume"), out, line=4)
    assert "deck line 4" in said and "length 3" in said
    records[3]["length"] = 8
    out.write_text("".join(json.dumps(record) + "\n" for record in records[:3]))
    forged(out)
    resumed = deck(str(path), "--jobs", "2", "--out", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert lengths(out) == {1: 3, 2: 8, 3: 3, 4: 8}
