"""What one state costs a search, and one ground atom costs clingo: the figures behind the
default limits (rhasp/limits.py: BYTES_PER_STATE, BYTES_PER_ATOM).

Each measurement runs in a fresh process and reads its peak resident memory (ru_maxrss) after
the work, less the peak before it:

- states, uncompiled: ``fewest_moves`` (links kept) on puzzles/large/walled12.txt, a 12x12
  board too large for the compiled core, stopped at its state budget;
- states, compiled: the same breadth-first search, links kept, over the whole cluster of a
  6x6 board (bench/deck.py's 174,532-state board);
- analysis: ``rhasp analyze``'s work on that board (the cluster with every state's
  neighbours, the distances, the all-moves graph), per state of the cluster;
- atoms: the ASP engine (with the state memo) on card 40 up to a fixed horizon, peak memory
  against clingo's count of atoms in the ground program;
- large boards (issue 56), compiled: A* (by moves; and unbounded by slides, Dijkstra's
  search, which stores its states as A* does and runs far on boards where the bound ends
  A* early), BFS (links kept, to the goal) and BFS over the whole cluster (links kept,
  targets staying, ``solve_and_count``: it runs far where BFS ends early) on 12x12 boards,
  puzzles/large/left12.txt unless ``--board`` names others (``FILE:N``: the file's Nth
  puzzle; ``bench/experiments/crowded48.txt:1`` for a board of 48 vehicles, whose keys take
  four words unpacked and three packed), each search stopped at ``--large-states``,
  each after a small search of the same board has loaded its compiled code (compiled in an
  earlier process, so that no compile's peak hides the search's). With ``--tree``
  (repeated) these run on each source tree given (``PYTHONPATH``), before and after a change
  in one run.

    python bench/state_memory.py [--runs 3] [--states 2000000] [--large-states 2000000]
        [--board puzzles/large/left12.txt --board puzzles/large/crowded.txt:6]
        [--tree /path/to/before --tree .] [--only-large] [--kinds astar,dijkstra,bfs,cluster]

Prints a table, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

UNCOMPILED = """
import resource, sys
from rhasp.formats import read_path
from rhasp.search import fewest_moves
from rhasp.limits import Budget
from rhasp.errors import SearchLimit
puzzle = read_path("puzzles/large/walled12.txt")[0]
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    fewest_moves(puzzle.board, puzzle.start, Budget(int(sys.argv[1])))
except SearchLimit:
    pass
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(int(sys.argv[1]), (after - before) * 1024)
"""

COMPILED = """
import os, resource
os.environ["RHASP_JIT"] = "always"
from rhasp.formats import read_text
from rhasp.limits import Budget
from rhasp.search import solve_and_count, prefer_compiled
prefer_compiled()
# bench/deck.py's board of a 174,532-state cluster, explored whole with the links kept.
(puzzle,) = read_text("ooBBCDooEECDooAAooFooGGoFoHHooFoooII", "big", name="big")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
plan, _, explored = solve_and_count(puzzle.board, puzzle.placement, Budget())
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(explored, (after - before) * 1024)
"""

ANALYSIS = """
import resource
from rhasp.analysis import analysis_of
from rhasp.formats import read_text
from rhasp.limits import Budget
(puzzle,) = read_text("ooBBCDooEECDooAAooFooGGoFoHHooFoooII", "big", name="big")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
found = analysis_of(puzzle, Budget())
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(found.cluster_states, (after - before) * 1024)
"""

ATOMS = """
import resource, sys
from rhasp.engines.asp import AspEngine
from rhasp.limits import Budget
from rhasp.formats import read_path
puzzle = read_path("puzzles/original/card40.txt")[0]
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
found = AspEngine(budget=Budget(horizon=int(sys.argv[1]))).solve(puzzle, "moves")
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(found.asp.record()["atoms"], (after - before) * 1024)
"""


LARGE = """
import os, resource, sys
os.environ["RHASP_JIT"] = "always"
from rhasp.errors import SearchLimit
from rhasp.formats import read_path
from rhasp.limits import Budget
from rhasp.search import best_first, fewest_moves, fewest_slides, prefer_compiled, solve_and_count
prefer_compiled()
states, path, kind = int(sys.argv[1]), sys.argv[2], sys.argv[3]
path, _, line = path.partition(":")
puzzle = read_path(path)[int(line or 1) - 1]
def search(budget):
    try:
        if kind == "astar":
            return best_first(puzzle.board, puzzle.start, "moves", budget)[1]
        if kind == "dijkstra":
            return fewest_slides(puzzle.board, puzzle.start, budget)[1]
        if kind == "cluster":
            return solve_and_count(puzzle.board, puzzle.placement, budget)[2]
        return fewest_moves(puzzle.board, puzzle.start, budget)[1]
    except SearchLimit:
        return budget.states
