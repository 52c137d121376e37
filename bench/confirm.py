"""The share of the BFS that confirms A*: what rule lets it finish where it is cheap and stops
it where it is not (issue 33).

    python bench/confirm.py [--cap 5000000] [--sizes 8,10,12] [--starts 6] [--factors 1,2,10,100]
                            [--floors 0,100000,1000000] [--no-cards] [--runs 5]

For each board and objective, A* and BFS each run alone, unbounded up to ``--cap`` states (a
search past the cap is "over"): the 40 cards; the first ``--starts`` boards ``rhasp generate``
draws on each size, from their random start (two walls); ``puzzles/large/left12.txt``. Then
each candidate rule, the confirmation's share = max(floor, factor × A*'s states), is scored:
on how many boards the BFS would finish within its share (and so agree or disagree), and the
seconds the confirmation would take in all (BFS's seconds, cut in proportion where the share
stops it). States are counted, not timed, so the verdict of a rule is the same on every
machine; the seconds are this machine's.

Last, the issue's target as processes, start-up included, median of ``--runs``:
``rhasp solve puzzles/large/left12.txt --engine astar`` and the same with no ``--engine`` (A*
by the board's size): wall seconds, exit code, the summary line.

Prints a table per part and one JSON line with everything. Not a test: timings on shared
machines are noisy; name the machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from rhasp.engines.astar import AstarEngine
from rhasp.engines.bfs import BfsEngine
from rhasp.formats import read_path
from rhasp.generation import board_number
from rhasp.limits import Budget
from rhasp.model import Puzzle

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "puzzles" / "original40.txt"
LEFT12 = ROOT / "puzzles" / "large" / "left12.txt"
OBJECTIVES = ("moves", "slides")


def boards(args: argparse.Namespace) -> list[tuple[str, Puzzle]]:
    """The boards measured, each with the group it belongs to."""
    cards = [("cards", puzzle) for puzzle in read_path(str(DECK))] if args.cards else []
    starts = [
        (f"{size}×{size}", board_number(args.seed, number, size, walls=2))
        for size in (int(s) for s in args.sizes.split(",") if s)
        for number in range(args.starts)
    ]
    return [*cards, *starts, ("left12", read_path(str(LEFT12))[0])]


def measure(group: str, puzzle: Puzzle, objective: str, cap: int) -> dict[str, Any]:
    """Both engines alone on one board: states (None past ``cap``) and seconds."""
    budget = Budget(states=cap)
    astar = AstarEngine(budget=budget).solve(puzzle, objective)
    bfs = BfsEngine(budget=budget).solve(puzzle, objective)
    row = {
        "group": group,
        "board": puzzle.name,
        "objective": objective,
        "length": astar.length if not astar.limit else None,
        "astar_states": None if astar.limit else astar.explored,
        "astar_seconds": round(astar.seconds, 3),
        "bfs_states": None if bfs.limit else bfs.explored,
        "bfs_seconds": round(bfs.seconds, 3),
    }
    if not astar.limit and not bfs.limit:
        row["agree"] = astar.length == bfs.length
    return row


def show(row: dict[str, Any]) -> None:
    def states(n: int | None) -> str:
        return "over cap" if n is None else f"{n:,}"

    ratio = (
        f"{row['bfs_states'] / row['astar_states']:8.1f}"
        if row["bfs_states"] and row["astar_states"]
        else "       -"
    )
    print(
        f"{row['group']:>7} {row['board']:>10} {row['objective']:>7} {row['length']!s:>6} "
        f"{states(row['astar_states']):>11} {row['astar_seconds']:7.2f} "
        f"{states(row['bfs_states']):>11} {row['bfs_seconds']:7.2f} {ratio}",
        flush=True,
    )


def score(rows: list[dict[str, Any]], factor: int, floor: int, cap: int) -> dict[str, Any]:
    """What the rule max(floor, factor × A*'s states) does on the rows A* finished: the
    boards whose BFS finishes within it, by group, and the confirmation's seconds in all."""
    finished: dict[str, list[int]] = {}
    seconds = 0.0
    for row in rows:
        if row["astar_states"] is None:
            continue  # A* met the cap: the BFS would get the whole budget
        share = max(floor, factor * row["astar_states"])
        bfs = row["bfs_states"]
        done = bfs is not None and bfs <= share
        counted = finished.setdefault(row["group"], [0, 0])
        counted[0] += done
        counted[1] += 1
        walked = bfs if done else min(share, cap)
        full = bfs if bfs is not None else cap
        seconds += row["bfs_seconds"] * walked / max(full, 1)
    return {"factor": factor, "floor": floor, "finished": finished, "seconds": round(seconds, 1)}


def left12_as_a_process(runs: int) -> list[dict[str, Any]]:
    """The target: left12 solved by ``rhasp solve`` with A* named and with no engine, each
    ``runs`` times as a process: median wall seconds, exit codes, the summary."""
    rows = []
    for options in (["--engine", "astar"], []):
        walls, codes = [], set()
        for _ in range(runs):
            began = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "rhasp", "solve", str(LEFT12), *options],
                capture_output=True,
                text=True,
                check=False,
            )
            walls.append(time.perf_counter() - began)
            codes.add(done.returncode)
        summary = done.stdout.splitlines()[:2]
        command = " ".join(["rhasp solve left12", *options])
        print(f"{command}: exit {sorted(codes)}, median {statistics.median(walls):.2f} s of {runs}")
        print("\n".join(summary), flush=True)
        rows.append(
            {
                "command": command,
                "exit": sorted(codes),
                "median": round(statistics.median(walls), 2),
                "runs": [round(wall, 2) for wall in walls],
                "summary": summary,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=int, default=5_000_000)
    parser.add_argument("--sizes", default="8,10,12")
    parser.add_argument("--starts", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--factors", default="1,2,10,100")
    parser.add_argument("--floors", default="0,100000,1000000")
    parser.add_argument("--no-cards", dest="cards", action="store_false", help="skip the cards")
    parser.add_argument("--runs", type=int, default=5, help="runs of left12 as a process")
    args = parser.parse_args()
    print(
        f"{'group':>7} {'board':>10} {'obj':>7} {'length':>6} {'a* states':>11} {'a* s':>7} "
        f"{'bfs states':>11} {'bfs s':>7} {'bfs/a*':>8}"
    )
    rows = []
    for group, puzzle in boards(args):
        for objective in OBJECTIVES:
            rows.append(measure(group, puzzle, objective, args.cap))
            show(rows[-1])
    print("\nrule: share = max(floor, factor × A*'s states); BFS finished / boards, by group")
    rules = []
    for factor in (int(f) for f in args.factors.split(",")):
        for floor in (int(f) for f in args.floors.split(",")):
            rules.append(score(rows, factor, floor, args.cap))
            done = " ".join(f"{g} {a}/{b}" for g, (a, b) in rules[-1]["finished"].items())
            print(f"factor {factor:>4} floor {floor:>9,}: {done} · {rules[-1]['seconds']} s")
    print()
    left12 = left12_as_a_process(args.runs)
    record = {"bench": "confirm", "args": vars(args), "rows": rows, "rules": rules}
    record["left12"] = left12
    record |= {"python": platform.python_version(), "machine": platform.machine()}
    print(json.dumps(record), file=sys.stdout)


if __name__ == "__main__":
    main()
