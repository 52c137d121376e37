"""What people see: boards as framed text (coloured on a terminal), solutions as text or JSON."""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TaskID, TextColumn, TimeRemainingColumn
from rich.progress import Progress as Bar  # rich's bar; rhasp's Progress is rhasp.progress's
from rich.table import Table
from rich.text import Text

from rhasp.analysis import Analysis
from rhasp.engines import Solution
from rhasp.errors import counted
from rhasp.model import EMPTY, WALL, Board, State, replay
from rhasp.notation import Notation, format_plan
from rhasp.plan_check import PlanCheck
from rhasp.progress import Silent

TARGET_STYLE = "bold white on red3"
WALL_STYLE = "white on grey23"
EMPTY_STYLE = "grey50"
_PALETTE = [
    "green4",
    "dark_orange3",
    "deep_sky_blue3",
    "gold3",
    "medium_purple3",
    "dark_cyan",
    "orchid",
    "chartreuse3",
    "steel_blue",
    "light_salmon3",
    "turquoise4",
    "plum4",
]
_EXIT_MARK = {"right": ">", "left": "<", "bottom": "v", "top": "^"}


def vehicle_style(board: Board, label: str) -> str:
    if label in board.targets:
        return TARGET_STYLE
    index = board.index(label)
    return f"bold white on {_PALETTE[index % len(_PALETTE)]}"


def board_text(board: Board, state: State) -> Text:
    """The board in a frame; the exits show as ``> < v ^`` in the frame."""
    grid = board.grid(state)
    openings = {(side, board.vehicles[board.index(label)].line) for label, side in board.exits}
    text = Text()
    text.append(_border(board, "top", openings) + "\n")
    for r, row in enumerate(grid):
        text.append(_EXIT_MARK["left"] if ("left", r) in openings else "|")
        for cell in row:
            style = EMPTY_STYLE if cell == EMPTY else WALL_STYLE if cell == WALL else None
            text.append(cell, style or vehicle_style(board, cell))
        text.append((_EXIT_MARK["right"] if ("right", r) in openings else "|") + "\n")
    text.append(_border(board, "bottom", openings))
    return text


def _border(board: Board, side: str, openings: set[tuple[str, int]]) -> str:
    cells = "".join(_EXIT_MARK[side] if (side, c) in openings else "-" for c in range(board.width))
    return f"+{cells}+"


def proof_text(proofs: tuple[str, ...]) -> str:
    """``asp horizon proof, bfs agrees``: the first proof, then the engines that confirm it."""
    first, *others = proofs
    text = "asp horizon proof" if first == "asp" else f"proven by {first}"
    return ", ".join([text, *(f"{other} agrees" for other in others)])


def stopped_text(solution: Solution) -> str:
    """`` (asp stopped: timed out at horizon 76)``: the searches that stopped short of the
    answer another proved, so that no one reads the answer as theirs."""
    if not solution.stopped:
        return ""
    return f" ({'; '.join(f'{name} stopped: {why}' for name, why in solution.stopped.items())})"


def summary(solution: Solution) -> str:
    """One line: puzzle, objective and length, proof, engine, states explored, time."""
    parts = [solution.puzzle.name]
    if solution.limit:
        parts += [f"{solution.objective}: {solution.limit}", "nothing proven beyond that"]
    elif not solution.has_plan:
        static = solution.stats.get("static")
        reason = static or f"all {solution.explored:,} reachable states explored"
        parts += ["no solution", f"proven by {' and '.join(solution.proofs)}: {reason}"]
        if solution.engine not in solution.proofs:
            parts.append(f"the {solution.engine} search was not started")
    else:
        length = f"{solution.objective} {solution.length}"
        if solution.objective == "slides":
            length += f" (in {counted(solution.moves, 'move')})"
        parts += [length, f"optimal: {proof_text(solution.proofs)}{stopped_text(solution)}"]
    parts.append(f"engine {solution.engine}")
    asp = solution.stats.get("asp")
    if asp:
        parts.append(
            f"horizon {asp['horizon']}, {counted(asp['choices'], 'choice')}, "
            f"{counted(asp['conflicts'], 'conflict')}" + memo_text(asp.get("memo"))
        )
    if solution.explored is not None:
        counter = solution.proofs[-1] if solution.proofs else solution.engine  # the last search
        by = f" by {counter}" if counter != solution.engine else ""
        parts.append(f"{counted(solution.explored, 'state')} explored{by}")
    parts.append(f"{solution.seconds:.2f} s")
    return " · ".join(parts)


