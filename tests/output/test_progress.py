"""The terminal's displays of running work, all written through one :class:`Screen`: on a
terminal a region rewritten in place (a line wiped at the end, a bar that stays), off it
plain lines now and then and never an escape."""

from __future__ import annotations

import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console
from rich.text import Text

from rhasp.output import progress
from rhasp.output.progress import (
    DeckProgress,
    EnumerationProgress,
    GenerateProgress,
    ProofProgress,
    Screen,
    SearchLine,
)

ESCAPE = re.compile(r"\x1b\[(\??)(\d*)([A-Za-z])")


def visible(stream: str) -> list[str]:
    """The lines a terminal shows after ``stream``, worked out from the few escapes a live
    region uses (any other fails the test): carriage return, new line, cursor up, erase the
    line (or its rest), show or hide the cursor, colours (which show nothing)."""
    lines, row, column, at = [""], 0, 0, 0
    for escape in [*ESCAPE.finditer(stream), None]:
        for char in stream[at : escape.start() if escape else len(stream)]:
            if char == "\r":
                column = 0
            elif char == "\n":
                row, column = row + 1, 0
                lines += [""] * (row + 1 - len(lines))
            else:
                line = lines[row].ljust(column)
                lines[row] = line[:column] + char + line[column + 1 :]
                column += 1
        if escape is None:
            break
        at = escape.end()
        private, count, code = escape.groups()
        if (private and count == "25" and code in "hl") or code == "m":  # the cursor; colours
            continue
        if code == "A":
            row -= int(count or 1)
        elif code == "K" and count in ("", "2"):
            lines[row] = "" if count == "2" else lines[row][:column]
        else:
            pytest.fail(f"an escape the test does not know: {escape.group()!r}")
    return [line.rstrip() for line in lines]


def shown(stream: str) -> list[str]:
    """The lines a terminal shows after ``stream``, but the empty ones."""
    return [line for line in visible(stream) if line]


LINES = [
    (ProofProgress, 2_105, "horizon", "proving horizon 7 · 1.5 s · 2,105 states in the memo"),
    (SearchLine, 3_000, "depth", "searching: 3,000 states · depth 7 · 2,000 states/s"),
]


@pytest.mark.parametrize(("display", "states", "measure", "said"), LINES)
def test_a_live_line_shows_after_a_second_in_place_and_is_wiped_at_the_end(
    display, states, measure, said
):
    terminal = Console(file=io.StringIO(), force_terminal=True, width=100)
    live = display(terminal)
    live.searching(120, 3, 0.5, measure)
    assert terminal.file.getvalue() == ""  # most work is over within the first second
    live.searching(10, 2, 1.2, measure)
    live.searching(states, 7, 1.5, measure)
    assert shown(terminal.file.getvalue()) == [said]  # one line, rewritten in place
    live.stop()
    written = terminal.file.getvalue()
    assert shown(written) == []
    assert written.rindex("\x1b[?25h") > written.rindex("\x1b[?25l")  # the cursor is back
    pipe = Console(file=io.StringIO(), force_terminal=False)
    off = display(pipe)
    off.searching(states, 7, 5.0, measure)
    off.stop()
    assert pipe.file.getvalue() == ""


@dataclass
class Generated:
    boards: int
    deepest: int | None
    kept: int

    def seconds_left(self) -> float:
        return 100.0


def test_the_generate_line_is_live_on_a_terminal_and_plain_lines_off_it(monkeypatch):
    clock = iter([0.0, 2.0, 3.0])
    monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
    terminal = Console(file=io.StringIO(), force_terminal=True, width=100)
    live = GenerateProgress(terminal)
    live.advance(Generated(40, 3, 1))  # at 2 s
    live.advance(Generated(90, 5, 2))  # at 3 s
    said = "generating: 90 boards · deepest 5 moves · 2 puzzles kept · 100 s to its time limit"
    assert shown(terminal.file.getvalue()) == [said]
    live.stop()
    assert shown(terminal.file.getvalue()) == []
    clock = iter([0.0, 2.0, 3.0])
    pipe = Console(file=io.StringIO(), force_terminal=False, width=200)
    plain = GenerateProgress(pipe, every=2.0)
    plain.advance(Generated(40, 3, 1))  # at 2 s: a line
    plain.advance(Generated(90, 5, 2))  # at 3 s: within 2 s of it, none
    plain.stop()  # the figures moved since: the last line says them
    assert pipe.file.getvalue().splitlines() == [
        "generating: 40 boards · deepest 3 moves · 1 puzzle kept · 100 s to its time limit",
        "generated: 90 boards · deepest 5 moves · 2 puzzles kept",
    ]


