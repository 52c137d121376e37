"""Issue 56: A* with its own bound against A* with pattern databases, and BFS, on crowded
boards and the 40 cards; and the default solve (a short BFS, else A* with patterns,
confirmed), which is what a user gets.

    python bench/pattern_astar.py [--deck bench/experiments/crowded9.txt] [--cards]
                                  [--max-states 20000000] [--runs 1]

Per puzzle: the states and seconds of BFS, of A* with ``lower_bound`` alone and of A* with
the patterns (:mod:`rhasp.search.pattern_bound`: a probe of 50,000 states first, then the
patterns chosen and A* again; its seconds include the choice), the start's bound each way,
and the default solve's seconds (``rhasp.solve``, confirmation included). Medians of
``--runs``. Run with ``RHASP_JIT=always`` so that every search runs compiled. Not a test:
name the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import rhasp
from rhasp import search
from rhasp.errors import SearchLimit
from rhasp.formats import read_path
from rhasp.limits import Budget
from rhasp.search import core
from rhasp.search.geometry import Geometry
from rhasp.search.pattern_bound import CHOICE_SECONDS, patterns_for

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "puzzles" / "original40.txt"


def timed(find, runs: int) -> tuple[object, float]:
    seconds, answer = [], None
    for _ in range(runs):
        began = time.perf_counter()
        try:
            answer = find()
        except SearchLimit as limit:
            answer = (None, f"limit {limit.states}")
        seconds.append(time.perf_counter() - began)
    return answer, statistics.median(seconds)


def start_bounds(puzzle) -> tuple[int, int]:
    geometry = Geometry.of(puzzle.board)
    key = geometry.key(puzzle.start)
    targets = list(geometry.targets)
    own = core.lower_bound(geometry.tables, targets, key, False)
    patterns = patterns_for(geometry, key, CHOICE_SECONDS)
    return own, core.bound_of(geometry.tables, targets, key, False, patterns)


def row(puzzle, budget: Budget, runs: int) -> dict:
    board, start = puzzle.board, puzzle.start
    bfs, bfs_s = timed(lambda: search.fewest_moves(board, start, budget), runs)
    own, own_s = timed(lambda: search.best_first(board, start, "moves", budget), runs)
    pat, pat_s = timed(
        lambda: search.best_first(board, start, "moves", budget, patterned=True), runs
    )
    solved, solve_s = timed(lambda: rhasp.solve(puzzle, max_states=budget.states), runs)
    bounds = start_bounds(puzzle)
    lengths = {len(p) for p, _ in (bfs, own, pat) if p is not None}
    return {
        "name": puzzle.name,
        "moves": lengths.pop() if len(lengths) == 1 else sorted(lengths),
        "bfs": [bfs[1], round(bfs_s, 2)],
        "astar": [own[1], round(own_s, 2)],
        "patterns": [pat[1], round(pat_s, 2)],
        "start_bound": bounds,
        "solve": [solved.engine, list(solved.proofs), round(solve_s, 2)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default=str(ROOT / "bench" / "experiments" / "crowded9.txt"))
    parser.add_argument("--cards", action="store_true", help="the 40 cards too")
    parser.add_argument("--max-states", type=int, default=20_000_000)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    budget = Budget(args.max_states)
    rows = []
    puzzles = read_path(args.deck) + (read_path(str(CARDS)) if args.cards else [])
    for puzzle in puzzles:
        rows.append(row(puzzle, budget, args.runs))
        print(json.dumps(rows[-1]), flush=True)
    print(json.dumps({"rows": rows}))


if __name__ == "__main__":
    main()
