"""The search core behind one face: boards as bit masks, searched compiled where it pays.

Everything outside this package asks the core through the names here, never through its
modules or its tables:

- plans: :func:`fewest_moves` (BFS), :func:`fewest_slides` (Dijkstra over whole moves),
  :func:`best_first` (A*);
- clusters: :func:`cluster_size`, :func:`solve_and_count`, :func:`explore_cluster` (the whole
  cluster as a :class:`ClusterGraph`, with distances, its hardest state and a way down), and
  :func:`all_moves_graph`;
- the enumeration's shards: :func:`prepare_shards` and :func:`enumerate_shard`, on the
  :class:`Lines` and :class:`ShardLimits` the enumeration builds;
- the lower bound of A* as a table on the core's keys, for the ASP engine's state memo:
  :class:`BoundTable`;
- the compiled code: :func:`prefer_compiled` (switch now, for large work),
  :func:`when_compiling` (who is told when a compile starts), :func:`settle` (before forking),
  :func:`stop_serving` (the background compile ended, for a command told to end).

Inside, each search builds the board's :class:`~rhasp.search.geometry.Geometry` (its tables
and the one key codec), runs a function of :mod:`rhasp.search.core` (or of
:mod:`~rhasp.search.clusters`, :mod:`~rhasp.search.shards`) through the one runner
(:data:`rhasp.search.runner.RUNNER`, which decides whether it runs compiled by
:mod:`~rhasp.search.jit` or as :mod:`~rhasp.search.uncompiled` Python, and bounds, watches
and interrupts it), and reads the answer back as plans, counts or states.

The readable model in :mod:`rhasp.model` stays the reference: tests check that the core finds
the same plans and counts on every kind of board, compiled and not.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence

from rhasp.limits import Budget
from rhasp.model import Board, Piece, Plan, Puzzle, State, TargetSpec, build_puzzle
from rhasp.search import clusters, core, shards
from rhasp.search.aside import PatternAside, PatternThread
from rhasp.search.bound_table import BoundTable
from rhasp.search.cache import stop_serving
from rhasp.search.geometry import WORD_BITS, Geometry
from rhasp.search.graph import ClusterGraph, all_moves_graph, explore_cluster
from rhasp.search.pattern import PatternTable
from rhasp.search.pattern_bound import astar, patterned_search
from rhasp.search.runner import RUNNER, UNLIMITED, run
from rhasp.search.shards import (
    EMPTY_CELL,
    FIRST_LETTER,
    HORIZONTAL,
    LAYOUTS,
    LEAST,
    SOLVABLE,
    VERTICAL,
    WALL,
    WALL_CELL,
    Lines,
    ShardLimits,
)
from rhasp.search.store import MOST_STATES
from rhasp.search.watched import Handle

#: numba highlights its messages with colorama, whose init and deinit swap ``sys.stdout`` and
#: ``sys.stderr`` from whichever thread compiles or loads: here a loading thread, whose swap
#: would undo the main thread's own (a notebook's ``redirect_stdout``, a test's captured
#: output). Set before numba is imported (its errors module reads it then), here, where
#: every import of the compiled core passes first.
os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")

__all__ = [
    "EMPTY_CELL",
    "FIRST_LETTER",
    "HORIZONTAL",
    "LAYOUTS",
    "LEAST",
    "MOST_STATES",
    "SOLVABLE",
    "VERTICAL",
    "WALL",
    "WALL_CELL",
    "BoundTable",
    "ClusterGraph",
    "Handle",
    "Lines",
    "PatternAside",
    "PatternTable",
    "PatternThread",
    "ShardLimits",
    "all_moves_graph",
    "best_first",
    "cluster_size",
    "enumerate_shard",
    "explore_cluster",
    "fewest_moves",
    "fewest_slides",
    "prefer_compiled",
    "prepare_shards",
    "settle",
    "solve_and_count",
    "start_bound",
    "stop_serving",
    "switch_now",
    "when_compiling",
]


def when_compiling(tell: Callable[[], None] | None) -> None:
    """Have ``tell()`` called once, from another thread, when this process starts compiling
    (:attr:`Runner.on_compiling <rhasp.search.runner.Runner.on_compiling>`); None: no one."""
    RUNNER.on_compiling = tell


def switch_now() -> None:
    """Have the searches to come run compiled as soon as their code can be loaded beside them
    (:meth:`Runner.switch_now <rhasp.search.runner.Runner.switch_now>`), numba loaded by the
    first of them: for work known to be large that must not wait for the load either."""
    RUNNER.switch_now()


def settle() -> None:
    """Before workers are forked: wait for the compiled code this process is loading in a
    thread, so that no worker starts with numba's lock held (:meth:`Runner.settle
    <rhasp.search.runner.Runner.settle>`)."""
    RUNNER.settle()


def prepare_shards(lines: Lines) -> None:
    """Have the compiled shard loop for ``lines``' board loaded (where it may be compiled):
    the enumeration is large work, worth numba from the start."""
    nothing = ShardLimits(1, 0, 0, 0, 1, 1)  # no layout fits: only the code is loaded
    RUNNER.warm_up(shards.enumerate_shard, lines, [lines.line_first[0]], nothing)


def enumerate_shard(
    lines: Lines, prefix: Sequence[int], limits: ShardLimits, where: str
) -> tuple[Sequence[int], Sequence[int]]:
    """The layouts of one shard (:func:`rhasp.search.shards.enumerate_shard`): its tallies
    (indexed by :data:`LAYOUTS`, :data:`LEAST`, :data:`SOLVABLE`) and the puzzles found, as
    the core writes them. The limits hold the states a cluster may have; a larger one is a
    :class:`~rhasp.errors.SearchLimit` "in one cluster of ``where``". Ctrl-C stops it at once.
    """
    _, tallies, found = RUNNER.call(
        shards.enumerate_shard,
        lines,
        list(prefix),
        limits,
        budget=Budget(min(limits.max_states, UNLIMITED)),  # what a limit says it allowed
        reached=lambda _: f"in one cluster of {where}",
        threaded=True,
    )
    return tallies, found


def prefer_compiled(sides: Iterable[int] = ()) -> bool:
    """Switch this process to the compiled core now, for work known to be large (a deck, a
    generation run, a server), and have its code come for boards of up to 63 cells and for
    the usual shapes of square boards of ``sides`` (keys of one or two words: what a server's
    page generates): loaded now if cached, so that worker processes forked afterwards start
    with it, else compiled in the background, the smallest boards' first
    (:meth:`Runner.warm_up`). False if it is not all loaded (yet)."""
    # 4×4 stands for every board of up to 63 cells whose key takes one word.
    puzzles = [p for side in (4, *sides) for p in _puzzles_shaped_like(side)]
    loaded = []
    for puzzle in puzzles:
        for targets_leave in (True, False):
            geometry = Geometry.of(puzzle.board, targets_leave=targets_leave)
            key = geometry.key(puzzle.placement)
            for search, flags in WARM_UP:
                if search is core.best_first:  # the one form A* is called in
                    flags = {**flags, "patterns": core.no_patterns()}
                loaded.append(RUNNER.warm_up(search, geometry.tables, key, UNLIMITED, **flags))
    return all(loaded)


#: Each compiled search and the flags it is called with, to load their code before forking.
WARM_UP = (
    (core.breadth_first, {"stop_at_goal": True, "with_links": True}),
    (clusters.cluster, {"by_slides": False}),
    (clusters.reach, {}),
    (core.cheapest, {}),
    # Weighted or not, estimated or not: one signature, every flag passed as A* passes it
    # (pattern_bound.astar; a flag left out is another signature, compiled at the first A*).
    (core.best_first, {"by_slides": False, "weight": 1, "estimated": False}),
)


def _puzzles_shaped_like(side: int) -> list[Puzzle]:
    """Puzzles whose tables take the shapes of ``side``×``side`` boards with keys of one and
    of two words (where that many vehicles fit), each of a state or a few: rows filled from
    the bottom (so that the cells take all their words), a truck first where the side is odd
    (so that no full row moves)."""
    pieces = []
    for row in reversed(range(side)):
        col = 0
        while col < side:
            length = 3 if col == 0 and side % 2 else 2
            pieces.append((row, col, length))
            col += length
    pieces = pieces[: len(WARM_UP_LABELS)]

    def puzzle(count: int) -> Puzzle:
        labels = zip(WARM_UP_LABELS, pieces[:count], strict=False)
        vehicles = [Piece(label, "h", r, c, n) for label, (r, c, n) in labels]
        return build_puzzle(side, side, vehicles, [], [TargetSpec("A")], where="", name="")

    per_word = WORD_BITS // Geometry.of(puzzle(len(pieces)).board).bits  # the cars' fields
    return [puzzle(1)] + ([puzzle(per_word + 1)] if per_word < len(pieces) else [])


#: Labels enough for the warm-up's boards: a vehicle's label is one letter or digit, not ``o``.
WARM_UP_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnpqrstuvwxyz0123456789"


def fewest_moves(board: Board, start: State, budget: Budget) -> tuple[Plan | None, int]:
    """Breadth-first search: a plan with the fewest moves and the number of states reached."""
    geometry = Geometry.searching(board, start)
    key = geometry.key(start)
    goal, found, path = run(
        geometry, core.breadth_first, key, budget=budget, stop_at_goal=True, with_links=True
    )
    return (geometry.plan(path) if goal >= 0 else None), found


def fewest_slides(board: Board, start: State, budget: Budget) -> tuple[Plan | None, int]:
    """Dijkstra over whole moves, cost (slides, moves): fewest slides, then fewest moves."""
    geometry = Geometry.searching(board, start)
    goal, found, path = run(geometry, core.cheapest, geometry.key(start), budget=budget)
    return (geometry.plan(path) if goal >= 0 else None), found


def best_first(
    board: Board,
    start: State,
    objective: str,
    budget: Budget,
    weight: int = 1,
    *,
    patterned: bool = False,
    estimated: bool = False,
) -> tuple[Plan | None, int]:
    """A*: a plan with the fewest moves (or slides, then moves), found by expanding only the
    states whose cost so far plus a lower bound on the rest (:func:`core.lower_bound`) can
    still beat the best plan; and the number of states reached. ``patterned``: with pattern
    databases too, where the search is large enough to pay for them
    (:func:`rhasp.search.pattern_bound.patterned_search`). With ``weight`` above 1, weighted
    A*: a plan at most ``weight`` times the fewest, not proven minimal. ``estimated``: the
    bound raised to an estimate where that is larger (:func:`core.estimate`), for *a* plan
    where even weighted A* finds none: of no stated length."""
    geometry = Geometry.searching(board, start)
    key, by_slides = geometry.key(start), objective == "slides"
    find = patterned_search if patterned else astar
    goal, found, path = find(geometry, key, budget, by_slides, weight, estimated=estimated)
    return (geometry.plan(path) if goal >= 0 else None), found


def start_bound(board: Board, start: State, objective: str) -> int:
    """At least this many moves (or slides) take the targets out from ``start``: A*'s bound
    there (:func:`core.lower_bound`); -1 when no plan is left."""
    geometry = Geometry.of(board)
    g = geometry.tables
    return core.lower_bound(g, core.target_vehicles(g), geometry.key(start), objective == "slides")


def cluster_size(board: Board, placement: State, budget: Budget) -> int:
    """The number of states in the placement's cluster (targets stay on the board, as puzzle
    databases count; see :mod:`rhasp.search.clusters`), counted without keeping a state's
    link to the one it came from, nor its moves."""
    geometry = Geometry.of(board, targets_leave=False)
    key = geometry.key(placement)
    flags = {"stop_at_goal": False, "with_links": False}
    return run(geometry, core.breadth_first, key, budget=budget, **flags)[1]


def solve_and_count(board: Board, placement: State, budget: Budget) -> tuple[Plan | None, int, int]:
    """Fewest moves and the cluster size from one exploration (one target only).

    In the cluster's graph the target stays on the board, so the first state found with the
    target at its exit edge ends a shortest plan: its last move reaches the edge, where the
    target would leave. Returns the plan (None if there is none), the states found up to it,
    and the cluster size.
    """
    if len(board.targets) != 1:
        raise ValueError("defined here for one target")
    geometry = Geometry.of(board, targets_leave=False)
    key = geometry.key(placement)
    goal, size, path = run(
        geometry, core.breadth_first, key, budget=budget, stop_at_goal=False, with_links=True
    )
    if goal < 0:
        return None, size, size
    return geometry.plan(path), goal + 1, size
