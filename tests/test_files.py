"""Output files are written in one piece: a failed or interrupted run never leaves half a file;
and a puzzle's name becomes a file in its folder, or is refused, never a path elsewhere."""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rhasp.cli import app
from rhasp.files import (
    existing,
    files_named,
    is_dir,
    is_file,
    names_a_file,
    unusable_file_name,
    written_whole,
)
from rhasp.formats import read_path
from tests.boards import ORIGINAL
from tests.command import runner


def test_a_file_appears_only_when_complete(tmp_path):
    dest = tmp_path / "deck.txt"
    with written_whole(dest) as temporary:
        temporary.write_text("half")
        assert not dest.exists() and temporary.parent == tmp_path
    assert dest.read_text() == "half"
    assert list(tmp_path.iterdir()) == [dest]


@pytest.mark.parametrize("fault", [OSError, KeyboardInterrupt])
def test_a_failed_write_leaves_the_old_file_whole_and_no_scrap(tmp_path, fault):
    dest = tmp_path / "card.txt"
    dest.write_text("the old puzzle\n")
    with pytest.raises(fault), written_whole(dest) as temporary:
        temporary.write_text("the new puz")
        raise fault
    assert dest.read_text() == "the old puzzle\n"
    assert list(tmp_path.iterdir()) == [dest]


def test_line_by_line_output_keeps_what_was_made_before_an_interrupt(tmp_path):
    dest = tmp_path / "generated.txt"
    with pytest.raises(KeyboardInterrupt), written_whole(dest, keep_partial=True) as temporary:
        temporary.write_text("15 line one\n")
        raise KeyboardInterrupt
    assert dest.read_text() == "15 line one\n"
    assert list(tmp_path.iterdir()) == [dest]


def test_a_picture_that_fails_half_drawn_is_not_left_behind(tmp_path, monkeypatch):
    def half_drawn(puzzle, path, cell, **options):
        path.write_bytes(b"\x89PNG half")
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr("rhasp.cli.render.render_board", half_drawn)
    dest = tmp_path / "card.png"
    result = runner.invoke(app, ["render", str(ORIGINAL / "card01.txt"), "-o", str(dest)])
    assert result.exit_code == 2 and "No space left on device" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_convert_and_hardest_write_their_files_whole(tmp_path):
    card = str(ORIGINAL / "card01.txt")
    line = tmp_path / "card01.line"
    assert runner.invoke(app, ["convert", card, "--to", "line", "-o", str(line)]).exit_code == 0
    hardest = tmp_path / "hardest.txt"
    assert runner.invoke(app, ["hardest", card, "-o", str(hardest)]).exit_code == 0
    assert sorted(tmp_path.iterdir()) == [line, hardest]
    assert line.read_text().count("\n") == 1
    assert read_path(str(hardest))[0].board == read_path(card)[0].board


def test_analyze_checks_where_its_pictures_go_before_drawing_any(tmp_path):
    unsolvable = str(ORIGINAL.parent / "examples" / "unsolvable.txt")
    graph, profile = tmp_path / "graph.svg", tmp_path / "profile.png"
    result = runner.invoke(
        app, ["analyze", unsolvable, "--graph", str(graph), "--profile", str(profile)]
    )
    assert result.exit_code == 2
    assert (
        result.stderr == f"rhasp: {graph}: no goal state is reachable: nothing to rank the "
        "states by\n"
    )
    assert list(tmp_path.iterdir()) == []  # neither picture, nor a scrap of one
    missing = tmp_path / "no" / "graph.svg"
    result = runner.invoke(app, ["analyze", unsolvable, "--graph", str(missing)])
    assert result.exit_code == 2 and result.stdout == ""  # refused before the work
    assert result.stderr == f"rhasp: {missing}: there is no folder {missing.parent} to write into\n"


FULL = Path("/dev/full")  # Linux: every write fails with "No space left on device"


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here")
def test_a_file_that_cannot_be_written_is_named_in_the_one_line(tmp_path):
    results = tmp_path / "results.jsonl"
    results.symlink_to(FULL)
    deck = runner.invoke(app, ["deck", str(ORIGINAL / "card01.txt"), "--out", str(results)])
    assert deck.exit_code == 2
    assert deck.stderr.startswith(f"rhasp: {results}: ")
    solve = subprocess.run(
        [sys.executable, "-m", "rhasp", "solve", str(ORIGINAL / "card01.txt"), "--engine", "bfs"],
        stdout=FULL.open("w"),
        stderr=subprocess.PIPE,
        text=True,
    )
    assert solve.returncode == 2
    assert solve.stderr == "rhasp: standard output: No space left on device\n"