def test_a_deck_bar_stays_when_the_run_ends_and_says_the_count():
    terminal = Console(file=io.StringIO(), force_terminal=True, width=100)
    bar = DeckProgress(terminal)
    bar.start(3, 0)
    for done in (1, 2, 3):
        bar.advance(SimpleNamespace(puzzles=done))
    bar.stop()
    (last,) = shown(terminal.file.getvalue())
    assert re.match(r"solving\s.*\s3/3\s", last), last


def test_off_a_terminal_a_deck_writes_plain_lines_and_no_escape():
    pipe = Console(file=io.StringIO(), force_terminal=False, width=200)
    plain = DeckProgress(pipe, every=0.0)
    plain.start(3, 1)
    for done in (2, 3):
        plain.advance(SimpleNamespace(puzzles=done))
    plain.stop()
    written = pipe.file.getvalue()
    assert "\x1b" not in written
    assert written.splitlines()[0] == "resuming: 1 puzzles already done, 3 to go"
    assert [line.split(" · ")[0] for line in written.splitlines()[1:]] == [
        "1/3 puzzles",
        "2/3 puzzles",
    ]


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("stdout", "above"), [(io.StringIO, False), (Tty, True)])
def test_while_a_bar_shows_standard_output_goes_above_it_only_if_a_terminal_too(
    monkeypatch, stdout, above
):
    # A deck's records go to standard output while its bar shows on standard error: into
    # the file or pipe they are meant for, or, on the same terminal, above the bar.
    out = stdout()
    monkeypatch.setattr(sys, "stdout", out)
    terminal = Console(file=io.StringIO(), force_terminal=True, width=100)
    screen = Screen(terminal, bar=True)
    screen.draw(Text("solving 1/2"))
    print("a record")
    screen.stop()
    assert shown(terminal.file.getvalue()) == (["a record"] if above else []) + ["solving 1/2"]
    assert out.getvalue() == ("" if above else "a record\n")


def test_no_module_writes_an_escape_and_one_makes_the_live_region():
    """One writer: rich draws every live region, made in one place (:class:`Screen`)."""
    package = Path(progress.__file__).resolve().parents[1]
    escapes, made = [], []
    for path in sorted(package.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.relative_to(package.parent)}:{number}"
            if re.search(r"\\x1b|\\033|\\u001b", line):
                escapes.append(where)
            if re.search(r"\bLive\(", line):
                made.append(where.rsplit(":", 1)[0])
    assert escapes == []
    assert made == ["rhasp/output/progress.py"]


@dataclass
class Figures:
    shards: int
    layouts: int
    puzzles: int


def test_a_resumed_enumerations_line_counts_this_runs_layouts_only(monkeypatch):
    clock = iter([100.0, 102.0, 103.0])
    monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
    screen = io.StringIO()
    shown = EnumerationProgress(Console(file=screen, force_terminal=False), every=0.0)
    # At 100 s: 2 shards done before (1,000 layouts), 4 to go.
    shown.start(4, 2, Figures(shards=2, layouts=1_000, puzzles=5))
    shown.advance(Figures(shards=3, layouts=1_600, puzzles=7))  # at 102 s
    shown.advance(Figures(shards=4, layouts=1_900, puzzles=8))  # at 103 s
    # 600 layouts in 2 s, then 900 in 3 s; no pace before the second shard, then 1 shard in
    # the 1 s since the first, so the 2 left take 2 s.
    assert screen.getvalue().splitlines() == [
        "resuming: 2 shards already done, 4 to go",
        "1/4 shards · 300 layouts/s · 7 puzzles",
        "2/4 shards · 300 layouts/s · 8 puzzles · 2 s left",
    ]
    assert shown.kept() == "4 of 6 shards"


def test_the_time_left_leaves_out_the_wait_for_the_first_result(monkeypatch):
    # A fresh install compiles the search core before the first shard (here 60 s),
    # then shards come every second: 8 left at that pace take 8 s, not 8 x 30.5.
    clock = iter([0.0, 60.0, 61.0, 62.0])
    monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
    screen = io.StringIO()
    shown = DeckProgress(Console(file=screen, force_terminal=False), every=0.0)
    shown.start(10, 0)
    for done in (1, 2):
        shown.advance(SimpleNamespace(puzzles=done))
    assert screen.getvalue().splitlines()[-1].endswith("· 8 s left")
