"""The search core's speed by board size: states a second, BFS and A*, compiled.

    python bench/core_rates.py [--sizes 6,8,10,12] [--boards 3] [--states 1000000]
                               [--min-states 20000] [--runs 3] [--seed 1] [--walls 2]

The boards are the ones ``rhasp generate`` draws (``generation.board_number``, seeded), from
their random start, the first ``--boards`` of each size on which each search reaches at least
``--min-states`` states (fewer would measure the call, not the search). BFS explores the whole
cluster (``core.breadth_first`` without stopping at the goal, links kept, as a solve keeps
them) and A* searches by moves (``core.best_first``), each within ``--states``: a search that
meets the limit counts the states it reached in its time. Each search runs ``--runs`` times
after one unmeasured run (numba compiles or loads its code); the rate is states over the
median seconds, and a size's rate the median over its boards. Also, per size, the words a key
and a set of cells take in the compiled core (one: the 64-bit path every 6×6 board takes).

Runs in any tree of rhasp since issue 31 (``PYTHONPATH=<tree>``), so that a tree from before
issue 33, where boards over 63 cells run uncompiled, can be measured the same way; there the
word columns say ``-``. Prints a table and one JSON line. Not a test: name the machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import statistics
import time
from pathlib import Path
from typing import Any

from rhasp.errors import SearchLimit
from rhasp.formats import read_path
from rhasp.generation import board_number
from rhasp.limits import Budget
from rhasp.search import core, prefer_compiled, runner
from rhasp.search.geometry import Geometry, cell_words, key_words

SEARCHES = {
    "bfs": (core.breadth_first, {"stop_at_goal": False, "with_links": True}),
    "astar": (core.best_first, {"by_slides": False}),
}
CARDS = Path(__file__).resolve().parent.parent / "puzzles" / "original40.txt"
SCAN = 400  # boards looked at per size, at most, for ones large enough to measure


def states_reached(geometry: Geometry, key: int, name: str, budget: Budget) -> int:
    """The states one search from ``key`` reaches within ``budget`` (all, when it ends first)."""
    search, flags = SEARCHES[name]
    try:
        return runner.run(geometry, search, key, budget=budget, **flags)[1]
    except SearchLimit as limit:
        return int(re.search(r"after ([\d,]+) states", str(limit))[1].replace(",", ""))


def timed(geometry: Geometry, key: int, name: str, budget: Budget, runs: int) -> tuple[int, float]:
    """States reached and the median seconds of ``runs`` runs (after one unmeasured)."""
    states = states_reached(geometry, key, name, budget)
    seconds = []
    for _ in range(runs):
        began = time.perf_counter()
        states_reached(geometry, key, name, budget)
        seconds.append(time.perf_counter() - began)
    return states, statistics.median(seconds)


def boards(size: int, name: str, args: argparse.Namespace) -> list[tuple[Geometry, int]]:
    """The first ``--boards`` boards of ``size`` (with their start's key) where search
    ``name`` reaches ``--min-states`` states."""
    found: list[tuple[Geometry, int]] = []
    budget = Budget(states=args.min_states)
    for number in range(SCAN):
        puzzle = board_number(args.seed, number, size, args.walls)
        geometry = Geometry.of(puzzle.board)
        key = geometry.key(puzzle.start)
        if states_reached(geometry, key, name, budget) >= args.min_states:
            found.append((geometry, key))
            if len(found) == args.boards:
                break
    return found


def on_cards(args: argparse.Namespace) -> dict:
    """The 40 cards as a second 6×6 yardstick: each search from each card's start (BFS
    stopping at the goal, as a solve does), states summed over seconds summed (median of
    ``--runs``)."""
    row: dict[str, Any] = {"size": "cards"}
    flags = {"bfs": {"stop_at_goal": True, "with_links": True}, "astar": {"by_slides": False}}
    budget = Budget(states=args.states)
    starts = []
    for puzzle in read_path(str(CARDS)):
        geometry = Geometry.of(puzzle.board)
        starts.append((geometry, geometry.key(puzzle.start)))
    for name, (search, _) in SEARCHES.items():
        total, seconds = 0, []
        for _ in range(args.runs + 1):
            began = time.perf_counter()
            total = sum(
                runner.run(g, search, key, budget=budget, **flags[name])[1] for g, key in starts
            )
            seconds.append(time.perf_counter() - began)
        rate = total / statistics.median(seconds[1:])  # the first unmeasured
        shapes = [(g.count, *words(g), g.compiles) for g, _ in starts]
        row[name] = {"boards": len(starts), "rates": [round(rate)], "rate": round(rate)}
        row[name]["shapes"] = shapes
    return row


def words(geometry: Geometry) -> tuple[Any, Any]:
    """The words of a key and of a set of cells in the compiled core (``-`` before issue 33)."""
    jit = runner.compiled_core()
    if jit is None or not hasattr(jit, "key_words"):
        return "-", "-"
    return key_words(geometry.tables), cell_words(geometry.tables)


def measure(size: int, args: argparse.Namespace) -> dict:
    row: dict[str, Any] = {"size": size}
    budget = Budget(states=args.states)
    for name in SEARCHES:
        rates, shapes = [], []
        for geometry, key in boards(size, name, args):
            states, seconds = timed(geometry, key, name, budget, args.runs)
            rates.append(states / seconds)
            shapes.append((geometry.count, *words(geometry), geometry.compiles))
        row[name] = {
            "boards": len(rates),
            "rates": [round(rate) for rate in rates],
            "rate": round(statistics.median(rates)) if rates else None,
            "shapes": shapes,
        }
    return row


def show(rows: list[dict]) -> None:
    base = {name: rows[0][name]["rate"] for name in SEARCHES}  # the first size: 6×6
    print(
        f"{'size':>5} {'engine':>6} {'boards':>6} {'vehicles':>9} {'key/cell words':>14} "
        f"{'compiled':>8} {'states/s':>10} {'of first':>8}"
    )
    for row in rows:
        for name in SEARCHES:
            cell = row[name]
            shapes = cell["shapes"]
            vehicles = "/".join(str(s[0]) for s in shapes) if len(shapes) < 5 else "10-13"
            shape = ",".join(sorted({f"{s[1]}/{s[2]}" for s in shapes}))
            compiled = "yes" if all(s[3] for s in shapes) else "no"
            rate = cell["rate"] or 0
            share = f"{rate / base[name]:.0%}" if base[name] else "-"
            print(
                f"{_size(row['size']):>5} {name:>6} {cell['boards']:>6} {vehicles:>9} "
                f"{shape:>14} {compiled:>8} {rate:>10,d} {share:>8}",
                flush=True,
            )


def _size(size: Any) -> str:
    return f"{size}×{size}" if isinstance(size, int) else str(size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="6,8,10,12")
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--states", type=int, default=1_000_000)
    parser.add_argument("--min-states", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--walls", type=int, default=2)
    args = parser.parse_args()
    if not prefer_compiled():
        raise SystemExit("the compiled core cannot be loaded here (numba)")
    rows = [measure(int(size), args) for size in args.sizes.split(",")]
    rows.insert(1, on_cards(args))
    show(rows)
    print(
        json.dumps(
            {
                "bench": "core_rates",
                "args": vars(args),
                "rows": rows,
                "python": platform.python_version(),
                "machine": platform.machine(),
            }
        )
    )


if __name__ == "__main__":
    main()
