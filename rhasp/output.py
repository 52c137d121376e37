"""What people see: boards as framed text (coloured on a terminal), solutions as text or JSON."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.color import Color
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TaskID, TextColumn, TimeRemainingColumn
from rich.progress import Progress as Bar  # rich's bar; rhasp's Progress is rhasp.progress's
from rich.table import Table
from rich.text import Text

from rhasp.analysis import Analysis
from rhasp.errors import Limit, RanOut, counted
from rhasp.hints import Hint
from rhasp.model import EMPTY, WALL, Board, Puzzle, State, replay
from rhasp.notation import (
    ENGINE,
    READ,
    SEARCHES,
    STOPPED,
    WHY,
    Notation,
    format_plan,
)
from rhasp.plan_check import PlanCheck
from rhasp.progress import Silent
from rhasp.solution import Solution

WALL_STYLE = "white on grey23"
EMPTY_STYLE = "grey50"
#: Backgrounds from the 256-colour palette (the 16 basic colours differ from one terminal
#: theme to the next): reds for targets, other hues for the rest, far enough apart that
#: neighbours never look alike; each letter is black or white, whichever reads better on it.
TARGET_COLOURS = ("red3", "dark_red", "deep_pink4", "indian_red1")
VEHICLE_COLOURS = (
    "green4",
    "dark_orange3",
    "deep_sky_blue3",
    "gold3",
    "medium_purple3",
    "blue3",
    "orchid",
    "chartreuse3",
    "dark_cyan",
    "light_salmon3",
    "purple4",
    "tan",
    "dark_green",
    "cornflower_blue",
    "orange4",
    "dark_magenta",
)


def relative_luminance(colour: str) -> float:
    """WCAG 2's relative luminance of a colour rich knows by name."""
    channels = [value / 255 for value in Color.parse(colour).get_truecolor()]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def letter_style(background: str) -> str:
    """A bold letter on ``background``: black or white, whichever contrasts more with it
    (the 256-colour greys, which are black and white on every terminal)."""
    light = relative_luminance(background)
    on_white = 1.05 / (light + 0.05)
    on_black = (light + 0.05) / 0.05
    return f"bold {'grey100' if on_white > on_black else 'grey0'} on {background}"


def vehicle_styles(board: Board, states: Sequence[State]) -> dict[str, str]:
    """A style per vehicle, such that two vehicles touching side by side in any of ``states``
    (the boards shown together) never share a colour: each takes, in board order, the least
    used colour of its palette that no neighbour has taken yet (a palette runs out only when
    a vehicle touches more others than it has colours)."""
    neighbours = touching(board, states)
    colour: dict[str, str] = {}
    for vehicle in board.vehicles:
        label = vehicle.label
        palette = TARGET_COLOURS if label in board.targets else VEHICLE_COLOURS
        taken = {colour.get(other) for other in neighbours.get(label, ())}
        free = [c for c in palette if c not in taken] or list(palette)
        uses = list(colour.values())
        colour[label] = min(free, key=uses.count)  # the least used: as many hues as can be
    return {label: letter_style(background) for label, background in colour.items()}


def touching(board: Board, states: Sequence[State]) -> dict[str, set[str]]:
    """For each vehicle, the vehicles it touches side by side in some state of ``states``."""
    pairs: dict[str, set[str]] = {}
    for state in states:
        grid = board.grid(state)
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                for other in (
                    row[c + 1] if c + 1 < len(row) else EMPTY,
                    grid[r + 1][c] if r + 1 < len(grid) else EMPTY,
                ):
                    if cell != other and {cell, other}.isdisjoint({EMPTY, WALL}):
                        pairs.setdefault(cell, set()).add(other)
                        pairs.setdefault(other, set()).add(cell)
    return pairs


def board_text(board: Board, state: State, styles: Mapping[str, str] | None = None) -> Text:
    """The board in a frame (:meth:`~rhasp.model.Board.framed`); the exits show as
    ``> < v ^`` in the frame. ``styles`` colour the vehicles (:func:`vehicle_styles` of every
    board shown with this one), by default those of this board alone."""
    styles = styles or vehicle_styles(board, [state])
    top, *rows, bottom = board.framed(state)
    text = Text(top + "\n")
    for row in rows:
        text.append(row[0])
        for cell in row[1:-1]:
            style = EMPTY_STYLE if cell == EMPTY else WALL_STYLE if cell == WALL else styles[cell]
            text.append(cell, style)
        text.append(row[-1] + "\n")
    text.append(bottom)
    return text


