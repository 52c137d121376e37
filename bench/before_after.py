"""Two source trees of rhasp measured in one run, under equal conditions: a refactor's
"no regression" check (issue 31).

    python bench/before_after.py --tree before=/work/wt-before --tree after=. [--runs 3]

Each measure is a process started in one tree (``python -m`` and ``-c`` put the working
folder first on the import path, before ``PYTHONPATH``, which names the tree too), wall time with
start-up included (the compiled code already cached: one unmeasured warm-up run per tree
first). The trees take turns within each run (A B, then B A, ...), so drift in the machine's
load falls on both. What each measure writes must be the same for every tree (the database
lines byte for byte; the deck's lengths and cluster sizes; the analyses' figures), or the
run stops: a faster wrong answer is no answer.

1. **cards, BFS**: ``rhasp deck puzzles/original40.txt --engine bfs --jobs 1``.
2. **analyze, 40 cards**: ``rhasp.analyze`` on each card in one process (the public API).
3. **enumerate 5×5**: ``rhasp enumerate --size 5`` (complete, no walls).
4. **enumerate 6×6 slice**: ``rhasp enumerate --size 6 --pieces 1..6``.
5. **deck 10k**: ``rhasp deck bench/database10k.txt --cluster --verify --jobs 2``.
6. **cards, ASP**: ``rhasp deck puzzles/original40.txt --engine asp --jobs 1`` (each proof
   confirmed by BFS, as a deck does).
7. **left12, A***: ``rhasp solve puzzles/large/left12.txt --engine astar --format json``.
8. **crowded deck, default engine**: ``rhasp deck puzzles/large/crowded.txt --jobs 1
   --max-states 5000000`` (9×9 and 12×12 boards: A* after a short BFS, confirmed).
9. **crowded 9×9, default engine**: ``rhasp deck bench/experiments/crowded9.txt --jobs 1``
   (issue 56's target boards, clusters of up to 15 million states).
10. **crowded 9×9 one by one**: each of those boards as its own process, ``rhasp solve BOARD
   --format json``, as a user solves one (no deck's warm-up: the search switches to the
   compiled code while it runs).
11. **small large boards**: ``rhasp solve`` (the default engine) on the crowded deck's third
   and fourth boards (9×9, BFS within 50,000 states) and on ``left12`` (12×12, A* and its BFS
   to 1,000,000 states), each a process: what the switch to compiled code costs a search
   that ends soon, and gives one that does not.

Prints a table (medians, the runs, after/before) and one JSON line. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "puzzles" / "original40.txt"
LEFT12 = ROOT / "puzzles" / "large" / "left12.txt"
DECK_10K = ROOT / "bench" / "database10k.txt"
CROWDED = ROOT / "puzzles" / "large" / "crowded.txt"  # issue 56's deck, by the default engine
CROWDED_OPTIONS = ("--jobs", "1", "--max-states", "5000000")  # as bench/large.py --deck
CROWDED9 = ROOT / "bench" / "experiments" / "crowded9.txt"  # issue 56's 9×9 target boards
ANALYZE = """
import json, sys
import rhasp
from rhasp.formats import read_path
figures = []
for puzzle in read_path(sys.argv[1]):
    found = rhasp.analyze(puzzle)
    figures.append([found.cluster_states, found.cluster_edges, found.minimal_moves,
                    found.game_states, found.all_moves_states, found.hardest_distance,
                    sorted(found.profile.items())])
