"""``rhasp enumerate`` against the targets of issue 20.

    python bench/enumerate.py [--runs 3] [--jobs 2] [--sample 40] [--skip-full]

1. **5×5, no walls, complete**: ``rhasp enumerate --size 5`` as a process, start-up included
   (the compiled code already cached), median of the runs; its counts must be the published
   ones (62,106 solvable clusters, 1,730 puzzles, hardest 20).
2. **6×6, no walls, --pieces 1..6**: the same command, median of the runs.
3. **6×6, no walls, complete**, estimated: every K-th shard (a systematic sample, K chosen so
   that about ``--sample`` shards run) is timed alone on one process, both ways of starting
   (packed layouts, and goal layouts with ``Options.from_goals``), under equal conditions,
   interleaved; the sum times K, over ``--jobs`` cores, estimates the whole run's wall time.
   The peak memory of all processes together is read from /proc while item 2 runs.

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
import threading
import time
from pathlib import Path

from rhasp import enumeration

PUBLISHED_5X5 = (62_106, 1_730, 20)


def timed_command(args: list[str], watch_memory: bool = False) -> tuple[float, str, float]:
    """Seconds, standard error and the peak resident memory (MB) of the process tree."""
    command = [sys.executable, "-m", "rhasp", "enumerate", *args]
    began = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    peak = [0.0]
    if watch_memory:
        threading.Thread(target=_watch, args=(process, peak), daemon=True).start()
    _, stderr = process.communicate()
    seconds = time.perf_counter() - began
    if process.returncode != 0:
        sys.exit(f"{command} failed ({process.returncode}):\n{stderr[-2000:]}")
    return seconds, stderr, peak[0]


def _watch(process: subprocess.Popen[str], peak: list[float]) -> None:
    while process.poll() is None:
        peak[0] = max(peak[0], _tree_rss(process.pid))
        time.sleep(0.05)


def _tree_rss(pid: int) -> float:
    """Resident MB of a process and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        child = int(stat.parent.name)
        children.setdefault(int(fields[1]), []).append(child)
        rss[child] = int(fields[21])
    total, stack = 0, [pid]
    while stack:
        here = stack.pop()
        total += rss.get(here, 0)
        stack.extend(children.get(here, []))
    return total * 4096 / 2**20


def summary_number(stderr: str, name: str) -> str:
    """A figure of the summary table (a row ``│ name │ value │``), not of the progress lines
    that a run of more than a few seconds prints before it."""
    for line in stderr.splitlines():
        cells = [cell.strip() for cell in line.split("│")]
        if len(cells) > 2 and cells[1] == name:
            return cells[2]
    return ""


def five_by_five(runs: int, jobs: int, scratch: Path) -> dict[str, object]:
    out = scratch / "db5.txt"
    times = []
    for _ in range(runs):
        seconds, stderr, _ = timed_command(["--size", "5", "--jobs", str(jobs), "--out", str(out)])
        times.append(seconds)
    solvable = int(summary_number(stderr, "solvable clusters").replace(",", ""))
    puzzles = int(summary_number(stderr, "puzzles").replace(",", ""))
    hardest = int(summary_number(stderr, "hardest").split()[0])
    if (solvable, puzzles, hardest) != PUBLISHED_5X5:
        sys.exit(f"5×5 gave {solvable, puzzles, hardest}, not the published {PUBLISHED_5X5}")
    return {"seconds": statistics.median(times), "runs": times}


def six_by_six_slice(runs: int, jobs: int, scratch: Path) -> dict[str, object]:
    out = scratch / "db6.txt"
    times, peaks = [], []
    for _ in range(runs):
        seconds, stderr, peak = timed_command(
            ["--size", "6", "--pieces", "1..6", "--jobs", str(jobs), "--out", str(out)], True
        )
        times.append(seconds)
        peaks.append(peak)
    return {
        "seconds": statistics.median(times),
        "runs": times,
        "peak_mb": max(peaks),
        "puzzles": summary_number(stderr, "puzzles"),
    }


def six_by_six_sample(sample: int, jobs: int) -> dict[str, object]:
    """Every K-th shard of the complete 6×6 run, each way, timed alone on this process."""
    ways = {"packed": enumeration.Options(6, from_goals=False), "goals": enumeration.Options(6)}
    found: dict[str, dict[str, float]] = {}
    for name, options in ways.items():
        total = enumeration.shard_count(enumeration.prepared(options))
        step = max(1, total // sample)
        found[name] = {"shards": total, "step": step, "seconds": 0.0, "layouts": 0, "puzzles": 0}
    budget = 10**8
    numbers = {name: range(0, int(f["shards"]), int(f["step"])) for name, f in found.items()}
    for position in range(max(map(len, numbers.values()))):
        for name, options in ways.items():  # interleaved: equal conditions for both ways
            if position < len(numbers[name]):
                began = time.perf_counter()
                shard = enumeration.run_shard(options, budget, numbers[name][position])
                found[name]["seconds"] += time.perf_counter() - began
                found[name]["layouts"] += shard.layouts
                found[name]["puzzles"] += len(shard.lines)
    for f in found.values():
        f["estimated_core_hours"] = f["seconds"] * f["step"] / 3600
        f["estimated_wall_hours"] = f["estimated_core_hours"] / jobs
        f["estimated_puzzles"] = f["puzzles"] * f["step"]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sample", type=int, default=40, help="shards of the 6×6 estimate")
    parser.add_argument("--skip-full", action="store_true", help="no 6×6 estimate")
    args = parser.parse_args()
    results: dict[str, object] = {
        "machine": f"{platform.machine()}, Python {platform.python_version()}",
        "jobs": args.jobs,
    }
    enumeration.prepared(enumeration.Options(4))  # compile or load the core before timing
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        results["5x5"] = five_by_five(args.runs, args.jobs, scratch)
        results["6x6 pieces 1..6"] = six_by_six_slice(args.runs, args.jobs, scratch)
    if not args.skip_full:
        results["6x6 complete, estimated"] = six_by_six_sample(args.sample, args.jobs)
    print(f"{'what':32} {'median s':>10}  target")
    print(f"{'5×5 complete':32} {results['5x5']['seconds']:10.2f}  ≤ 2 s")
    slice_ = results["6x6 pieces 1..6"]
    print(
        f"{'6×6 --pieces 1..6':32} {slice_['seconds']:10.2f}  ≤ 10 s "
        f"(peak {slice_['peak_mb']:.0f} MB, ≤ 500)"
    )
    for name, f in results.get("6x6 complete, estimated", {}).items():
        sampled = len(range(0, int(f["shards"]), int(f["step"])))
        print(
            f"{'6×6 complete (' + name + ')':32} {f['estimated_wall_hours'] * 3600:10.0f}  "
            f"≤ 7,200 s ({f['estimated_core_hours']:.2f} core-hours from "
            f"{sampled} of {f['shards']} shards)"
        )
    print(json.dumps(results))


if __name__ == "__main__":
    main()
