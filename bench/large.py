"""A* against BFS: the 40 cards, generated large boards, a board past BFS's state limit,
a deck of crowded boards; and static analysis on the walled 12×12 board.

    python bench/large.py [--sizes 8,10,12] [--per-size 3] [--min-moves 30] [--walls 2]
                          [--seed 1] [--generate-seconds 600] [--runs 5]
                          [--bfs-max-states 5000000] [--starts 6]
                          [--deck puzzles/large/crowded.txt] [--deck-runs 3]
                          [--deck-max-states 5000000] [--parts cards,...,deck]

Seven parts (``--parts`` picks some: cards, backward, static, limit, starts, generated,
deck), each printed as it ends, then one JSON line with everything:

* **The 40 cards.** BFS (by slides Dijkstra) and A* on the compiled core, both objectives:
  states reached over the deck, seconds (median of ``--runs`` passes), lengths agreeing.
* **Generated boards.** ``rhasp generate``'s loop (``generation.distinct_puzzles``) runs for
  ``--generate-seconds`` on each size (0 skips this part); of the puzzles it makes (each a
  cluster's hardest state, the worst case for a search from the start, or, since issue 33,
  a board whose cluster is too large, proven by A* from its start) the ``--per-size``
  deepest are kept, flagged when under ``--min-moves``. On each, both engines by moves and
  by slides, once (the states are deterministic; all compiled since issue 33): states,
  seconds, lengths agreeing, and A*'s share of BFS's states.
* **Why not bidirectional.** For cards 26 and 40, the goal placements (the targets gone, the
  other vehicles anywhere they fit) a backward search would start from, against the states A*
  reaches in all.
* **Past BFS's state limit.** ``puzzles/large/left12.txt`` (12×12, 24 vehicles, a cluster far
  too large to search): BFS with ``--bfs-max-states``, then A* with the same budget.
* **Random starts.** The first ``--starts`` boards ``rhasp generate`` draws on each size, from
  their random start: both engines by moves within ``--bfs-max-states``.
* **Static analysis as a process.** ``rhasp solve puzzles/large/walled12.txt``, start-up
  included, median of ``--runs``: the wall time of the one-line proof that it is unsolvable.
* **Crowded boards** (issue 56). Each board of ``--deck`` (by default
  ``puzzles/large/crowded.txt``: 9×9 and 12×12 boards from ``rhasp generate --covered``, as
  crowded as a university course's) by each engine (BFS, A*) by moves, within
  ``--deck-max-states`` states: the answer (moves, or the limit), the states reached, and the
  median seconds of ``--deck-runs`` runs (the states do not change from run to run), after
  one untimed pass within 200,000 states that loads the compiled core for the deck's shapes.

Not a test: timings on shared machines are noisy; name the machine.
"""

from __future__ import annotations

import argparse
import functools
import json
import platform
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from rhasp import search
from rhasp.engines.astar import AstarEngine
from rhasp.engines.bfs import BfsEngine
from rhasp.formats import read_path
from rhasp.generation import Tried, board_number, covered, distinct_puzzles
from rhasp.limits import Budget
from rhasp.model import Board, Puzzle, Vehicle
from rhasp.solution import Solution

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "puzzles" / "original40.txt"
LEFT12 = ROOT / "puzzles" / "large" / "left12.txt"
WALLED12 = ROOT / "puzzles" / "large" / "walled12.txt"
CROWDED = ROOT / "puzzles" / "large" / "crowded.txt"
PARTS = ("cards", "backward", "static", "limit", "starts", "generated", "deck")
OBJECTIVES = ("moves", "slides")
UNBOUNDED = Budget(states=10**9)


def engines(budget: Budget = UNBOUNDED) -> dict[str, Any]:
    return {"bfs": BfsEngine(budget=budget), "astar": AstarEngine(budget=budget)}


