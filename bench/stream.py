"""Memory of a huge deck: `rhasp deck` on a million lines, streamed, without --cluster.

    python bench/stream.py [--lines 1000000] [--jobs 2] [--deck bench/database10k.txt]

Writes a deck of ``--lines`` lines (the given deck's lines over and over) to a scratch file,
runs ``rhasp deck FILE --jobs N --out results.jsonl`` on it, and samples the resident memory
of the whole process tree (the main process and its workers; proportional set size, so that
pages the workers share are counted once) every 0.2 s. Prints the peak,
the time and the rate, then one JSON line. The target of issue 12 is a peak under 300 MB.
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tree_memory_mb(root: int) -> tuple[float, float]:
    """Memory of ``root`` and all its descendants, in MB: the proportional set size summed
    (shared pages, such as the compiled code the workers inherit, counted once) and the
    largest resident set of any one process."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            continue
    family, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in family} - family
        family |= more
        grew = bool(more)
    pss = rss = 0.0
    for pid in family:
        try:
            fields = dict(
                line.split(":", 1)
                for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]
            )
        except OSError:
            continue
        pss += int(fields["Pss"].split()[0]) / 1024
        rss = max(rss, int(fields["Rss"].split()[0]) / 1024)
    return pss, rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--deck", type=Path, default=ROOT / "bench" / "database10k.txt")
    args = parser.parse_args()
    lines = [line for line in args.deck.read_text().splitlines() if not line.startswith(";")]
    with tempfile.TemporaryDirectory() as scratch:
        deck, out = Path(scratch) / "huge.txt", Path(scratch) / "results.jsonl"
        with deck.open("w") as handle:
            for line in itertools.islice(itertools.cycle(lines), args.lines):
                handle.write(line + "\n")
        command = [
            sys.executable,
            "-m",
            "rhasp",
            "deck",
            str(deck),
            "--jobs",
            str(args.jobs),
            "--out",
            str(out),
        ]
        began = time.perf_counter()
        run = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        peak = largest = 0.0
        while run.poll() is None:
            pss, rss = tree_memory_mb(run.pid)
            peak, largest = max(peak, pss), max(largest, rss)
            time.sleep(0.2)
        seconds = time.perf_counter() - began
        if run.returncode != 0:
            sys.exit(f"rhasp deck failed ({run.returncode}): {run.stderr.read()[-2000:]!r}")
        records = sum(1 for _ in out.open())
    print(
        f"{records:,} records from a {args.lines:,}-line deck on {args.jobs} processes: "
        f"{seconds:.0f} s, {records / seconds:,.0f} lines/s; peak memory of all processes "
        f"together {peak:.0f} MB (proportional set size), largest process {largest:.0f} MB "
        f"resident"
    )
    print(
        json.dumps(
            {
                "bench": "stream",
                "lines": args.lines,
                "records": records,
                "jobs": args.jobs,
                "seconds": round(seconds, 1),
                "lines_per_second": round(records / seconds, 1),
                "peak_pss_mb": round(peak, 1),
                "largest_rss_mb": round(largest, 1),
                "python": platform.python_version(),
            }
        )
    )


if __name__ == "__main__":
    main()
