"""One hint: the next move of an optimal plan from a position, and how far the exit still is.

A player asks for hints again and again from positions of one puzzle, and every position
reached by playing lies in the start's cluster. So a hint searches the whole cluster once,
backwards from its goals (:func:`rhasp.analysis.cluster_graph`: every state's distance to
the nearest goal), and keeps it: each later hint in that cluster is a look-up among the
position's neighbours. The kept clusters are few and small (the cards' largest has about
25,000 states); a cluster over :data:`CLUSTER_STATES`, or a puzzle with several targets,
gets a breadth-first search from the position instead.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace

from rhasp.analysis import ClusterGraph, cluster_graph
from rhasp.engines.bfs import BfsEngine
from rhasp.engines.limits import Budget
from rhasp.errors import SearchLimit
from rhasp.model import Board, Move, Puzzle

#: The largest cluster kept for hints; beyond it each hint is a search of its own.
CLUSTER_STATES = 200_000
#: How many boards' clusters are kept (least recently used go first).
KEPT_BOARDS = 256


@dataclass(frozen=True)
class Hint:
    """``move`` starts an optimal plan from the position, which is ``moves_left`` moves from
    the exit (0 when solved, and then ``move`` is None); ``moves_left`` is None when no plan
    exists from here."""

    move: Move | None
    moves_left: int | None
    proven_by: str = "bfs"


class ClusterBook:
    """The clusters searched so far, by board; safe to share between a server's threads."""

    def __init__(self, boards: int = KEPT_BOARDS) -> None:
        self._boards = boards
        self._clusters: OrderedDict[Board, list[ClusterGraph]] = OrderedDict()
        self._lock = threading.Lock()

    def graph(self, puzzle: Puzzle, budget: Budget) -> tuple[ClusterGraph, int]:
        """The cluster holding the puzzle's position, and the position's key in it."""
        with self._lock:
            graphs = list(self._clusters.get(puzzle.board, ()))
        for graph in graphs:
            key = graph.geometry.key(puzzle.placement)
            if key in graph.neighbours:
                return graph, key
        graph = cluster_graph(puzzle, replace(budget, states=min(budget.states, CLUSTER_STATES)))
        with self._lock:
            self._clusters.setdefault(puzzle.board, []).append(graph)
            self._clusters.move_to_end(puzzle.board)
            while len(self._clusters) > self._boards:
                self._clusters.popitem(last=False)
        return graph, graph.start


BOOK = ClusterBook()


def hint(puzzle: Puzzle, budget: Budget | None = None, book: ClusterBook = BOOK) -> Hint:
    """The next move of an optimal plan from the puzzle's position (its placement)."""
    budget = budget or Budget()
    if puzzle.board.is_solved(puzzle.start):
        return Hint(None, 0)
    if len(puzzle.board.targets) == 1:
        try:
            graph, key = book.graph(puzzle, budget)
        except SearchLimit:
            pass  # a cluster too large to keep: search from the position alone
        else:
            return _from_cluster(graph, key)
    found = BfsEngine(budget=budget).solve(puzzle, "moves")
    if found.limit:
        raise SearchLimit(found.limit, puzzle.name)
    if not found.plan:
        return Hint(None, None)
    return Hint(found.plan[0], len(found.plan))


def _from_cluster(graph: ClusterGraph, key: int) -> Hint:
    distance = graph.distance.get(key)
    if distance is None:
        return Hint(None, None)
    closer = next(b for b in graph.neighbours[key] if graph.distance.get(b) == distance - 1)
    return Hint(graph.geometry.move(key, closer), distance)
