"""The database's definitions on a puzzle's cluster: its canonical hardest state, the name
it gives the cluster, and whether that state is minimal.

The one home of what ``analyze``, ``hardest``, hints, ``generate`` and the cluster drawing ask
of a cluster. The cluster itself (every state its moves reach, with those moves and each
state's distance to the nearest goal) is the search core's :class:`rhasp.search.ClusterGraph`
(:func:`rhasp.search.explore_cluster`, run compiled where it pays); ``rhasp enumerate`` runs
the same functions inside its compiled shard (:mod:`rhasp.search.shards`), so both break ties
between hardest states by the one database order, and find the same distances. Goal states
have the target at its exit edge and targets stay on the board, as puzzle databases count.
Single-target puzzles only: "nearest goal" is defined here for one target.

A cluster is named by its *canonical state*, which depends neither on labels nor on where in
the cluster a board started: the hardest states are the same set for every state of a cluster,
so the least of them in the database's order, written as positions in an order fixed by the
board's lines, names the cluster.

A hardest state is *minimal* when removing any piece but the target, vehicle or wall,
shortens its solution: the database's definition (README, "rhasp enumerate").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rhasp.errors import InputError, about
from rhasp.formats.line import puzzle_line
from rhasp.limits import Budget
from rhasp.model import Board, Puzzle
from rhasp.search import ClusterGraph, explore_cluster, fewest_moves

#: A cluster's name: the board's walls and vehicle lines, and the smallest hardest state.
Canonical = tuple[object, ...]

#: How far each of several searches may go: one budget for all, or what gives each search its
#: own when asked (``generate``'s seconds: a budget's seconds count from its search's start,
#: so each search must get the seconds left, not the run's whole).
Budgets = Budget | Callable[[], Budget]


def next_budget(budgets: Budgets) -> Budget:
    """The budget of the next search (:data:`Budgets`)."""
    return budgets() if callable(budgets) else budgets


def one_target(puzzle: Puzzle) -> None:
    """Goals and distances are defined here for one target."""
    if len(puzzle.board.targets) != 1:
        raise InputError("analysis needs exactly one target", puzzle.name)


def cluster_graph(puzzle: Puzzle, budget: Budget) -> ClusterGraph:
    """The whole cluster of the puzzle's start, explored once with its moves kept, and its
    distances to the goals over those moves."""
    one_target(puzzle)
    with about(puzzle.name):
        return explore_cluster(puzzle.board, puzzle.placement, budget)


@dataclass(frozen=True)
class Hardest:
    """A cluster's canonical hardest state, as a puzzle, with what a database line reports."""

    puzzle: Puzzle
    moves: int
    cluster: int  # the cluster's number of states
    canonical: Canonical

    def deck_line(self) -> str:
        """``MOVES BOARD CLUSTER``, database style, as ``rhasp deck`` reads (and verifies)."""
        return puzzle_line(self.puzzle, self.moves, self.cluster)


def hardest_state(puzzle: Puzzle, budget: Budget) -> Hardest | None:
    """The canonical hardest state of the puzzle's cluster: of the states farthest from a
    goal, the least in the database's order (:func:`rhasp.search.clusters.database_order`),
    as ``rhasp enumerate`` chooses. None if no goal is reachable."""
    return hardest_of(puzzle, cluster_graph(puzzle, budget))


def hardest_of(puzzle: Puzzle, graph: ClusterGraph) -> Hardest | None:
    """:func:`hardest_state` of the cluster ``graph`` of ``puzzle``."""
    if not graph.by_distance:
        return None
    hardest = graph.hardest
    found = Puzzle(puzzle.board, graph.state(hardest), puzzle.name)
    return Hardest(found, graph.distance[hardest], graph.states, state_name(found))


def state_name(puzzle: Puzzle) -> Canonical:
    """The puzzle's state without labels: the board's shape and the positions in line order.
    Of a cluster's canonical hardest state, it names the cluster (module docstring)."""
    order = vehicles_by_line(puzzle)
    positions = tuple(puzzle.placement[i] for i in order)  # labels do not enter it
    return (_shape(puzzle.board, order), positions)


def hardest_puzzle(puzzle: Puzzle, budget: Budget) -> tuple[Puzzle, int] | None:
    """The cluster's canonical hardest state (:func:`hardest_state`) as a puzzle of its own,
    with its length; None when no goal is reachable."""
    one_target(puzzle)
    with about(puzzle.name):
        found = hardest_state(puzzle, budget)
    if found is None:
        return None
    name, meta = f"{puzzle.name}-hardest", {"moves": found.moves}
    return Puzzle(puzzle.board, found.puzzle.placement, name, meta), found.moves


def needless_piece(found: Hardest, graph: ClusterGraph, budgets: Budgets) -> Puzzle | None:
    """The hardest state ``found`` of the cluster ``graph`` (:func:`hardest_of`) with one
    piece fewer and the same length, or None when it is minimal (module docstring): each
    piece but the target, walls included, is removed in turn, and the rest solved again
    (each search within ``budgets``, :data:`Budgets`).

    A vehicle that moves on one optimal way is needed (the way without its moves would be
    shorter), so only the others are tried, as the walk of
    :func:`rhasp.search.clusters.moved_on_the_way` marks them. ``rhasp enumerate`` tests the
    same definition with its own loop, :func:`rhasp.search.shards.is_minimal`, which works
    on the tables of its compiled shard, rebuilt in place without each piece, rather than on
    boards: the two must agree (tests/test_canonical.py checks that they do)."""
    board = found.puzzle.board
    moved = graph.moved_on_the_way(graph.hardest)
    idle = [v.label for v, m in zip(board.vehicles, moved, strict=True) if not m]
    for smaller in _without_each(
        found.puzzle, [label for label in idle if label not in board.targets]
    ):
        plan, _ = fewest_moves(smaller.board, smaller.start, next_budget(budgets))
        if plan is not None and len(plan) == found.moves:
            return smaller
    return None


def _without_each(puzzle: Puzzle, labels: list[str]) -> Iterator[Puzzle]:
    """The puzzle without each vehicle ``labels`` in board order, then without each wall.
    The order decides only which needless piece goes first: ``rhasp generate --minimal``
    removes vehicles in the order it always has, walls after them."""
    for label in labels:
        yield puzzle.without({label})
    board = puzzle.board
    for cell in sorted(board.walls):
        walls = board.walls - {cell}
        yield Puzzle(dataclasses.replace(board, walls=walls), puzzle.placement, puzzle.name)


def vehicles_by_line(puzzle: Puzzle) -> list[int]:
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
