"""The most moves any puzzle of a small board takes, by walls: every board, every cluster.

For ``rhasp generate``'s refusal of a depth no puzzle has (``rhasp.requests.DEEPEST_PUZZLE``):
every layout of a ``--size`` board with the target ``A`` (a horizontal car) on the row
``rhasp generate`` puts it on, ``(size - 1) // 2``, leaving right, other vehicles 2 or 3
long either way, and exactly ``W`` walls, is walked by the naive string search of
``tests/reference.py`` (``reference.deepest``: no rhasp code), each cluster once; the
deepest state of every solvable cluster, by breadth-first search from its goal states, is
the figure. Nothing is left out (no minimality, no "interesting" filter), so no board of
that size and walls has a puzzle deeper. 4×4 only: 5×5 has far too many layouts for the
naive search.

    python bench/deepest.py [--size 4] [--walls 0..14]

Prints one line a wall count (walls, the most moves, clusters, seconds), then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import reference


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--walls", default="0..14", help="a count or LOW..HIGH")
    args = parser.parse_args()
    low, _, high = args.walls.partition("..")
    rows = []
    for walls in range(int(low), int(high or low) + 1):
        began = time.perf_counter()
        most, clusters = reference.deepest(args.size, (args.size - 1) // 2, walls)
        seconds = time.perf_counter() - began
        print(f"{walls} walls: {most} moves at most, {clusters:,} clusters, {seconds:.1f} s")
        rows.append({"walls": walls, "most_moves": most, "clusters": clusters})
    print(json.dumps({"size": args.size, "rows": rows}))


if __name__ == "__main__":
    main()
