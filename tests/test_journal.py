"""The journal of ``rhasp enumerate --out``: whatever was done to the output or its journal
after a run stopped, ``--resume`` ends with exactly an uninterrupted run's bytes, or refuses
in one line (exit 2) and leaves both files as they were.

The uninterrupted bytes come from a real run. The tamper harness then replays each shard
from that run's results (the enumeration is a pure function of the shard number, and is
tested elsewhere), so that a few hundred damaged files resume in seconds: what is under test
here is what rhasp does with the files."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rhasp import enumeration
from rhasp.deck import ResultFile
from rhasp.journal import JournaledOutput
from tests.command import rhasp
from tests.processes import started
from tests.volume import examples

FIVE = ("--size", "5", "--jobs", "1")


@pytest.fixture(scope="module")
def whole(tmp_path_factory, shards) -> tuple[bytes, bytes]:
    """An uninterrupted 5×5 run with --out: its output and its journal (its shards those of
    :func:`shards`, enumerated once)."""
    out = tmp_path_factory.mktemp("whole") / "db.txt"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(enumeration, "run_shard", lambda options, budget, number: shards[number])
        assert rhasp("enumerate", *FIVE, "--out", str(out)).exit_code == 0
    return out.read_bytes(), out.with_name("db.txt.shards").read_bytes()


@pytest.fixture(scope="module")
def shards(shards_of_5x5) -> dict[int, enumeration.Shard]:
    return {shard.number: shard for shard in shards_of_5x5}


@pytest.fixture
def replayed(monkeypatch, shards):
    """Shards read from the cache rather than searched again."""
    monkeypatch.setattr(enumeration, "run_shard", lambda options, budget, number: shards[number])


def stopped_run(whole: tuple[bytes, bytes], rng: random.Random) -> tuple[bytes, bytes]:
    """What a run killed after a random number of shards leaves: the journal's entries for
    them (perhaps a torn one after), the output they vouch for and a torn part of the next."""
    output, journal = whole
    entries = journal.splitlines(keepends=True)
    done = rng.randrange(len(entries) - 1)
    end = json.loads(entries[done])["end"] if done else 0
    following = json.loads(entries[done + 1])["end"]
    torn_entry = entries[done + 1][: rng.randrange(len(entries[done + 1]))] * (rng.random() < 0.3)
    return (
        output[: rng.randint(end, following)],
        b"".join(entries[: done + 1]) + torn_entry,
    )


# One damage each: to the output's bytes or lines, to the journal's entries or bytes.


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def truncated(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randint(0, len(data))]


def lines_deleted(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    first = rng.randrange(len(lines) + 1)
    return b"".join(lines[:first] + lines[first + rng.randint(1, 120) :])


def bytes_flipped(data: bytes, rng: random.Random) -> bytes:
    changed = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if changed:
            changed[rng.randrange(len(changed))] ^= rng.randint(1, 255)
    return bytes(changed)


def junk_appended(data: bytes, rng: random.Random) -> bytes:
    junk = [
        b"junk\n",
        b'{"shard": 3}\n',
        b"07 AAoooBBoooCCoooDDoooEEoo 1\n",
        b"\xff\xfe",
        b"[1,2]\n",
    ]
    return data + rng.choice(junk) * rng.randint(1, 3)


def nul_padded(data: bytes, rng: random.Random) -> bytes:
    return data + b"\0" * rng.randint(1, 5000)


def nuls_within(data: bytes, rng: random.Random) -> bytes:
    start = rng.randrange(len(data) + 1)
    return data[:start] + b"\0" * rng.randint(1, 300) + data[start + 300 :]


def line_edited(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    if lines:
        lines[rng.randrange(len(lines))] = rng.choice(lines)[::-1].strip() + b"\n"
    return b"".join(lines)


def undecodable(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + b"\xff\xfe" + data[at:]


def entry_repeated(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    at = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
    return b"".join([*lines[: at + 1], lines[at], *lines[at + 1 :]])


def entry_deleted(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    at = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
    return b"".join(lines[:at] + lines[at + 1 :])


def entries_swapped(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    if len(lines) > 2:
        a, b = rng.sample(range(1, len(lines)), 2)
        lines[a], lines[b] = lines[b], lines[a]
    return b"".join(lines)


def field_edited(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    if len(lines) < 2:
        return data
    at = rng.randrange(1, len(lines))
    try:
        entry = json.loads(lines[at])
    except ValueError:
        return data
    name = rng.choice(sorted(entry))
    value = rng.choice([99_999_999, -5, 0, entry[name] + 1, "7", None, 2**70])
    if rng.random() < 0.2:
        del entry[name]
    else:
        entry[name] = value
    lines[at] = json.dumps(entry).encode() + b"\n"
    return b"".join(lines)


OUTPUT_DAMAGE = (
    truncated,
    lines_deleted,
    bytes_flipped,
    junk_appended,
    nul_padded,
    nuls_within,
    line_edited,
    undecodable,
)
JOURNAL_DAMAGE = (
    truncated,
    bytes_flipped,
    junk_appended,
    entry_repeated,
    entry_deleted,
    entries_swapped,
    field_edited,
    lines_deleted,
    None,  # removed
)


def resume(out: Path):
    return rhasp("enumerate", *FIVE, "--out", str(out), "--resume")


def files_of(out: Path) -> tuple[bytes | None, bytes | None]:
    journal = out.with_name(out.name + ".shards")
    return (
        out.read_bytes() if out.exists() else None,
        journal.read_bytes() if journal.exists() else None,
    )


def assert_whole_or_refused(out: Path, whole: tuple[bytes, bytes], case: str) -> None:
    """The harness's one property, and when refusing is the right answer: an output with
    something in it, beside no journal or a journal whose header was changed."""
    before = files_of(out)
    output, journal = before
    refuse = bool(output) and (journal is None or _lines(journal)[:1] != _lines(whole[1])[:1])
    result = resume(out)
    assert result.exception is None or isinstance(result.exception, SystemExit), case
    if refuse:
        assert result.exit_code == 2, (case, result.stderr)
        assert len(result.stderr.splitlines()) == 1, (case, result.stderr)
        assert files_of(out) == before, case
    else:
        assert result.exit_code == 0, (case, result.stderr)
        assert files_of(out) == whole, case


@pytest.mark.parametrize("batch", range(6))
def test_a_damaged_stopped_run_resumes_to_the_whole_bytes_or_refuses(
    tmp_path, whole, replayed, batch
):
    for seed in range(batch * 50, batch * 50 + examples(50)):  # a fifth by default
        rng = random.Random(seed)
        output, journal = stopped_run(whole, rng)
        damage = rng.choice(OUTPUT_DAMAGE + JOURNAL_DAMAGE)
        to_journal = damage in JOURNAL_DAMAGE and (
            damage not in OUTPUT_DAMAGE or rng.random() < 0.5
        )
        out = tmp_path / f"db{seed}.txt"
        if to_journal:
            journal = None if damage is None else damage(journal, rng)
        else:
            output = damage(output, rng)
        out.write_bytes(output)
        if journal is not None:
            out.with_name(out.name + ".shards").write_bytes(journal)
        name = getattr(damage, "__name__", "journal removed")
        assert_whole_or_refused(
            out, whole, f"seed {seed}: {name} to the {'journal' if to_journal else 'output'}"
        )


def test_a_finished_run_damaged_resumes_to_the_whole_bytes(tmp_path, whole, replayed):
    for seed, damage in enumerate(OUTPUT_DAMAGE + JOURNAL_DAMAGE[:-1]):
        rng = random.Random(seed)
        out = tmp_path / f"db{seed}.txt"
        output, journal = whole
        if damage in OUTPUT_DAMAGE:
            output = damage(output, rng)
        else:
            journal = damage(journal, rng)
        out.write_bytes(output)
        out.with_name(out.name + ".shards").write_bytes(journal)
        assert_whole_or_refused(out, whole, f"{damage.__name__}, finished run")


# The reproductions, one by one.


def test_a_run_stopped_with_sigterm_and_cut_resumes_to_the_whole_bytes(tmp_path, whole):
    # Item 1, as reported: stopped, then `sed -i '100,200d' db.txt`; the real search resumes.
    out = tmp_path / "db.txt"
    journal = out.with_name("db.txt.shards")
    command = [sys.executable, "-m", "rhasp", "enumerate", *FIVE, "--out", str(out)]
    with started(command, stderr=subprocess.PIPE, text=True) as process:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and _entries(journal) < 30:
            time.sleep(0.005)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
        assert process.returncode in (0, 143), stderr
    lines = _lines(out.read_bytes())
    out.write_bytes(b"".join(lines[:99] + lines[200:]))
    result = resume(out)
    assert result.exit_code == 0, result.stderr
    assert "does not match its journal entry" in result.stderr
    assert files_of(out) == whole


def _entries(journal: Path) -> int:
    try:
        return journal.read_bytes().count(b"\n") - 1
    except FileNotFoundError:
        return 0


def _write(out: Path, output: bytes, journal: bytes | None) -> None:
    out.write_bytes(output)
    if journal is not None:
        out.with_name(out.name + ".shards").write_bytes(journal)


def _halfway(whole: tuple[bytes, bytes]) -> tuple[bytes, bytes]:
    """A run stopped cleanly after 60 shards."""
    entries = _lines(whole[1])
    return whole[0][: json.loads(entries[60])["end"]], b"".join(entries[:61])


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda o, j: (b"", j), id="output emptied"),
        pytest.param(lambda o, j: (o, _with_entry(j, 5, end=99_999_999)), id="end 99999999"),
        pytest.param(lambda o, j: (o, j + b"junk\n"), id="junk line in the journal"),
        pytest.param(lambda o, j: (o, _with_entry(j, 7, end=None)), id="entry without end"),
        pytest.param(lambda o, j: (o, _with_entry(j, 7, end=-5)), id="end -5"),
        pytest.param(lambda o, j: (o[:20000], j), id="output truncated to 20000"),
        pytest.param(lambda o, j: (o[:500] + b"\xff\xfe" + o[500:], j), id="undecodable bytes"),
        pytest.param(lambda o, j: (o, j + _lines(j)[-1]), id="last entry repeated"),
    ],
)
def test_each_reported_damage_resumes_to_the_whole_bytes(tmp_path, whole, replayed, damage):
    out = tmp_path / "db.txt"
    _write(out, *damage(*_halfway(whole)))
    result = resume(out)
    assert result.exit_code == 0, result.stderr
    assert files_of(out) == whole


def _with_entry(journal: bytes, number: int, **changes: object) -> bytes:
    lines = _lines(journal)
    entry = json.loads(lines[number])
    for name, value in changes.items():
        if value is None:
            del entry[name]
        else:
            entry[name] = value
    lines[number] = json.dumps(entry).encode() + b"\n"
    return b"".join(lines)


def test_a_journal_that_begins_with_no_header_is_refused(tmp_path, whole, replayed):
    out = tmp_path / "db.txt"
    output, journal = _halfway(whole)
    _write(out, output, b"[1,2]\n" + b"".join(_lines(journal)[1:]))
    before = files_of(out)
    result = resume(out)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"rhasp: {out}: db.txt.shards beside it does not begin")
    assert files_of(out) == before


@pytest.mark.parametrize(
    "header",
    [b"[" * 100_000 + b"]" * 100_000, b'{"options": ' + b"9" * 5001 + b"}", b"\xff\xfe{}"],
    ids=["nested deeply", "a 5,001-digit number", "not UTF-8"],
)
def test_a_journal_header_out_of_bounds_is_refused_in_one_line(tmp_path, whole, header):
    # Issue 39, item 11: json.loads raised RecursionError (or ValueError) past the refusal.
    out = tmp_path / "db.txt"
    output, journal = _halfway(whole)
    _write(out, output, header + b"\n" + b"".join(_lines(journal)[1:]))
    before = files_of(out)
    result = resume(out)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith(f"rhasp: {out}: db.txt.shards beside it does not begin")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert files_of(out) == before


def _with_header(journal: bytes, **changed) -> bytes:
    """A journal whose header has ``changed`` fields, its entries as they were."""
    lines = _lines(journal)
    header = json.loads(lines[0])
    header.update(changed)
    return (
        json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
        + b"\n"
        + b"".join(lines[1:])
    )


def _shards_of(journal: bytes) -> int:
    return json.loads(_lines(journal)[0])["shards"]


@pytest.mark.parametrize("resumed", [True, False], ids=["--resume", "without --resume"])
def test_a_journal_of_another_shard_count_says_so_not_other_options(tmp_path, whole, resumed):
    # Issue 42 item 8: a journal that differs only in its count of shards (another rhasp
    # cuts the work differently) was refused as "begun with other options", listing them.
    out = tmp_path / "db.txt"
    output, journal = _halfway(whole)
    total = _shards_of(journal)
    _write(out, output, _with_header(journal, shards=total + 7))
    before = files_of(out)
    result = resume(out) if resumed else rhasp("enumerate", *FIVE, "--out", str(out))
    assert result.exit_code == 2
    said = result.stderr
    assert said.count("\n") == 1 and said.startswith(f"rhasp: {out}: ")
    assert f"into {total + 7:,} shards" in said and f"into {total:,}" in said
    assert "db.txt.shards" in said and "other options" not in said and "--size" not in said
    assert files_of(out) == before


@pytest.mark.parametrize("version", [1, 3, "2", None])
def test_a_journal_of_another_version_names_both_versions(tmp_path, whole, version):
    out = tmp_path / "db.txt"
    output, journal = _halfway(whole)
    _write(out, output, _with_header(journal, version=version))
    before = files_of(out)
    result = resume(out)
    assert result.exit_code == 2
    said = result.stderr
    assert said.count("\n") == 1 and said.startswith(f"rhasp: {out}: db.txt.shards beside it")
    if type(version) is int:
        assert f"version {version}," in said
    assert "reads version 2 only" in said
    assert "other options" not in said and "--size" not in said
    assert files_of(out) == before


def test_a_journal_of_other_options_names_those_that_differ_with_both_values(tmp_path, whole):
    out = tmp_path / "db.txt"
    _write(out, *_halfway(whole))
    before = files_of(out)
    result = rhasp(
        "enumerate", *FIVE, "--walls", "1", "--pieces", "2..9", "--out", str(out), "--resume"
    )
    assert result.exit_code == 2
    said = result.stderr
    assert said.count("\n") == 1
    assert "begun with --walls 0..0 and --pieces 1..25, where this run has" in said
    assert "this run has --walls 1..1 and --pieces 2..9" in said
    assert (
        "--size" not in said
        and "--exit-row" not in said
        and "shards" not in said.replace("db.txt.shards", "")
    )
    assert files_of(out) == before


@pytest.mark.parametrize(
    "entry",
    [b"[" * 100_000, b'{"shard": ' + b"9" * 5001 + b"}", b"\xff\xfe"],
    ids=["nested deeply", "a 5,001-digit number", "not UTF-8"],
)
def test_a_journal_entry_out_of_bounds_ends_the_journal_there(tmp_path, whole, replayed, entry):
    out = tmp_path / "db.txt"
    output, journal = _halfway(whole)
    lines = _lines(journal)
    _write(out, output, b"".join(lines[:41]) + entry + b"\n" + b"".join(lines[41:]))
    result = resume(out)
    assert result.exit_code == 0, result.stderr
    assert "line 42 cannot be read; recovered to its last valid entry (shard 40)" in result.stderr
    assert files_of(out) == whole


def test_a_recovered_journal_and_a_changed_file_are_said_in_a_line_each(tmp_path, whole, replayed):
    out = tmp_path / "db.txt"
    output, journal = _halfway(whole)
    lines = _lines(journal)
    _write(out, output, b"".join(lines[:41]) + b"not json\n" + b"".join(lines[41:]))
    result = resume(out)
    assert "line 42 cannot be read; recovered to its last valid entry (shard 40)" in result.stderr
    assert f"{out}: shards 1–40 verified against db.txt.shards" in result.stderr
    _write(out, *_halfway(whole))
    lines = _lines(out.read_bytes())
    out.write_bytes(b"".join([*lines[:-3], lines[-1], lines[-2], lines[-3]]))  # reordered
    result = resume(out)
    assert result.exit_code == 0
    assert "shard 60 does not match its journal entry" in result.stderr
    assert files_of(out) == whole


def test_resume_with_no_journal_refuses_and_leaves_the_file(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("notes\n")
    result = rhasp("enumerate", "--size", "4", "--out", str(notes), "--resume")
    assert result.exit_code == 2
    assert "there is no notes.txt.shards beside it" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert notes.read_text() == "notes\n"
    assert not notes.with_name("notes.txt.shards").exists()


def test_a_partial_or_finished_run_is_not_overwritten_without_resume(tmp_path, whole, replayed):
    out = tmp_path / "db.txt"
    _write(out, *_halfway(whole))
    before = files_of(out)
    result = rhasp("enumerate", *FIVE, "--out", str(out))
    assert result.exit_code == 2
    assert "holds a partial run" in result.stderr and "add --resume" in result.stderr
    assert files_of(out) == before
    _write(out, *whole)
    result = rhasp("enumerate", *FIVE, "--out", str(out))
    assert result.exit_code == 2 and "holds a finished run" in result.stderr
    assert files_of(out) == whole
    result = rhasp("enumerate", *FIVE, "--walls", "1", "--out", str(out), "--resume")
    assert result.exit_code == 2
    assert "begun with --walls 0..0, where this run has --walls 1..1" in result.stderr
    assert "from_goals" not in result.stderr and "min_walls" not in result.stderr
    assert files_of(out) == whole


def test_a_finished_run_resumed_is_checked_and_left_as_it_is(tmp_path, whole, replayed):
    out = tmp_path / "db.txt"
    _write(out, *whole)
    result = resume(out)
    assert result.exit_code == 0
    assert f"{out}: all 121 shards verified" in result.stderr
    assert files_of(out) == whole


# The lock: on the output file itself, whatever name reaches it.


def _held(path: Path) -> JournaledOutput:
    """An output a run is writing, as far as the lock can tell."""
    return JournaledOutput(path, "enumerate", {"size": 5}, 1, False, enumeration.option_flags)


@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symlink", "hard link"])
def test_a_second_run_through_another_name_of_the_output_refuses(tmp_path, link):
    real, other = tmp_path / "real.txt", tmp_path / "link.txt"
    held = _held(real)
    try:
        link(real, other)
        result = rhasp("enumerate", "--size", "4", "--out", str(other))
        assert result.exit_code == 2
        assert "another rhasp enumerate run is writing this file" in result.stderr
    finally:
        held.close()


def test_every_name_of_an_output_has_one_journal(tmp_path):
    real, link = tmp_path / "real.txt", tmp_path / "link.txt"
    link.symlink_to(real)
    assert rhasp("enumerate", "--size", "4", "--out", str(link)).exit_code == 0
    assert (tmp_path / "real.txt.shards").exists() and not (tmp_path / "link.txt.shards").exists()
    assert rhasp("enumerate", "--size", "4", "--out", str(real), "--resume").exit_code == 0


@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symlink", "hard link"])
def test_a_finished_output_is_not_overwritten_through_another_name(tmp_path, link):
    # Issue 39, item 14: a hard link has no journal beside its own name, and was taken for
    # someone else's file and overwritten (a finished --size 5 run, 56,332 bytes, became
    # the 726 of --size 4).
    real, other = tmp_path / "db.txt", tmp_path / "other.txt"
    assert rhasp("enumerate", "--size", "4", "--out", str(real)).exit_code == 0
    before = files_of(real)
    link(real, other)
    result = rhasp("enumerate", "--size", "4", "--walls", "1", "--out", str(other))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"rhasp: {other}: holds a run of rhasp enumerate")
    assert "db.txt.shards" in result.stderr
    assert files_of(real) == before
    resumed = rhasp("enumerate", "--size", "4", "--out", str(other), "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert "verified against db.txt.shards" in resumed.stderr
    assert not (tmp_path / "other.txt.shards").exists()
    assert files_of(real) == before


@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symlink", "hard link"])
def test_a_second_deck_run_through_another_name_of_its_results_refuses(tmp_path, link):
    real, other = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    held = ResultFile(real, resume=False)
    try:
        link(real, other)
        result = rhasp("deck", "puzzles/original40.txt", "--out", str(other), "--jobs", "1")
        assert result.exit_code == 2
        assert "another rhasp deck run is writing this file" in result.stderr
        assert real.read_text() == ""
    finally:
        held.close()


def test_a_finished_run_says_what_its_journal_is_for(tmp_path):
    out = tmp_path / "db4.txt"
    result = rhasp("enumerate", "--size", "4", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    said = " ".join(result.stderr.replace("│", " ").split())
    assert "db4.txt.shards: a checksum a shard" in said
    assert "--resume can check db4.txt whole" in said
    assert (tmp_path / "db4.txt.shards").exists()  # kept, as the summary says
