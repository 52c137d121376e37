"""New puzzles: random valid boards, moved to the hardest state of their cluster.

Every board is drawn from its own seeded random source (``seed`` and the board's number), so a
run is reproducible and any board of it can be made again alone. A cluster met twice is kept
once: clusters are told apart by their canonical state (:mod:`rhasp.cluster`).
"""

from __future__ import annotations

import functools
import itertools
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rhasp.cluster import Canonical, Hardest, hardest_state
from rhasp.engines.bitboard import fewest_moves, prefer_compiled
from rhasp.engines.limits import Budget, default_max_states
from rhasp.errors import SearchLimit
from rhasp.model import Piece, Puzzle, TargetSpec, build_puzzle
from rhasp.parallel import worker_pool

LABELS = "BCDEFGHIJKLMNOPQRSTUVWYZ"

#: What one random board gave (see :func:`generate`).
Outcome = Hardest | SearchLimit | None


def random_board(
    rng: random.Random, *, size: int = 6, vehicles: int = 12, walls: int = 0, name: str = "random"
) -> Puzzle:
    """A board with target ``A`` in the exit row (the third, as on the cards), up to
    ``vehicles`` other cars and trucks where they fit, and ``walls`` walls."""
    row = (size - 1) // 2
    taken: set[tuple[int, int]] = set()
    pieces = [Piece("A", "h", row, rng.randrange(size - 2), 2)]
    taken.update(pieces[0].vehicle().cells(pieces[0].position))
    for label in LABELS[:vehicles]:
        for _ in range(20):  # a few tries to find room for this vehicle
            piece = _random_piece(rng, label, size, row)
            cells = set(piece.vehicle().cells(piece.position))
            if not cells & taken:
                taken |= cells
                pieces.append(piece)
                break
    free = [(r, c) for r in range(size) for c in range(size) if (r, c) not in taken]
    wall_cells = [(cell, "") for cell in rng.sample(free, min(walls, len(free)))]
    return build_puzzle(size, size, pieces, wall_cells, [TargetSpec("A")], where=name, name=name)


def _random_piece(rng: random.Random, label: str, size: int, exit_row: int) -> Piece:
    length = 3 if rng.random() < 0.25 else 2
    if rng.random() < 0.5:
        line = rng.choice([r for r in range(size) if r != exit_row])  # no car behind the target
        return Piece(label, "h", line, rng.randrange(size - length + 1), length)
    return Piece(label, "v", rng.randrange(size - length + 1), rng.randrange(size), length)


def without_needless_vehicles(found: Hardest, budget: Budget | None = None) -> Hardest:
    """Remove, one at a time, every vehicle whose removal leaves the minimal length as it is,
    moving to the new cluster's hardest state after each removal (it is never shorter: the
    state before lies in the new cluster at the same distance). What remains has no vehicle
    that can go without changing the minimal length."""
    puzzle = found.puzzle
    while True:
        for label in _removable_labels(puzzle):
            smaller = puzzle.without({label})
            plan, _ = fewest_moves(smaller.board, smaller.start, budget)
            if plan is not None and len(plan) == found.moves:
                found = hardest_state(smaller, budget)  # a goal is reachable: the plan shows it
                puzzle = found.puzzle
                break
        else:
            return found


def _removable_labels(puzzle: Puzzle) -> list[str]:
    return [v.label for v in puzzle.board.vehicles if v.label not in puzzle.board.targets]


def generate(
    seed: int,
    *,
    size: int = 6,
    min_moves: int = 1,
    walls: int = 0,
    minimal: bool = False,
    jobs: int = 1,
    max_states: int | None = None,
) -> Iterator[Outcome]:
    """Board after board, in order: its hardest state when it is kept (at least ``min_moves``,
    of a cluster not met before), the limit when its cluster has more than ``max_states``
    states (default: a share of the memory per job), else None. Endless: the caller stops.
    The boards are worked out on ``jobs`` processes and judged in order, so the deck does not
    depend on ``jobs``."""
    seen: set[Canonical] = set()
    prefer_compiled()  # endless work: load the compiled core before the workers start
    budget = Budget(default_max_states(jobs) if max_states is None else max_states)
    work = functools.partial(_hardest_of_board, seed, size, walls, minimal, budget)
    for found in _in_order(work, jobs):
        if isinstance(found, SearchLimit):
            yield found
        elif found is None or found.moves < min_moves or found.canonical in seen:
            yield None
        else:
            seen.add(found.canonical)
            yield found


@dataclass
class Tried:
    """How many random boards a run of :func:`new_puzzles` drew, and how many of them it
    skipped at the state limit."""

    boards: int = 0
    skipped: int = 0


def new_puzzles(
    seed: int,
    *,
    tried: Tried | None = None,
    max_boards: int | None = None,
    seconds: float | None = None,
    **options: Any,
) -> Iterator[Hardest]:
    """The puzzles :func:`generate` keeps (``options`` are its own), one by one, until
    ``max_boards`` boards have been drawn or ``seconds`` have passed; ``tried`` counts the
    boards. The one loop behind ``rhasp generate`` and ``rhasp.generate``."""
    tried = Tried() if tried is None else tried
    began = time.perf_counter()
    for found in generate(seed, **options):
        tried.boards += 1
        if isinstance(found, SearchLimit):
            tried.skipped += 1
        elif found is not None:
            yield found
        late = seconds is not None and time.perf_counter() - began > seconds
        if tried.boards == max_boards or late:
            return


def _in_order(work: Callable[[int], Outcome], jobs: int) -> Iterator[Outcome]:
    """``work`` on the numbers 0, 1, 2, ... in order, in batches spread over ``jobs`` workers."""
    if jobs <= 1:
        yield from map(work, itertools.count())
        return
    batch = 4 * jobs
    with worker_pool(jobs) as pool:
        for first in itertools.count(0, batch):
            yield from pool.map(work, range(first, first + batch), chunksize=1)


def _hardest_of_board(
    seed: int, size: int, walls: int, minimal: bool, budget: Budget, number: int
) -> Outcome:
    try:
        found = hardest_state(board_number(seed, number, size, walls), budget)
        if found is not None and minimal:
            found = without_needless_vehicles(found, budget)
    except SearchLimit as limit:
        return limit
    return found


def board_number(seed: int, number: int, size: int, walls: int) -> Puzzle:
    """Board ``number`` of the run with ``seed``: its own random source, so it can be remade.
    Between a quarter and five twelfths of the cells hold other vehicles' first cells: fewer
    rarely make a hard puzzle, more rarely leave room for any. There are no more vehicles than
    letters to name them (24 besides the target), so from 10×10 on every board tries 24."""
    rng = random.Random(f"rhasp-{seed}-{number}")
    area = size * size
    most = min(area * 5 // 12, len(LABELS))
    others = rng.randint(min(area // 4, most), most)
    return random_board(rng, size=size, vehicles=others, walls=walls, name=f"gen-{seed}-{number}")
