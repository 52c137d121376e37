"""Time the BFS oracle on the 40 original cards, both objectives.

    python bench/cards.py [--runs 5] [--core compiled|uncompiled|reference]

``--core`` picks what runs: the search core compiled by numba (the default; its code is loaded
before the clock starts, and the load time is printed apart), the same core uncompiled on
Python integers, or the readable reference search on the model.

Prints a table of per-card medians and one JSON line with the totals (median of the runs).
Not a test: timings on shared machines are noisy, so quote medians and name the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

from rhasp import search
from rhasp.engines.bfs import BfsEngine
from rhasp.formats import read_path
from rhasp.limits import Budget

DECK = Path(__file__).resolve().parent.parent / "puzzles" / "original40.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--core", choices=("compiled", "uncompiled", "reference"), default="compiled"
    )
    args = parser.parse_args()
    cards = read_path(str(DECK))
    engine = BfsEngine(fast=args.core != "reference", budget=Budget())
    os.environ["RHASP_JIT"] = "always" if args.core == "compiled" else "never"
    if args.core == "compiled":
        began = time.perf_counter()
        search.prefer_compiled()
        print(
            f"loading the compiled core (numba and its cached code): "
            f"{time.perf_counter() - began:.2f} s"
        )
    seconds: dict[tuple[int, str], list[float]] = {}
    lengths: dict[tuple[int, str], int] = {}
    for _ in range(args.runs):
        for number, puzzle in enumerate(cards, 1):
            for objective in ("moves", "slides"):
                began = time.perf_counter()
                solution = engine.solve(puzzle, objective)
                seconds.setdefault((number, objective), []).append(time.perf_counter() - began)
                lengths[number, objective] = solution.length
    print(f"{'card':>4} {'moves':>5} {'s':>7} {'slides':>6} {'s':>7}")
    for number in range(1, len(cards) + 1):
        m = statistics.median(seconds[number, "moves"])
        s = statistics.median(seconds[number, "slides"])
        print(
            f"{number:4d} {lengths[number, 'moves']:5d} {m:7.3f} "
            f"{lengths[number, 'slides']:6d} {s:7.3f}"
        )
    totals = {
        objective: statistics.median(
            sum(seconds[n, objective][run] for n in range(1, len(cards) + 1))
            for run in range(args.runs)
        )
        for objective in ("moves", "slides")
    }
    print(
        f"total (median of {args.runs} runs): moves {totals['moves']:.2f} s, "
        f"slides {totals['slides']:.2f} s"
    )
    record = {
        "bench": "cards",
        "engine": "bfs",
        "core": args.core,
        "runs": args.runs,
        "moves_seconds": round(totals["moves"], 3),
        "slides_seconds": round(totals["slides"], 3),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(json.dumps(record))


if __name__ == "__main__":
    main()
