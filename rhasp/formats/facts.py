"""ASP facts for the encodings in ``encodings/`` (schema in ``encodings/README.md``).

Rows, columns and positions are 1-based here, as ASP programs usually count; labels are
strings so that ``X``, ``x`` and ``7`` stay distinct.
"""

from __future__ import annotations

from rhasp.model import Puzzle


def label_term(label: str) -> str:
    return f'"{label}"'


def write_facts(puzzle: Puzzle) -> str:
    board = puzzle.board
    lines = [
        f"% {puzzle.name}: facts for rhasp's encodings (schema: encodings/README.md)",
        f"size({board.width},{board.height}).",
    ]
    for vehicle, position in zip(board.vehicles, puzzle.placement, strict=True):
        label = label_term(vehicle.label)
        lines.append(
            f"vehicle({label},{vehicle.length},{vehicle.orientation},{vehicle.line + 1}). "
            f"init({label},{position + 1})."
        )
    lines += [f"wall({row + 1},{col + 1})." for row, col in sorted(board.walls)]
    lines += [f"target({label_term(label)},{side})." for label, side in board.exits]
    return "\n".join(lines) + "\n"
