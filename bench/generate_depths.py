"""How deep ``rhasp generate`` gets on each board size, minute by minute (issue 33).

    python bench/generate_depths.py [--sizes 6,8,10] [--seeds 1] [--seconds 600]
                                    [--marks 60,300,600] [--targets 6:40,8:30,10:25]
                                    [--jobs 2] [--max-states N] [--log FILE]

For each size and seed, one run of ``rhasp generate``'s loop
(``rhasp.generation.distinct_puzzles``) for ``--seconds`` on ``--jobs`` processes, asked for a
depth no board reaches (999 moves), so that every chain runs its full length, as it does in a
run asked for a depth it has not reached yet. A run asked for a size's target depth
(``--targets``, with ``--count 1``) makes the same boards in the same order until one
reaches it, so one run gives, for each mark of ``--marks`` seconds, the deepest puzzle proven
by then, and when (seconds, boards) the target depth was first reached: where the target run
would stop, but for the final search of that puzzle's cluster.

Columns: the deepest proven at each mark; the target and when it was reached; boards scored
a second; and what scored them (the share proven by BFS over the whole cluster, by A* from
the board as it stands, and skipped at the state limit: both searches past their budgets),
which says what limits the run. Each new deepest is logged as it is found (``--log`` also
writes that log to a file). A table, then one JSON line, with each size's median deepest at
the last mark and the depth four runs in five reach by then (the page's "typically": run it
as the page does, ``--seconds 10 --marks 10 --jobs 1 --max-states 2000000``, seeds 1-5).

Not a test: the rate depends on the machine and on what else runs on it; name both.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from typing import Any, TextIO

from rhasp.generation import Tried, distinct_puzzles
from rhasp.progress import Silent

NEVER = 999  # moves no board reaches: every chain runs its full length


class DepthLog(Silent):
    """Each new deepest puzzle, with the seconds and boards it took (``generate``'s progress
    hook: it is shown the run's :class:`Tried` after every board)."""

    def __init__(self, label: str, out: list[TextIO]) -> None:
        self.label, self.out = label, out
        self.began = time.perf_counter()
        self.found: list[tuple[float, int, int]] = []  # (seconds, boards, moves)

    def advance(self, tally: Any) -> None:
        if tally.deepest is not None and (not self.found or tally.deepest > self.found[-1][2]):
            seconds = time.perf_counter() - self.began
            self.found.append((seconds, tally.boards, tally.deepest))
            line = f"{self.label}: {tally.deepest} moves at {seconds:.1f} s, board {tally.boards:,}"
            proof = tally.deepest_found.proven_by
            for out in self.out:
                print(f"{line} ({proof})", file=out, flush=True)

    def deepest_by(self, seconds: float) -> int | None:
        depths = [moves for at, _, moves in self.found if at <= seconds]
        return depths[-1] if depths else None

    def reached(self, moves: int) -> tuple[float, int] | None:
        return next(((at, boards) for at, boards, deep in self.found if deep >= moves), None)


def one_run(size: int, seed: int, args: argparse.Namespace, out: list[TextIO]) -> dict:
    log = DepthLog(f"{size}×{size} seed {seed}", out)
    tried = Tried()
    began = time.perf_counter()
    for _ in distinct_puzzles(
        seed,
        count=None,
        min_moves=NEVER,
        tried=tried,
        seconds=args.seconds,
        size=size,
        jobs=args.jobs,
        max_states=args.max_states,
        progress=log,
    ):
        pass
    seconds = time.perf_counter() - began
    target = args.targets.get(size)
    reached = None if target is None else log.reached(target)
    boards = max(tried.boards, 1)
    return {
        "size": size,
        "seed": seed,
        "deepest_by": {str(mark): log.deepest_by(mark) for mark in args.marks},
        "target": target,
        "reached_at": None if reached is None else round(reached[0], 1),
        "reached_board": None if reached is None else reached[1],
        "boards": tried.boards,
        "seconds": round(seconds, 1),
        "boards_per_second": round(tried.boards / seconds, 1),
        "share_bfs": round(tried.proven.get("bfs", 0) / boards, 3),
        "share_astar": round(tried.proven.get("astar", 0) / boards, 3),
        "share_skipped": round(tried.skipped / boards, 3),
        "log": [(round(at, 1), n, moves) for at, n, moves in log.found],
    }


def table(rows: list[dict], marks: list[float]) -> str:
    heads = [f"{mark:g} s" for mark in marks]
    lines = [
        " | ".join(["size", "seed", *heads, "target", "reached", "boards/s", "bfs", "a*", "skip"]),
    ]
    for row in rows:
        reached = (
            "-"
            if row["target"] is None
            else "no"
            if row["reached_at"] is None
            else f"{row['reached_at']:g} s (board {row['reached_board']:,})"
        )
        depths = [str(row["deepest_by"][str(mark)] or "-") for mark in marks]
        shares = [f"{row[key]:.0%}" for key in ("share_bfs", "share_astar", "share_skipped")]
        cells = [f"{row['size']}×{row['size']}", str(row["seed"]), *depths]
        cells += [str(row["target"] or "-"), reached, f"{row['boards_per_second']:g}", *shares]
        lines.append(" | ".join(cells))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="6,8,10")
    parser.add_argument("--seeds", default="1")
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--marks", default="60,300,600")
    parser.add_argument("--targets", default="6:40,8:30,10:25")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--max-states", type=int, default=None)
    parser.add_argument("--log", default=None)
    args = parser.parse_args()
    args.marks = [float(mark) for mark in args.marks.split(",")]
    args.targets = {
        int(size): int(moves)
        for size, moves in (pair.split(":") for pair in args.targets.split(",") if pair)
    }
    out: list[TextIO] = [sys.stdout]
    if args.log:
        out.append(open(args.log, "a", encoding="utf-8"))  # noqa: SIM115 (open for the run)
    rows = []
    for size in (int(size) for size in args.sizes.split(",")):
        for seed in (int(seed) for seed in args.seeds.split(",")):
            rows.append(one_run(size, seed, args, out))
            for stream in out:
                print(table(rows[-1:], args.marks).splitlines()[-1], file=stream, flush=True)
    text = table(rows, args.marks)
    medians = {
        size: statistics.median(
            row["deepest_by"][str(args.marks[-1])] or 0 for row in rows if row["size"] == size
        )
        for size in sorted({row["size"] for row in rows})
    }
    most = {  # the depth at least four runs in five reach by the last mark
        size: sorted(
            row["deepest_by"][str(args.marks[-1])] or 0 for row in rows if row["size"] == size
        )[len([row for row in rows if row["size"] == size]) // 5]
        for size in sorted({row["size"] for row in rows})
    }
    summary = {
        "bench": "generate_depths",
        "date": time.strftime("%Y-%m-%d"),
        "machine": platform.node(),
        "seconds": args.seconds,
        "jobs": args.jobs,
        "median_deepest_at_end": medians,
        "four_in_five_at_end": most,
        "runs": rows,
    }
    for stream in out:
        print(text, file=stream)
        print(json.dumps(summary), file=stream, flush=True)


if __name__ == "__main__":
    main()