def solution_text(solution: Solution, notation: Notation, boards: bool) -> Text:
    """The summary line and the numbered plan, with the board after each move if asked."""
    text = Text(summary(solution) + "\n")
    if solution.plan is None:
        return text
    board = solution.puzzle.board
    moves = format_plan(solution.plan, board, notation)
    if not boards:
        text.append("".join(f"{number:4d}. {move}\n" for number, move in enumerate(moves, 1)))
        return text
    states = replay(solution.puzzle, solution.plan).states
    text.append(board_text(board, states[0]) + "\n")
    for number, (move, state) in enumerate(zip(moves, states[1:], strict=True), 1):
        text.append(f"{number:4d}. {move}\n")
        text.append(board_text(board, state) + "\n")
    return text


def solution_dict(solution: Solution, notation: Notation) -> dict[str, Any]:
    """The JSON record of a solution; ``plan`` is in card notation whatever ``notation`` is."""
    board = solution.puzzle.board
    record: dict[str, Any] = {
        "puzzle": solution.puzzle.name,
        "objective": solution.objective,
        "solved": solution.has_plan,
        "length": solution.length,
        "moves": solution.moves,
        "slides": solution.slides,
        "plan": None if solution.plan is None else format_plan(solution.plan, board, "card"),
        "optimal": solution.has_plan,
        "proven_by": list(solution.proofs),
        "engine": solution.engine,
        "explored": solution.explored,
        "seconds": round(solution.seconds, 6),
    }
    if solution.limit:
        record["limit"] = solution.limit
    if solution.stopped:
        record["stopped"] = dict(solution.stopped)
    if notation != "card" and solution.plan is not None:
        record["plan_" + notation] = format_plan(solution.plan, board, notation)
    return record | dict(solution.stats)


def memo_text(memo: Mapping[str, int] | None) -> str:
    """``, memo 2,933 states, 13,108 nogoods``: what the state memo did, if it ran."""
    if not memo:
        return ""
    return f", memo {counted(memo['states'], 'state')}, {counted(memo['nogoods'], 'nogood')}"


