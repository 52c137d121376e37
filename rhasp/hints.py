"""One hint: the next move of an optimal plan from a position, and how far the exit still is.

A player asks for hints again and again from positions of one puzzle, and every position
reached by playing lies in the start's cluster. So a hint searches the whole cluster once,
backwards from its goals (:func:`rhasp.canonical.cluster_graph`: every state's distance to
the nearest goal), and keeps it: each later hint in that cluster is a look-up among the
position's neighbours. The kept clusters are few and small (the cards' largest has about
25,000 states), and :data:`KEPT_STATES` bounds them all together; a cluster over
:data:`CLUSTER_STATES` (its board is remembered), or a puzzle with several targets, gets a
breadth-first search from the position instead.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

from rhasp import solving
from rhasp.canonical import cluster_graph
from rhasp.errors import SearchLimit, TimeLimit, counted
from rhasp.limits import Budget
from rhasp.model import Board, Move, Puzzle, ShownAsText
from rhasp.notation import READ, Notation, format_move
from rhasp.search import ClusterGraph
from rhasp.static import STATIC, blocked_exit

#: The largest cluster kept for hints; beyond it each hint is a search of its own.
CLUSTER_STATES = 200_000
#: How many states the kept clusters hold at most, all together (least recently used boards
#: go first): a few hundred MB at what a kept cluster graph costs a state, its arrays and its
#: index of keys (bench/README.md, "Limits").
KEPT_STATES = 1_000_000
#: How many boards are remembered as having clusters too large to keep.
LARGE_BOARDS = 1_024


@dataclass(frozen=True)
class Hint(ShownAsText):
    """``move`` starts an optimal plan from the position ``puzzle``, which is ``moves_left``
    moves from the exit (0 when solved, and then ``move`` is None); ``moves_left`` is None
    when no plan exists from here."""

    move: Move | None  # the next move; None when solved or when no plan exists
    moves_left: int | None  # moves to the exit, this one included; None: no plan from here
    proven_by: str = "bfs"  # "bfs" (a breadth-first search), or "static analysis"
    #: The position the hint is for: its board says the move in a notation.
    puzzle: Puzzle = field(kw_only=True, compare=False, repr=False)

    def lines(self, played: int = 0, notation: Notation = "card", reading: str = "") -> list[str]:
        """The text of ``rhasp hint``: one line with the position (after the moves
        ``played``, if any), the next move in ``notation`` and the moves left, or why there is
        none; ``reading`` (what the reader inferred) under it."""
        parts = [self.puzzle.name]
        if played:
            parts.append(f"after {counted(played, 'move')}")
        if self.moves_left is None:
            parts += ["no solution from here", f"proven by {self.proven_by}"]
        elif self.move is None:
            parts.append("solved")
        else:
            move = format_move(self.move, self.puzzle.board, notation)
            parts += [f"next move {move}", f"{counted(self.moves_left, 'move')} left"]
            parts.append(f"proven by {self.proven_by}")
        return [" · ".join(parts), *([f"  {READ}{reading}"] if reading else [])]

    def record(self, board: Board) -> dict[str, Any]:
        """The hint as JSON (the page's answer, ``rhasp hint --format json``): the move in
        card notation and as label and cells, the moves left, whether none are."""
        move = self.move
        return {
            "move": None if move is None else format_move(move, board),
            "label": None if move is None else move.label,
            "delta": None if move is None else move.delta,
            "moves_left": self.moves_left,
            # Moves are reversible: a position with no way out means a puzzle with none.
            "unsolvable": self.moves_left is None,
            "proven_by": self.proven_by,
        }


class ClusterBook:
    """The clusters searched so far, by board; safe to share between a server's threads.

    A board's cluster is searched by one thread at a time: hints asked meanwhile on the same
    board wait for that search and share its outcome, rather than each searching the same
    cluster (a server's first hints on a card come many at once)."""

    def __init__(self, states: int = KEPT_STATES) -> None:
        self._states = states  # kept at most, all boards together
        self._kept_states = 0
        self._clusters: OrderedDict[Board, list[ClusterGraph]] = OrderedDict()
        self._large: OrderedDict[Board, SearchLimit] = OrderedDict()  # clusters over the cap
        self._searches: dict[Board, _Search] = {}  # under way, with the hints waiting on them
        self._lock = threading.Lock()

    def graph(self, puzzle: Puzzle, budget: Budget) -> tuple[ClusterGraph, int]:
        """The cluster holding the puzzle's position, and the position's index in it."""
        kept = self.kept(puzzle)
        if kept is not None:
            return kept
        with self._lock:
            if puzzle.board in self._large:  # a search would stop at the cap again
                raise _again(self._large[puzzle.board])
            search = self._searches.setdefault(puzzle.board, _Search())
            search.users += 1
        try:
            with search.lock:
                kept = self.kept(puzzle)  # found by the search this hint waited for
                if kept is not None:
                    return kept
                if search.failed is not None:
                    raise _again(search.failed)
                states = min(budget.states, CLUSTER_STATES)
                try:
                    graph = cluster_graph(puzzle, replace(budget, states=states))
                except SearchLimit as limit:
                    search.failed = limit
                    if states == CLUSTER_STATES and not isinstance(limit, TimeLimit):
                        self._remember_large(puzzle.board, limit)  # out of time is not large
                    raise
                self._keep(puzzle.board, graph)
                return graph, graph.START
        finally:
            with self._lock:
                search.users -= 1
                if not search.users:
                    del self._searches[puzzle.board]

    def kept(self, puzzle: Puzzle) -> tuple[ClusterGraph, int] | None:
        """The kept cluster holding the puzzle's position and its index there, else None."""
        with self._lock:
            graphs = list(self._clusters.get(puzzle.board, ()))
        for graph in graphs:
            index = graph.index_of(puzzle.placement)
            if index is not None:
                return graph, index
        return None

    def _keep(self, board: Board, graph: ClusterGraph) -> None:
        with self._lock:
            self._clusters.setdefault(board, []).append(graph)
            self._clusters.move_to_end(board)
            self._kept_states += graph.states
            while self._kept_states > self._states and len(self._clusters) > 1:
                _, dropped = self._clusters.popitem(last=False)
                self._kept_states -= sum(old.states for old in dropped)

    def _remember_large(self, board: Board, limit: SearchLimit) -> None:
        with self._lock:
            self._large[board] = limit
            while len(self._large) > LARGE_BOARDS:
                self._large.popitem(last=False)


def _again(limit: SearchLimit) -> SearchLimit:
    """The same limit, of the same kind (a TimeLimit ends a hint), as an exception of its own
    for another thread to raise."""
    return type(limit)(limit.limit or limit.what, limit.where)


@dataclass
class _Search:
    """One board's cluster search: one thread searches, the others wait on ``lock``."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    users: int = 0  # hints searching or waiting
    failed: SearchLimit | None = None  # the search stopped at a limit: so do its waiters


BOOK = ClusterBook()


def next_move(puzzle: Puzzle, budget: Budget, book: ClusterBook = BOOK) -> Hint:
    """The next move of an optimal plan from the puzzle's position (its placement). Before
    any search, as the solve policy does: a position static analysis proves unsolvable has no
    hint, at once (a large walled board's cluster would be searched to its limit for it)."""
    found = kept_hint(puzzle, book)
    if found is not None:
        return found
    if blocked_exit(puzzle) is not None:
        return Hint(None, None, STATIC, puzzle=puzzle)
    if len(puzzle.board.targets) == 1:
        try:
            graph, key = book.graph(puzzle, budget)
        except TimeLimit:
            raise  # the time is spent: a search from the position would have none left
        except SearchLimit:
            pass  # a cluster too large to keep: search from the position alone
        else:
            return _from_cluster(puzzle, graph, key)
    found = solving.solve(puzzle, "moves", "bfs", budget)
    if found.limit:
        raise SearchLimit(found.limit, puzzle.name)
    if not found.plan:
        return Hint(None, None, puzzle=puzzle)
    return Hint(found.plan[0], len(found.plan), puzzle=puzzle)


def kept_hint(puzzle: Puzzle, book: ClusterBook = BOOK) -> Hint | None:
    """The hint when it takes no search (the position solved, or in a cluster kept), else
    None: a look-up of microseconds, which a server may answer without a thread."""
    if puzzle.board.is_solved(puzzle.start):
        return Hint(None, 0, puzzle=puzzle)
    found = book.kept(puzzle) if len(puzzle.board.targets) == 1 else None
    return None if found is None else _from_cluster(puzzle, *found)


def _from_cluster(puzzle: Puzzle, graph: ClusterGraph, index: int) -> Hint:
    """The first move of the cluster's way down from state ``index`` (``puzzle``'s)."""
    way = graph.way_down(index)
    if len(way) < 2:  # no way, or a goal already
        return Hint(None, len(way) - 1 if way else None, puzzle=puzzle)
    return Hint(graph.move(way[0], way[1]), len(way) - 1, puzzle=puzzle)
