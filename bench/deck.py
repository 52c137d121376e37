"""Deck throughput and search memory.

    python bench/deck.py [--deck bench/deck10k.txt] [--jobs 2] [--runs 3]

1. Times ``rhasp deck DECK --cluster --verify --jobs N`` (the real command, in a subprocess),
   median of the runs, as puzzles per second; a mismatch with the deck's numbers fails.
2. Measures the peak memory (maximum resident set, in a fresh process) of a full exploration
   of a 174,532-state cluster: a random board found with ``random_board`` seed 27.

Prints a table and one JSON line. Not a test: timings on shared machines are noisy.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIG_CLUSTER = "ooBBCDooEECDooAAooFooGGoFoHHooFoooII"
EXPLORE = f"""
import resource, time
from rhasp.formats import read_text
from rhasp.engines.bitboard import cluster_size
(puzzle,) = read_text("{BIG_CLUSTER}", "big", name="big")
began = time.perf_counter()
states = cluster_size(puzzle.board, puzzle.placement)
seconds = time.perf_counter() - began
print(states, seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def deck_seconds(deck: Path, jobs: int) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "results.jsonl"
        command = [sys.executable, "-m", "rhasp", "deck", str(deck), "--cluster", "--verify",
                   "--jobs", str(jobs), "--out", str(out)]  # fmt: skip
        began = time.perf_counter()
        run = subprocess.run(command, capture_output=True, text=True)
        seconds = time.perf_counter() - began
        if run.returncode != 0:
            sys.exit(f"rhasp deck failed ({run.returncode}):\n{run.stderr[-2000:]}")
        return seconds, sum(1 for _ in out.open())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", type=Path, default=ROOT / "bench" / "deck10k.txt")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    times = []
    for _ in range(args.runs):
        seconds, puzzles = deck_seconds(args.deck, args.jobs)
        times.append(seconds)
    median = statistics.median(times)
    explored = subprocess.run([sys.executable, "-c", EXPLORE], capture_output=True, text=True,
                              check=True).stdout.split()  # fmt: skip
    states, explore_seconds, peak_mb = int(explored[0]), float(explored[1]), float(explored[2])
    print(f"deck: {puzzles:,} puzzles with --cluster --verify on {args.jobs} processes: "
          f"{median:.1f} s (median of {args.runs}), {puzzles / median:,.0f} puzzles/s")  # fmt: skip
    print(f"memory: full exploration of {states:,} states in {explore_seconds:.2f} s, "
          f"peak resident {peak_mb:.0f} MB")  # fmt: skip
    print(json.dumps({
        "bench": "deck", "deck": args.deck.name, "puzzles": puzzles, "jobs": args.jobs,
        "runs": args.runs, "seconds": round(median, 2),
        "puzzles_per_second": round(puzzles / median, 1),
        "cluster_states": states, "cluster_seconds": round(explore_seconds, 2),
        "peak_mb": round(peak_mb, 1), "python": platform.python_version(),
        "machine": platform.machine(),
    }))  # fmt: skip


if __name__ == "__main__":
    main()
