"""rhasp against a PDDL planner: ASP, BFS and Fast Downward on the 40 original cards.

    python bench/planners.py [--runs 1] [--cards 1-40] [--objective moves|slides|both]
                             [--search "astar(lmcut())"]

For every card and objective, back to back: rhasp's ASP engine alone (``get_engine("asp", ...)``,
its horizon proof, no BFS confirmation), rhasp's BFS (Dijkstra by slides) on the compiled
search core (loaded before the clock starts), and Fast Downward (PyPI ``up-fast-downward``,
its bundled planner, A* with the admissible LM-cut heuristic by default) on the domain and
problem ``rhasp convert --to pddl`` writes. Fast Downward's time is the wall clock of its
driver as a planner's user runs it (Python, the translator, the search), and apart its
search component's own "Total time"; rhasp's are in-process, the solve alone. Each plan of
Fast Downward is replayed by rhasp (``rhasp check``'s reader) and its length compared with
BFS's: a plan that does not solve the card or is longer is reported, and the script exits 1.

Prints a row of per-card medians as each card is done (its runs back to back) and, last,
one JSON line with the totals (medians of the runs' sums). Not a test: timings on shared
machines are noisy; name the machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rhasp import search
from rhasp.engines import get_engine
from rhasp.engines.bfs import BfsEngine
from rhasp.formats import read_path
from rhasp.formats.pddl import write_domain, write_problem
from rhasp.limits import Budget
from rhasp.model import replay
from rhasp.notation import extract_plan, parse_plan

DECK = Path(__file__).resolve().parent.parent / "puzzles" / "original40.txt"
SYSTEMS = ("asp", "bfs", "fd", "fd_search")
_FD_TOTAL = re.compile(r"\] Total time: ([\d.]+)s")


def fast_downward() -> Path:
    """The driver of the planner up-fast-downward ships (found without importing the
    package, which imports unified-planning)."""
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("Fast Downward is not installed: python3 -m pip install up-fast-downward")
    return Path(spec.submodule_search_locations[0]) / "downward" / "fast-downward.py"


def plan_by_fast_downward(
    driver: Path, puzzle, objective: str, folder: Path, search_options: str
) -> tuple[float, float, str]:
    """Wall seconds of the driver, its search's own seconds, and the plan's text."""
    board = puzzle.board
    domain, problem, plan = folder / "domain.pddl", folder / "problem.pddl", folder / "sas_plan"
    domain.write_text(write_domain(board.width, board.height, objective))
    problem.write_text(write_problem(puzzle, objective))
    plan.unlink(missing_ok=True)
    began = time.perf_counter()
    files = [str(plan), str(domain), str(problem)]
    ran = subprocess.run(
        [sys.executable, str(driver), "--plan-file", *files, "--search", search_options],
        capture_output=True,
        text=True,
        cwd=folder,
    )
    wall = time.perf_counter() - began
    found = _FD_TOTAL.search(ran.stdout)
    if ran.returncode != 0 or found is None:
        sys.exit(f"Fast Downward failed on {puzzle.name} ({objective}):\n{ran.stdout[-2000:]}")
    return wall, float(found[1]), plan.read_text()


def card_range(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--cards", default="1-40")
    parser.add_argument("--objective", choices=("moves", "slides", "both"), default="both")
    parser.add_argument("--search", default="astar(lmcut())", help="Fast Downward's search")
    args = parser.parse_args()
    objectives = ("moves", "slides") if args.objective == "both" else (args.objective,)
    cards = read_path(str(DECK))
    numbers = card_range(args.cards)
    driver = fast_downward()
    os.environ["RHASP_JIT"] = "always"
    search.prefer_compiled()
    asp, bfs = get_engine("asp", budget=Budget()), BfsEngine(budget=Budget())
    seconds: dict[tuple[int, str, str], list[float]] = {}
    lengths: dict[tuple[int, str], int] = {}
    wrong: list[str] = []
    header = f"{'card':>4}"
    for objective in objectives:
        header += f" {objective:>6} {'asp s':>7} {'bfs s':>7} {'fd s':>7} {'search':>7}"
    print(header, flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for number in numbers:  # a card's runs together: its row prints as soon as it is done
            puzzle = cards[number - 1]
            row = f"{number:4d}"
            for objective in objectives:
                for _ in range(args.runs):
                    timed = seconds.setdefault
                    began = time.perf_counter()
                    optimal = bfs.solve(puzzle, objective)
                    timed((number, objective, "bfs"), []).append(time.perf_counter() - began)
                    began = time.perf_counter()
                    by_asp = asp.solve(puzzle, objective)
                    timed((number, objective, "asp"), []).append(time.perf_counter() - began)
                    wall, own, text = plan_by_fast_downward(
                        driver, puzzle, objective, Path(folder), args.search
                    )
                    timed((number, objective, "fd"), []).append(wall)
                    timed((number, objective, "fd_search"), []).append(own)
                    played = replay(puzzle, parse_plan(extract_plan(text), puzzle.board))
                    count = (
                        len(played.moves)
                        if objective == "moves"
                        else sum(move.slides for move in played.moves)
                    )
                    lengths[number, objective] = optimal.length
                    if by_asp.length != optimal.length:
                        wrong.append(f"card {number} {objective}: asp {by_asp.length}")
                    if not played.solved or count != optimal.length:
                        wrong.append(f"card {number} {objective}: fast downward {count}")
                row += f" {lengths[number, objective]:6d}" + "".join(
                    f" {statistics.median(seconds[number, objective, system]):7.3f}"
                    for system in SYSTEMS
                )
            print(row, flush=True)
    totals = {
        f"{objective}_{system}_seconds": round(
            statistics.median(
                sum(seconds[n, objective, system][run] for n in numbers) for run in range(args.runs)
            ),
            2,
        )
        for objective in objectives
        for system in SYSTEMS
    }
    for objective in objectives:
        shown = ", ".join(
            f"{system} {totals[f'{objective}_{system}_seconds']:.2f} s" for system in SYSTEMS
        )
        print(f"total {objective} (median of {args.runs} runs): {shown}")
    for line in wrong:
        print(f"WRONG: {line}")
    record = {
        "bench": "planners",
        "cards": args.cards,
        "runs": args.runs,
        "search": args.search,
        **totals,
        "all_optimal": not wrong,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
    }
    print(json.dumps(record))
    if wrong:
        sys.exit(1)


if __name__ == "__main__":
    main()