def reading_text(puzzle: Puzzle) -> str:
    """``target X, leaving right of row 3``: what the reader inferred, or the empty string."""
    return "; ".join(puzzle.reading)


def with_reading(record: dict[str, Any], puzzle: Puzzle) -> dict[str, Any]:
    """A JSON ``record`` of ``puzzle`` with ``"read"`` (:func:`reading_text`) after its first
    field, the puzzle's name, when the reader inferred anything: the JSON of solve, check
    and analyze alike."""
    if not puzzle.reading:
        return record
    (first, name), *rest = record.items()
    return {first: name, "read": reading_text(puzzle), **dict(rest)}


#: How the command line says to go further after each kind of limit: the option that raises
#: it (the page, where no option can be raised, says what the position needs instead).
ADVICE: dict[RanOut, str] = {
    "states": "raise --max-states",
    "atoms": "raise --max-atoms",
    "horizon": "raise --max-horizon",
    "memory": "lower --max-states, or free memory",
    "address space": "raise ulimit -v, or use --engine bfs",
}


#: What the command line says when ``rhasp generate`` ends short of its count, by the bound
#: that ended it (the page, whose bounds are the server's, says to try again).
GENERATE_ADVICE: dict[RanOut, str] = {
    "time": "ask for fewer moves, or allow more seconds",
    "boards": "ask for fewer moves, or allow more boards",
}


def advised(limit: Limit) -> str:
    """A limit in the command line's words: what stopped, then how to go further
    (``state limit reached after 1,000 states at depth 7 (raise --max-states)``)."""
    advice = [ADVICE[kind] for kind in limit.kinds() if kind in ADVICE]
    return f"{limit} ({'; '.join(advice)})" if advice else str(limit)


def proof_text(proofs: tuple[str, ...]) -> str:
    """``asp horizon proof, bfs agrees``: the first proof, then the engines that confirm it."""
    first, *others = proofs
    text = "asp horizon proof" if first == "asp" else f"proven by {first}"
    return ", ".join([text, *(f"{other} agrees" for other in others)])


def stopped_text(solution: Solution, verbose: bool = False) -> str:
    """`` (asp stopped)``: the searches that stopped short of the answer another proved, so
    that no one reads the answer as theirs; why they stopped, under ``verbose`` (and in the
    JSON), as :func:`stopped_words` says it."""
    return f" ({stopped_said(solution, verbose)})" if solution.stopped else ""


def stopped_said(solution: Solution, verbose: bool) -> str:
    """Each search that stopped short, briefly or (``verbose``) with why, joined by ``; ``."""
    return "; ".join(
        stopped_words(name, why) if verbose else stopped_briefly(name, why)
        for name, why in solution.stopped.items()
    )


def stopped_words(name: str, why: Limit) -> str:
    """``asp stopped: timed out at horizon 76``; a BFS stopped at its share of a
    confirmation says so itself: ``bfs stopped at 1,000,043 states, its share``."""
    return f"{name} {why}" if why.ran_out == "share" else f"{name} stopped: {advised(why)}"


def stopped_briefly(name: str, why: Limit) -> str:
    """``bfs stopped at its share`` or ``asp stopped``: the summary line's word on it."""
    return f"{name} stopped at its share" if why.ran_out == "share" else f"{name} stopped"


def searches_line(solution: Solution) -> str | None:
    """``searched: astar 7,925 states 0.08 s; bfs stopped at 1,000,043 states 2.43 s``: each
    search's states and seconds, when an engine was confirmed by another; else None."""
    if len(solution.searches) < 2:
        return None
    parts = []
    for name, figures in solution.searches.items():
        states = figures.explored
        stopped = "stopped at " if figures.stopped else ""
        counted_states = "" if states is None else f"{stopped}{counted(states, 'state')} "
        parts.append(f"{name} {counted_states}{figures.seconds:.2f} s")
    return SEARCHES + "; ".join(parts)


