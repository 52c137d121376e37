"""A cluster as the search core leaves it: flat arrays over state indices, read through
methods that speak in the model's states and moves, so that nothing outside the core reads a
key or a table.

The definitions (what the database calls hardest, minimal, a cluster's name) live in
:mod:`rhasp.canonical`; the exploration that fills these arrays is
:func:`rhasp.search.clusters.cluster`, the one ``rhasp enumerate`` also runs inside its
shards.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rhasp.limits import Budget, state_limit
from rhasp.model import Board, Move, State
from rhasp.search import clusters
from rhasp.search.geometry import Geometry, key_words
from rhasp.search.runner import run


@dataclass(frozen=True)
class ClusterGraph:
    """The cluster as flat arrays over state indices, the start's index 0: each state's key,
    its moves as neighbour indices (``edges[first_edge[i]:first_edge[i + 1]]``, every state
    expanded once) and its distance in moves to the nearest goal (-1: none reachable). Arrays
    rather than a dict of lists: a few numbers a state, as the compiled exploration leaves
    them (see :mod:`rhasp.search.clusters`)."""

    geometry: Geometry  # the core's own: read states through :meth:`state`, not keys
    keys: Sequence[int]  # in breadth-first order from the start
    first_edge: Sequence[int]
    edges: Sequence[int]
    distance: Sequence[int]
    by_distance: Sequence[int]  # the indices of states with a goal, nearest first
    #: Each state's fewest slides (cells) to the nearest goal, -1 when none is reachable,
    #: where the cluster was explored ``by_slides`` (:func:`explore_cluster`); else none.
    slide_distance: Sequence[int] = ()

    START = 0

    @property
    def states(self) -> int:
        return len(self.keys)

    @property
    def moves(self) -> int:
        """The cluster's edges: every move can be undone, so each is kept twice."""
        return len(self.edges) // 2

    @property
    def goals(self) -> Sequence[int]:
        """The goal states' indices (they come first in ``by_distance``)."""
        count = 0
        while count < len(self.by_distance) and self.distance[self.by_distance[count]] == 0:
            count += 1
        return self.by_distance[:count]

    @property
    def farthest(self) -> int | None:
        """The most moves any state takes to a goal; None when no goal is reachable."""
        return self.distance[self.by_distance[-1]] if self.by_distance else None

    def neighbours(self, i: int) -> Sequence[int]:
        return self.edges[self.first_edge[i] : self.first_edge[i + 1]]

    def state(self, i: int) -> State:
        """State ``i`` as the model writes it (a position per vehicle)."""
        return self.geometry.state(self.keys[i])

    def move(self, i: int, j: int) -> Move:
        """The move from state ``i`` to its neighbour ``j``."""
        return self.geometry.move(self.keys[i], self.keys[j])

    def positions(self) -> Any:
        """Every state's position of every vehicle, as :meth:`Geometry.position` reads them:
        an int64 array, a row per state (in index order), a column per vehicle. Read in
        numpy's arrays where a key is one word (the pattern tables are built from it in a
        thread beside the ASP search: a loop in Python would hold the interpreter's lock the
        memo's callbacks wait for), else key by key."""
        import numpy as np  # only where tables are built: its import costs a tenth of a second

        g = self.geometry
        if key_words(g.tables) > 1:
            rows = [[g.position(key, i) for i in range(g.count)] for key in self.keys]
            return np.asarray(rows, dtype=np.int64).reshape(len(self.keys), g.count)
        keys = np.asarray(self.keys, dtype=np.int64)[:, None]
        shift, ones, low = (
            np.asarray(t, dtype=np.int64) for t in (g.tables.shift, g.tables.ones, g.low)
        )
        return ((keys >> shift) & ones) + low

    @cached_property
    def _index(self) -> dict[int, int]:
        """Keys to indices, built only when a position is looked up (hints)."""
        return {key: i for i, key in enumerate(self.keys)}

    def index_of(self, state: State) -> int | None:
        """The index of ``state`` in the cluster, None when it is not there."""
        return self._index.get(self.geometry.key(state))

    def way_down(self, start: int = START) -> list[int]:
        """The indices of one shortest way from state ``start`` to a goal (the first found);
        empty when no goal is reachable."""
        if self.distance[start] < 0:
            return []
        return clusters.way_down(start, self.distance, self.first_edge, self.edges)

    @cached_property
    def hardest(self) -> int:
        """The canonical hardest state's index: of the states farthest from a goal, the least
        in the database's order (:func:`rhasp.search.clusters.hardest_index`), worked out
        once (``generate --minimal`` asks again for it); a goal must be reachable."""
        g = self.geometry
        return clusters.hardest_index(
            g.tables, self.keys, self.distance, self.by_distance, g.horizontal
        )

    def moved_on_the_way(self, start: int) -> list[bool]:
        """For each vehicle, whether it moves on :meth:`way_down` from state ``start``
        (:func:`rhasp.search.clusters.moved_on_the_way`)."""
        moved = [0] * self.geometry.count
        arrays = (self.keys, self.distance, self.first_edge, self.edges, moved)
        clusters.moved_on_the_way(self.geometry.tables, start, *arrays)
        return [bool(m) for m in moved]

    def in_database_order(self, indices: Sequence[int]) -> list[State]:
        """The states ``indices`` in the puzzle database's order, the first the one
        ``hardest`` and ``rhasp enumerate`` choose
        (:func:`rhasp.search.clusters.database_order`)."""
        tables, horizontal = self.geometry.tables, self.geometry.horizontal
        keys = sorted(
            (self.keys[i] for i in indices),
            key=lambda key: clusters.database_order(tables, key, horizontal),
        )
        return [self.geometry.state(key) for key in keys]


