"""Issue 56's anytime plans: where the optimal search stops at a limit, the plan weighted A*
finds after it, and the lower bound the searches proved.

    python bench/anytime.py [--seconds 60] [--seeds 1,4,7] [--weights 2,3,5]
                            [--weight-states 3000000] [--far STATES] [--far-seconds 1800]

Two parts (three with ``--far``), each printed as it ends, then one JSON line with everything:

* **The solve, as a user runs it.** ``rhasp.solve(board, timeout=SECONDS)``, the default
  engine (A*, confirmed by BFS; a quarter of the seconds kept for the anytime search), on
  ``puzzles/large/left12.txt`` and on crowded 12×12 boards (44 vehicles besides the target,
  about 72 % of the cells covered, as the course's board of issue 56) drawn by
  :func:`crowded` from ``--seeds``: the seconds to the answer, the plan's length, the proven
  lower bound, whether the plan is proven minimal, A*'s states and the anytime search's
  states and seconds.
* **Which weight.** Weighted A* alone (``rhasp.search.best_first`` with ``weight``) on the
  same boards, each of ``--weights`` within ``--weight-states`` states: seconds to its plan,
  its length, states.
* **How far A*'s bound gets** (``--far STATES``, issue 56's "the optimum proven within 30
  minutes, or how far the bound got"): A* with its patterns alone (``best_first(...,
  patterned=True)``) on each crowded board, in a process of its own, within STATES states
  (past the default limit: ``--max-states`` as a user would raise it) and ``--far-seconds``:
  its plan, proven minimal, or the f-value every plan was proven to reach; states, seconds,
  the peak resident memory and the bytes a state (the peak over the states, less the
  process's peak before the search).

All compiled (``RHASP_JIT=always``): each board's code is loaded (or compiled, once) by a
small search before anything is timed. Not a test: timings on shared machines are noisy;
name the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("RHASP_JIT", "always")  # before rhasp loads the core: all compiled

import rhasp
from rhasp import search
from rhasp.errors import SearchLimit
from rhasp.generation.boards import LABELS, MORE_LABELS
from rhasp.limits import Budget
from rhasp.model import Piece, Puzzle, TargetSpec, build_puzzle
from rhasp.solution import ANYTIME

ROOT = Path(__file__).resolve().parent.parent
LEFT12 = ROOT / "puzzles" / "large" / "left12.txt"
#: A crowded board of issue 56: 12×12, 44 vehicles besides the target, 72 % of the cells.
SIDE, VEHICLES, COVERED = 12, 44, 0.72


def crowded(seed: int) -> Puzzle:
    """A crowded 12×12 board, remade from ``seed``: target ``A`` in the exit row, then cars and
    trucks (two in five) at random places where they fit, none behind the target on its row,
    until :data:`VEHICLES` stand or :data:`COVERED` of the cells are covered. Solvable or not
    is not known: the solve says."""
    rng = random.Random(f"crowded-{seed}")
    row = (SIDE - 1) // 2
    target = Piece("A", "h", row, rng.randrange(SIDE - 4), 2)
    pieces, taken = [target], set(target.vehicle().cells(target.position))
    labels = iter((LABELS + MORE_LABELS)[:VEHICLES])
    label = next(labels)
    for _ in range(20_000):  # tries
        if len(taken) >= COVERED * SIDE * SIDE:
            break
        length = 3 if rng.random() < 0.4 else 2
        if rng.random() < 0.5:
            line = rng.choice([r for r in range(SIDE) if r != row])
            piece = Piece(label, "h", line, rng.randrange(SIDE - length + 1), length)
        else:
            piece = Piece(label, "v", rng.randrange(SIDE - length + 1), rng.randrange(SIDE), length)
        cells = set(piece.vehicle().cells(piece.position))
        if cells & taken:
            continue
        taken |= cells
        pieces.append(piece)
        label = next(labels, "")
        if not label:
            break
    name = f"crowded-{seed}"
    return build_puzzle(SIDE, SIDE, pieces, [], [TargetSpec("A")], where=name, name=name)


def warm_up(puzzle: Puzzle) -> None:
    """Load (or compile, once) the code of every search the solve runs on this board's shape."""
    for weight in (1, 2):
        with contextlib.suppress(SearchLimit):
            search.best_first(puzzle.board, puzzle.start, "moves", Budget(10), weight)
    with contextlib.suppress(SearchLimit):
        search.fewest_moves(puzzle.board, puzzle.start, Budget(10))


def solved(puzzle: Puzzle, seconds: float) -> dict[str, Any]:
    """The solve as ``rhasp solve --timeout SECONDS`` runs it, and what it answered."""
    began = time.perf_counter()
    found = rhasp.solve(puzzle, timeout=seconds)
    wall = time.perf_counter() - began
    figures = found.searches.get(ANYTIME)
    astar = found.searches.get("astar")
    row = {
        "board": puzzle.name,
        "vehicles": len(puzzle.board.vehicles) - 1,
        "seconds": round(wall, 2),
        "plan": found.moves,
        "lower_bound": found.lower_bound,
        "optimal": found.optimal,
        "limit": str(found.limit) if found.limit else None,
        "engine": found.engine,  # the race's BFS answers some boards alone: no A* then
        "astar_states": astar.explored if astar else None,
        "anytime_states": figures.explored if figures else None,
        "anytime_seconds": figures.seconds if figures else None,
    }
    print(
        f"{row['board']:>11} {row['vehicles']:>3} {row['engine']:>6} {row['seconds']:>7.1f} "
        f"{_cell(row['plan']):>5} {_cell(row['lower_bound']):>5} {row['optimal']!s:>7} "
        f"{_cell(row['astar_states']):>11} {_cell(row['anytime_states']):>11} "
        f"{_cell(row['anytime_seconds']):>8}",
        flush=True,
    )
    return row


