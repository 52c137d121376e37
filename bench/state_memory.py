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
  against clingo's count of atoms in the ground program.

    python bench/state_memory.py [--runs 3] [--states 2000000]

Prints a table, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
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


def measure(script: str, argument: str) -> tuple[int, int]:
    run = subprocess.run(
        [sys.executable, "-c", script, argument], capture_output=True, text=True, check=True
    )
    count, used = run.stdout.split()
    return int(count), int(used)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--states", type=int, default=2_000_000)
    parser.add_argument("--horizon", type=int, default=50)
    args = parser.parse_args()
    rows = {}
    for name, script, argument in (
        ("states, uncompiled (12x12)", UNCOMPILED, str(args.states)),
        ("states, compiled (6x6)", COMPILED, ""),
        ("analyze, per cluster state (6x6)", ANALYSIS, ""),
        ("ground atoms (card 40, memo)", ATOMS, str(args.horizon)),
    ):
        runs = [measure(script, argument) for _ in range(args.runs)]
        count = runs[0][0]
        per = statistics.median(used / count for _, used in runs)
        peak = statistics.median(used for _, used in runs) / 2**20
        rows[name] = {"count": count, "bytes_each": round(per, 1), "peak_mb": round(peak, 1)}
        print(
            f"{name:30} {count:>11,}  {per:8.1f} bytes each  "
            f"(median of {args.runs}, peak +{rows[name]['peak_mb']:,.0f} MB)"
        )
    print(json.dumps({"bench": "state_memory", "python": platform.python_version(), **rows}))


if __name__ == "__main__":
    main()