def summary(solution: Solution) -> str:
    """The answer in one line: the puzzle, the plan's length, what proves it optimal, and the
    time. Short, so that it reads at a glance on a terminal of 80 to 100 columns; the engines'
    work is in :func:`details`, and the whole of it in the JSON."""
    parts = [solution.puzzle.name]
    if solution.limit:
        parts += [f"{solution.objective}: {advised(solution.limit)}", "nothing proven beyond that"]
        parts.append(f"engine {solution.engine}")
    elif not solution.has_plan:
        proof = f"proven by {' and '.join(solution.proofs)}"
        if solution.static is None:  # the static proof is a line of its own
            proof += f": all {solution.explored:,} reachable states explored"
        parts += ["no solution", proof]
    else:
        length = f"{solution.objective} {solution.length}"
        if solution.objective == "slides":
            length += f" (in {counted(solution.moves, 'move')})"
        parts += [length, f"optimal: {proof_text(solution.proofs)}{stopped_text(solution)}"]
    parts.append(f"{solution.seconds:.2f} s")
    return " · ".join(parts)


def details(solution: Solution, verbose: bool) -> list[str]:
    """The lines under the summary: why a puzzle has no solution, as static analysis proved
    it, and the engine, when the board's size chose it, and why (always: they are the
    answer's reasons); with ``verbose``, the engine and its work, each search's states and
    seconds, and why a search stopped. Each begins with a word and a colon
    (:data:`rhasp.notation.BESIDE_THE_PLAN`), so that a plan read back skips them. First,
    always, what the reader inferred (the target and its exit, say): which puzzle this is."""
    lines = [READ + reading] if (reading := reading_text(solution.puzzle)) else []
    if solution.static and not solution.has_plan:
        lines.append(f"{WHY}{solution.static}")
    engine = f"{ENGINE}{solution.engine}" + (f" ({solution.chosen})" if solution.chosen else "")
    if not verbose:
        return lines + ([engine] if solution.chosen else [])
    asp = solution.asp
    if asp:
        engine += (
            f"; horizon {asp.horizon}, {counted(asp.choices, 'choice')}, "
            f"{counted(asp.conflicts, 'conflict')}" + memo_text(asp.memo)
        )
    if solution.engine not in solution.proofs and not solution.has_plan and not solution.limit:
        engine += f"; the {solution.engine} search was not started"
    lines.append(engine)
    searches = searches_line(solution)
    if searches:
        lines.append(searches)
    elif solution.explored is not None:
        counter = solution.proofs[-1] if solution.proofs else solution.engine  # the last search
        lines.append(f"{SEARCHES}{counter} {counted(solution.explored, 'state')}")
    if solution.stopped:
        lines.append(f"{STOPPED}{stopped_said(solution, verbose=True)}")
    return lines


def solution_text(
    solution: Solution, notation: Notation, boards: bool, verbose: bool = False
) -> Text:
    """The summary line, the lines under it (:func:`details`) and the numbered plan, with the
    board after each move if asked."""
    under = "".join(f"  {line}\n" for line in details(solution, verbose))
    text = Text(summary(solution) + "\n" + under)
    if solution.plan is None:
        return text
    board = solution.puzzle.board
    moves = format_plan(solution.plan, board, notation)
    if not boards:
        text.append("".join(f"{number:4d}. {move}\n" for number, move in enumerate(moves, 1)))
        return text
    states = replay(solution.puzzle, solution.plan).states
    styles = vehicle_styles(board, states)  # one colour a vehicle for the whole plan
    text.append(board_text(board, states[0], styles) + "\n")
    for number, (move, state) in enumerate(zip(moves, states[1:], strict=True), 1):
        text.append(f"{number:4d}. {move}\n")
        text.append(board_text(board, state, styles) + "\n")
    return text


#: The fields of the JSON of a solve, in order: the findings every record of a solution
#: shares (:meth:`~rhasp.solution.Solution.findings`) with what a solve says besides.
SOLVE_FIELDS = (
    *("puzzle", "objective", "solved", "length", "moves", "slides", "plan", "optimal"),
    *("proven_by", "engine", "explored", "seconds", "limit", "stopped", "engine_chosen"),
)


def solution_dict(solution: Solution, notation: Notation) -> dict[str, Any]:
    """The JSON record of a solution: its findings, what was asked (``objective``), whether
    it was ``solved`` and so proven ``optimal``, the ``engine`` and why it was chosen, and
    the work behind it (:func:`figures_record`); ``plan`` is in card notation whatever
    ``notation`` is, which adds ``plan_arrow`` or ``plan_signed``."""
    said = solution.findings() | {
        "objective": solution.objective,
        "solved": solution.has_plan,
        "optimal": solution.has_plan,
        "engine": solution.engine,
    }
    if solution.chosen:
        said["engine_chosen"] = solution.chosen
    record = {name: said[name] for name in SOLVE_FIELDS if name in said}
    if notation != "card" and solution.plan is not None:
        record["plan_" + notation] = format_plan(solution.plan, solution.puzzle.board, notation)
    return with_reading(record | figures_record(solution), solution.puzzle)


