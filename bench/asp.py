"""Time the ASP engine on the original cards (or any deck), with the state memo and without.

    python bench/asp.py [--deck FILE] [--objective moves|slides|both] [--cards 1-40]
                        [--memo on|off|both|bound|stride|pattern|all] [--runs 1] [--seeds 1,2,3]
                        [--timeout SECONDS] [--clingo-arg=...]

``--deck`` (default: ``puzzles/original40.txt``) takes any deck, e.g. the published database
lines of ``puzzles/large-clusters.txt`` (issue 43); ``--cards`` picks its lines.

Variants: ``memo`` (the default engine: the state memo, with its bound on the steps left),
``nobound`` and ``bound`` (the memo with the bound off, or on: what the bound gains), ``climb``
(the memo, every horizon in turn rather than the engine's stride: what the stride gains),
``nopattern`` (the memo without its pattern database: ``--memo pattern`` compares) and ``plain``
(no memo, the encodings alone). For every card and objective the variants run back to back, so
that a change in the machine's load hits all alike. Each row shows the minimal length and, per
variant, seconds (median of the runs), choices summed over all horizons solved, for the memo the
boards it holds and the nogoods it added, and the share of the time spent on the last quarter of
the horizon calls ("late"); the last column says whether BFS agrees with every
variant that finished. Then the small boards (puzzles/examples
4x4 and 5x5, median of 7 runs each, target under 0.1 s). The last line is a JSON summary.
Not a test: timings on shared machines are noisy; name the machine. With the memo, clingo
runs two solver threads (one per core), so the machine should be otherwise idle.

Before any timing, the compiled core's code for the cards' boards is had and loaded
(:func:`rhasp.search.prefer_compiled`, waited for): a copy of the tree is a new key of the
compiled code's cache, compiled in the background at its first run, and a run that measured
it meanwhile would time uncompiled choices of the memo's pattern. So every card, the first
included, chooses its pattern with the code loaded, as a deck's process does.

clingo's default configuration makes no random decisions, so ``--seed`` alone changes
nothing. ``--seeds`` therefore runs every card once per seed with ``--seed=S`` and
``--rand-freq=0.005`` (one decision in 200 random), and reports medians over the seeds: how
much a card's time depends on the search's luck rather than on the variant.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import statistics
import sys
import time
from pathlib import Path

from rhasp.engines import AspOptions, get_engine
from rhasp.formats import read_path
from rhasp.limits import Budget
from rhasp.search import prefer_compiled
from rhasp.solution import Solution

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
DECK = PUZZLES / "original40.txt"
SMALL = ("4x4", "5x5")
VARIANTS = {
    "on": ("memo",),
    "stride": ("memo", "climb"),
    "off": ("plain",),
    "both": ("memo", "plain"),
    "bound": ("bound", "nobound"),
    "pattern": ("memo", "nopattern"),
    "all": ("memo", "bound", "nobound", "plain"),
}
MEMO_VARIANTS = ("memo", "bound", "nobound", "climb", "nopattern")
#: The memo's bound per variant (None: the engine's default, on).
BOUND = {"memo": None, "bound": True, "nobound": False, "plain": None, "climb": None}
#: The memo's pattern database per variant (None: the engine's default, on).
PATTERN = {"nopattern": False}
#: How far the horizon goes up after one without a plan, per variant (default: the engine's).
STRIDE = {"climb": 1}


def warmed(seconds: float = 600) -> None:
    """Wait until the compiled core's code for boards of up to 63 cells is loaded here (see
    the module's docstring), at most ``seconds``."""
    ends = time.monotonic() + seconds
    while not prefer_compiled():
        if time.monotonic() > ends:
            print(f"the compiled code did not come in {seconds:g} s: timing as is", file=sys.stderr)
            return
        time.sleep(2)


