"""What each of the server's requests asks of :mod:`rhasp.api`: its position read and
played, a solve, a hint, a new puzzle, each within the server's limits; their failures
are raised, for :func:`rhasp.web.failures.answer` to say."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import rhasp
from rhasp import api
from rhasp.api import ANY_SHARE, AspOptions, SolveRequest, moves_of
from rhasp.errors import SearchLimit
from rhasp.model import Puzzle
from rhasp.notation import format_move
from rhasp.web.bodies import GENERATE_PAGE_SIDES, GenerateBody, Position, SolveBody
from rhasp.web.failures import PAGE_GENERATE_ADVICE, PAGE_GENERATE_ADVICE_LARGE
from rhasp.web.slots import ServerLimits
from rhasp.web.views import link_text, solution_record


@lru_cache(maxsize=128)
def parsed(text: str) -> Puzzle:
    """The board read from its text, kept: the page sends its start board with every request
    (a puzzle never changes; a board that cannot be read raises, and nothing is kept)."""
    return rhasp.parse(text)


def position(request: Position) -> Puzzle:
    """The request's board with its moves played (an illegal one raises, naming it)."""
    puzzle = parsed(request.board)
    return rhasp.play(puzzle, request.moves) if request.moves.strip() else puzzle


def played(request: Position) -> list[dict[str, Any]]:
    """The request's moves as the page replays them; each checked when ``position`` played
    them (an illegal one is a 400 naming it)."""
    puzzle = parsed(request.board)
    return [
        {"label": move.label, "delta": move.delta, "move": format_move(move, puzzle.board)}
        for move in moves_of(puzzle, request.moves)
    ]


def solve_position(request: SolveBody, limits: ServerLimits, progress: Any) -> dict[str, Any]:
    """The request's position solved as ``rhasp deck`` would: the engine asked for, else BFS
    up to 6×6 and A* on a larger board, within the server's limits; the objective asked for,
    else the request's own default."""
    puzzle = position(request)
    asked = {"objective": request.objective} if request.objective is not None else {}
    solve = SolveRequest(
        puzzle,
        engine=request.engine,
        budget=limits.budget(),
        asp=AspOptions(progress=progress),
        timeout=limits.seconds,
        in_deck=True,
        **asked,
    )
    solution = api.run_solve(solve)
    if solution.limit and not solution.has_plan:  # a plan past a limit says what it is
        raise SearchLimit(solution.limit, puzzle.name)
    return solution_record(solution)


def hint_record(puzzle: Puzzle, limits: ServerLimits | None = None) -> dict[str, Any] | None:
    """The hint as the page reads it; without ``limits``, only one that takes no search (a
    look-up in a kept cluster), else None."""
    if limits is None:
        found = rhasp.hint(puzzle, search=False)
    else:
        found = rhasp.hint(puzzle, budget=limits.budget())
    return None if found is None else found.record(puzzle.board)


def new_puzzle(request: GenerateBody, limits: ServerLimits) -> dict[str, Any]:
    """A new puzzle as the request asks, within the server's limits: its board as a link
    carries it, its moves, its cluster and what proved them; a limit met says what the
    page's user can do instead. Boards of any share, on every size: crowded 10×10 boards,
    the command's default, pay over minutes, not in a request's seconds (one seed in five
    found no puzzle in 10 s; bench/README.md, "Issue 56: 10×10 generation, crowded by
    default")."""
    try:
        puzzle = rhasp.generate(
            min_moves=request.min_moves,
            seed=request.seed,
            size=request.size,
            seconds=limits.seconds,
            max_states=limits.states,
            covered=ANY_SHARE,
        )
    except SearchLimit as limit:  # the server's bounds: what a player can do instead
        kind = limit.limit.ran_out if limit.limit else None
        smaller = request.size > GENERATE_PAGE_SIDES[0]
        if kind == "states" and smaller:
            advice = "pick a smaller board"
        else:
            advice = PAGE_GENERATE_ADVICE_LARGE if smaller else PAGE_GENERATE_ADVICE
        raise SearchLimit(f"{limit.what}; {advice}", limit.where) from None
    cluster = puzzle.meta.get("cluster")
    return {
        "name": puzzle.name,
        "board": link_text(puzzle),
        "moves": puzzle.meta["moves"],
        "cluster": cluster,
        "proven_by": "astar" if cluster is None else "bfs",
    }