def test_a_read_only_folder_is_named_by_the_file_asked_for_not_the_temporary(tmp_path, monkeypatch):
    # A read-only file system refuses the temporary file and then its clean-up too (unlink
    # raises there whether the file exists or not): the error must still name the file asked.
    def read_only(path, *args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    dest = tmp_path / "deck.txt"
    monkeypatch.setattr(Path, "unlink", read_only)
    with pytest.raises(OSError) as caught, written_whole(dest) as temporary:
        read_only(temporary)
    assert caught.value.filename == str(dest)


# --- a puzzle's name as a file name in a folder ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("../escaped", "holds '/'"),
        ("/tmp/escaped", "holds '/'"),
        ("a\\b", "holds '\\\\'"),
        ("ten:30", "holds ':'"),
        ("", "is empty"),
        ("..", "names a folder"),
        (".hidden", "starts with '.'"),
        ("con", "device"),
        ("NUL.x", "device"),
        ("x" * 252, "longer than the 255 bytes"),
    ],
)
def test_a_name_that_is_not_one_file_name_everywhere_is_refused(name, why):
    assert why in (unusable_file_name(name, ".txt") or "")


@pytest.mark.parametrize("name", ["card01", "deck-07", "my puzzle", "x" * 251, "con-1", "é"])
def test_a_plain_name_is_a_file_name(name):
    assert unusable_file_name(name, ".txt") is None


def test_names_that_would_share_a_file_or_leave_the_folder_are_refused_naming_both(tmp_path):
    named = [("same", "a.json"), ("../up", "b.json"), ("Same", "c.json"), ("same", "d.txt:3")]
    files, problems = files_named(tmp_path / "out", named, ".txt")
    assert files[0] == tmp_path / "out" / "same.txt"
    said = [str(problem) for problem in problems]
    assert said[0].startswith("b.json: the puzzle's name '../up' holds '/'")
    out = tmp_path / "out" / "same.txt"
    assert said[1].startswith(f"{out}: a.json (named 'same') and c.json (named 'Same')")
    assert said[2].startswith(f"{out}: a.json and d.txt:3, both named 'same'")
    assert len(said) == 3


def test_a_name_that_would_write_over_an_input_is_refused(tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    (source / "card01.txt").write_text("; card 1, hand-counted: 8 moves\n")
    files, problems = files_named(source, [("card01", "in/x.json")], ".txt", [str(source)])
    assert [str(problem) for problem in problems] == [
        f"{files[0]}: is the input {source / 'card01.txt'}: writing in/x.json here would "
        "overwrite it; choose another folder"
    ]
    assert files_named(source, [("card02", "in/x.json")], ".txt", [str(source)])[1] == []


def test_an_argument_is_a_file_only_where_something_is_there(tmp_path):
    plan = tmp_path / "plan.txt"
    plan.write_text("XR3\n")
    assert existing(str(plan)) == plan and is_file(str(plan)) and not is_dir(str(plan))
    assert is_dir(str(tmp_path)) and not is_file(str(tmp_path))
    # Text that cannot name a file is no file, not an error: a board on two lines, a NUL,
    # a name longer than the file system's 255 bytes; nothing at all (no plan, not ".").
    texts = (f"{plan}\n", "AA..\n..XX", "XR3\0", "x" * 5000, str(tmp_path / "gone.txt"), "", " ")
    for text in texts:
        assert existing(text) is None and not is_file(text) and not is_dir(text), text


@pytest.mark.parametrize(
    ("text", "suffixes", "names"),
    [
        ("myplan.txt", None, True),
        ("plans/card01", None, True),
        ("out.sas_plan", None, True),
        ("XR3", None, False),
        ("XR3 AL1", None, False),
        ("AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR.", None, False),  # ends in a dot, no letter
        ("card01.json", (".txt", ".json"), True),
        ("....AA.pl", (".txt", ".json"), False),  # not one of the suffixes given
        ("a/b.txt\nXR3", None, False),  # two lines: text, not a name
    ],
)
def test_what_reads_as_a_files_name(text, suffixes, names):
    assert names_a_file(text, suffixes) is names


def test_only_rhasp_files_asks_whether_an_argument_is_a_file():
    # docs/design.md, "One home for each idea": the API, the command line and the formats
    # ask rhasp/files.py (existing, is_file, is_dir), never the file system themselves.
    root = Path(__file__).resolve().parents[1] / "rhasp"
    asked = re.compile(r"Path\([^()]*\)\.(?:exists|is_file|is_dir)\(|_is_file\(|_names_a_file\(")
    modules = [*(root / "cli").glob("*.py"), *(root / "formats").glob("*.py")]
    found = [
        f"{path.relative_to(root)}:{number}"
        for path in [*modules, root / "notation.py", root / "api.py"]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if asked.search(line)
    ]
    assert found == []
