"""Fuzzing the readers (issue 13): generated and mutated inputs for every reader, in-process.

    python bench/fuzz.py [--cases 100000] [--seed 13] [--readers grid,line,...]

Runs the generators of ``tests/fuzzing.py`` (those ``tests/test_fuzz.py`` drives with
hypothesis for 3,050 cases) with seeded random sources instead: the readers in turn (grid,
one-line board, deck read whole, deck streamed from a file, car list, course CSV, JSON, a
file of any format as bytes, a plan for ``check``, a command line, an HTTP request to
``rhasp serve``'s app), case number ``i`` drawn from ``random.Random(f"{seed}:{i}")``, so
that any case can be made again alone (``--only I``).

Each case ends as a valid puzzle (written in every format that holds it and read back the
same; a small one solved by BFS and its plan replayed; for HTTP, a 2xx answer), a one-line
error naming its place, a traceback, or other (an error of several lines or of no place, a
puzzle that does not read back, a command's exit code outside 0/1/2/4, an HTTP 500 or an
error that is not JSON). Prints a table of the outcomes per reader, the failures by kind with
the first case of each, the first few in full, and one JSON line;
exits 1 if there is any failure.
"""

from __future__ import annotations

import argparse
import collections
import json
import platform
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fuzzing import (  # noqa: E402 (the repository's root on the path first)
    OUTCOMES,
    READERS,
    Outcome,
    make_case,
    run_case,
    seeds,
)

SHOWN = 3  # failures of each reader and kind printed in full


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--readers", default=",".join(READERS))
    parser.add_argument("--only", type=int, help="run case number ONLY alone, and show it")
    args = parser.parse_args()
    readers = tuple(args.readers.split(","))
    numbers = range(args.cases) if args.only is None else [args.only]
    seeds()  # read the seed files before the clock starts
    counts = {reader: collections.Counter() for reader in readers}
    seconds = collections.Counter()
    kinds: dict[str, list[int]] = {}  # the other failures by kind: their case numbers
    failures: list[str] = []
    began = time.perf_counter()
    for number in numbers:
        reader = readers[number % len(readers)]
        start = time.perf_counter()
        case = make_case(random.Random(f"{args.seed}:{number}"), reader)
        outcome = run_case(case)
        seconds[reader] += time.perf_counter() - start
        counts[reader][outcome.kind] += 1
        if outcome.kind in ("traceback", "other"):
            kinds.setdefault(signature(outcome), []).append(number)
            if args.only is not None or counts[reader][outcome.kind] <= SHOWN:
                failures.append(f"case {number} ({reader}, {outcome.kind}): {case!r}")
                failures[-1] += f"\n{outcome.detail}"
        if (number + 1) % 10_000 == 0:
            print(f"{number + 1:,} cases, {time.perf_counter() - began:.0f} s", file=sys.stderr)
    total = time.perf_counter() - began
    print_table(counts, seconds, total)
    if kinds:
        print("\nother failures by kind (count, first case):")
        for kind, numbers_of in sorted(kinds.items(), key=lambda item: -len(item[1])):
            print(f"  {len(numbers_of):>6,}  case {numbers_of[0]}: {kind}")
    for failure in failures:
        print(f"\n{failure}")
    failed = sum(counts[r][kind] for r in readers for kind in ("traceback", "other"))
    record = {
        "bench": "fuzz",
        "cases": len(numbers),
        "seed": args.seed,
        "seconds": round(total, 1),
        "readers": {r: {kind: counts[r][kind] for kind in OUTCOMES} for r in readers},
        "failures": failed,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(json.dumps(record, ensure_ascii=False))
    sys.exit(1 if failed else 0)


def signature(outcome: Outcome) -> str:
    """A failure's kind: a traceback's last line, the start of another failure's account."""
    lines = outcome.detail.strip().splitlines() or [""]
    text = lines[-1] if outcome.kind == "traceback" else lines[0]
    return re.sub(r"/tmp/rhasp-fuzz-\w+", "SCRATCH", text)[:100]


def print_table(
    counts: dict[str, collections.Counter[str]], seconds: collections.Counter[str], total: float
) -> None:
    heads = ("reader", "cases", "valid puzzle", "one-line error", "traceback", "other", "ms/case")
    print(f"{heads[0]:<8}" + "".join(f"{head:>16}" for head in heads[1:]))
    everything: collections.Counter[str] = collections.Counter()
    for reader, counted in counts.items():
        everything.update(counted)
        cases = sum(counted.values())
        print(row(reader, counted, 1000 * seconds[reader] / max(cases, 1)))
    print(row("all", everything, 1000 * total / max(sum(everything.values()), 1)))
    print(f"{sum(everything.values()):,} cases in {total:.0f} s")


def row(name: str, counted: collections.Counter[str], per_case: float) -> str:
    cells = [sum(counted.values()), *(counted[kind] for kind in OUTCOMES)]
    return f"{name:<8}" + "".join(f"{cell:>16,}" for cell in cells) + f"{per_case:>16.2f}"


if __name__ == "__main__":
    main()
