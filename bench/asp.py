"""Time the ASP engine on the original cards: one table row per card and objective.

    python bench/asp.py [--objective moves|slides|both] [--cards 1-40] [--runs 1]
                        [--timeout SECONDS] [--clingo-arg=...]

Each row shows the minimal length (the first satisfiable horizon), seconds (median of the
runs), choices and conflicts summed over all horizons, and whether BFS agrees. Then the small
boards (puzzles/examples 4x4 and 5x5, median of 7 runs each, target under 0.1 s). The last
line is a JSON summary. Not a test: timings on shared machines are noisy; name the machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
from pathlib import Path

from rhasp.engines import get_engine
from rhasp.formats import read_path

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
DECK = PUZZLES / "original40.txt"
SMALL = ("4x4", "5x5")


def card_range(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objective", choices=("moves", "slides", "both"), default="moves")
    parser.add_argument("--cards", type=card_range, default=card_range("1-40"))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=None)
    parser.add_argument("--clingo-arg", action="append", default=[])
    args = parser.parse_args()
    deck = read_path(str(DECK))
    objectives = ("moves", "slides") if args.objective == "both" else (args.objective,)
    engine = get_engine("asp", timeout=args.timeout, clingo_args=args.clingo_arg)
    oracle = get_engine("bfs")
    rows = []
    print(f"{'card':>4} {'objective':>9} {'horizon':>7} {'seconds':>8} {'choices':>10} "
          f"{'conflicts':>10} {'bfs':>5}", flush=True)  # fmt: skip
    for number in args.cards:
        puzzle = deck[number - 1]
        for objective in objectives:
            runs = [engine.solve(puzzle, objective) for _ in range(args.runs)]
            asp = runs[-1].stats["asp"]
            seconds = statistics.median(run.seconds for run in runs)
            expected = oracle.solve(puzzle, objective).length
            agrees = runs[-1].length == expected if not runs[-1].limit else None
            row = {
                "card": number,
                "objective": objective,
                "horizon": asp["horizon"],
                "length": runs[-1].length,
                "seconds": round(seconds, 3),
                "choices": asp["choices"],
                "conflicts": asp["conflicts"],
                "bfs_agrees": agrees,
                "limit": runs[-1].limit,
            }
            rows.append(row)
            verdict = {True: "yes", False: "NO", None: runs[-1].limit}[agrees]
            counts = f"{asp['choices']:10d} {asp['conflicts']:10d}"
            print(f"{number:4d} {objective:>9} {asp['horizon']:7d} {seconds:8.2f} {counts} "
                  f"{verdict:>5}", flush=True)  # fmt: skip
    small = {}
    for name in SMALL:
        puzzle = read_path(str(PUZZLES / "examples" / f"{name}.txt"))[0]
        for objective in objectives:
            seconds = statistics.median(engine.solve(puzzle, objective).seconds for _ in range(7))
            small[f"{name} {objective}"] = round(seconds, 4)
            print(f"{name:>4} {objective:>9} {'':7} {seconds:8.3f}", flush=True)
    summary = {
        "bench": "asp",
        "runs": args.runs,
        "clingo_args": args.clingo_arg,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    for objective in objectives:
        mine = [row for row in rows if row["objective"] == objective]
        summary[objective] = {
            "cards": len(mine),
            "solved": sum(row["bfs_agrees"] is True for row in mine),
            "disagree": sum(row["bfs_agrees"] is False for row in mine),
            "total_seconds": round(sum(row["seconds"] for row in mine), 2),
            "max_seconds": max(row["seconds"] for row in mine),
        }
    print(json.dumps({**summary, "small": small, "rows": rows}))


if __name__ == "__main__":
    main()
