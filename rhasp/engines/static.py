"""Static analysis: the cells occupied in every reachable state, found from the board alone.

**The argument.** Call a set S of vehicles *stuck* when each vehicle of S, where it stands at
the start, has on its own line the cell just behind it and the cell just ahead of it each
outside the board, a wall, or a start cell of another vehicle of S. Then no vehicle of S ever
moves. Every move, whatever its distance, first takes the cell next to the vehicle in the
direction it goes (a target leaving moves to its exit edge like any vehicle, so the same
holds); and until the first move of a vehicle of S, every vehicle of S stands where it
started, so that cell is the edge, a wall or a vehicle of S, and the move cannot be made.
So the walls and the cells of a stuck set are occupied in every reachable state.

The union of stuck sets is stuck, so there is a largest one: start from every vehicle and
drop, until none is left to drop, each whose neighbour cell behind or ahead is free (empty at
the start, or the cell of a vehicle dropped already, which may move away). What remains is
stuck, and every stuck set survives the dropping, so it is the largest.

**Unsolvable.** A target leaves only by moving to its exit edge, which needs every cell
between it and that edge free at that moment. One of them occupied in every reachable state
proves that it never leaves, and a puzzle is solved only when every target has left.

This needs no search: it is a few passes over the vehicles, at once on boards whose clusters
no search could finish (``puzzles/large/walled12.txt``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from rhasp.engines import Objective, Solution
from rhasp.model import Board, Cell, Puzzle, State, cell_name

#: How a solution names this proof (``proven_by``).
STATIC = "static analysis"


@dataclass(frozen=True)
class Blocked:
    """Why a puzzle is unsolvable: ``target`` can never pass ``cell``, held by ``holder``
    (``"a wall"`` or ``"vehicle B"``) in every reachable state."""

    target: str
    cell: Cell
    holder: str

    def proof(self) -> str:
        return (
            f"{cell_name(self.cell)} is occupied in every reachable state, by {self.holder}: "
            f"target {self.target} can never leave"
        )


def always_occupied(board: Board, state: State) -> dict[Cell, str]:
    """The cells occupied in every state reachable from ``state``, each with what holds it:
    the walls, and the cells of the largest stuck set of vehicles (see the module's
    argument)."""
    stuck = _stuck(board, state)
    held = dict.fromkeys(board.walls, "a wall")
    for i in stuck:
        vehicle = board.vehicles[i]
        held |= dict.fromkeys(vehicle.cells(state[i]), f"vehicle {vehicle.label}")
    return held


def _stuck(board: Board, state: State) -> set[int]:
    """The largest set of vehicles none of which can ever move."""
    stuck = {i for i, position in enumerate(state) if position is not None}
    owner = {cell: i for i in stuck for cell in board.vehicles[i].cells(state[i])}
    dropped = True
    while dropped:
        dropped = False
        for i in sorted(stuck):
            if any(_free(board, cell, owner, stuck) for cell in _ends(board, i, state[i])):
                stuck.discard(i)
                dropped = True
    return stuck


def _ends(board: Board, i: int, position: int) -> list[Cell]:
    """The cells just behind and just ahead of vehicle ``i`` on its line (the edge, which
    blocks, is not a cell)."""
    vehicle = board.vehicles[i]
    places = (position - 1, position + vehicle.length)
    return [
        _on_line(board, i, place) for place in places if 0 <= place < board.line_length(vehicle)
    ]


def _on_line(board: Board, i: int, place: int) -> Cell:
    """Cell number ``place`` of vehicle ``i``'s line."""
    vehicle = board.vehicles[i]
    return (vehicle.line, place) if vehicle.horizontal else (place, vehicle.line)


def _free(board: Board, cell: Cell, owner: dict[Cell, int], stuck: set[int]) -> bool:
    if cell in board.walls:
        return False
    holder = owner.get(cell)
    return holder is None or holder not in stuck


def blocked_exit(puzzle: Puzzle, held: dict[Cell, str] | None = None) -> Blocked | None:
    """The first target whose way out crosses an always-occupied cell, and that cell; None
    when static analysis proves nothing (the puzzle may still be unsolvable). ``held`` is
    :func:`always_occupied` of the puzzle's start, when the caller has it already."""
    board, state = puzzle.board, puzzle.start
    held = always_occupied(board, state) if held is None else held
    for label, side in board.exits:
        i = board.index(label)
        if state[i] is None:
            continue  # left already
        for cell in _way_out(board, i, state[i], side):
            if cell in held:
                return Blocked(label, cell, held[cell])
    return None


def static_verdict(puzzle: Puzzle, objective: Objective, engine: str) -> Solution | None:
    """The puzzle proven unsolvable by static analysis, as the solution ``engine`` would have
    given, with the proof in its stats (``static``); None when static analysis proves
    nothing, and the search must answer."""
    began = time.perf_counter()
    blocked = blocked_exit(puzzle)
    if blocked is None:
        return None
    seconds = time.perf_counter() - began
    stats = {"static": blocked.proof()}
    return Solution(puzzle, objective, None, engine, (STATIC,), None, seconds, stats)


def _way_out(board: Board, i: int, position: int, side: str) -> list[Cell]:
    """The cells target ``i`` must cross from ``position`` to its exit edge, nearest first."""
    vehicle = board.vehicles[i]
    if side in ("left", "top"):
        places = range(position - 1, -1, -1)
    else:
        places = range(position + vehicle.length, board.line_length(vehicle))
    return [_on_line(board, i, place) for place in places]