def weighted(puzzle: Puzzle, weight: int, states: int) -> dict[str, Any]:
    """Weighted A* alone, within ``states`` states: seconds, plan length (None: none)."""
    began = time.perf_counter()
    try:
        plan, reached = search.best_first(
            puzzle.board, puzzle.start, "moves", Budget(states), weight
        )
        length = None if plan is None else len(plan)
    except SearchLimit as limit:
        length, reached = None, limit.states
    row = {
        "board": puzzle.name,
        "weight": weight,
        "seconds": round(time.perf_counter() - began, 2),
        "plan": length,
        "states": reached,
    }
    print(
        f"{row['board']:>11} {weight:>6} {row['seconds']:>7.1f} {_cell(length):>5} "
        f"{_cell(reached):>11}",
        flush=True,
    )
    return row


def far(seed: int, states: int, seconds: float) -> dict[str, Any]:
    """How far A* with its patterns gets on crowded board ``seed``, in a process of its own
    (so that its peak memory is its own): the row :func:`_far_here` prints."""
    command = [sys.executable, __file__, "--far-board", str(seed), "--far", str(states)]
    command += ["--far-seconds", str(seconds)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    row = json.loads(done.stdout.splitlines()[-1])
    print(
        f"{row['board']:>11} {_cell(row['plan']):>5} {_cell(row['at_least']):>8} "
        f"{_cell(row['states']):>13} {row['seconds']:>8.1f} {row['peak_gb']:>7.2f} "
        f"{_cell(row['bytes_a_state']):>7}",
        flush=True,
    )
    return row


def _far_here(seed: int, states: int, seconds: float) -> None:
    """The search of :func:`far`, in this process: one JSON line."""
    puzzle = crowded(seed)
    with contextlib.suppress(SearchLimit):  # the code loaded (or compiled) before the timing
        search.best_first(puzzle.board, puzzle.start, "moves", Budget(300_000), patterned=True)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    began = time.perf_counter()
    plan, at_least = None, None
    try:
        found, reached = search.best_first(
            puzzle.board, puzzle.start, "moves", Budget(states, seconds=seconds), patterned=True
        )
        plan = None if found is None else len(found)
    except SearchLimit as limit:
        reached = limit.states
        at_least = limit.limit.at_least if limit.limit else None
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    row = {
        "board": puzzle.name,
        "plan": plan,
        "at_least": at_least,
        "states": reached,
        "seconds": round(wall, 1),
        "peak_gb": round(after / 2**20, 2),
        "bytes_a_state": round((after - before) * 1024 / reached, 1) if reached else None,
    }
    print(json.dumps(row))


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    return f"{value:,}" if isinstance(value, int) else f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seeds", default="1,4,7")
    parser.add_argument("--weights", default="2,3,5")
    parser.add_argument("--weight-states", type=int, default=3_000_000)
    parser.add_argument("--far", type=int, default=0, help="A* with patterns to this many states")
    parser.add_argument("--far-seconds", type=float, default=1800.0)
    parser.add_argument("--far-board", type=int, help=argparse.SUPPRESS)  # one board, here
    args = parser.parse_args()
    if args.far_board is not None:
        _far_here(args.far_board, args.far, args.far_seconds)
        return
    boards = [rhasp.read(str(LEFT12))] + [crowded(int(s)) for s in args.seeds.split(",")]
    for puzzle in boards:
        warm_up(puzzle)
    print(f"the solve, --timeout {args.seconds:g}")
    print(
        f"{'board':>11} {'veh':>3} {'engine':>6} {'seconds':>7} {'plan':>5} {'bound':>5} "
        f"{'optimal':>7} "
        f"{'A* states':>11} {'anytime st.':>11} {'any. s':>8}"
    )
    solves = [solved(puzzle, args.seconds) for puzzle in boards]
    print("weighted A* alone")
    print(f"{'board':>11} {'weight':>6} {'seconds':>7} {'plan':>5} {'states':>11}")
    weights = [
        weighted(puzzle, int(w), args.weight_states)
        for puzzle in boards
        for w in args.weights.split(",")
    ]
    fars = []
    if args.far:
        limits = f"{args.far:,} states, {args.far_seconds:g} s"
        print(f"how far A*'s bound gets: A* with patterns, {limits}")
        print(
            f"{'board':>11} {'plan':>5} {'at least':>8} {'states':>13} {'seconds':>8} "
            f"{'peak GB':>7} {'B/state':>7}"
        )
        fars = [far(int(s), args.far, args.far_seconds) for s in args.seeds.split(",")]
    summary = {
        "bench": "anytime",
        "date": time.strftime("%Y-%m-%d"),
        "machine": platform.platform(),
        "cores": os.cpu_count(),
        "solves": solves,
        "weights": weights,
        "far": fars,
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
