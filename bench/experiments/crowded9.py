"""Crowded 9×9 boards for issue 56's A* measurements, until ``rhasp generate`` has a crowded
mode: vehicles placed at random until the board holds 22-26 vehicles covering 65-75 % of its
cells, then a random walk of 3,000 moves (the target never leaving); kept where BFS from there
reaches between ``--min-states`` and ``--max-states`` states. With ``--hardest``, the start is
instead the hardest state of a cluster of at most ``--max-states`` states: none was found at
70 % or more covered (every cluster past 4 M states, or with no goal), so the deck is of random
walks, of 4-11 moves: shallower than the course's boards (18-27 moves), as wide for BFS.

    python bench/experiments/crowded9.py [--count 8] [--seed 56] [--min-states 100000]
                                         [--max-states 15000000] [--covered 0.65]
                                         [--hardest] > bench/experiments/crowded9.txt

Prints a deck (one-line boards, ``X`` the target leaving right of row 5), each line preceded
by a comment with its seed, vehicles, share covered, fewest moves and BFS's states.
"""

from __future__ import annotations

import argparse
import random
import sys

from rhasp.errors import SearchLimit
from rhasp.formats import read_text
from rhasp.limits import Budget
from rhasp.model import Puzzle
from rhasp.search import explore_cluster, fewest_moves

SIDE = 9
ROW = 4  # the target's row, from 0
LABELS = "ABCDEFGHIJKLMNPQRSTUVWYZ0123456789abc"  # neither o nor x


def placed(rng: random.Random, low: float) -> list[list[str]] | None:
    """A 9×9 grid, the target on the left of its row, 22-26 vehicles, ``low`` to 75 %
    covered."""
    grid = [["."] * SIDE for _ in range(SIDE)]
    grid[ROW][0] = grid[ROW][1] = "X"
    vehicles = rng.randint(22, 26)
    lengths = [3 if rng.random() < 0.25 else 2 for _ in range(vehicles - 1)]
    covered = 2 + sum(lengths)
    if not low <= covered / SIDE**2 <= 0.75:
        return None
    for label, length in zip(LABELS, lengths, strict=False):
        for _ in range(200):
            horizontal = rng.random() < 0.5
            r = rng.randrange(SIDE - (0 if horizontal else length - 1))
            c = rng.randrange(SIDE - (length - 1 if horizontal else 0))
            cells = [(r, c + k) if horizontal else (r + k, c) for k in range(length)]
            if horizontal and r == ROW:
                continue  # nothing horizontal on the target's row: it would never pass
            if all(grid[a][b] == "." for a, b in cells):
                for a, b in cells:
                    grid[a][b] = label
                break
        else:
            return None
    return grid


def walked(puzzle: Puzzle, rng: random.Random, steps: int) -> Puzzle:
    """``puzzle`` after ``steps`` random moves that never take the target out."""
    board, state = puzzle.board, puzzle.start
    for _ in range(steps):
        options = [s for _, s in board.successors(state) if not board.is_solved(s)]
        if not options:
            break
        state = rng.choice(options)
    return Puzzle(board, state)


def hardest(puzzle: Puzzle, max_cluster: int) -> Puzzle | None:
    """The hardest state of ``puzzle``'s cluster, None past ``max_cluster`` states or with no
    goal."""
    try:
        graph = explore_cluster(puzzle.board, puzzle.start, Budget(max_cluster))
    except SearchLimit:
        print(f"; {puzzle.name}: cluster past {max_cluster:,} states", file=sys.stderr)
        return None
    if graph.farthest is None:
        print(f"; {puzzle.name}: {graph.states:,} states, no goal", file=sys.stderr)
        return None
    return Puzzle(puzzle.board, graph.state(graph.hardest))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--seed", type=int, default=56)
    parser.add_argument("--min-states", type=int, default=100_000)
    parser.add_argument("--covered", type=float, default=0.65)
    parser.add_argument("--max-states", type=int, default=15_000_000)
    parser.add_argument("--hardest", action="store_true")
    args = parser.parse_args()
    found, seed = 0, args.seed
    while found < args.count:
        seed += 1
        rng = random.Random(seed)
        grid = placed(rng, args.covered)
        if grid is None:
            continue
        text = "".join("".join(row) for row in grid)
        puzzle = read_text(text, "crowded", name=f"seed{seed}")[0]
        if args.hardest:
            puzzle = hardest(puzzle, args.max_states)
            if puzzle is None:
                continue
        else:
            puzzle = walked(puzzle, rng, 3000)
        line = "".join("".join(row) for row in puzzle.board.grid(puzzle.start))
        try:
            plan, states = fewest_moves(puzzle.board, puzzle.start, Budget(args.max_states))
        except SearchLimit as limit:
            print(f"; seed {seed}: {limit}", file=sys.stderr)
            continue
        if plan is None or states < args.min_states:
            print(f"; seed {seed}: {states} states, skipped", file=sys.stderr)
            continue
        count = len(puzzle.board.vehicles)
        share = sum(v.length for v in puzzle.board.vehicles) / SIDE**2
        moves = len(plan)
        said = f"{count} vehicles, {share:.0%} covered, {moves} moves, BFS {states:,}"
        print(f"; seed {seed}: {said}")
        print(line, flush=True)
        found += 1


if __name__ == "__main__":
    main()
