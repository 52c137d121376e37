"""A fresh install's first runs (issue 40): no command waits on compiling the search core.

    python bench/cold_start.py [--runs 3] [--only NAME,...]

For each command, ``--runs`` times: a fresh, empty cache for the compiled core
(``RHASP_CACHE_DIR`` in a temporary folder); the command's first run (wall seconds, start-up
included); then the background compile it asked for, waited for to its end (seconds, and
whether one was asked at all); then a second run on the filled cache. The server's rows are
one ``rhasp serve`` each: the seconds to its address line, then its first ``/api/hint``
(card 1) and ``/api/solve`` (card 26, the page's BFS), each within the server's 10 s.

A stated limit "held" when the run ended within it plus 1 s (start-up apart: the seconds of
``python -c "import rhasp.cli"``, the command line's package with every command in it, what a
command loads before its clock starts, measured here, the median of three). Prints a table
(medians) and one JSON line with every run. Not a test: timings on shared machines are noisy;
name the machine, and run it otherwise idle.

    python bench/cold_start.py --cards [--objective moves|slides] [--tree NAME=PATH ...] [--runs 3]

measures instead what every process of a small command pays (issues 56 and 57): the 40 cards
by moves, or by slides (``puzzles/original/cardNN.txt``), each as a process of ``rhasp solve
--engine asp --no-confirm --format json [--objective slides]``, start-up included, with the
compiled code already cached (the user's cache, as a second run finds it: one unmeasured run
of card 26 per tree first). With
``--tree`` (twice: before and after), each process runs in that source tree (``PYTHONPATH``
and the working folder), the trees taking turns card by card (A B, then B A), so that drift
in the machine's load falls on both; every process must find the same length for a card as
the first did (a faster wrong answer is no answer). Prints per card the median seconds of
each tree, and per tree the median of the runs' totals and the slowest card's median, then
one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from rhasp.search.cache import serving

ROOT = Path(__file__).resolve().parent.parent
RHASP = [sys.executable, "-m", "rhasp"]
#: Each command, and the seconds it promises to end within (None: it states no limit).
COMMANDS: dict[str, tuple[list[str], float | None]] = {
    "solve card26": (["solve", "puzzles/original/card26.txt"], None),
    "solve card01 --engine bfs": (
        ["solve", "puzzles/original/card01.txt", "--engine", "bfs"],
        None,
    ),
    "solve left12": (["solve", "puzzles/large/left12.txt"], None),
    "enumerate --size 5": (["enumerate", "--size", "5", "--out", "{tmp}/db5.txt"], None),
    "generate --size 8 --seconds 30": (
        ["generate", "--size", "8", "--seconds", "30", "--seed", "1"],
        30.0,
    ),
}
SERVER = "serve: first /api/hint, /api/solve"
SERVER_SECONDS = 10.0  # rhasp serve's default --time-limit


def environment(cache: Path) -> dict[str, str]:
    return {**os.environ, "RHASP_CACHE_DIR": str(cache)}


def timed(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    began = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=3600)
    return time.perf_counter() - began, done.returncode


def background_compile(cache: Path) -> float | None:
    """Seconds until the background compile asked for in ``cache`` ends (None: none asked)."""
    began = time.perf_counter()
    folders = list(cache.glob("*/queue"))
    if not folders:
        return None
    while any(p.suffix != ".part" for p in folders[0].iterdir()) or serving(folders[0].parent):
        time.sleep(0.2)
    return time.perf_counter() - began


def command_run(name: str, tmp: Path) -> dict[str, Any]:
    arguments, limit = COMMANDS[name]
    command = RHASP + [a.format(tmp=tmp) for a in arguments]
    env = environment(tmp / "cache")
    first, code = timed(command, env)
    compiling = background_compile(tmp / "cache")
    for leftover in tmp.glob("db5.txt*"):
        leftover.unlink()
    second, code2 = timed(command, env)
    return {
        "first": first,
        "compile": compiling,
        "second": second,
        "codes": [code, code2],
        "limit": limit,
    }


def server_run(tmp: Path) -> dict[str, Any]:
    def serve() -> tuple[subprocess.Popen[str], str, float]:
        began = time.perf_counter()
        process = subprocess.Popen(
            [*RHASP, "serve", "--port", "0"],
            cwd=ROOT,
            env=environment(tmp / "cache"),
            stderr=subprocess.PIPE,
            text=True,
        )
        line = process.stderr.readline() if process.stderr else ""
        return process, re.search(r"(http://\S+/)", line)[1], time.perf_counter() - began

    def ask(address: str, endpoint: str, card: str) -> tuple[float, int]:
        board = (ROOT / "puzzles" / "original" / f"{card}.txt").read_text()
        request = urllib.request.Request(
            address + "api/" + endpoint,
            data=json.dumps({"board": board}).encode(),
            headers={"Content-Type": "application/json"},
        )
        began = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                status = answer.status
        except urllib.error.HTTPError as refused:
            status = refused.code
        return time.perf_counter() - began, status

    figures: dict[str, Any] = {}
    for run in ("first", "second"):
        process, address, ready = serve()
        try:
            hint, hint_status = ask(address, "hint", "card01")
            solve, solve_status = ask(address, "solve", "card26")
        finally:
            process.terminate()
            process.wait(timeout=30)
        figures[run] = {"ready": ready, "hint": hint, "solve": solve}
        figures[run]["statuses"] = [hint_status, solve_status]
        if run == "first":
            figures["compile"] = background_compile(tmp / "cache")
    return figures


def startup() -> float:
    command = [sys.executable, "-c", "import rhasp.cli"]
    runs = [timed(command, dict(os.environ))[0] for _ in range(3)]
    return statistics.median(runs)


CARDS = 40


def card_run(tree: Path, number: int, objective: str = "moves") -> tuple[float, int]:
    """Wall seconds of one ``rhasp solve --engine asp`` process of card ``number`` in
    ``tree`` by ``objective``, start-up included, and the length it found."""
    card = f"puzzles/original/card{number:02d}.txt"
    command = [*RHASP, "solve", card, "--engine", "asp", "--no-confirm", "--format", "json"]
    command += ["--objective", objective]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    began = time.perf_counter()
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        sys.exit(f"{tree}: card {number}: exit {done.returncode}: {done.stderr[-500:]}")
    return seconds, json.loads(done.stdout)["length"]


def cards_main(trees: dict[str, Path], runs: int, objective: str = "moves") -> None:
    """The 40 cards as 40 processes a run, per tree (see the module's docstring)."""
    for tree in trees.values():
        card_run(tree, 26)  # the compiled code cached (a background compile waited for)
        for folder in cache_folders():
            while serving(folder):
                time.sleep(0.2)
    seconds: dict[str, list[list[float]]] = {name: [] for name in trees}
    lengths: dict[int, int] = {}
    began = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for run in range(runs):
        for name in trees:
            seconds[name].append([])
        for number in range(1, CARDS + 1):
            order = list(trees.items())
            if (run * CARDS + number) % 2:
                order.reverse()
            for name, tree in order:
                took, length = card_run(tree, number, objective)
                if lengths.setdefault(number, length) != length:
                    sys.exit(f"card {number}: {name} found {length}, not {lengths[number]}")
                seconds[name][run].append(took)
        print(f"run {run + 1} done", file=sys.stderr)
    names = list(trees)
    print(f"{'card':>4} {objective:>6} " + " ".join(f"{name:>10}" for name in names))
    for number in range(1, CARDS + 1):
        medians = [statistics.median(r[number - 1] for r in seconds[name]) for name in names]
        row = " ".join(f"{m:10.2f}" for m in medians)
        print(f"{number:4d} {lengths[number]:6d} {row}")
    summary = {}
    for name in names:
        totals = [sum(r) for r in seconds[name]]
        per_card = [statistics.median(r[i] for r in seconds[name]) for i in range(CARDS)]
        slowest = max(range(CARDS), key=lambda i: per_card[i])
        summary[name] = {
            "total": statistics.median(totals),
            "totals": totals,
            "slowest_card": slowest + 1,
            "slowest": per_card[slowest],
            "over_3_s": sum(1 for r in seconds[name] for s in r if s > 3.0),
        }
        print(
            f"{name}: total {summary[name]['total']:.2f} s (median of {runs}: "
            f"{', '.join(f'{t:.2f}' for t in totals)}); slowest card {slowest + 1} "
            f"{per_card[slowest]:.2f} s; processes over 3 s: {summary[name]['over_3_s']}"
        )
    print(
        json.dumps(
            {
                "bench": "cold_start --cards",
                "objective": objective,
                "began": began,
                "machine": f"{platform.node()} {os.cpu_count()} cores",
                "trees": {name: str(tree) for name, tree in trees.items()},
                "summary": summary,
                "seconds": seconds,
                "lengths": lengths,
            }
        )
    )


def cache_folders() -> list[Path]:
    """The cache's version folders (the user's cache: what a second run finds)."""
    from rhasp.search.cache import base

    return [p for p in base().glob("*") if (p / "serving.lock").exists()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="", help="names, comma-separated (default: all)")
    parser.add_argument("--cards", action="store_true", help="the 40 cards by ASP (issue 56)")
    parser.add_argument("--tree", action="append", default=[], help="NAME=PATH (--cards)")
    parser.add_argument("--objective", choices=("moves", "slides"), default="moves")
    args = parser.parse_args()
    if args.cards:
        trees = dict(t.split("=", 1) for t in args.tree) or {"here": str(ROOT)}
        trees_found = {name: Path(path).resolve() for name, path in trees.items()}
        cards_main(trees_found, args.runs, args.objective)
        return
    names = [*COMMANDS, SERVER]
    if args.only:
        names = [n for n in names if any(part in n for part in args.only.split(","))]
    imports = startup()
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for _ in range(args.runs):
        for name in names:
            with tempfile.TemporaryDirectory() as folder:
                tmp = Path(folder)
                runs[name].append(server_run(tmp) if name == SERVER else command_run(name, tmp))
    print(f"{'command':34} {'first s':>8} {'compile s':>10} {'second s':>9}  limits held")
    for name in names:
        print(row(name, runs[name], imports))
    print(f"(start-up, python -c 'import rhasp.cli': {imports:.2f} s; medians of {args.runs})")
    print(
        json.dumps(
            {
                "bench": "cold_start",
                "date": time.strftime("%Y-%m-%d"),
                "machine": f"{platform.node()} {os.cpu_count()} cores",
                "import_seconds": imports,
                "runs": runs,
            }
        )
    )


def median(values: list[float | None]) -> str:
    known = [v for v in values if v is not None]
    return f"{statistics.median(known):.2f}" if known else "none"


def row(name: str, runs: list[dict[str, Any]], imports: float) -> str:
    compiles = median([r["compile"] for r in runs])
    if name == SERVER:
        first = [r["first"]["hint"] for r in runs], [r["first"]["solve"] for r in runs]
        second = [r["second"]["hint"] for r in runs], [r["second"]["solve"] for r in runs]
        held = all(
            max(r[run]["hint"], r[run]["solve"]) <= SERVER_SECONDS + 1
            and r[run]["statuses"] == [200, 200]
            for r in runs
            for run in ("first", "second")
        )
        ready = median([r["first"]["ready"] for r in runs])
        return (
            f"{name:34} {median(first[0])}/{median(first[1]):>5} {compiles:>10} "
            f"{median(second[0])}/{median(second[1]):>5}  {held} (ready in {ready} s)"
        )
    limit = runs[0]["limit"]
    held = (
        "-"
        if limit is None
        else str(all(max(r["first"], r["second"]) - imports <= limit + 1 for r in runs))
    )
    first, second = median([r["first"] for r in runs]), median([r["second"] for r in runs])
    return f"{name:34} {first:>8} {compiles:>10} {second:>9}  {held}"


if __name__ == "__main__":
    main()