search(Budget(1_000))  # the compiled code for this board's shape, loaded (or compiled) first
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
found = search(Budget(states))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(found, (after - before) * 1024)
"""


def measure(script: str, argument: str, *more: str, tree: str | None = None) -> tuple[int, int]:
    """Run ``script`` in a fresh process (on the source ``tree`` when given: its folder is the
    process's own, ahead of any other on the path, as ``python -c`` puts it first; file
    arguments are taken from this folder); its count and bytes."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.path.abspath(tree)
        more = tuple(_here(m) for m in more)
    run = subprocess.run(
        [sys.executable, "-c", script, argument, *more],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=tree,
    )
    count, used = run.stdout.split()[-2:]
    return int(count), int(used)


def _here(argument: str) -> str:
    """``argument`` as a path from this folder if it names a file here (``FILE:N`` too)."""
    path, colon, line = argument.partition(":")
    return os.path.abspath(path) + colon + line if os.path.isfile(path) else argument


def row(name: str, runs: list[tuple[int, int]], rows: dict[str, dict[str, float]]) -> None:
    """Record and print the median bytes a state (or atom) of ``runs``."""
    count = runs[0][0]
    per = statistics.median(used / count for _, used in runs)
    peak = statistics.median(used for _, used in runs) / 2**20
    rows[name] = {"count": count, "bytes_each": round(per, 1), "peak_mb": round(peak, 1)}
    print(
        f"{name:40} {count:>11,}  {per:8.1f} bytes each  "
        f"(median of {len(runs)}, peak +{peak:,.0f} MB)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--states", type=int, default=2_000_000)
    parser.add_argument("--horizon", type=int, default=50)
    parser.add_argument("--large-states", type=int, default=2_000_000)
    parser.add_argument(
        "--board", action="append", help="a board, FILE or FILE:N for its Nth (repeat)"
    )
    parser.add_argument("--tree", action="append", help="a source tree to run on (repeat)")
    parser.add_argument("--only-large", action="store_true", help="the large boards only")
    parser.add_argument(
        "--kinds", default="astar,dijkstra,bfs,cluster", help="the large boards' searches"
    )
    args = parser.parse_args()
    rows: dict[str, dict[str, float]] = {}
    small = (
        ("states, uncompiled (12x12)", UNCOMPILED, str(args.states)),
        ("states, compiled (6x6)", COMPILED, ""),
        ("analyze, per cluster state (6x6)", ANALYSIS, ""),
        ("ground atoms (card 40, memo)", ATOMS, str(args.horizon)),
    )
    for name, script, argument in () if args.only_large else small:
        row(name, [measure(script, argument) for _ in range(args.runs)], rows)
    kinds = (
        ("astar", "A*"),
        ("dijkstra", "A* unbounded"),
        ("bfs", "BFS"),
        ("cluster", "BFS, cluster"),
    )
    for path in args.board or ["puzzles/large/left12.txt"]:
        board = os.path.basename(path)
        for kind, label in kinds:
            if kind not in args.kinds.split(","):
                continue
            for tree in args.tree or [None]:
                name = f"{label}, compiled ({board})" + (f" [{tree}]" if tree else "")
                # A first run fills the compiled code's cache for the tree: a compile in the
                # measured process would raise its peak before the search, hiding the search's.
                measure(LARGE, "1000", path, kind, tree=tree)
                runs = [
                    measure(LARGE, str(args.large_states), path, kind, tree=tree)
                    for _ in range(args.runs)
                ]
                row(name, runs, rows)
    print(json.dumps({"bench": "state_memory", "python": platform.python_version(), **rows}))


if __name__ == "__main__":
    main()
