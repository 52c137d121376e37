"""Where one ASP proof's time goes: grounding, the state memo's Python, and clasp's search.

    python bench/asp_profile.py [--objective moves|slides] [--cards 25,26,40] [--threads 1]

For each card, one solve with the default engine (the state memo on), timed in parts:
``ground_steps`` (grounding the new steps), the propagator's callbacks (``init``,
``propagate``, ``undo``: the Python of ``rhasp/engines/memo.py``), and the rest, which is
clasp deciding, propagating and analysing conflicts. Also the choices and conflicts summed
over all horizons, and the cost of one choice. With more than one thread the callbacks of
the threads overlap, so their sum can exceed the wall time: use ``--threads 1`` for shares.

Prints a table and one JSON line. Not a test: name the machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rhasp.engines.asp as asp
from rhasp.engines import AspOptions, get_engine
from rhasp.engines.memo import StateMemo
from rhasp.formats import read_path
from rhasp.limits import Budget

DECK = Path(__file__).resolve().parent.parent / "puzzles" / "original40.txt"
spent: dict[str, float] = {}


def clocked(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
    """``call``, adding its seconds to ``spent[name]``."""

    def timed(*args: Any) -> Any:
        began = time.perf_counter()
        try:
            return call(*args)
        finally:
            spent[name] = spent.get(name, 0.0) + time.perf_counter() - began

    return timed


class TimedMemo(StateMemo):
    def init(self, init: Any) -> None:
        clocked("propagator", super().init)(init)

    def propagate(self, control: Any, changes: Any) -> None:
        clocked("propagator", super().propagate)(control, changes)

    def undo(self, thread_id: int, assignment: Any, changes: Any) -> None:
        clocked("propagator", super().undo)(thread_id, assignment, changes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objective", choices=("moves", "slides"), default="moves")
    parser.add_argument("--cards", default="25,26,40")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    asp.StateMemo = TimedMemo  # type: ignore[misc]
    asp.ground_steps = clocked("grounding", asp.ground_steps)  # type: ignore[assignment]
    deck = read_path(str(DECK))
    options = AspOptions(clingo_args=(f"--parallel-mode={args.threads}",))
    print(
        f"{'card':>4} {'length':>6} {'seconds':>7} {'ground':>7} {'python':>7} {'clasp':>7} "
        f"{'choices':>8} {'conflicts':>9} {'µs/choice':>9}"
    )
    rows = []
    for card in (int(c) for c in args.cards.split(",")):
        spent.clear()
        solution = get_engine("asp", budget=Budget(), asp=options).solve(
            deck[card - 1], args.objective
        )
        stats = solution.asp.record()
        ground, python = spent.get("grounding", 0.0), spent.get("propagator", 0.0)
        clasp = solution.seconds - ground - python
        per_choice = 1e6 * solution.seconds / max(1, stats["choices"])
        print(
            f"{card:4d} {solution.length:6d} {solution.seconds:7.2f} {ground:7.2f} {python:7.2f} "
            f"{clasp:7.2f} {stats['choices']:8,d} {stats['conflicts']:9,d} {per_choice:9.0f}",
            flush=True,
        )
        rows.append(
            {
                "card": card,
                "length": solution.length,
                "seconds": round(solution.seconds, 3),
                "grounding": round(ground, 3),
                "propagator": round(python, 3),
                "choices": stats["choices"],
                "conflicts": stats["conflicts"],
            }
        )
    record = {
        "bench": "asp_profile",
        "objective": args.objective,
        "threads": args.threads,
        "rows": rows,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(json.dumps(record))


if __name__ == "__main__":
    main()
