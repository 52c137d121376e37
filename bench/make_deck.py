"""Build the benchmark deck: 10,000 database-style puzzles, reproducibly.

    python bench/make_deck.py [--count 10000] [--seed 2026] [--out bench/deck10k.txt]

Each line is ``MOVES BOARD CLUSTER``, database style (``o`` empty, ``A`` the target, ``x`` a
wall). Most puzzles are random 6×6 boards with zero or one wall, moved to the hardest state of
their cluster (the one farthest from any goal, chosen as ``rhasp generate`` chooses it);
random boards rarely need more than about 30 moves, so states of the original cards'
clusters fill in every length up to 51, at least ``--per-length`` puzzles each. The same
seed gives the same deck.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from collections import Counter
from pathlib import Path

from rhasp.canonical import cluster_graph, hardest_state
from rhasp.formats import read_path
from rhasp.formats.line import database_board, database_line
from rhasp.generation import random_board
from rhasp.limits import Budget
from rhasp.model import Puzzle

ROOT = Path(__file__).resolve().parent.parent


def hardest_of_random(seed: int) -> str | None:
    """The deck line of one random board's hardest state; None for a board with no solution."""
    rng = random.Random(seed)
    puzzle = random_board(rng, vehicles=rng.randint(6, 13), walls=rng.randint(0, 1))
    found = hardest_state(puzzle, Budget())
    return None if found is None else found.deck_line()


def by_length_from_cards(per_length: int, seed: int) -> dict[int, list[str]]:
    """For every length, up to ``per_length`` states of the original cards' clusters."""
    rng = random.Random(seed)
    found: dict[int, list[str]] = {}
    for puzzle in read_path(str(ROOT / "puzzles" / "original40.txt")):
        graph = cluster_graph(puzzle, Budget())
        layers: dict[int, list[int]] = {}
        for i in graph.by_distance:
            layers.setdefault(graph.distance[i], []).append(i)
        for d, indices in sorted(layers.items()):
            if d == 0:
                continue
            by_key = sorted(indices, key=lambda i: graph.keys[i])  # as the deck was drawn
            for i in rng.sample(by_key, min(2, len(by_key))):
                state = Puzzle(puzzle.board, graph.state(i), puzzle.name)
                found.setdefault(d, []).append(
                    database_line(d, database_board(state), graph.states)
                )
    return {d: lines[:per_length] for d, lines in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--per-length", type=int, default=6)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "deck10k.txt")
    args = parser.parse_args()
    fill = by_length_from_cards(args.per_length, args.seed)
    lines = [text for d in sorted(fill) for text in fill[d]]
    seeds = iter(range(args.seed * 1_000_000, args.seed * 1_000_000 + 10 * args.count))
    with multiprocessing.Pool() as pool:
        while len(lines) < args.count:
            batch = [next(seeds) for _ in range(512)]
            for text in pool.map(hardest_of_random, batch):
                if text is not None and len(lines) < args.count:
                    lines.append(text)
    random.Random(args.seed).shuffle(lines)
    args.out.write_text("\n".join(lines) + "\n")
    lengths = Counter(int(text.split()[0]) for text in lines)
    print(f"{len(lines)} puzzles, lengths {min(lengths)}-{max(lengths)}; per length:")
    print(" ".join(f"{d}:{n}" for d, n in sorted(lengths.items())))


if __name__ == "__main__":
    main()