def figures_record(solution: Solution) -> dict[str, Any]:
    """The work behind a solution, as the JSON has it: each search's figures under its
    engine's name (clingo's, under ``asp``), the static proof under ``static``, and
    ``bfs_agrees`` when the confirming search agreed."""
    record: dict[str, Any] = {
        name: solution.asp.record() if name == "asp" and solution.asp else figures.record()
        for name, figures in solution.searches.items()
    }
    if solution.asp and "asp" not in record:
        record["asp"] = solution.asp.record()
    if solution.static is not None:
        record["static"] = solution.static
    if len(solution.proofs) > 1:
        record[f"{solution.proofs[-1]}_agrees"] = True
    return record


def memo_text(memo: Mapping[str, int] | None) -> str:
    """``, memo 2,933 states, 13,108 nogoods``: what the state memo did, if it ran."""
    if not memo:
        return ""
    return f", memo {counted(memo['states'], 'state')}, {counted(memo['nogoods'], 'nogood')}"


def hint_lines(
    hint: Hint, puzzle: Puzzle, played: int, notation: Notation, reading: str
) -> list[str]:
    """The text of ``rhasp hint`` (:meth:`~rhasp.hints.Hint.lines`) for the position
    ``puzzle`` reached after the moves ``played``."""
    return replace(hint, puzzle=puzzle).lines(played, notation, reading)


def check_lines(result: PlanCheck, reading: str = "") -> list[str]:
    """The text report of :func:`rhasp.plan_check.check_plan`
    (:meth:`~rhasp.plan_check.PlanCheck.lines`); ``reading`` (what the reader inferred,
    :func:`reading_text`) on a line under its verdict."""
    return result.lines(reading)


class LiveLine(Silent):
    """One line on a terminal that a long computation rewrites as it goes.

    Silent for the first second (most work is over by then) and off the terminal: a pipe or a
    JSON consumer never sees it. ``done`` wipes the line before the answer prints.
    """

    def __init__(self, console: Console, after: float = 1.0) -> None:
        self.console = console
        self.after = after
        self.shown = False

    def show(self, text: str, seconds: float) -> None:
        if seconds < self.after or not self.console.is_terminal:
            return
        self.console.file.write(f"\r\x1b[K{text}")
        self.console.file.flush()
        self.shown = True

    def stop(self) -> None:
        if self.shown:
            self.console.file.write("\r\x1b[K")
            self.console.file.flush()
            self.shown = False


class ProofProgress(LiveLine):
    """The live line of a long ASP proof: horizon (the depth), time so far, memo size (the
    states)."""

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        memo = f" · {states:,} states in the memo" if states else ""
        self.show(f"proving horizon {depth} · {seconds:.1f} s{memo}", seconds)


class SearchLine(LiveLine):
    """The live line of a long search: states found, depth (or A*'s f-value), rate."""

    def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
        rate = states / seconds if seconds > 0 else 0
        text = f"searching: {counted(states, 'state')} · {measure} {depth} · {rate:,.0f} states/s"
        self.show(text, seconds)


class GenerateProgress(LiveLine):
    """The progress of ``rhasp generate``: boards scored, the deepest puzzle proven so far,
    puzzles kept and the seconds to its time limit (a bound, not an estimate); on a terminal
    a live line, else a plain line every ``every`` seconds, and at the end one with the final
    figures if they moved since."""

    def __init__(self, console: Console, every: float = 30.0) -> None:
        super().__init__(console)
        self.every = every
        self.began = self.last = time.perf_counter()
        self.tally: Any = None  # the run's own count, which goes on after the last advance
        self.printed: str | None = None  # the figures of the last plain line

    def advance(self, tally: Any) -> None:
        self.tally = tally
        now = time.perf_counter()
        text = f"generating: {self.figures()} · {tally.seconds_left():,.0f} s to its time limit"
        if self.console.is_terminal:
            self.show(text, now - self.began)
        elif now - self.last >= self.every:
            self.last = now
            self.printed = self.figures()
            self.console.print(text, markup=False)

    def figures(self) -> str:
        tally = self.tally
        deepest = "none yet" if tally.deepest is None else counted(tally.deepest, "move")
        boards, kept = counted(tally.boards, "board"), counted(tally.kept, "puzzle")
        return f"{boards} · deepest {deepest} · {kept} kept"

    def stop(self) -> None:
        super().stop()
        if self.printed is not None and self.figures() != self.printed:
            self.printed = self.figures()
            self.console.print(f"generated: {self.printed}", markup=False)


