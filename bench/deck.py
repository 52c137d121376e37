"""Deck throughput against the targets of issue 12, and search memory.

    python bench/deck.py [--decks database10k,deck10k] [--jobs 2] [--runs 3]

1. ``rhasp deck DECK --cluster --verify --jobs N`` (the real command, in a subprocess, start-up
   included) on each deck, median of the runs, in lines per second; a mismatch with the
   deck's numbers fails.
2. One process, no cluster count: ``rhasp deck SAMPLE --jobs 1`` against the textbook solver
   ``bench/naive_bfs.py`` (a dict of tuple states and a deque) on a 1,000-line sample of the
   database-style deck (every tenth line), both whole runs, medians; their lengths must agree.
3. The peak memory (maximum resident set, in a fresh process) of a full exploration of a
   174,532-state cluster: a random board found with ``random_board`` seed 27.

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
BENCH = ROOT / "bench"
BIG_CLUSTER = "ooBBCDooEECDooAAooFooGGoFoHHooFoooII"
EXPLORE = f"""
import resource, time
from rhasp.formats import read_text
from rhasp.search import cluster_size, prefer_compiled
prefer_compiled()
(puzzle,) = read_text("{BIG_CLUSTER}", "big", name="big")
began = time.perf_counter()
states = cluster_size(puzzle.board, puzzle.placement)
seconds = time.perf_counter() - began
print(states, seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def timed(command: list[str]) -> tuple[float, str]:
    began = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    if run.returncode != 0:
        sys.exit(f"{command[:4]} failed ({run.returncode}):\n{run.stderr[-2000:]}")
    return seconds, run.stdout


def rhasp_deck(deck: Path, out: Path, *options: str) -> list[str]:
    return [sys.executable, "-m", "rhasp", "deck", str(deck), *options, "--out", str(out)]


def lengths(results: Path) -> list[int | None]:
    records = sorted((json.loads(line) for line in results.open()), key=lambda r: r["line"])
    return [record["length"] for record in records]


def deck_rate(deck: Path, jobs: int, runs: int, scratch: Path) -> tuple[int, float]:
    """Lines and median seconds of ``rhasp deck --cluster --verify`` (exit 3 on a mismatch)."""
    out = scratch / "results.jsonl"
    command = rhasp_deck(deck, out, "--cluster", "--verify", "--jobs", str(jobs))
    times = [timed(command)[0] for _ in range(runs)]
    return sum(1 for _ in out.open()), statistics.median(times)


def against_naive(deck: Path, runs: int, scratch: Path) -> tuple[int, float, float]:
    """Lines, and median seconds of rhasp (one process) and of the textbook solver."""
    lines = [line for line in deck.read_text().splitlines() if not line.startswith(";")]
    sample = scratch / "sample1k.txt"
    sample.write_text("\n".join(lines[::10][:1000]) + "\n")
    out = scratch / "sample.jsonl"
    ours = [timed(rhasp_deck(sample, out, "--jobs", "1"))[0] for _ in range(runs)]
    naive, printed = [], ""
    for _ in range(runs):
        seconds, printed = timed([sys.executable, str(BENCH / "naive_bfs.py"), str(sample)])
        naive.append(seconds)
    theirs = [None if word == "None" else int(word) for word in printed.split()]
    if lengths(out) != theirs:
        sys.exit("rhasp and the textbook solver disagree on the sample's lengths")
    return len(theirs), statistics.median(ours), statistics.median(naive)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", default="database10k,deck10k")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    record: dict[str, object] = {"bench": "deck", "jobs": args.jobs, "runs": args.runs}
    with tempfile.TemporaryDirectory() as name:
        scratch = Path(name)
        for deck in args.decks.split(","):
            lines, seconds = deck_rate(BENCH / f"{deck}.txt", args.jobs, args.runs, scratch)
            rate = lines / seconds
            print(
                f"{deck}: {lines:,} lines, --cluster --verify on {args.jobs} processes: "
                f"{seconds:.1f} s (median of {args.runs}), {rate:,.0f} lines/s"
            )
            record[deck] = {
                "lines": lines,
                "seconds": round(seconds, 2),
                "lines_per_second": round(lines / seconds, 1),
            }
        lines, ours, naive = against_naive(BENCH / "database10k.txt", args.runs, scratch)
    print(
        f"one process, {lines:,} database-style lines, no cluster count: rhasp {ours:.2f} s, "
        f"textbook dict-of-tuples BFS {naive:.2f} s: {naive / ours:.1f}x"
    )
    record["one_process"] = {
        "lines": lines,
        "rhasp_seconds": round(ours, 2),
        "naive_seconds": round(naive, 2),
        "speedup": round(naive / ours, 1),
    }
    explored = subprocess.run(
        [sys.executable, "-c", EXPLORE], capture_output=True, text=True, check=True
    ).stdout.split()
    states, explore_seconds, peak_mb = int(explored[0]), float(explored[1]), float(explored[2])
    print(
        f"memory: full exploration of {states:,} states in {explore_seconds:.2f} s, "
        f"peak resident {peak_mb:.0f} MB"
    )
    record |= {
        "cluster_states": states,
        "cluster_seconds": round(explore_seconds, 3),
        "peak_mb": round(peak_mb, 1),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(json.dumps(record))


if __name__ == "__main__":
    main()
