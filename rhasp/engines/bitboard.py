"""The fast searches: boards as bit masks, on the one search core, compiled where it pays.

Each search here builds the board's :class:`~rhasp.engines.geometry.Geometry`, runs a
function of :mod:`rhasp.engines.core` through the runner (:data:`rhasp.engines.runner.RUNNER`,
which decides whether it runs compiled, and bounds, watches and interrupts it), and reads the
answer back as plans, counts or keys.

The readable model in :mod:`rhasp.model` stays the reference: tests check that the core finds
the same plans and counts on every kind of board, compiled and not.
"""

from __future__ import annotations

from rhasp.engines import clusters, core
from rhasp.engines.geometry import Geometry
from rhasp.engines.limits import Budget
from rhasp.engines.runner import RUNNER, UNLIMITED, run
from rhasp.model import Board, Piece, Plan, Puzzle, State, TargetSpec, build_puzzle


def prefer_compiled() -> bool:
    """Switch this process to the compiled core now, for work known to be large (a deck, a
    generation run), and have its code for boards of up to 63 cells come: loaded now if
    cached, so that worker processes forked afterwards start with it, else compiled in the
    background (:meth:`Runner.warm_up`). False if it is not loaded (yet)."""
    puzzle = _tiny_puzzle()
    loaded = []
    for targets_leave in (True, False):
        geometry = Geometry.of(puzzle.board, targets_leave=targets_leave)
        key = geometry.key(puzzle.placement)
        for search, flags in WARM_UP:
            loaded.append(RUNNER.warm_up(search, geometry.tables, key, UNLIMITED, **flags))
    return all(loaded)


#: Each compiled search and the flags it is called with, to load their code before forking.
WARM_UP = (
    (core.breadth_first, {"stop_at_goal": True, "with_links": True}),
    (clusters.cluster, {}),
    (core.cheapest, {}),
    (core.best_first, {"by_slides": False}),
)


def _tiny_puzzle() -> Puzzle:
    return build_puzzle(4, 4, [Piece("A", "h", 1, 0, 2)], [], [TargetSpec("A")], where="", name="")


def fewest_moves(
    board: Board, start: State, budget: Budget | None = None
) -> tuple[Plan | None, int]:
    """Breadth-first search: a plan with the fewest moves and the number of states reached."""
    geometry = Geometry.of(board)
    key = geometry.key(start)
    goal, found, path = run(
        geometry, core.breadth_first, key, budget=budget, stop_at_goal=True, with_links=True
    )
    return (geometry.plan(path) if goal >= 0 else None), found


def fewest_slides(
    board: Board, start: State, budget: Budget | None = None
) -> tuple[Plan | None, int]:
    """Dijkstra over whole moves, cost (slides, moves): fewest slides, then fewest moves."""
    geometry = Geometry.of(board)
    goal, found, path = run(geometry, core.cheapest, geometry.key(start), budget=budget)
    return (geometry.plan(path) if goal >= 0 else None), found


def best_first(
    board: Board, start: State, objective: str, budget: Budget | None = None
) -> tuple[Plan | None, int]:
    """A*: a plan with the fewest moves (or slides, then moves), found by expanding only the
    states whose cost so far plus a lower bound on the rest (:func:`core.lower_bound`) can
    still beat the best plan; and the number of states reached."""
    geometry = Geometry.of(board)
    goal, found, path = run(
        geometry,
        core.best_first,
        geometry.key(start),
        budget=budget,
        by_slides=objective == "slides",
    )
    return (geometry.plan(path) if goal >= 0 else None), found


def cluster_size(board: Board, placement: State, budget: Budget | None = None) -> int:
    """The number of states in the placement's cluster (targets stay on the board, as puzzle
    databases count; see :mod:`rhasp.engines.clusters`), counted without keeping a state's
    link to the one it came from, nor its moves."""
    geometry = Geometry.of(board, targets_leave=False)
    key = geometry.key(placement)
    flags = {"stop_at_goal": False, "with_links": False}
    return run(geometry, core.breadth_first, key, budget=budget, **flags)[1]


def solve_and_count(
    board: Board, placement: State, budget: Budget | None = None
) -> tuple[Plan | None, int, int]:
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
