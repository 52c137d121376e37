"""PDDL for planners: a puzzle as a STRIPS domain and problem.

A writer only: PDDL is not a puzzle format rhasp reads back. What comes back is a planner's
plan, which :mod:`rhasp.notation` reads through the names this module writes with (the
objects, the actions: :mod:`rhasp.pddl_naming`), so that the writer and the reader have one
naming.

The domain (``:strips :typing``, no negative preconditions, conditional effects or
quantifiers, unit cost):

- objects: the board's cells (``r3c5``: row 3, column 5, counted from 1) and the vehicles,
  typed ``horizontal`` or ``vertical`` (``x`` for X: :func:`vehicle_object`);
- ``(at ?v ?first ?last)``: the vehicle's first (top, left) and last cells; ``(clear ?c)``: no
  vehicle and no wall on the cell; ``(next-right ?c ?d)``, ``(next-down ?c ?d)``: static, ``d``
  is right next to (under) ``c`` on the board;
- one action per direction and distance, ``right-D``, ``left-D``, ``down-D``, ``up-D``: the
  vehicle slides D cells. Its parameters are the vehicle and two chains of D+1 cells, from
  the first cell and from the last, each step one cell in the move's direction
  (``next-right`` or ``next-down``, read backwards for left and up): the cells the leading
  end enters must be clear and are no longer; the D cells the trailing end leaves are clear
  after. By moves (``--objective moves``) D runs from 1 to the longest move the board allows
  (its side less 2); by slides, D is 1 only.
- the goal: the target at its exit edge, ``(at x r3c5 r3c6)``.

Why a plan's length is rhasp's count (the soundness argument):

1. *The state is the board.* In every state the planner reaches, each vehicle has exactly
   one ``at`` fact, naming the two ends of the cells it covers, and ``(clear c)`` holds iff no
   vehicle and no wall covers ``c``. True at the start (the problem lists them so; a wall is
   never clear and no action makes it clear). An action keeps it: for ``right-D`` of a vehicle
   of L cells from first cell f to last cell l, the entered cells l+1..l+D (all clear, or
   the action does not apply) become covered and f..f+D-1 become clear. For D ≤ L these two
   sets are apart, and they are exactly the cells the vehicle leaves and enters. For D > L
   the vehicle jumps clear of its old cells: it leaves f..l (all L of them) and covers
   f+D..l+D, and the cells between, l+1..f+D-1, are both entered and left by the effects;
   STRIPS applies the deletes before the adds (as ``drive ?from ?to`` with ``?from = ?to``
   in the logistics domains), so they stay clear, as they were. The other directions are
   the same read backwards.
2. *An action is a move.* ``right-D`` applies to vehicle v iff v is horizontal and the D
   cells past its last cell lie on the board (the ``next-right`` chain exists) and are clear:
   exactly when rhasp plays ``Move(v, +D)`` (:meth:`rhasp.model.Board.apply`), and it leads to
   the state rhasp's move leads to. A move past the board's edge does not exist in either;
   a target driven past its exit, which rhasp's ``check`` counts up to the edge, is not a
   move here at all.
3. *The goal is the exit.* rhasp's target leaves the moment it reaches its exit edge, and with
   one target that ends the puzzle: the goal ``(at x FIRST LAST)`` holds exactly then. So a
   plan of n actions reaching the goal is a rhasp plan of n moves, and the other way round:
   the fewest actions are the fewest moves. By slides, every action moves one cell, and any
   move of D cells is D such actions in a row (each cell it crosses is clear), so the fewest
   actions are the fewest slides.

What PDDL cannot say this way is refused with one line (:class:`~rhasp.errors.InputError`):
a puzzle with several targets, where a target that leaves frees its cells for the rest (its
arrival would need an action that clears its L cells, whose parameters depend on L).
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

from rhasp.errors import InputError
from rhasp.model import Cell, Puzzle
from rhasp.pddl_naming import DIRECTIONS, TYPE_OF, action_name, cell_object, vehicle_object

if TYPE_CHECKING:
    from rhasp.solution import Objective

#: The name of the domain file written beside the problems.
DOMAIN_FILE = "domain.pddl"


def longest_moves(width: int, height: int, objective: Objective) -> dict[str, int]:
    """The distances the domain has actions for, by direction: on a board of ``width`` by
    ``height``, a vehicle of 2 cells moves at most the side less 2; by slides, 1."""
    if objective == "slides":
        return dict.fromkeys(DIRECTIONS, 1)
    return {
        direction: (width if orientation == "horizontal" else height) - 2
        for direction, (_, _, orientation) in DIRECTIONS.items()
    }


def domain_name(width: int, height: int, objective: Objective) -> str:
    return "rush-hour-slides" if objective == "slides" else f"rush-hour-moves-{width}x{height}"


def write_domain(width: int, height: int, objective: Objective) -> str:
    """The domain for puzzles of ``width`` by ``height`` cells, by ``objective``: one action
    a move (by moves) or a one-cell slide (by slides), unit cost."""
    counted = (
        "moves: an action slides a vehicle any distance"
        if objective == "moves"
        else ("slides: an action slides a vehicle one cell")
    )
    lines = [
        f"; Rush Hour by {counted}; a plan's length is its {objective}.",
        "; Written by rhasp convert --to pddl; the reasoning: rhasp/formats/pddl.py.",
        f"(define (domain {domain_name(width, height, objective)})",
        "  (:requirements :strips :typing)",
        "  (:types cell vehicle - object",
        "          horizontal vertical - vehicle)",
        "  (:predicates",
        "    (at ?v - vehicle ?first ?last - cell)  ; its first (top, left) and last cells",
        "    (clear ?c - cell)                      ; no vehicle and no wall on the cell",
        "    (next-right ?c ?d - cell)              ; d is right next to c",
        "    (next-down ?c ?d - cell))              ; d is right under c",
    ]
    for direction, longest in longest_moves(width, height, objective).items():
        for distance in range(1, longest + 1):
            lines += _action(direction, distance)
    return "\n".join([*lines, ")", ""])


def _action(direction: str, distance: int) -> list[str]:
    """The action moving a vehicle ``distance`` cells ``direction``: the leading chain's new
    cells must be clear and are covered; the trailing chain's left cells are cleared."""
    fact, backwards, orientation = DIRECTIONS[direction]
    first = [f"?f{i}" for i in range(distance + 1)]
    last = [f"?l{i}" for i in range(distance + 1)]
    leading, trailing = (first, last) if backwards else (last, first)

    def chain(cells: list[str]) -> list[str]:
        pairs = itertools.pairwise(cells)
        return [f"({fact} {b} {a})" if backwards else f"({fact} {a} {b})" for a, b in pairs]

    at = f"(at ?v {first[0]} {last[0]})"
    precondition = [at, *chain(first), *chain(last), *(f"(clear {c})" for c in leading[1:])]
    effect = [
        f"(not {at})",
        f"(at ?v {first[-1]} {last[-1]})",
        *(f"(clear {c})" for c in trailing[:-1]),
        *(f"(not (clear {c}))" for c in leading[1:]),
    ]
    return [
        f"  (:action {action_name(direction, distance)}",
        f"    :parameters (?v - {orientation} {' '.join(first + last)} - cell)",
        f"    :precondition (and {' '.join(precondition)})",
        f"    :effect (and {' '.join(effect)}))",
    ]