def check_lines(result: PlanCheck) -> list[str]:
    """The text report of :func:`rhasp.plan_check.check_plan`."""
    name = result.puzzle
    if result.error is not None:
        return [f"{name} · the plan fails at {result.error}"]
    lines = [
        f"note: move {clip.move} {clip.as_given} drives the target past its exit; "
        f"counted up to the edge as {clip.as_played}"
        for clip in result.clipped
    ]
    if not result.solves:
        after = counted(result.moves or 0, "move")
        lines.append(f"{name} · the plan does not solve the puzzle after {after}")
        if result.unsolvable:
            lines.append(f"no plan can: proven by static analysis: {result.unsolvable}")
        return lines
    lines.append(f"{name} · the plan solves the puzzle")
    for objective, found, best, minimal in (
        ("moves", result.moves, result.minimal_moves, result.moves_minimal),
        ("slides", result.slides, result.minimal_slides, result.slides_minimal),
    ):
        verdict = "minimal" if minimal else f"not minimal: the fewest is {best}"
        lines.append(f"{objective}: {found}, {verdict} (proven by bfs)")
    return lines


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
    puzzles kept and the time left; on a terminal a live line, else a plain line every
    ``every`` seconds."""

    def __init__(self, console: Console, every: float = 30.0) -> None:
        super().__init__(console)
        self.every = every
        self.began = self.last = time.perf_counter()

    def advance(self, tally: Any) -> None:
        now = time.perf_counter()
        deepest = "none yet" if tally.deepest is None else counted(tally.deepest, "move")
        text = (
            f"generating: {counted(tally.boards, 'board')} · deepest {deepest} · "
            f"{counted(tally.kept, 'puzzle')} kept · {tally.seconds_left():,.0f} s left"
        )
        if self.console.is_terminal:
            self.show(text, now - self.began)
        elif now - self.last >= self.every:
            self.last = now
            self.console.print(text, markup=False)


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
        rate = done / max(now - self.began, 1e-9)
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, completed=done, rate=self.detail(tally, now - self.began))
        elif now - self.last >= self.every:
            self.last = now
            left = (self.total - done) / rate if rate else 0
            self.console.print(
                f"{done:,}/{self.total:,} {self.unit} · "
                f"{self.detail(tally, now - self.began)} · {left:,.0f} s left"
            )

    def count(self, tally: Any) -> int:
        """How much of the total is done."""
        return tally.puzzles

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


def enumeration_table(tally: Any, seconds: float, journal: Path | None = None) -> Table:
    """The summary of ``rhasp enumerate``: what was enumerated and found, the puzzles by
    moves, and what the journal beside the output is for."""
    table = Table(title="enumeration summary", show_header=False)
    rows = [
        ("layouts", f"{tally.layouts:,}"),
        ("least layouts (one a cluster)", f"{tally.least:,}"),
        ("solvable clusters", f"{tally.solvable:,}"),
        ("puzzles", f"{tally.puzzles:,}"),
        ("hardest", tally.hardest or "-"),
        ("seconds", f"{seconds:,.1f}"),
    ]
    if journal is not None:
        rows.append(("journal", f"{journal.name} (checksums for --resume)"))
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


def tally_table(tally: Any, seconds: float, verify: bool, resumed: int = 0) -> Table:
    """The summary of a deck run: counts, rate, lengths, and every mismatch. A resumed run
    counts what it did itself, and says how many records it kept from ``--out``."""
    table = Table(title="deck summary", show_header=False)
    rate = tally.puzzles / seconds if seconds > 0 else 0.0
    rows = [
        *([("kept from --out", resumed)] if resumed else []),
        ("puzzles", tally.puzzles),
        ("solved", tally.solved),
        ("unsolvable", tally.unsolvable),
        ("limits reached", tally.limited),
        ("bad lines", tally.errors),
        ("mismatches", _mismatches(tally, resumed) if verify else "-"),
        ("puzzles/s", f"{rate:,.1f}"),
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


def _mismatches(tally: Any, resumed: int) -> str:
    """Mismatches of a --verify run, and how many puzzles were compared at all: a deck whose
    lines give no figures is not a pass."""
    if not tally.puzzles and resumed:
        return f"none in this run: all {resumed:,} were in --out already"
    if not tally.verified:
        return "nothing verified: no line gives MOVES or CLUSTER figures"
    return f"{len(tally.mismatches):,} of {tally.verified:,} verified"


def analysis_text(analysis: Analysis, board: Board) -> Text:
    """The figures of ``rhasp analyze``, a line each, then the distance profile and the first
    hardest state drawn as a board."""

    def length(value: int | None) -> str:
        return "no solution" if value is None else f"{value:,}"

    text = Text()
    lines = [
        f"{analysis.name}",
        f"  cluster: {analysis.cluster_states:,} states, {analysis.cluster_edges:,} edges, "
        f"{analysis.goal_states:,} goal states",
        f"  minimal moves: {length(analysis.minimal_moves)} · minimal slides: "
        f"{length(analysis.minimal_slides)} (proven by bfs)",
        f"  game graph: {analysis.game_states:,} states, {analysis.game_levels:,} levels, "
        f"{analysis.winning_edges:,} winning edges",
        f"  all-moves graph: {analysis.all_moves_states:,} states, "
        f"{analysis.all_moves_edges:,} edges ({analysis.all_moves_tried:,} placements tried)",
        "  distance profile (moves to the nearest goal: states):",
    ]
    for line in lines:
        text.append(line + "\n")
    widest = max(analysis.profile.values(), default=1)
    for distance, count in sorted(analysis.profile.items()):
        bar = "#" * max(1, round(40 * count / widest))
        text.append(f"  {distance:4d} {count:8,} {bar}\n")
    if analysis.hardest:
        text.append(
            f"  hardest: {len(analysis.hardest):,} states at {analysis.hardest_distance} moves; "
            "the first:\n"
        )
        text.append_text(board_text(board, analysis.hardest[0]))
        text.append("\n")
    return text
