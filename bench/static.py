"""Static analysis (issue 32): what each rule proves on random crowded boards, how often, and
what it costs, against a real search that ignores static analysis.

    python bench/static.py [--boards 1000] [--large-boards 100] [--sizes 8,10,12]
                           [--seed 32] [--repeats 3] [--large-max-states 50000] [--runs 7]

``rhasp.static`` has four rule sets (``RULES``): ``stuck`` (the largest stuck set
only, the old analysis), ``lines`` (the line rule of Fogleman's static.go, a least fixpoint),
``greatest`` (the line rule's greatest fixpoint, which includes both) and ``full`` (rhasp's
analysis: ``greatest`` and the second rule, a target reaching each cell of its way only from
right behind it with that cell free). Each is asked
``blocked_exit(puzzle, rules=...)`` on every board. Three parts, each printed as it ends, then
one JSON line with everything:

* **Random crowded 6×6 boards** (``--boards``). The original game's geometry: target A a car,
  horizontal on the third row, leaving right; 8 to 13 vehicles in all (target included), cars
  and trucks in random places and orientations; 0, 1 or 2 walls on empty cells. Each board is
  decided by the compiled cluster walk (``rhasp.canonical.cluster_graph``, complete, no static
  analysis anywhere in it): solvable when a goal is in the cluster. The walk also gives the
  cells occupied in every state of the cluster (the AND of all their occupancies), the truth
  each rule's ``always_occupied`` is checked against: a cell it claims but some reachable
  state leaves empty is a soundness bug, and so is a proof on a solvable board; either makes
  the run exit non-zero at the end of the part. Table by wall count (0, 1, 2, all): boards,
  unsolvable, "trivial" (a wall or a horizontal vehicle on the target's row ahead of it: the
  target can never pass), proven by each rule (count and share of the unsolvable), the
  always-occupied cells each rule finds against the true ones (decided boards),
  microseconds per board for each rule (median, max; each board's time the least of
  ``--repeats`` calls), and a few unsolvable boards ``full`` does not prove.
* **Random crowded large boards** (``--large-boards`` of each of ``--sizes``): the same kind
  of board, the target on row (size - 1) // 2, vehicles 25-40 % of the cells in number (8 to
  13 are 22-36 % on 6×6; a vehicle that does not fit after 200 tries is left out, so the
  densest boards hold fewer), 0 to 4 walls. Decided by BFS
  (``rhasp.search.fewest_moves``: it stops at the first goal, where the cluster walk
  would explore the whole cluster) within ``--large-max-states`` states; past that the board
  is "undecided" (these boards are over 63 cells, so the core runs uncompiled). Same columns,
  plus the mean vehicles, the undecided boards (and how many of them are trivial) and ``+N``:
  the rule's proofs on undecided boards, which no search here confirms. No true cells: the
  clusters are not explored whole. The issue's target: a 12×12 board analysed by ``full`` in
  10 ms or less.
* **Two files** (``puzzles/large/walled12.txt``, ``left12.txt``): each rule, median of
  ``--runs`` calls, and what it proves.

A rule that proves a board the search solves aborts the run (exit 1): static analysis must
be sound. ``full`` failing to prove what ``stuck`` or ``lines`` proves is reported (it should
include both), not fatal.

Default run on the project's machine (2 cores, AMD EPYC, 24 GiB, Python 3.11, shared with
other work): 60-75 s (the 6×6 boards 12-20 s, the large ones about 45-55 s). Not a test: timings
on shared machines are noisy; name the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from rhasp import search, static
from rhasp.canonical import cluster_graph
from rhasp.errors import SearchLimit
from rhasp.formats import read_path
from rhasp.limits import Budget
from rhasp.model import Piece, Puzzle, TargetSpec, build_puzzle, is_label

ROOT = Path(__file__).resolve().parent.parent
FILES = (ROOT / "puzzles" / "large" / "walled12.txt", ROOT / "puzzles" / "large" / "left12.txt")
RULES = static.RULES
LABELS = [c for c in "ABCDEFGHIJKLMNPQRSTUVWXYZabcdefghijklmnpqrstuvwxyz0123456789" if is_label(c)]
TARGET = "A"
PLACE_TRIES = 200
UNBOUNDED = Budget(states=10**8)
UNPROVEN = 10  # boards kept, per table row, that the search finds unsolvable and full misses


def random_board(
    rng: random.Random, size: int, vehicles: tuple[int, int], walls: int, name: str
) -> tuple[Puzzle, bool]:
    """A crowded ``size``×``size`` board: target A a car on row (size - 1) // 2, not at its
    exit, leaving right; up to a number of vehicles in ``vehicles`` in all; ``walls`` walls on
    empty cells. With whether it is trivially unsolvable (a wall or a horizontal vehicle on
    the target's row ahead of it)."""
    row = (size - 1) // 2
    target = Piece(TARGET, "h", row, rng.randrange(size - 2), 2)
    pieces = [target]
    taken = set(target.vehicle().cells(target.position))
    for label in LABELS[1 : rng.randint(*vehicles)]:
        for _ in range(PLACE_TRIES):
            orientation = rng.choice("hv")
            length = rng.choice((2, 2, 2, 3))
            line, position = rng.randrange(size), rng.randrange(size - length + 1)
            row_, col = (line, position) if orientation == "h" else (position, line)
            piece = Piece(label, orientation, row_, col, length)
            cells = set(piece.vehicle().cells(piece.position))
            if not cells & taken:
                taken |= cells
                pieces.append(piece)
                break
        else:
            break  # the board is as full as random tries make it
    empty = [(r, c) for r in range(size) for c in range(size) if (r, c) not in taken]
    wall_cells = rng.sample(empty, walls)
    ahead = {(row, c) for c in range(target.col + 2, size)}
    trivial = bool(ahead & set(wall_cells)) or any(
        p.orientation == "h" and p.row == row and p is not target
        for p in pieces
        if p.col > target.col
    )
    puzzle = build_puzzle(
        size,
        size,
        pieces,
        [(cell, "") for cell in wall_cells],
        [TargetSpec(TARGET, "right")],
        where="random",
        name=name,
    )
    return puzzle, trivial


def timed(puzzle: Puzzle, rule: str, repeats: int) -> tuple[static.Blocked | None, float]:
    """``rule``'s verdict and its least time in µs over ``repeats`` calls."""
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter_ns()
        found = static.blocked_exit(puzzle, rules=rule)
        best = min(best, (time.perf_counter_ns() - began) / 1000)
    return found, best


def mask(puzzle: Puzzle, cells: Any) -> int:
    width = puzzle.board.width
    return sum(1 << (r * width + c) for r, c in cells)


def picture(puzzle: Puzzle) -> str:
    """The board on one line, rows split by ``/``: labels, ``#`` walls, ``.`` empty; the
    target A leaves right."""
    board = puzzle.board
    grid = [["."] * board.width for _ in range(board.height)]
    for r, c in board.walls:
        grid[r][c] = "#"
    for vehicle, position in zip(board.vehicles, puzzle.start, strict=True):
        for r, c in vehicle.cells(position):
            grid[r][c] = vehicle.label
    return "/".join("".join(row) for row in grid)


def decide_small(puzzle: Puzzle) -> tuple[bool, int, int]:
    """The cluster walk: solvable, the cluster's states, and the mask of the cells occupied in
    every one of its states."""
    graph = cluster_graph(puzzle, UNBOUNDED)
    always = -1
    for key in graph.keys:
        always &= graph.geometry.occupancy(key)
    return bool(graph.goals), graph.states, always


def decide_large(puzzle: Puzzle, max_states: int) -> tuple[bool | None, int]:
    """BFS within ``max_states``: solvable, or None past the budget; states reached."""
    try:
        plan, found = search.fewest_moves(puzzle.board, puzzle.start, Budget(states=max_states))
    except SearchLimit:
        return None, max_states
    return plan is not None, found


class Tally:
    """One row of a table: counts and times over a group of boards."""

    def __init__(self) -> None:
        self.boards = self.unsolvable = self.undecided = self.trivial = 0
        self.proven = dict.fromkeys(RULES, 0)  # of the boards the search found unsolvable
        self.proven_undecided = dict.fromkeys(RULES, 0)  # of the boards it did not decide
        self.trivial_undecided = 0
        self.proven_trivial = dict.fromkeys(RULES, 0)  # of the trivial boards, any decision
        self.vehicles = 0
        self.micros: dict[str, list[float]] = {rule: [] for rule in RULES}
        self.cells = dict.fromkeys(RULES, 0)  # always-occupied cells found, decided boards
        self.true_cells = 0  # the cells truly occupied in every reachable state
        self.states = 0
        self.unproven: list[str] = []  # the first boards found unsolvable that full misses

    def row(self, name: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "group": name,
            "boards": self.boards,
            "unsolvable": self.unsolvable,
            "undecided": self.undecided,
            "trivial": self.trivial,
            "trivial_undecided": self.trivial_undecided,
            "vehicles_mean": self.vehicles / self.boards if self.boards else None,
            "states": self.states,
        }
        for rule in RULES:
            times = self.micros[rule]
            out[rule] = {
                "proven": self.proven[rule],
                "proven_undecided": self.proven_undecided[rule],
                "proven_trivial": self.proven_trivial[rule],
                "share": self.proven[rule] / self.unsolvable if self.unsolvable else None,
                "median_us": statistics.median(times) if times else None,
                "max_us": max(times) if times else None,
                "cells": self.cells[rule],
            }
        out["true_cells"] = self.true_cells
        out["unproven"] = self.unproven
        return out


def measure(
    puzzle: Puzzle,
    trivial: bool,
    decided: bool | None,
    states: int,
    always: int | None,
    tallies: list[Tally],
    repeats: int,
    faults: list[str],
) -> None:
    """Every rule on ``puzzle``, its verdicts checked against the search's, into ``tallies``."""
    verdicts = {}
    for rule in RULES:
        found, micros = timed(puzzle, rule, repeats)
        verdicts[rule] = found
        for tally in tallies:
            tally.micros[rule].append(micros)
        if found is not None and decided:
            faults.append(
                f"UNSOUND: {rule} proves solvable {puzzle.name} {picture(puzzle)}: {found.proof()}"
            )
        if always is not None:
            held = mask(puzzle, static.always_occupied(puzzle.board, puzzle.start, rules=rule))
            if held & ~always:
                faults.append(
                    f"UNSOUND: {rule} claims cells of {puzzle.name} {picture(puzzle)} that a "
                    "reachable state leaves empty"
                )
            for tally in tallies:
                tally.cells[rule] += held.bit_count()
    others = any(verdicts.get(rule) for rule in ("stuck", "lines", "greatest"))
    if verdicts["full"] is None and others:
        faults.append(f"NOTE: full proves nothing on {puzzle.name}, which stuck or lines does")
    if trivial and decided:
        faults.append(f"NOTE: {puzzle.name} is solvable though the bench calls it trivial")
    for tally in tallies:
        tally.boards += 1
        tally.trivial += trivial
        tally.states += states
        tally.vehicles += len(puzzle.board.vehicles)
        for rule, found in verdicts.items():
            tally.proven_trivial[rule] += trivial and found is not None
        if decided is None:
            tally.undecided += 1
            tally.trivial_undecided += trivial
            for rule, found in verdicts.items():
                tally.proven_undecided[rule] += found is not None
            continue
        tally.unsolvable += not decided
        if decided is False and verdicts["full"] is None and len(tally.unproven) < UNPROVEN:
            tally.unproven.append(picture(puzzle))
        if always is not None:
            tally.true_cells += always.bit_count()
        for rule, found in verdicts.items():
            tally.proven[rule] += found is not None


def print_table(title: str, rows: list[dict[str, Any]], large: bool) -> None:
    """Proven: of the boards the search found unsolvable, with the share; on large boards,
    ``+N`` more among the undecided (sound proofs the search could not confirm)."""
    print(f"\n{title}")
    head = f"{'':>8} {'boards':>6} {'veh':>4} {'unsolv':>6} {'trivial':>7}"
    if large:
        head += f" {'undec':>5} {'(triv)':>6}"
    for rule in RULES:
        head += f" {rule + ' proven':>{22 if large else 15}}"
    for rule in RULES:
        head += f" {rule + ' µs med/max':>17}"
    print(head)
    for row in rows:
        line = (
            f"{row['group']:>8} {row['boards']:6d} {row['vehicles_mean']:4.1f} "
            f"{row['unsolvable']:6d} {row['trivial']:7d}"
        )
        if large:
            line += f" {row['undecided']:5d} {row['trivial_undecided']:6d}"
        for rule in RULES:
            r = row[rule]
            share = f"{100 * r['share']:.0f} %" if r["share"] is not None else "-"
            cell = f"{r['proven']} {share:>5}"
            if large:
                cell += f" +{r['proven_undecided']}"
            line += f" {cell:>{22 if large else 15}}"
        for rule in RULES:
            r = row[rule]
            cell = "n/a" if r["median_us"] is None else f"{r['median_us']:.0f}/{r['max_us']:.0f}"
            line += f" {cell:>17}"
        print(line)
    totals = rows if large else rows[-1:]  # the small table's last row sums the others
    trivial = ", ".join(
        f"{rule} {sum(row[rule]['proven_trivial'] for row in totals)}" for rule in RULES
    )
    boards = sum(row["trivial"] for row in totals)
    print(f"of the {boards} trivial boards, proven by {trivial}")
    if not large:
        last = rows[-1]
        found = ", ".join(f"{rule} {last[rule]['cells']:,}" for rule in RULES)
        print(
            f"cells occupied in every reachable state, all boards: found by {found}; "
            f"true {last['true_cells']:,} (walls included)"
        )
        print("unsolvable, not proven by full (rows split by /):", *last["unproven"][:5])


def small_boards(args: argparse.Namespace, faults: list[str]) -> list[dict[str, Any]]:
    rng = random.Random(args.seed)
    by_walls = {walls: Tally() for walls in (0, 1, 2)}
    everything = Tally()
    began = time.perf_counter()
    for n in range(args.boards):
        walls = rng.choice((0, 1, 2))
        puzzle, trivial = random_board(rng, 6, (8, 13), walls, f"6x6-{args.seed}-{n}")
        solvable, states, always = decide_small(puzzle)
        measure(
            puzzle,
            trivial,
            solvable,
            states,
            always,
            [by_walls[walls], everything],
            args.repeats,
            faults,
        )
    rows = [tally.row(str(walls)) for walls, tally in by_walls.items()]
    rows.append(everything.row("all"))
    print_table(
        f"6×6, {args.boards} boards, seed {args.seed}, by walls "
        f"({time.perf_counter() - began:.1f} s)",
        rows,
        large=False,
    )
    return rows


def large_boards(args: argparse.Namespace, faults: list[str]) -> list[dict[str, Any]]:
    rng = random.Random(args.seed + 1)
    rows = []
    for size in args.sizes:
        tally = Tally()
        began = time.perf_counter()
        area = size * size
        vehicles = (round(0.25 * area), round(0.40 * area))
        for n in range(args.large_boards):
            walls = rng.randint(0, 4)
            puzzle, trivial = random_board(
                rng, size, vehicles, walls, f"{size}x{size}-{args.seed}-{n}"
            )
            solvable, states = decide_large(puzzle, args.large_max_states)
            measure(puzzle, trivial, solvable, states, None, [tally], args.repeats, faults)
        row = tally.row(f"{size}×{size}")
        row["vehicles"] = list(vehicles)
        row["seconds"] = time.perf_counter() - began
        rows.append(row)
    print_table(
        f"large boards, {args.large_boards} of each size, 0-4 walls, seed {args.seed + 1}, "
        f"BFS within {args.large_max_states:,} states",
        rows,
        large=True,
    )
    return rows


def files(args: argparse.Namespace) -> list[dict[str, Any]]:
    print(f"\nthe large files, median of {args.runs} calls")
    rows = []
    for path in FILES:
        (puzzle,) = read_path(str(path))
        for rule in RULES:
            times, found = [], None
            for _ in range(args.runs):
                found, micros = timed(puzzle, rule, 1)
                times.append(micros)
            verdict = found.proof() if found else "nothing proven"
            median = statistics.median(times)
            print(f"{path.name:>13} {rule:>6} {median / 1000:8.2f} ms  {verdict}")
            rows.append(
                {"file": path.name, "rule": rule, "median_ms": median / 1000, "proof": verdict}
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--large-boards", type=int, default=100)
    parser.add_argument("--sizes", default="8,10,12")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--large-max-states", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    args.sizes = [int(size) for size in args.sizes.split(",") if size]
    os.environ.setdefault("RHASP_JIT", "always")
    search.prefer_compiled()
    began = time.perf_counter()
    faults: list[str] = []
    small = small_boards(args, faults)
    unsound = [fault for fault in faults if fault.startswith("UNSOUND")]
    if unsound:
        print("\n".join(unsound), file=sys.stderr)
        sys.exit(1)
    large = large_boards(args, faults)
    unsound = [fault for fault in faults if fault.startswith("UNSOUND")]
    if unsound:
        print("\n".join(unsound), file=sys.stderr)
        sys.exit(1)
    on_files = files(args)
    for fault in faults:
        print(fault)
    summary = {
        "bench": "static",
        "rules": list(RULES),
        "seed": args.seed,
        "boards": args.boards,
        "large_boards": args.large_boards,
        "large_max_states": args.large_max_states,
        "repeats": args.repeats,
        "small": small,
        "large": large,
        "files": on_files,
        "notes": faults,
        "seconds": time.perf_counter() - began,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
