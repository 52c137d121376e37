"""An experiment for issue 43: one unsatisfiability proof instead of one per horizon.

    python bench/early_end.py [--cards 1,10,26] [--runs 3] [--timeout 120] [--threads 1]

``bench/experiments/early-end-moves.lp`` lets a plan end before the horizon, so that "no plan
at horizon k" means "no plan of at most k moves". Three drivers, each run on each card by
fewest moves, the plain encodings (no state memo: it would cut the idle steps after the end,
which repeat a board), clingo's options as ``rhasp solve --no-memo`` runs them:

- ``today``: ``encodings/moves.lp``, horizons 0, 1, 2, ... until one has a plan.
- ``early-ascending``: the early-end encoding, horizons 0, 1, 2, ... (what ending early
  costs, horizon for horizon).
- ``early-jump``: the early-end encoding, horizons 1, 2, 4, 8, ... until one has a plan, of
  L moves; then horizon L-1, and again below each shorter plan found, until one is
  unsatisfiable: the last plan is minimal, proven by that one call.

Each driver's answer is checked against BFS. Seconds (grounding and solving) and clasp's
choices, medians of ``--runs``; a table, then one JSON line. Not a test.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import clingo

from rhasp.api import read, solve
from rhasp.engines.asp import encoding_path, ground_horizon
from rhasp.formats.facts import write_facts
from rhasp.shipped import shipped_card

EARLY = Path(__file__).parent / "experiments" / "early-end-moves.lp"


def control(path: Path, puzzle, threads: int) -> clingo.Control:
    made = clingo.Control(["--warn=none", f"--parallel-mode={threads}"])
    made.configuration.solve.models = "1"
    made.load(str(path))
    made.add("base", [], write_facts(puzzle))
    return made


def solved(made: clingo.Control) -> int | None:
    """The plan's moves at this call, or None when unsatisfiable."""
    found: list[int] = []

    def on_model(model: clingo.Model) -> None:
        found.append(sum(1 for atom in model.symbols(shown=True) if atom.name == "move"))

    result = made.solve(on_model=on_model)
    return found[-1] if result.satisfiable else None


def choices(made: clingo.Control) -> int:
    """The choices of the last solve call (clingo's statistics are per call)."""
    return int(made.statistics["solving"]["solvers"]["choices"])


def today(puzzle, threads: int) -> tuple[int, int]:
    made = control(encoding_path("moves"), puzzle, threads)
    spent = 0
    for horizon in range(500):
        ground_horizon(made, horizon)
        found = solved(made)
        spent += choices(made)
        if found is not None:
            return horizon, spent
    raise RuntimeError("no plan")


class Early:
    """The early-end encoding, grounded as far as asked, solved at any horizon."""

    def __init__(self, puzzle, threads: int) -> None:
        self.made = control(EARLY, puzzle, threads)
        self.grounded = -1
        self.choices = 0

    def at(self, horizon: int) -> int | None:
        while self.grounded < horizon:
            t = self.grounded + 1
            first = ("base", []) if t == 0 else ("step", [clingo.Number(t)])
            self.made.ground([first, ("check", [clingo.Number(t)])])
            self.grounded = t
        for t in range(self.grounded + 1):  # the goal asked at this horizon only
            query = clingo.Function("query", [clingo.Number(t)])
            self.made.assign_external(query, t == horizon)
        found = solved(self.made)
        self.choices += choices(self.made)
        return found


def early_one_by_one(puzzle, threads: int) -> tuple[int, int]:
    early = Early(puzzle, threads)
    for horizon in range(500):
        if early.at(horizon) is not None:
            return horizon, early.choices
    raise RuntimeError("no plan")


def early_jump(puzzle, threads: int) -> tuple[int, int]:
    early = Early(puzzle, threads)
    horizon, unsat = 1, -1
    found = early.at(0)
    if found is not None:
        return 0, early.choices
    unsat = 0
    while (found := early.at(horizon)) is None:
        unsat, horizon = horizon, 2 * horizon
    while found - 1 > unsat:
        shorter = early.at(found - 1)
        if shorter is None:
            break
        found = shorter
    return found, early.choices


DRIVERS: dict[str, Callable] = {
    "today": today,
    "early-ascending": early_one_by_one,
    "early-jump": early_jump,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", default="1,10,26")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--drivers", default=",".join(DRIVERS))
    args = parser.parse_args()
    rows = []
    for number in (int(n) for n in args.cards.split(",")):
        puzzle = read(shipped_card(f"card{number}"))
        expected = solve(puzzle, engine="bfs").length
        for name in args.drivers.split(","):
            seconds, work = [], []
            for _ in range(args.runs):
                began = time.perf_counter()
                length, spent = DRIVERS[name](puzzle, args.threads)
                seconds.append(time.perf_counter() - began)
                work.append(spent)
                assert length == expected, (number, name, length, expected)
            row = {
                "card": number,
                "moves": expected,
                "driver": name,
                "seconds": round(statistics.median(seconds), 3),
                "choices": int(statistics.median(work)),
            }
            rows.append(row)
            print(" | ".join(str(v) for v in row.values()), flush=True)
    summary = {
        "bench": "early_end",
        "date": time.strftime("%Y-%m-%d"),
        "machine": platform.node(),
        "runs": args.runs,
        "threads": args.threads,
        "rows": rows,
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