class DeckProgress(Silent):
    """A progress bar with rate and ETA on a terminal, else a plain line every few seconds."""

    doing, unit = "solving", "puzzles"  # the bar's description, and what it counts

    def __init__(self, console: Console, every: float = 5.0) -> None:
        self.console = console
        self.every = every
        self.bar: Bar | None = None
        self.task: TaskID | None = None
        self.began = self.last = 0.0
        self.total = self.skipped = 0
        self.latest: Any = None  # the last tally shown
        self.first: tuple[float, int] | None = None  # when the first result came, and the count

    def start(self, total: int, skipped: int, resumed: Any = None) -> None:
        self.total, self.skipped = total, skipped
        self.began = self.last = time.perf_counter()
        if skipped:
            self.console.print(f"resuming: {skipped:,} {self.unit} already done, {total:,} to go")
        if self.console.is_terminal:
            self.bar = Bar(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeRemainingColumn(),
                console=self.console,
            )
            self.task = self.bar.add_task(self.doing, total=total, rate="")
            self.bar.start()

    def advance(self, tally: Any) -> None:
        self.latest = tally
        now = time.perf_counter()
        done = self.count(tally)
        if self.first is None:
            self.first = (now, done)
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, completed=done, rate=self.detail(tally, now - self.began))
        elif now - self.last >= self.every:
            self.last = now
            line = f"{done:,}/{self.total:,} {self.unit} · {self.detail(tally, now - self.began)}"
            left = self.seconds_left(now, done)
            self.console.print(line if left is None else f"{line} · {left:,.0f} s left")

    def seconds_left(self, now: float, done: int) -> float | None:
        """The time the rest takes at the pace since the first result, or None before a second
        one: the wait for the first result (start-up, compiling the search core on a fresh
        install) says nothing of the pace, and counting it made a first 5×5 enumeration say
        4,022 s left of a run of 35 s."""
        began, first = self.first or (now, done)
        if done <= first:
            return None
        return (self.total - done) * (now - began) / (done - first)

    def count(self, tally: Any) -> int:
        """How much of the total this run has done: the tally counts the records a resumed
        run kept too."""
        return tally.puzzles - self.skipped

    def detail(self, tally: Any, seconds: float) -> str:
        """What the line says besides the count: the rate."""
        return f"{self.count(tally) / max(seconds, 1e-9):,.0f}/s"

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()

    def kept(self) -> str:
        """What a run stopped now keeps, counting what it resumed from: ``12 of 40 puzzles``."""
        done = self.skipped + (self.count(self.latest) if self.latest is not None else 0)
        return f"{done:,} of {self.skipped + self.total:,} {self.unit}"

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.began


class EnumerationProgress(DeckProgress):
    """The progress of ``rhasp enumerate``: shards done, layouts a second, puzzles found, ETA.
    On a resumed run, what was done before is counted in neither the bar nor the rate."""

    doing, unit = "enumerating", "shards"

    def __init__(self, console: Console, every: float = 30.0) -> None:
        super().__init__(console, every)
        self.layouts_before = 0  # layouts done before this run

    def note(self, text: str) -> None:
        """A line on what an earlier run's files held (what ``--resume`` verified)."""
        self.console.print(text, markup=False)

    def start(self, total: int, skipped: int, resumed: Any = None) -> None:
        """``resumed``, the tally of the shards kept, is counted in neither bar nor rate."""
        self.layouts_before = 0 if resumed is None else resumed.layouts
        super().start(total, skipped, resumed)

    def count(self, tally: Any) -> int:
        return tally.shards - self.skipped

    def detail(self, tally: Any, seconds: float) -> str:
        rate = (tally.layouts - self.layouts_before) / max(seconds, 1e-9)
        return f"{rate:,.0f} layouts/s · {counted(tally.puzzles, 'puzzle')}"