def problem_name(name: str) -> str:
    """The puzzle's name as a PDDL name: a letter first, then letters, digits, ``-``, ``_``."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]", "-", name)
    return cleaned if cleaned[:1].isalpha() else f"puzzle-{cleaned}"


def write_problem(puzzle: Puzzle, objective: Objective) -> str:
    """The problem of ``puzzle`` for :func:`write_domain`'s domain of its board; raises
    InputError for a puzzle that the domain cannot hold (several targets)."""
    board = puzzle.board
    if len(board.targets) != 1:
        raise InputError(
            f"PDDL holds puzzles of one target; this one has {len(board.targets)} "
            f"({', '.join(board.targets)}): a target that leaves frees its cells, which the "
            "domain cannot say",
            puzzle.name,
        )
    (target,) = board.targets
    side = board.exit_side(target)
    vehicle = board.vehicles[board.index(target)]
    rows = [[(row, col) for col in range(board.width)] for row in range(board.height)]
    covered = {
        cell
        for i, position in enumerate(puzzle.placement)
        for cell in board.vehicles[i].cells(position)
    }
    exit_position = 0 if side in ("left", "top") else board.line_length(vehicle) - vehicle.length
    goal = vehicle.cells(exit_position)
    lines = [
        f"; {puzzle.name}: rhasp convert --to pddl --objective {objective}; target "
        f"{target} leaves by the {side} edge",
    ]
    if board.walls:
        walls = " ".join(cell_object(cell) for cell in sorted(board.walls))
        lines.append(f"; walls (never clear): {walls}")
    lines += [
        f"(define (problem {problem_name(puzzle.name)})",
        f"  (:domain {domain_name(board.width, board.height, objective)})",
        "  (:objects",
        *(f"    {' '.join(map(cell_object, row))}" for row in rows),
        "    - cell",
    ]
    for orientation, kind in TYPE_OF.items():
        named = [vehicle_object(v.label) for v in board.vehicles if v.orientation == orientation]
        if named:
            lines.append(f"    {' '.join(named)} - {kind}")
    lines[-1] += ")"
    lines.append("  (:init")
    for i, position in enumerate(puzzle.placement):
        cells = board.vehicles[i].cells(position)
        ends = f"{cell_object(cells[0])} {cell_object(cells[-1])}"
        lines.append(f"    (at {vehicle_object(board.vehicles[i].label)} {ends})")
    for row in rows:
        clear = [f"(clear {cell_object(c)})" for c in row if c not in covered | board.walls]
        if clear:
            lines.append(f"    {' '.join(clear)}")
    for row in rows:
        pairs = itertools.pairwise(row)
        lines.append("    " + " ".join(f"(next-right {_pair(a, b)})" for a, b in pairs))
    for above, below in itertools.pairwise(rows):
        pairs = zip(above, below, strict=True)
        lines.append("    " + " ".join(f"(next-down {_pair(a, b)})" for a, b in pairs))
    lines[-1] += ")"
    ends = f"{cell_object(goal[0])} {cell_object(goal[-1])}"
    lines += [f"  (:goal (at {vehicle_object(target)} {ends})))", ""]
    return "\n".join(lines)


def _pair(a: Cell, b: Cell) -> str:
    return f"{cell_object(a)} {cell_object(b)}"
