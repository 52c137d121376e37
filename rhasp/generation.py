"""New puzzles: random valid boards, moved to the hardest state of their cluster.

Every board is drawn from its own seeded random source (``seed`` and the board's number), so a
run is reproducible and any board of it can be made again alone. A cluster met twice is kept
once: clusters are told apart by their canonical state (:mod:`rhasp.cluster`).
"""

from __future__ import annotations

import functools
import itertools
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rhasp.cluster import (
    Canonical,
    Hardest,
    cluster_graph,
    hardest_of,
    hardest_state,
    needless_piece,
)
from rhasp.engines.bitboard import prefer_compiled
from rhasp.engines.limits import Budget, default_max_states
from rhasp.errors import SearchLimit, counted
from rhasp.model import Piece, Puzzle, TargetSpec, build_puzzle
from rhasp.parallel import worker_pool

LABELS = "BCDEFGHIJKLMNOPQRSTUVWYZ"

#: What one random board gave (see :func:`hardest_of_boards`).
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


def without_needless_pieces(puzzle: Puzzle, budget: Budget | None = None) -> Hardest | None:
    """The puzzle's hardest state, made minimal as the puzzle database defines it
    (:func:`rhasp.cluster.needless_piece`): while a piece can go without changing the
    length, it goes, and the search moves to the new cluster's hardest state (never shorter:
    the state before lies in the new cluster at the same distance). None when no goal is
    reachable."""
    while True:
        graph = cluster_graph(puzzle, budget)
        found = hardest_of(puzzle, graph)
        if found is None:
            return None
        smaller = needless_piece(found, graph, budget)
        if smaller is None:
            return found
        puzzle = smaller


#: Random boards a run draws for each puzzle asked for before it gives up (exit code 4): a 6×6
#: board takes about 0.03 s, and one in 20 to 40 reaches 15 moves, so 1,000 boards find most
#: depths that random boards reach at all, and end in about 30 s when none does.
BOARDS_PER_PUZZLE = 1_000
#: Seconds a run may take for each puzzle asked for before it gives up: on 6×6 the boards
#: bound comes first; on large boards, where one board can take seconds, this one does.
SECONDS_PER_PUZZLE = 60.0


def hardest_of_boards(
    seed: int,
    *,
    size: int = 6,
    walls: int = 0,
    minimal: bool = False,
    jobs: int = 1,
    max_states: int | None = None,
) -> Iterator[Outcome]:
    """Board after board, in order: its hardest state, the limit when its cluster has more
    than ``max_states`` states (default: a share of the memory per job), or None when no goal
    is reachable. Endless: the caller judges the boards and stops (:func:`distinct_puzzles`).
    The boards are worked out on ``jobs`` processes and yielded in order, so the deck does not
    depend on ``jobs``."""
    prefer_compiled()  # endless work: load the compiled core before the workers start
    budget = Budget(default_max_states(jobs) if max_states is None else max_states)
    work = functools.partial(_hardest_of_board, seed, size, walls, minimal, budget)
    yield from _in_order(work, jobs)


@dataclass
class Tried:
    """How a run of :func:`distinct_puzzles` went: the random boards it drew, how many of them it
    skipped at the state limit, the most moves any board's hardest state took (kept or not),
    and which bound ended it (``"boards"`` or ``"seconds"``), if one did."""

    boards: int = 0
    skipped: int = 0
    deepest: int | None = None
    stopped: str | None = None

    def count(self, found: Outcome) -> None:
        self.boards += 1
        if isinstance(found, SearchLimit):
            self.skipped += 1
        elif found is not None:
            self.deepest = max(found.moves, self.deepest or 0)

    def shortfall(self, kept: int, count: int, min_moves: int, seconds: float) -> SearchLimit:
        """Why the run ended with ``kept`` of the ``count`` puzzles asked for, in one line:
        the bound that ended it, and what was found within it (the deepest board), or that
        every board was skipped at the state limit, since then no depth was seen at all."""
        boards = counted(self.boards, "board")
        if self.skipped == self.boards:
            return SearchLimit(
                f"all {boards} skipped at the state limit: each one's cluster has more "
                "states than the limit allows; raise the state limit",
                "generate",
            )
        wanted = f"at least {counted(min_moves, 'move')}"
        made = f"no puzzle of {wanted}" if kept == 0 else f"{kept} of {count} puzzles of {wanted}"
        within = boards if self.stopped == "boards" else f"{seconds:g} s ({boards})"
        line = f"{made} in {within}"
        if self.deepest is None:
            line += "; no board had a reachable goal"
        else:
            line += f"; the deepest found took {counted(self.deepest, 'move')}"
        if self.skipped:
            line += f" ({counted(self.skipped, 'board')} skipped at the state limit)"
        more = "boards" if self.stopped == "boards" else "seconds"
        return SearchLimit(f"{line}; ask for fewer moves, or allow more {more}", "generate")


def distinct_puzzles(
    seed: int,
    *,
    count: int | None = 1,
    min_moves: int = 1,
    tried: Tried | None = None,
    max_boards: int | None = None,
    seconds: float | None = None,
    **options: Any,
) -> Iterator[Hardest]:
    """The puzzles of at least ``min_moves`` moves, each of a cluster not met before, one by
    one, as :func:`hardest_of_boards` (``options`` are its own) draws boards: ``count`` of
    them, unless ``max_boards`` boards are drawn or ``seconds`` pass first (by default
    :data:`BOARDS_PER_PUZZLE` and :data:`SECONDS_PER_PUZZLE` for each puzzle asked for); then
    a SearchLimit saying what was found. With ``count`` None, as many as the bounds allow
    (at least one of them given), and no SearchLimit. ``tried`` counts the boards. The one
    loop behind ``rhasp generate`` and ``rhasp.generate``."""
    tried = Tried() if tried is None else tried
    if count is not None:
        max_boards = min(
            BOARDS_PER_PUZZLE * count if max_boards is None else max_boards, sys.maxsize
        )
        seconds = SECONDS_PER_PUZZLE * count if seconds is None else seconds
    if max_boards is None and seconds is None:
        raise ValueError("distinct_puzzles needs a count or a bound: it would never end")
    seen: set[Canonical] = set()
    kept = 0
    began = time.perf_counter()
    for found in hardest_of_boards(seed, **options):
        tried.count(found)
        if isinstance(found, Hardest) and found.moves >= min_moves and found.canonical not in seen:
            seen.add(found.canonical)
            kept += 1
            yield found
            if kept == count:
                return
        tried.stopped = _bound_reached(tried.boards, max_boards, began, seconds)
        if tried.stopped is not None:
            break
    if count is not None:
        raise tried.shortfall(kept, count, min_moves, seconds)


def _bound_reached(
    boards: int, max_boards: int | None, began: float, seconds: float | None
) -> str | None:
    """``"boards"`` or ``"seconds"`` when that bound of a run is reached, else None."""
    if max_boards is not None and boards >= max_boards:
        return "boards"
    if seconds is not None and time.perf_counter() - began > seconds:
        return "seconds"
    return None


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
        puzzle = board_number(seed, number, size, walls)
        return without_needless_pieces(puzzle, budget) if minimal else hardest_state(puzzle, budget)
    except SearchLimit as limit:
        return limit


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
