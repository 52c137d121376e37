"""Checking a plan someone found: does it solve the puzzle, and is it as short as possible?"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from rhasp.engines import OBJECTIVES, Objective
from rhasp.engines.bfs import BfsEngine
from rhasp.engines.limits import Budget
from rhasp.errors import PlanError, SearchLimit
from rhasp.model import Move, Puzzle, plan_slides, replay
from rhasp.notation import format_move


@lru_cache(maxsize=32)
def minimal_length(puzzle: Puzzle, objective: Objective, budget: Budget) -> int | None:
    """The oracle's proven minimum; cached so that checking several plans solves once."""
    found = BfsEngine(budget=budget).solve(puzzle, objective)
    if found.limit:
        raise SearchLimit(found.limit, puzzle.name)
    return found.length


def check_plan(
    puzzle: Puzzle, moves: Sequence[Move], budget: Budget | None = None
) -> dict[str, Any]:
    """Replay ``moves`` and compare them with the proven minimal moves and slides.

    The record says ``solves``; a plan that cannot be played has ``error`` and
    ``failed_move``; a solving plan has ``minimal_moves``/``minimal_slides`` and whether it
    reaches them (``moves_minimal``/``slides_minimal``).
    """
    result: dict[str, Any] = {"puzzle": puzzle.name, "solves": False, "plan_moves": len(moves)}
    try:
        played = replay(puzzle, moves)
    except PlanError as error:
        return result | {"error": error.what, "failed_move": error.index}
    board = puzzle.board
    result |= {
        "solves": played.solved,
        "moves": len(played.moves),
        "slides": plan_slides(played.moves),
        "clipped": [
            {"move": n, "as_given": format_move(played.asked[n - 1], board),
             "as_played": format_move(played.moves[n - 1], board)}
            for n in played.clipped
        ],
    }  # fmt: skip
    if played.solved:
        for objective in OBJECTIVES:
            best = minimal_length(puzzle, objective, budget or Budget())
            result[f"minimal_{objective}"] = best
            result[f"{objective}_minimal"] = best == result[objective]
        result["proven_by"] = ["bfs"]
    return result