def card_range(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def measure(engines, puzzle, objective: str, runs: int) -> tuple[Solution, float, int]:
    """The last solution, the median seconds and the median choices over engines x runs."""
    solutions = [engine.solve(puzzle, objective) for engine in engines for _ in range(runs)]
    seconds = statistics.median(solution.seconds for solution in solutions)
    choices = statistics.median(solution.asp.record()["choices"] for solution in solutions)
    return solutions[-1], seconds, round(choices)


def seeded(seeds: list[int]) -> list[list[str]]:
    """clingo options per seed; one run of the default configuration without --seeds."""
    if not seeds:
        return [[]]
    return [[f"--seed={seed}", "--rand-freq=0.005"] for seed in seeds]


def late_share(solution: Solution) -> float:
    """The share of the solve's time spent on the last quarter of its horizon calls."""
    seconds = [call["seconds"] for call in solution.asp.record()["horizons"]]
    late = seconds[len(seconds) - max(1, len(seconds) // 4) :]
    return sum(late) / max(sum(seconds), 1e-9)


def cell(solution: Solution, seconds: float, choices: int, variant: str) -> str:
    asp = solution.asp.record()
    time = f"{seconds:8.2f}" if not solution.limit else f"{'>' + str(round(seconds)):>8}"
    text = f"{time} {choices:9d}"
    if variant in MEMO_VARIANTS:
        text += f" {asp['memo']['states']:7d} {asp['memo']['nogoods']:8d}"
    return text + f" {late_share(solution):5.0%}"


def header(variants: tuple[str, ...]) -> str:
    columns = f"{'card':>4} {'objective':>9} {'length':>6}"
    for variant in variants:
        columns += f" {variant + ' s':>8} {'choices':>9}"
        if variant in MEMO_VARIANTS:
            columns += f" {'states':>7} {'nogoods':>8}"
        columns += f" {'late':>5}"
    return columns + f" {'bfs':>5}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objective", choices=("moves", "slides", "both"), default="moves")
    parser.add_argument("--deck", type=Path, default=DECK, help="a deck file, one puzzle a line")
    parser.add_argument("--cards", type=card_range, default=None, help="its lines (default: all)")
    parser.add_argument("--memo", choices=tuple(VARIANTS), default="both")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seeds", type=lambda text: [int(x) for x in text.split(",")], default=[])
    parser.add_argument("--timeout", type=float, default=None)
    parser.add_argument("--clingo-arg", action="append", default=[])
    args = parser.parse_args()
    deck = read_path(str(args.deck))
    numbers = args.cards or list(range(1, len(deck) + 1))
    objectives = ("moves", "slides") if args.objective == "both" else (args.objective,)
    variants = VARIANTS[args.memo]
    engines = {
        variant: [
            dataclasses.replace(
                get_engine(
                    "asp",
                    asp=AspOptions(
                        clingo_args=(*options, *args.clingo_arg),
                        memo=variant in MEMO_VARIANTS,
                    ),
                    budget=Budget(seconds=args.timeout),
                ),
                memo_bound=BOUND.get(variant),
                memo_pattern=PATTERN.get(variant),
                stride=STRIDE.get(variant),  # None: the engine's own
            )
            for options in seeded(args.seeds)
        ]
        for variant in variants
    }
    oracle = get_engine("bfs", budget=Budget())
    warmed()
    rows = []
    print(header(variants), flush=True)
    for number in numbers:
        puzzle = deck[number - 1]
        for objective in objectives:
            expected = oracle.solve(puzzle, objective).length
            row = {"card": number, "objective": objective, "length": expected}
            line = f"{number:4d} {objective:>9} {expected:6d}"
            agrees = True
            for variant, runners in engines.items():
                solution, seconds, choices = measure(runners, puzzle, objective, args.runs)
                asp = solution.asp.record()
                row[variant] = {
                    "seconds": round(seconds, 3),
                    "horizon": asp["horizon"],
                    "choices": choices,
                    "conflicts": asp["conflicts"],
                    "memo": asp["memo"],
                    "limit": solution.limit,
                    "horizons": asp["horizons"],
                }
                agrees = agrees and (solution.limit is not None or solution.length == expected)
                line += " " + cell(solution, seconds, choices, variant)
            row["bfs_agrees"] = agrees
            rows.append(row)
            print(f"{line} {'yes' if agrees else 'NO':>5}", flush=True)
    small = {}
    for name in SMALL:
        puzzle = read_path(str(PUZZLES / "examples" / f"{name}.txt"))[0]
        for objective in objectives:
            for variant, runners in engines.items():
                _, seconds, _ = measure(runners, puzzle, objective, 7)
                small[f"{name} {objective} {variant}"] = round(seconds, 4)
                print(f"{name:>4} {objective:>9} {variant:>6} {seconds:8.3f}", flush=True)
    summary = {
        "bench": "asp",
        "runs": args.runs,
        "seeds": args.seeds,
        "timeout": args.timeout,
        "clingo_args": args.clingo_arg,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    for objective in objectives:
        for variant in variants:
            mine = [row[variant] for row in rows if row["objective"] == objective]
            finished = [result for result in mine if not result["limit"]]
            summary[f"{objective} {variant}"] = {
                "cards": len(mine),
                "proven": len(finished),
                "total_seconds": round(sum(result["seconds"] for result in mine), 2),
                "max_seconds": max(result["seconds"] for result in mine),
                "choices": sum(result["choices"] for result in mine),
            }
    summary["disagree"] = sum(not row["bfs_agrees"] for row in rows)
    print(json.dumps({**summary, "small": small, "rows": rows}))


if __name__ == "__main__":
    main()
