"""An EXPERIMENT for issue 43 (idea 4, bench/README.md), not used by rhasp: two solve calls at
once, on two horizons, sharing one memo.

    python bench/experiments/two_horizons.py DECK LINES RUNS   (puzzles/original40.txt 25,26 3)

Two clingo Controls, one solver thread each, the same encoding and puzzle; two StateMemo
propagators whose board memo is one dict (its entries are facts about the puzzle, true in
either). Horizons are handed out in the engine's order (0, 4, 8, ...); a result raises the
proven bound (a horizon without a plan) or lowers the best plan; a call whose horizon is
settled meanwhile is cancelled; after a plan, the horizon one below it. Compared with the
engine (two competing threads, one Control) on the same lines, back to back, by moves; each
answer checked against BFS. Prints one row a line, then the totals of the medians.
"""

from __future__ import annotations

import statistics
import sys
import threading
import time

import clingo

from rhasp.engines import get_engine
from rhasp.engines.asp import STRIDE, ask, encoding_text, ground_step
from rhasp.engines.memo import StateMemo
from rhasp.formats import read_path
from rhasp.formats.facts import write_facts
from rhasp.limits import Budget
from rhasp.model import Puzzle


def control(puzzle: Puzzle, shared: dict[int, int]) -> tuple[clingo.Control, StateMemo]:
    made = clingo.Control(["--warn=none", "--heuristic=Domain", "--parallel-mode=1"])
    made.configuration.solve.models = "1"
    made.add("base", [], encoding_text("moves"))
    made.add("base", [], write_facts(puzzle))
    memo = StateMemo(memo=shared)
    made.register_propagator(memo)
    return made, memo


class Proof:
    """The two calls' shared state: what is proven, the best plan, the next horizon."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.proven, self.best, self.next = -1, None, 0
        self.running: dict[int, int] = {}
        self.choices = 0

    def done(self) -> bool:
        return self.best is not None and self.best - 1 <= self.proven

    def take(self, worker: int) -> int | None:
        if self.best is not None:
            horizon = self.best - 1
            if horizon <= self.proven or horizon in self.running.values():
                return None
        else:
            horizon, self.next = self.next, self.next + STRIDE
        self.running[worker] = horizon
        return horizon

    def settled(self, horizon: int) -> bool:
        return horizon <= self.proven or (self.best is not None and horizon >= self.best)


def work(proof: Proof, worker: int, made: clingo.Control, memo: StateMemo) -> None:
    grounded = -1
    while True:
        with proof.lock:
            if proof.done():
                return
            horizon = proof.take(worker)
        if horizon is None:
            time.sleep(0.005)
            continue
        while grounded < horizon:
            grounded += 1
            ground_step(made, grounded)
        ask(made, horizon, grounded)
        memo.horizon = horizon
        found: list[int] = []

        def on_model(model: clingo.Model, found: list[int] = found) -> None:
            found.append(sum(1 for atom in model.symbols(shown=True) if atom.name == "move"))

        with made.solve(on_model=on_model, async_=True) as handle:
            while not handle.wait(0.01):
                with proof.lock:
                    settled = proof.settled(horizon)
                if settled:
                    handle.cancel()
                    break
            result = handle.get()
        with proof.lock:
            proof.choices += int(made.statistics["solving"]["solvers"]["choices"])
            proof.running.pop(worker, None)
            if result.interrupted:
                continue
            if result.satisfiable:
                proof.best = found[-1] if proof.best is None else min(proof.best, found[-1])
            else:
                proof.proven = max(proof.proven, horizon)


def two(puzzle: Puzzle) -> tuple[int | None, int]:
    shared: dict[int, int] = {}
    proof = Proof()
    threads = [
        threading.Thread(target=work, args=(proof, worker, *control(puzzle, shared)))
        for worker in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return proof.best, proof.choices


def engine(puzzle: Puzzle) -> tuple[int | None, int]:
    solution = get_engine("asp", budget=Budget()).solve(puzzle, "moves")
    return solution.length, solution.asp.choices


def main() -> None:
    deck = read_path(sys.argv[1])
    lines = [int(x) for x in sys.argv[2].split(",")]
    runs = int(sys.argv[3])
    totals = {"engine": 0.0, "two": 0.0}
    for number in lines:
        puzzle = deck[number - 1]
        expected = get_engine("bfs", budget=Budget()).solve(puzzle, "moves").length
        row: list[object] = [number, expected]
        for name, solve in (("engine", engine), ("two", two)):
            seconds = []
            for _ in range(runs):
                began = time.perf_counter()
                length, choices = solve(puzzle)
                seconds.append(time.perf_counter() - began)
                assert length == expected, (number, name, length, expected)
            totals[name] += statistics.median(seconds)
            row += [name, round(statistics.median(seconds), 2), choices]
        print(*row, flush=True)
    print({name: round(total, 2) for name, total in totals.items()})


if __name__ == "__main__":
    main()
