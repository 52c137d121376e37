"""What the checked journal of ``rhasp enumerate --out`` costs (issue 30).

    python bench/journal.py [--runs 5] [--shards 2000] [--megabytes 20]

A run the size of the complete 6×6 database (about 20 MB of lines in about 2,000 shards) is
written through :class:`rhasp.journal.JournaledOutput` twice under equal conditions: with
the chained CRC-32 of every shard, and with the checksum replaced by a constant (what
writing cost before it). Then ``--resume`` on the finished files, which reads the output back
and checks every shard. Medians of ``--runs``; the search itself is not involved, so these
are the journal's own seconds, to compare with the hours the 6×6 enumeration takes.

Prints a table and one JSON line. Not a test: timings on shared machines are noisy.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import tempfile
import time
from pathlib import Path
from unittest import mock

from rhasp import journal

LINE = b"51 GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo 4780\n"


def write_run(path: Path, shards: int, per_shard: bytes) -> float:
    began = time.perf_counter()
    output = journal.JournaledOutput(path, "bench", {"size": 6}, shards, False, str)
    for _ in range(shards):
        output.append(per_shard, {"lines": per_shard.count(b"\n")})
    output.close()
    return time.perf_counter() - began


def verify_run(path: Path, shards: int) -> float:
    began = time.perf_counter()
    output = journal.JournaledOutput(path, "bench", {"size": 6}, shards, True, str)
    assert len(output.verified.entries) == shards
    output.close()
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--shards", type=int, default=2000)
    parser.add_argument("--megabytes", type=float, default=20)
    args = parser.parse_args()
    per_shard = LINE * max(1, round(args.megabytes * 1e6 / args.shards / len(LINE)))
    times: dict[str, list[float]] = {"write, checksum": [], "write, none": [], "verify": []}
    with tempfile.TemporaryDirectory() as folder:
        for run in range(args.runs):
            checked, plain = Path(folder) / f"c{run}.txt", Path(folder) / f"p{run}.txt"
            times["write, checksum"].append(write_run(checked, args.shards, per_shard))
            with mock.patch.object(journal, "_chained", lambda entry, piece, previous: 0):
                times["write, none"].append(write_run(plain, args.shards, per_shard))
            times["verify"].append(verify_run(checked, args.shards))
            for path in (checked, plain):
                path.unlink()
                journal.journal_of(path).unlink()
    size = len(per_shard) * args.shards / 1e6
    print(f"journal of {args.shards:,} shards, {size:,.1f} MB; medians of {args.runs} runs")
    print(f"{'what':<18}{'seconds':>10}")
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, value in medians.items():
        print(f"{name:<18}{value:>10.3f}")
    record = {"megabytes": size, "shards": args.shards, "runs": args.runs, **medians}
    print(json.dumps({"bench": "journal", "machine": platform.node(), **record}))


if __name__ == "__main__":
    main()
