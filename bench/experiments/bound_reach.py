"""How much a lower bound can prune the ASP engine's walks, counted over whole clusters.

    python bench/experiments/bound_reach.py card26 card25 1 3   # cards, or large-clusters lines

For each puzzle: its cluster (BFS), each board's moves from the start d and to the goal, and
per horizon H that the engine solves (0, 4, 8, ... up to the first at or past the optimum,
then down to the one below it) the boards a walk can visit, d + bound <= H, summed over those
horizons: without a bound, with A*'s (``BoundTable.core_bound``) and with the memo's by moves
(``BoundTable.bound``: the vehicles that must move). Also checks both bounds against the
boards' true moves to the goal. Not a timing: what the bound could save, not what it costs.
"""

from __future__ import annotations

import sys
from collections import deque
from pathlib import Path

import rhasp
from rhasp.limits import Budget
from rhasp.search import BoundTable, explore_cluster
from rhasp.search.geometry import Geometry

DECK = Path(__file__).resolve().parents[3] / "shared" / "decks" / "large-clusters.txt"


def puzzle(name: str) -> rhasp.Puzzle:
    if name.startswith("card"):
        return rhasp.read(name)
    line = DECK.read_text().splitlines()[int(name) - 1]
    return rhasp.read(line.split()[1])


def main(names: list[str]) -> None:
    totals = [0, 0, 0]
    for name in names:
        found = puzzle(name)
        graph = explore_cluster(found.board, found.placement, Budget())
        start = [-1] * graph.states
        start[0], queue = 0, deque([0])
        while queue:
            i = queue.popleft()
            for j in graph.neighbours(i):
                if start[j] < 0:
                    start[j] = start[i] + 1
                    queue.append(j)
        geometry, table = Geometry.of(found.board), BoundTable.of(found.board, by_slides=False)
        keys = [geometry.key(found.board.settle(graph.state(i))) for i in range(graph.states)]
        bounds = (
            [0] * graph.states,
            [table.core_bound(k) for k in keys],
            [table.bound(k) for k in keys],
        )
        for i, left in enumerate(graph.distance):
            if left >= 0 and max(bounds[1][i], bounds[2][i]) > left:
                raise SystemExit(f"{name}: a bound above the true moves left at board {i}")
        optimum = graph.distance[0]
        horizons = list(range(0, optimum, 4))
        top = horizons[-1] + 4
        horizons += [top, *range(top - 1, optimum - 2, -1)]
        row = [
            sum(sum(1 for i in range(graph.states) if start[i] + b[i] <= h) for h in horizons)
            for b in bounds
        ]
        totals = [t + r for t, r in zip(totals, row, strict=True)]
        shares = " ".join(f"{r / row[0]:.2f}" for r in row[1:])
        print(f"{name}: {optimum} moves, {graph.states} boards; walked {row}; shares {shares}")
    print(f"all: walked {totals} (no bound, A*'s, must-move); shares", end=" ")
    print(f"{totals[1] / totals[0]:.2f} {totals[2] / totals[0]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["card26", "card25", "card13", "card40", "1", "3"])