print(json.dumps(figures))
"""


def measures() -> dict[str, list[str]]:
    """Each measure's arguments to ``python``; ``{out}`` is the measure's output file."""
    rhasp = ["-m", "rhasp"]
    deck = [*rhasp, "deck", "--out", "{out}"]
    return {
        "cards, BFS": [*deck, str(CARDS), "--engine", "bfs", "--jobs", "1"],
        "analyze, 40 cards": ["-c", ANALYZE, str(CARDS)],
        "enumerate 5x5": [*rhasp, "enumerate", "--size", "5", "--out", "{out}"],
        "enumerate 6x6 --pieces 1..6": [
            *rhasp,
            "enumerate",
            *("--size", "6", "--pieces", "1..6", "--out", "{out}"),
        ],
        "deck 10k --cluster --verify": [
            *deck,
            str(DECK_10K),
            *("--cluster", "--verify", "--jobs", "2"),
        ],
        "cards, ASP": [*deck, str(CARDS), "--engine", "asp", "--jobs", "1"],
        "left12, A*": [*rhasp, "solve", str(LEFT12), "--engine", "astar", "--format", "json"],
        "crowded deck, default engine": [*deck, str(CROWDED), *CROWDED_OPTIONS],
        "crowded 9x9 (clusters to 15 M), default engine": [*deck, str(CROWDED9), "--jobs", "1"],
        **{
            f"crowded 9x9 board {number}, solve": [*rhasp, "solve", board, "--format", "json"]
            for number, board in enumerate(boards(CROWDED9), 1)
        },
        **{
            f"crowded deck board {number}, solve": [*rhasp, "solve", board, "--format", "json"]
            for number, board in enumerate(boards(CROWDED), 1)
            if number in (3, 4)
        },
        "left12, default engine": [*rhasp, "solve", str(LEFT12), "--format", "json"],
    }


def boards(deck: Path) -> list[str]:
    """The boards of a deck of one-line boards or database lines (comment lines left out)."""
    lines = deck.read_text(encoding="utf-8").splitlines()
    return [line.split()[-1] for line in lines if line.strip() and not line.startswith(";")]


def run_once(tree: Path, arguments: list[str], out: Path) -> tuple[float, str]:
    """Wall seconds of one process of ``tree``, and what it wrote (its answer, compared)."""
    out.unlink(missing_ok=True)
    journal = out.with_name(out.name + ".shards")
    journal.unlink(missing_ok=True)
    command = [sys.executable, *(a.replace("{out}", str(out)) for a in arguments)]
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=tree)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        sys.exit(f"{tree}: {command[1:5]} exit {done.returncode}:\n{done.stderr[-2000:]}")
    return seconds, answer(out, done.stdout)


def answer(out: Path, stdout: str) -> str:
    """What a run found, in a form two trees must agree on: the output file's bytes, or for
    a deck's records the figures (times and engine details aside)."""
    if not out.exists():
        if stdout.startswith("{"):  # a solution as JSON: what it found, not how long it took
            # (its length, and whether proven: which plan of that length, and whether the
            # BFS beside A* ended within its share, follow A*'s states, which its patterns'
            # seconds decide)
            record = json.loads(stdout)
            return json.dumps([record.get("length"), bool(record.get("proven_by"))])
        return stdout
    if out.suffix != ".jsonl":
        return out.read_text()
    records = sorted((json.loads(line) for line in out.open()), key=lambda r: r["line"])
    keep = ("line", "length", "cluster", "status", "moves")
    return json.dumps([{k: r.get(k) for k in keep} for r in records])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", required=True, help="NAME=PATH, twice")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", help="measures whose name contains this")
    options = parser.parse_args()
    trees = {name: Path(path).resolve() for name, path in (t.split("=", 1) for t in options.tree)}
    scratch = Path(tempfile.mkdtemp(prefix="rhasp-before-after-"))
    chosen = {k: v for k, v in measures().items() if (options.only or "") in k}
    times: dict[str, dict[str, list[float]]] = {m: {t: [] for t in trees} for m in chosen}
    for measure, arguments in chosen.items():
        out = scratch / ("out.jsonl" if "deck" in arguments[2:3] else "out.txt")
        answers = {name: run_once(tree, arguments, out)[1] for name, tree in trees.items()}
        if len(set(answers.values())) != 1:
            sys.exit(f"{measure}: the trees' answers differ")
        for run in range(options.runs):
            order = list(trees.items()) if run % 2 == 0 else list(reversed(trees.items()))
            for name, tree in order:
                seconds, found = run_once(tree, arguments, out)
                if found != answers[name]:
                    sys.exit(f"{measure}: {name} answered differently on run {run + 1}")
                times[measure][name].append(seconds)
        print(f"done: {measure}", file=sys.stderr)
    report(times, list(trees), options.runs)


def report(times: dict[str, dict[str, list[float]]], names: list[str], runs: int) -> None:
    first, last = names[0], names[-1]
    print(f"\n{platform.node()}, {os.cpu_count()} cores, medians of {runs} runs (seconds)\n")
    print(f"| measure | {' | '.join(names)} | {last}/{first} | runs |")
    print("| --- |" + " ---: |" * (len(names) + 1) + " --- |")
    summary = {}
    for measure, by_tree in times.items():
        medians = {name: statistics.median(by_tree[name]) for name in names}
        ratio = medians[last] / medians[first]
        shown = "; ".join(", ".join(f"{s:.2f}" for s in by_tree[name]) for name in names)
        row = " | ".join(f"{medians[name]:.2f}" for name in names)
        print(f"| {measure} | {row} | {ratio:.2f} | {shown} |")
        summary[measure] = {"medians": medians, "runs": by_tree, "ratio": round(ratio, 3)}
    print(json.dumps({"bench": "before_after", "runs": runs, "measures": summary}))


if __name__ == "__main__":
    main()
