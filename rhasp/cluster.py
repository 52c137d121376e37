"""A puzzle's cluster: every state its moves reach, each state's distance to the nearest goal,
and the cluster's canonical hardest state.

One home for what ``analyze``, ``hardest``, hints and ``generate`` ask of a cluster; ``rhasp
enumerate`` runs the same definitions on its compiled core (:mod:`rhasp.engines.layouts`),
and both break ties between hardest states by the one database order defined there. Goal
states have the target at its exit edge and targets stay on the board, as puzzle databases
count; distances come from one breadth-first search backwards from all goals. Single-target
puzzles only: "nearest goal" is defined here for one target.

A cluster is named by its *canonical state*, which depends neither on labels nor on where in
the cluster a board started: the hardest states are the same set for every state of a cluster,
so the least of them in the database's order, written as positions in an order fixed by the
board's lines, names the cluster.
"""

from __future__ import annotations

from dataclasses import dataclass

from rhasp.engines import core
from rhasp.engines.bitboard import distances, explore, goal_layers
from rhasp.engines.geometry import Geometry
from rhasp.engines.layouts import least_of
from rhasp.engines.limits import Budget
from rhasp.engines.runner import run
from rhasp.errors import InputError, about
from rhasp.formats.line import database_board
from rhasp.model import Board, Puzzle

#: A cluster's name: the board's walls and vehicle lines, and the smallest hardest state.
Canonical = tuple[object, ...]


@dataclass(frozen=True)
class ClusterGraph:
    """The cluster as a graph: each state's neighbours (every state expanded once) and its
    distance in moves to the nearest goal (goal states: the target at its exit edge)."""

    geometry: Geometry
    start: int
    neighbours: dict[int, list[int]]  # in breadth-first order from the start
    goals: list[int]
    distance: dict[int, int]  # only states from which a goal is reachable

    def optimal_path(self) -> list[int]:
        """The states of one shortest way from the start to a goal (the first found)."""
        if self.start not in self.distance:
            return []
        path = [self.start]
        while self.distance[path[-1]]:
            d = self.distance[path[-1]]
            path.append(next(b for b in self.neighbours[path[-1]] if self.distance[b] == d - 1))
        return path


def one_target(puzzle: Puzzle) -> None:
    """Goals and distances are defined here for one target."""
    if len(puzzle.board.targets) != 1:
        raise InputError("analysis needs exactly one target", puzzle.name)


def cluster_graph(puzzle: Puzzle, budget: Budget | None = None) -> ClusterGraph:
    """The whole cluster of the puzzle's start, explored once, with its distances to goals."""
    one_target(puzzle)
    with about(puzzle.name):
        geometry, order = explore(puzzle.board, puzzle.placement, budget)
        neighbours = {key: geometry.neighbours(key) for key in order}
        goals = [key for key in order if geometry.solved(key)]
        distance = distances(*run(geometry, core.layers, goals, budget=budget)[1:]) if goals else {}
    return ClusterGraph(geometry, order[0], neighbours, goals, distance)


@dataclass(frozen=True)
class Hardest:
    """A cluster's canonical hardest state, as a puzzle, with what a database line reports."""

    puzzle: Puzzle
    moves: int
    cluster: int  # the cluster's number of states
    canonical: Canonical

    def deck_line(self) -> str:
        return deck_line(self.puzzle, self.moves, self.cluster)


def deck_line(puzzle: Puzzle, moves: int, cluster: int) -> str:
    """``MOVES BOARD CLUSTER``, database style, as ``rhasp deck`` reads (and verifies)."""
    return f"{moves:2d} {database_board(puzzle)} {cluster}"


def hardest_state(puzzle: Puzzle, budget: Budget | None = None) -> Hardest | None:
    """The canonical hardest state of the puzzle's cluster: of the states farthest from a
    goal, the least in the database's order (:func:`rhasp.engines.layouts.database_order`),
    as ``rhasp enumerate`` chooses. None if no goal is reachable."""
    geometry, distance_order, ends = goal_layers(puzzle.board, puzzle.placement, budget)
    if not ends:
        return None
    far = len(ends) - 1
    begin = ends[-2] if far else 0
    key = least_of(geometry.tables, distance_order, begin, ends[-1], geometry.horizontal)
    found = Puzzle(puzzle.board, geometry.state(key), puzzle.name)
    order = line_order(puzzle)
    positions = tuple(found.placement[i] for i in order)  # labels do not enter it
    return Hardest(found, far, len(distance_order), (_shape(puzzle.board, order), positions))


def line_order(puzzle: Puzzle) -> list[int]:
    """Vehicle indices by orientation, line, and place along the line: moves never change it
    (vehicles on one line cannot pass each other), and labels do not enter it."""
    board = puzzle.board
    return sorted(
        range(len(board.vehicles)),
        key=lambda i: (board.vehicles[i].orientation, board.vehicles[i].line, puzzle.placement[i]),
    )


def _shape(board: Board, order: list[int]) -> tuple[object, ...]:
    """The fixed part of the board, without labels: size, walls, and each vehicle's line,
    length and whether it is the target, in line order."""
    vehicles = tuple(
        (v.orientation, v.line, v.length, v.label in board.targets)
        for v in (board.vehicles[i] for i in order)
    )
    return board.width, board.height, tuple(sorted(board.walls)), vehicles