def seconds_row(working: float, in_all: float | None, doing: str) -> tuple[str, str]:
    """The seconds a summary table gives, saying what they cover: the work itself, and, when
    start-up (loading or compiling the search core) took a second or more, the whole run
    (``in_all``, when known)."""
    text = f"{working:,.1f} {doing}"
    if in_all is not None and in_all - working >= 1.0:
        text += f", {in_all:,.1f} in all (start-up and compiling the search core included)"
    return "seconds", text


def enumeration_table(
    tally: Any, seconds: float, journal: Path | None = None, in_all: float | None = None
) -> Table:
    """The summary of ``rhasp enumerate``: what was enumerated and found, the puzzles by
    moves, and what the journal beside the output is for."""
    table = Table(title="enumeration summary", show_header=False)
    rows = [
        ("layouts", f"{tally.layouts:,}"),
        ("least layouts (one a cluster)", f"{tally.least:,}"),
        ("solvable clusters", f"{tally.solvable:,}"),
        ("puzzles", f"{tally.puzzles:,}"),
        ("hardest", tally.hardest or "-"),
        seconds_row(seconds, in_all, "enumerating"),
    ]
    if journal is not None:
        output = journal.stem  # FILE of FILE.shards
        rows.append(
            (
                "journal",
                f"{journal.name}: a checksum a shard, kept so that --resume can check "
                f"{output} whole at any time; delete it when you no longer need that",
            )
        )
    for name, value in rows:
        table.add_row(name, value)
    if tally.by_moves:
        table.add_row("by moves", _bars(tally.by_moves))
    return table


def _bars(counts: Mapping[int, int]) -> str:
    """A text histogram, a line per value: the value, a bar, the count."""
    peak = max(counts.values())
    return "\n".join(
        f"{value:3d} {'█' * max(1, round(30 * n / peak))} {n:,}"
        for value, n in sorted(counts.items())
    )


def tally_table(tally: Any, seconds: float, verify: bool, in_all: float | None = None) -> Table:
    """The summary of a deck run: counts, rate, peak memory (when known), lengths, and every
    mismatch. A resumed run counts the whole deck, the records it kept from ``--out`` too (and
    says how many), as its exit code does; the rate and the memory are of what it did itself."""
    table = Table(title="deck summary", show_header=False)
    rate = (tally.puzzles - tally.kept) / seconds if seconds > 0 else 0.0
    rows = [
        *([("kept from --out", tally.kept)] if tally.kept else []),
        ("puzzles", tally.puzzles),
        ("solved", tally.solved),
        ("unsolvable", tally.unsolvable),
        ("limits reached", tally.limited),
        ("bad lines", tally.errors),
        ("mismatches", _mismatches(tally) if verify else "-"),
        ("puzzles/s", f"{rate:,.1f}"),
        seconds_row(seconds, in_all, "solving"),
        *([("peak memory", memory_text(tally.peak_memory))] if tally.peak_memory else []),
    ]
    for name, value in rows:
        table.add_row(name, f"{value:,}" if isinstance(value, int) else value)
    if tally.lengths:
        table.add_row("lengths", _bars(tally.lengths))
    for record in tally.mismatches:
        table.add_row(
            f"mismatch line {record.line}",
            "; ".join(
                f"{name}: found {getattr(record, name)}, deck says "
                f"{getattr(record, f'expected_{name}')}"
                for name in record.mismatch.split(", ")
            ),
        )
    return table


def memory_text(peak: int) -> str:
    """A run's peak memory (:func:`rhasp.limits.peak_memory`, bytes) as its summary says it:
    in MiB, and whose it is."""
    return f"{peak / (1 << 20):,.1f} MiB (the largest process: this one or a worker)"


def _mismatches(tally: Any) -> str:
    """Mismatches of a --verify run, and how many puzzles were compared at all: a deck whose
    lines give no figures is not a pass."""
    if not tally.verified:
        return "nothing verified: no line gives MOVES or CLUSTER figures"
    return f"{len(tally.mismatches):,} of {tally.verified:,} verified"


def analysis_text(analysis: Analysis, board: Board, reading: str = "") -> Text:
    """The figures of ``rhasp analyze`` (:meth:`~rhasp.analysis.Analysis.lines`), then the
    first hardest state drawn as a board in colour."""
    text = Text("".join(line + "\n" for line in analysis.lines(reading)))
    if analysis.hardest:
        text.append_text(board_text(board, analysis.hardest[0]))
        text.append("\n")
    return text
