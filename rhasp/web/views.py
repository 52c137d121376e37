"""What the server's answers say, drawn for the page: a position as the page draws it
(:func:`view`), the board as a link carries it, the cards as the page lists them, and a
solution as ``rhasp solve --format json`` prints it, with its words (``text``, the
solution's own) for the page to show as they are."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from typing import Any

import rhasp
from rhasp.api import Solution
from rhasp.errors import RhaspError
from rhasp.formats import read_path, write
from rhasp.model import Puzzle
from rhasp.output import reading_text, solution_dict
from rhasp.pictures.boards import board_scene, vehicle_shapes
from rhasp.pictures.scene import svg
from rhasp.shipped import shipped

#: The pixels of a board cell on the page, as ``rhasp render`` draws at its default.
CELL = 60
#: The levels the original deck prints on its cards, ten cards each, card 1 first.
LEVELS = ("beginner", "intermediate", "advanced", "expert")


def view(puzzle: Puzzle) -> dict[str, Any]:
    """The position as the page draws it: the board's picture without vehicles (frame,
    walls, exits), each vehicle's line, position and box in the picture's units, the text a
    link carries, and what the reader inferred."""
    board = puzzle.board
    empty = board_scene(board, (None,) * len(board.vehicles), cell=CELL)
    vehicles = []
    for i, (vehicle, place) in enumerate(zip(board.vehicles, puzzle.placement, strict=True)):
        body, label = vehicle_shapes(board, i, place, CELL)
        vehicles.append(
            {
                "label": vehicle.label,
                "orientation": vehicle.orientation,
                "line": vehicle.line,
                "length": vehicle.length,
                "position": place,
                "target": vehicle.label in board.targets,
                "box": {
                    "x": body.x,
                    "y": body.y,
                    "width": body.width,
                    "height": body.height,
                    "radius": body.radius,
                    "fill": body.fill,
                },
                "text": {"size": label.size, "fill": label.fill},
            }
        )
    return {
        "name": puzzle.name,
        "width": board.width,
        "height": board.height,
        "cell": CELL,
        "margin": CELL // 2,
        "walls": sorted(board.walls),
        "exits": [{"label": label, "side": side} for label, side in board.exits],
        "vehicles": vehicles,
        "picture": svg(empty, background=None),  # the page's own colour around the frame
        "link": link_text(puzzle),
        "solved": puzzle.solved,
        "meta": dict(puzzle.meta),
        "read": reading_text(puzzle),  # what the reader inferred: the target and its exit, say
    }


def link_text(puzzle: Puzzle) -> str:
    """The board as a link carries it: the one-line form, or JSON when that cannot hold it;
    the board alone, never what is known of it (a generated puzzle's moves and cluster, which
    the line form writes as a database line around the board, are fields of their own)."""
    board = replace(puzzle, meta={})
    try:
        return write(board, "line").strip()
    except RhaspError:
        return json.dumps(json.loads(write(board, "json")), separators=(",", ":"))


@cache
def card_list() -> list[dict[str, Any]]:
    """The cards as ``/api/puzzles`` lists them; their minima are searched once (about 0.05 s
    a card), then kept."""
    return [
        {
            "name": card.name,
            "board": write(card, "line").strip(),
            "level": LEVELS[n // 10],
            "moves": rhasp.solve(card, engine="bfs").moves,
        }
        for n, card in enumerate(cards())
    ]


@cache
def cards() -> tuple[Puzzle, ...]:
    """The original deck, shipped in the package (or beside it in a source checkout)."""
    entries = read_path(str(shipped("puzzles/original40.txt")))
    return tuple(entry.renamed(f"card{n:02d}") for n, entry in enumerate(entries, 1))


def solution_record(solution: Solution) -> dict[str, Any]:
    """What ``rhasp solve --format json`` prints, the solution's words (``text``: what
    ``print(solution)`` shows above the plan, which the page lists itself), and each move's
    label and cells for the page's animation."""
    record = solution_dict(solution, "card")
    record["text"] = "\n".join(solution.heading())
    record["steps"] = [{"label": m.label, "delta": m.delta} for m in solution.plan or ()]
    return record