def on_cards(runs: int) -> list[dict]:
    """Both engines over the deck: states reached, median seconds of ``runs`` passes."""
    deck, rows = read_path(str(DECK)), []
    print(f"{'objective':>9} {'engine':>6} {'states':>8} {'seconds':>8}  (40 cards)")
    for objective in OBJECTIVES:
        lengths = {}
        for name, engine in engines().items():
            passes = []
            for _ in range(runs):
                began = time.perf_counter()
                solutions = [engine.solve(puzzle, objective) for puzzle in deck]
                passes.append(time.perf_counter() - began)
            states = sum(solution.explored or 0 for solution in solutions)
            lengths[name] = [solution.length for solution in solutions]
            seconds = statistics.median(passes)
            print(f"{objective:>9} {name:>6} {states:8,d} {seconds:8.3f}", flush=True)
            rows.append(
                {"objective": objective, "engine": name, "states": states, "seconds": seconds}
            )
        rows[-1]["agree"] = lengths["bfs"] == lengths["astar"]
        print(f"{objective:>9} lengths agree: {rows[-1]['agree']}")
    return rows


def goal_placements(puzzle: Puzzle) -> int:
    """The boards a backward search would start from: every placement of the vehicles other
    than the targets (the targets gone) that overlaps neither a wall nor another vehicle."""
    board = puzzle.board
    walls = sum(1 << (row * board.width + col) for row, col in board.walls)
    options = [
        [mask for mask in placements(board, vehicle) if not mask & walls]
        for vehicle in board.vehicles
        if vehicle.label not in board.targets
    ]

    @functools.cache
    def count(first: int, taken: int) -> int:
        if first == len(options):
            return 1
        return sum(count(first + 1, taken | m) for m in options[first] if not taken & m)

    return count(0, walls)


def placements(board: Board, vehicle: Vehicle) -> list[int]:
    """Each position of ``vehicle`` on its line as a mask of the cells it covers."""
    return [
        sum(1 << (row * board.width + col) for row, col in vehicle.cells(position))
        for position in range(board.line_length(vehicle) - vehicle.length + 1)
    ]


def backward_start(cards: tuple[int, ...] = (26, 40)) -> list[dict]:
    """Why no bidirectional search: its backward side starts from every goal placement."""
    deck, rows = read_path(str(DECK)), []
    for number in cards:
        puzzle = deck[number - 1]
        goals = goal_placements(puzzle)
        astar = AstarEngine(budget=UNBOUNDED).solve(puzzle, "moves")
        print(
            f"card {number}: {goals:,} goal placements (targets gone) against "
            f"{astar.explored:,} states A* reaches",
            flush=True,
        )
        rows.append({"card": number, "goal_placements": goals, "astar_states": astar.explored})
    return rows


def generated(size: int, args: argparse.Namespace) -> tuple[list[tuple[Puzzle, int]], dict]:
    """The ``--per-size`` deepest puzzles of ``size`` made in ``--generate-seconds`` (with
    their minimal moves), and how the generation went."""
    tried, found = Tried(), []
    began = time.perf_counter()
    for hardest in distinct_puzzles(
        args.seed,
        count=None,  # as many as the seconds allow
        tried=tried,
        seconds=args.generate_seconds,
        size=size,
        walls=args.walls,
        jobs=args.jobs,
        max_states=args.generate_max_states,
    ):
        found.append((hardest.puzzle, hardest.moves))
    deepest = sorted(found, key=lambda pair: -pair[1])[: args.per_size]
    depths = sorted((moves for _, moves in found), reverse=True)
    figures = {
        "boards": tried.boards,
        "skipped at the state limit": tried.skipped,
        "puzzles": len(found),
        "deepest": depths[:10],
        "by moves": dict(sorted(Counter(depths).items())),
        "seconds": round(time.perf_counter() - began, 1),
    }
    print(f"{size}×{size}: {figures}", flush=True)
    return deepest, figures


