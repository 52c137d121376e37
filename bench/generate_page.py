"""The depth the page's Generate reaches on each board size: what its menu says is typical.

    python bench/generate_page.py [--sizes 6,7,8,9,10] [--seeds 11,12,13,14,15] [--seconds 10]

Each try is the page's own request, ``rhasp.generate(min_moves=..., seed=..., size=...,
seconds=10, max_states=2_000_000, covered="any")`` (the server's default limits; boards of
any share, as the page asks, on 10×10 too), in this one process, as a server
runs them. First, per size and seed, a request for more moves than any board there reaches
(40) says the deepest puzzle its seconds found; the depth four seeds in five reach is the
size's "typically" (``data-typical`` in ``rhasp/web/assets/index.html``). Then the page's
request for that depth, with each seed again: how many find a puzzle (a run asked for a depth
stops at the first board that deep, so it finds one where the first pass did). Each try's
wall seconds are printed, so that a run past its seconds shows too. A table, then one JSON
line. Not a test: the depth reached depends on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import time

import rhasp
from rhasp.api import ANY_SHARE

UNREACHED = 40  # the most the page asks for: no board of these sizes reaches it in seconds


def tries(size: int, moves: int, seeds: list[int], seconds: float) -> list[tuple[int, float]]:
    """Each seed's depth found (negative: the deepest of a run that found none as deep as
    asked; 0: not even that) and wall seconds."""
    done = []
    for seed in seeds:
        began = time.perf_counter()
        try:
            found = rhasp.generate(
                min_moves=moves,
                seed=seed,
                size=size,
                seconds=seconds,
                max_states=2_000_000,
                covered=ANY_SHARE,
            )
            depth = found.meta["moves"]
        except rhasp.SearchLimit as limit:  # the deepest it found, when asked for more
            deepest = re.search(r"the deepest found took (\d+) move", str(limit))
            depth = -int(deepest[1]) if deepest else 0
        done.append((depth, round(time.perf_counter() - began, 2)))
        print(f"{size}×{size} at least {moves}, seed {seed}: {depth} in {done[-1][1]} s")
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="6,7,8,9,10")
    parser.add_argument("--seeds", default="11,12,13,14,15")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    seeds = [int(seed) for seed in args.seeds.split(",")]
    typical: dict[int, int] = {}
    found: dict[int, int] = {}
    runs: list[dict] = []
    for size in (int(size) for size in args.sizes.split(",")):
        deepest = sorted(-depth for depth, _ in tries(size, UNREACHED, seeds, args.seconds))
        typical[size] = deepest[len(seeds) // 5]  # four in five reach it
        done = tries(size, typical[size], seeds, args.seconds)
        found[size] = sum(depth >= typical[size] for depth, _ in done)
        runs.append({"size": size, "deepest": deepest, "asked": typical[size], "tries": done})
    print("size | deepest per seed | typically (4 in 5) | asked for it: found | slowest try, s")
    for run in runs:
        size, slowest = run["size"], max(s for _, s in run["tries"])
        cells = [run["deepest"], typical[size], f"{found[size]} of {len(seeds)}", slowest]
        print(" | ".join([f"{size}×{size}", *map(str, cells)]))
    summary = {
        "bench": "generate_page",
        "date": time.strftime("%Y-%m-%d"),
        "machine": platform.node(),
        "seconds": args.seconds,
        "seeds": seeds,
        "typical": typical,
        "found": found,
        "runs": runs,
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
