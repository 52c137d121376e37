"""Random puzzles: valid boards built vehicle by vehicle from a seeded random source."""

from __future__ import annotations

import random

from rhasp.model import Piece, Puzzle, TargetSpec, build_puzzle

LABELS = "BCDEFGHIJKLMNOPQRSTUVWYZ"


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