def compare(boards: dict[int, list[tuple[Puzzle, int]]], min_moves: int) -> list[dict]:
    rows = []
    print(
        f"{'size':>5} {'board':>12} {'objective':>9} {'length':>6} {'bfs states':>11} "
        f"{'bfs s':>7} {'a* states':>10} {'a* s':>7} {'share':>6} agree"
    )
    for size, puzzles in boards.items():
        for puzzle, moves in puzzles:
            for objective in OBJECTIVES:
                bfs, astar = (e.solve(puzzle, objective) for e in engines().values())
                agree = bfs.length == astar.length and (objective != "moves" or bfs.length == moves)
                share = (astar.explored or 0) / (bfs.explored or 1)
                flag = "" if moves >= min_moves else f"  (under {min_moves} moves)"
                print(
                    f"{size:>3}×{size:<2}{puzzle.name:>12} {objective:>9} {bfs.length:6d} "
                    f"{bfs.explored:11,d} {bfs.seconds:7.2f} {astar.explored:10,d} "
                    f"{astar.seconds:7.2f} {share:6.1%} {'yes' if agree else 'NO'}{flag}",
                    flush=True,
                )
                rows.append(record(size, puzzle, objective, bfs, astar) | {"agree": agree})
    return rows


def record(size: int, puzzle: Puzzle, objective: str, bfs: Solution, astar: Solution) -> dict:
    return {
        "size": size,
        "board": puzzle.name,
        "objective": objective,
        "length": bfs.length,
        "bfs_states": bfs.explored,
        "bfs_seconds": round(bfs.seconds, 3),
        "astar_states": astar.explored,
        "astar_seconds": round(astar.seconds, 3),
    }


def random_starts(sizes: list[int], args: argparse.Namespace) -> list[dict]:
    """The boards ``rhasp generate`` draws, from their random start rather than their
    cluster's hardest state (whose cluster would have to be searched whole): both engines by
    moves within ``--bfs-max-states``."""
    rows, budget = [], Budget(states=args.bfs_max_states)
    print(f"{'size':>5} {'board':>9} {'bfs':>34} {'a*':>34}")
    for size in sizes:
        for number in range(args.starts):
            puzzle = board_number(args.seed, number, size, args.walls)
            found = {name: e.solve(puzzle, "moves") for name, e in engines(budget).items()}
            shown = [
                "limit" if s.limit else f"{s.length} moves" if s.plan else "unsolvable"
                for s in found.values()
            ]
            print(
                f"{size:>3}×{size:<2}{puzzle.name:>9} "
                + " ".join(
                    f"{text:>11} {s.explored or args.bfs_max_states:>12,d} st {s.seconds:5.1f} s"
                    for text, s in zip(shown, found.values(), strict=True)
                ),
                flush=True,
            )
            rows.append(
                {
                    "size": size,
                    "board": puzzle.name,
                    **{
                        f"{name}_{what}": value
                        for name, s in found.items()
                        for what, value in (
                            ("answer", "limit" if s.limit else s.length),
                            ("states", s.explored),
                            ("seconds", round(s.seconds, 2)),
                        )
                    },
                }
            )
    return rows


def past_the_limit(max_states: int) -> list[dict]:
    """left12 by both engines within ``max_states``: BFS meets the limit, A* proves a plan."""
    (puzzle,) = read_path(str(LEFT12))
    rows = []
    for objective in OBJECTIVES:
        for name, engine in engines(Budget(states=max_states)).items():
            solution = engine.solve(puzzle, objective)
            answer = solution.limit or f"{objective} {solution.length}, proven"
            print(
                f"left12 {objective:>6} {name:>5}: {answer} in {solution.seconds:.1f} s"
                f" ({solution.explored or max_states:,} states)",
                flush=True,
            )
            rows.append(
                {
                    "objective": objective,
                    "engine": name,
                    "length": solution.length,
                    "limit": solution.limit,
                    "seconds": round(solution.seconds, 2),
                }
            )
    return rows