def explore_cluster(
    board: Board, placement: State, budget: Budget, by_slides: bool = False
) -> ClusterGraph:
    """The whole cluster of ``placement`` (targets stay on the board, as puzzle databases
    count), explored once with its moves kept, and its distances to the goals over those
    moves (defined for one target); ``by_slides``, in slides too
    (:func:`rhasp.search.clusters.goal_slides`)."""
    geometry = Geometry.of(board, targets_leave=False)
    key = geometry.key(placement)
    found = run(geometry, clusters.cluster, key, budget=budget, by_slides=by_slides)
    return ClusterGraph(geometry, *found[1:])


#: One line's vehicles placed: (occupancy bits, their part of the state key).
LinePlacement = tuple[int, int]


def all_moves_graph(
    board: Board, lines: Sequence[Sequence[int]], max_states: int
) -> tuple[int, int, int]:
    """(placements tried, states, edges) of the all-moves graph: every placement of the
    vehicles in which each line (``lines``: the vehicle indices of each row or column, in
    their order along it) keeps its vehicles' order, with the moves between them.

    Each line's own placements are listed first, then combined depth-first, dropping a
    partial placement as soon as two lines overlap, so the full product is counted but never
    built. Targets stay on the board, as in the cluster, which the graph contains. Beyond
    ``max_states`` states it stops with :class:`~rhasp.errors.SearchLimit`: a large board has
    astronomically many placements.
    """
    geometry = Geometry.of(board, targets_leave=False)
    placements = [list(_placements(list(line), 0, board, geometry)) for line in lines]
    placements.sort(key=len)  # few choices first: overlaps show up early in the search
    states = moves = 0

    def place(k: int, occupied: int, key: int) -> None:
        nonlocal states, moves
        if k == len(placements):
            states += 1
            if states > max_states:
                raise state_limit(states, "of the all-moves graph", max_states)
            moves += len(geometry.neighbours(key))
            return
        for mask, part in placements[k]:
            if not mask & occupied:
                place(k + 1, occupied | mask, key + part)

    place(0, geometry.tables.walls, 0)
    return math.prod(map(len, placements)), states, moves // 2  # every move undoes


def _placements(
    line: list[int], first: int, board: Board, geometry: Geometry
) -> Sequence[LinePlacement]:
    """Placements of the vehicles ``line``, in this order, from cell ``first`` of the line on,
    that overlap neither a wall nor another of them."""
    if not line:
        return [(0, 0)]
    i, length = line[0], board.vehicles[line[0]].length
    tables = geometry.tables
    found = []
    for p in range(first, tables.last[i] + 1):
        cells = tables.masks[i * tables.stride + p]
        if not cells & tables.walls:
            for mask, key in _placements(line[1:], p + length, board, geometry):
                found.append((cells | mask, (p << tables.shift[i]) + key))
    return found
