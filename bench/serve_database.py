"""What ``rhasp serve --database FILE`` costs at start-up (issue 30): every line checked, its
puzzles held in memory.

    python bench/serve_database.py [--runs 5] [--deck bench/database10k.txt]

Times :class:`rhasp.web.server.Database` reading the deck (each line's board read as
``rhasp solve`` reads it) and measures the memory its puzzles hold (the packed shelves).
Medians of ``--runs``. Prints a table and one JSON line. Not a test: timings on shared
machines are noisy.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

from rhasp.web.server import Database

ROOT = Path(__file__).resolve().parent.parent


def held_bytes(database: Database) -> int:
    """The bytes of the shelves' buffers: boards, and three 8-byte numbers a puzzle."""
    return sum(
        len(shelf.boards)
        + sum(sys.getsizeof(a) for a in (shelf.starts, shelf.clusters, shelf.lines))
        for shelf in database.shelves.values()
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--deck", type=Path, default=ROOT / "bench" / "database10k.txt")
    args = parser.parse_args()
    seconds = []
    for _ in range(args.runs):
        began = time.perf_counter()
        database = Database(args.deck)
        seconds.append(time.perf_counter() - began)
    puzzles = sum(database.counts().values())
    median = statistics.median(seconds)
    record = {
        "deck": args.deck.name,
        "puzzles": puzzles,
        "seconds": median,
        "us_per_line": median / puzzles * 1e6,
        "bytes_per_puzzle": held_bytes(database) / puzzles,
    }
    print(f"{args.deck.name}: {puzzles:,} puzzles; medians of {args.runs} runs")
    print(f"{'start-up s':>12}{'µs a line':>12}{'bytes a puzzle':>16}")
    print(f"{median:>12.2f}{record['us_per_line']:>12.0f}{record['bytes_per_puzzle']:>16.0f}")
    print(json.dumps({"bench": "serve_database", "machine": platform.node(), **record}))


if __name__ == "__main__":
    main()