def static_proof(runs: int) -> dict:
    """``rhasp solve walled12.txt`` as a process: exit code, median wall seconds."""
    times, code, last = [], 0, ""
    for _ in range(runs):
        began = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "rhasp", "solve", str(WALLED12)],
            capture_output=True,
            text=True,
            check=False,
        )
        times.append(time.perf_counter() - began)
        code, last = done.returncode, (done.stdout + done.stderr).strip().splitlines()[-1]
    median = statistics.median(times)
    print(f"walled12 as a process: exit {code}, median {median:.2f} s of {runs}: {last}")
    return {"exit": code, "seconds": round(median, 3), "runs": [round(t, 3) for t in times]}


def crowded(path: str, runs: int, max_states: int) -> list[dict]:
    """Each board of the deck by each engine, by moves, within ``max_states``: the answer,
    the states, the median seconds of ``runs``."""
    rows, deck = [], read_path(path)
    search.prefer_compiled({puzzle.board.width for puzzle in deck})  # the deck's shapes too
    for puzzle in deck:  # one untimed pass: the compiled code loaded before any timed run
        for engine in engines(Budget(states=min(max_states, 200_000))).values():
            engine.solve(puzzle, "moves")
    print(
        f"{'board':>8} {'vehicles':>8} {'covered':>7} {'engine':>6} {'answer':>8} "
        f"{'states':>11} {'seconds':>8}  (median of {runs})"
    )
    for number, puzzle in enumerate(deck, 1):
        board = puzzle.board
        cells = board.width * board.height
        share = covered(puzzle) / cells
        for name, engine in engines(Budget(states=max_states)).items():
            solutions = [engine.solve(puzzle, "moves") for _ in range(runs)]
            seconds = statistics.median(solution.seconds for solution in solutions)
            last = solutions[-1]
            answer = "limit" if last.limit else "none" if last.plan is None else last.length
            shape = f"{board.width}×{board.height}"
            print(
                f"{number:>2} {shape:>5} {len(board.vehicles):>8} {share:7.0%} {name:>6} "
                f"{answer!s:>8} {last.explored or max_states:11,d} {seconds:8.2f}",
                flush=True,
            )
            rows.append(
                {
                    "board": number,
                    "size": board.width,
                    "vehicles": len(board.vehicles),
                    "covered": round(share, 3),
                    "engine": name,
                    "moves": answer,
                    "states": last.explored,
                    "seconds": round(seconds, 3),
                    "runs": [round(solution.seconds, 3) for solution in solutions],
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8,10,12")
    parser.add_argument("--per-size", type=int, default=3)
    parser.add_argument("--min-moves", type=int, default=30)
    parser.add_argument("--walls", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--generate-seconds", type=float, default=600)
    parser.add_argument("--generate-max-states", type=int, default=2_000_000)
    parser.add_argument("--bfs-max-states", type=int, default=5_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--starts", type=int, default=6)
    parser.add_argument("--deck", default=str(CROWDED))
    parser.add_argument("--deck-runs", type=int, default=3)
    parser.add_argument("--deck-max-states", type=int, default=5_000_000)
    parser.add_argument("--parts", default=",".join(PARTS))
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    if parts - set(PARTS):
        parser.error(f"--parts: {', '.join(sorted(parts - set(PARTS)))}: not one of {PARTS}")
    search.prefer_compiled()
    cards = on_cards(args.runs) if "cards" in parts else None
    backward = backward_start() if "backward" in parts else None
    static = static_proof(args.runs) if "static" in parts else None
    limit = past_the_limit(args.bfs_max_states) if "limit" in parts else None
    sizes = [int(size) for size in args.sizes.split(",")]
    starts = random_starts(sizes, args) if "starts" in parts else None
    boards, generation = {}, {}
    generating = "generated" in parts and args.generate_seconds > 0  # 0: skip this part
    for size in sizes if generating else ():
        boards[size], generation[size] = generated(size, args)
    rows = compare(boards, args.min_moves) if boards else []
    deck = crowded(args.deck, args.deck_runs, args.deck_max_states) if "deck" in parts else None
    summary = {
        "bench": "large",
        "args": vars(args),
        "cards": cards,
        "backward_start": backward,
        "walled12": static,
        "past_limit": limit,
        "random_starts": starts,
        "generation": generation,
        "boards": rows,
        "crowded": deck,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
