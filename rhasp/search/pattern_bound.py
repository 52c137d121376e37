"""A*'s pattern bound: the pattern databases of :mod:`rhasp.search.pattern` as the arrays
that A* looks up in its inner loop (:class:`rhasp.search.core.Patterns`,
:func:`rhasp.search.core.pattern_bound`), built only where the search is large enough to pay
for them (:func:`patterned_search`).

**A lower bound.** Each pattern keeps the target and some other vehicles and lifts the rest
off; its fewest moves from a board's projection are at most the real puzzle's fewest moves
from the board (:mod:`rhasp.search.pattern` argues it: a real plan with the lifted vehicles'
moves dropped is a plan of the pattern, and every board A* meets projects into the pattern's
cluster, explored from the start's projection). A projection with no plan means the board has
none (-1: A* drops the board). The largest of several patterns' moves is a lower bound as
well. They are not added: every pattern keeps the target, whose moves each one counts.

**Consistent.** By moves: a real move of a kept vehicle is a legal move of the pattern, so
the pattern's fewest moves change by at most one; a move of a lifted vehicle leaves the
projection as it was. By slides: a move slides at least one cell, so the fewest moves bound
the fewest slides too and change by at most one slide a move. The larger of two consistent
bounds (with :func:`rhasp.search.core.lower_bound`) is consistent. A* (``core.best_first``)
re-queues a state reached more cheaply, so admissible alone would keep its plan optimal;
consistent means it never has to. A key no pattern holds (which the argument above rules out)
would get 0, a bound all the same.

**When it pays.** Choosing and tabulating patterns takes a second or more, where the 40 cards
take a few thousand states each. So A* first runs with its own bound for
:data:`PROBE_STATES` states; a search that ends there (every card, small boards) pays nothing
more. A search that does not is the kind the patterns pay on: they are chosen for a time in
proportion to the probe's (:data:`CHOICE_FACTOR`, within :data:`LEAST_CHOICE` and
:data:`CHOICE_SECONDS`, fewer if the search's seconds run short), and A* starts again with
them; the states it reports are both runs'.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

from rhasp.errors import SearchLimit
from rhasp.limits import Budget, after_earlier
from rhasp.model import Board, Puzzle, State
from rhasp.search import clusters, core
from rhasp.search.geometry import Geometry
from rhasp.search.graph import ClusterGraph
from rhasp.search.pattern import explore_pattern
from rhasp.search.runner import RUNNER, UNLIMITED, run

#: The states A* searches with its own bound before it builds patterns (bench/README.md,
#: "Issue 56: pattern database in A*").
PROBE_STATES = 200_000
#: The most boards a pattern's cluster may have (its table: 16 bytes a board).
PATTERN_BOARDS = 300_000
#: ... and where the cluster search is not compiled (yet): the choice runs greedy, uncompiled.
UNCOMPILED_BOARDS = 10_000
#: How many patterns A* takes the largest of.
PATTERNS = 2
#: The seconds the choice of patterns takes: this many times the probe's, at least
#: :data:`LEAST_CHOICE`, at most :data:`CHOICE_SECONDS` (and a quarter of the seconds left).
CHOICE_FACTOR = 2.0
LEAST_CHOICE = 1.0
CHOICE_SECONDS = 3.0
#: The largest index a pattern's positions may make (int64, with room).
MAX_INDEX = 1 << 62


def astar(
    geometry: Geometry,
    start: int,
    budget: Budget,
    by_slides: bool,
    weight: int = 1,
    patterns: core.Patterns | None = None,
    estimated: bool = False,
) -> tuple[Any, ...]:
    """``core.best_first`` from key ``start`` by the process's runner, with ``patterns``
    (none: its own bound alone): the one form every A* is called in."""
    patterns = core.no_patterns() if patterns is None else patterns
    return run(
        geometry,
        core.best_first,
        start,
        budget=budget,
        by_slides=by_slides,
        patterns=patterns,
        weight=weight,
        estimated=estimated,
    )


def patterned_search(
    geometry: Geometry,
    start: int,
    budget: Budget,
    by_slides: bool,
    weight: int = 1,
    estimated: bool = False,
) -> tuple[Any, ...]:
    """``core.best_first`` from key ``start``, run as the module docstring says: with its own
    bound for :data:`PROBE_STATES`, then, if it has not ended, again with patterns. Its
    answer, the states counted over both runs."""
    began = time.perf_counter()
    probe = replace(budget, states=min(budget.states, PROBE_STATES))
    try:
        return astar(geometry, start, probe, by_slides, weight, estimated=estimated)
    except SearchLimit as stopped:
        if budget.states <= PROBE_STATES or not _out_of_states(stopped):
            raise
        spent = stopped.states or 0
    probed = time.perf_counter() - began
    left = budget.deadline(began) - time.perf_counter()
    seconds = min(CHOICE_SECONDS, max(CHOICE_FACTOR * probed, LEAST_CHOICE), left / 4)
    patterns = patterns_for(geometry, start, seconds, left)
    rest = replace(budget, states=budget.states - spent)
    try:
        goal, found, path = astar(geometry, start, rest, by_slides, weight, patterns, estimated)
    except SearchLimit as stopped:
        raise after_earlier(stopped, spent) from None
    return goal, found + spent, path


def _out_of_states(stopped: SearchLimit) -> bool:
    return stopped.limit is not None and stopped.limit.ran_out == "states"


def patterns_for(
    geometry: Geometry, start: int, seconds: float, seconds_left: float = math.inf
) -> core.Patterns:
    """Up to :data:`PATTERNS` patterns for the board of ``geometry`` from key ``start``,
    chosen within ``seconds`` (none: :func:`core.no_patterns <rhasp.search.core.no_patterns>`),
    by the compiled cluster search where it is loaded, or cached and the search has
    ``seconds_left`` for the load (:meth:`rhasp.search.runner.Runner.warm_up`)."""
    board, state = geometry.board, geometry.state(start)
    if len(board.targets) != 1 or None in state:  # a target gone: nothing left to bound
        return core.no_patterns()
    compiled = _cluster_search_loaded(board, state, seconds_left)
    most = PATTERN_BOARDS if compiled else UNCOMPILED_BOARDS
    deadline = time.perf_counter() + max(seconds, 0.0)
    chosen = []
    for order in _by_need(board, state)[:PATTERNS]:
        found = _grown(board, state, order, most, deadline)
        if found is not None:
            chosen.append(found)
    tables = [_table(geometry, keep, graph) for keep, graph in chosen]
    return as_arrays([t for t in tables if t is not None])


def _grown(
    board: Board, state: State, order: list[int], most: int, deadline: float
) -> tuple[tuple[int, ...], ClusterGraph] | None:
    """The longest start of ``order`` (the target first) kept as a pattern whose cluster
    has at most ``most`` boards, grown one vehicle at a time until then or ``deadline``;
    None with no other vehicle."""
    best = None
    for count in range(2, len(order)):  # never every vehicle: that would be a search
        if time.perf_counter() >= deadline:
            break
        keep = tuple(sorted(order[:count]))
        found = explore_pattern(board, state, keep, most)
        if found is None:
            break
        best = keep, found
    return best


def _by_need(board: Board, state: State) -> list[list[int]]:
    """The vehicles in the order a pattern takes them: the target, then those on its way
    out, then those on the way each of those takes off the way before it (the nearer side
    first), and so on; the vehicles never met last. Two orders: the second takes each
    vehicle's farther side first, for a second pattern."""
    return [_needed_order(board, state, nearer) for nearer in (True, False)]


def _needed_order(board: Board, state: State, nearer: bool) -> list[int]:
    target = board.index(board.targets[0])
    occupant = {cell: i for i, p in enumerate(state) for cell in board.cells_at(i, p)}
    order, queue = [target], [(target, _way_out(board, state, target))]
    while queue:
        vehicle, avoid = queue.pop(0)
        for cells in _ways_off(board, state, vehicle, avoid, nearer):
            for cell in cells:
                other = occupant.get(cell)
                if other is not None and other not in order:
                    order.append(other)
                    queue.append((other, cells))
    return order + [i for i in range(len(board.vehicles)) if i not in order]


def _way_out(board: Board, state: State, target: int) -> set:
    """The cells the target crosses to its exit edge."""
    vehicle, p = board.vehicles[target], state[target]
    last = board.line_length(vehicle) - vehicle.length
    exit_at = 0 if board.exit_side(vehicle.label) in ("left", "top") else last
    step = 1 if exit_at >= p else -1
    return {c for q in range(p, exit_at + step, step) for c in board.cells_at(target, q)}


def _ways_off(board: Board, state: State, i: int, avoid: set, nearer: bool) -> list[set]:
    """The cells vehicle ``i`` crosses to its nearest position off ``avoid`` (the target:
    its way out), each way along its line where there is one; the nearer way first (or
    the farther, without ``nearer``)."""
    if i == board.index(board.targets[0]):
        return [avoid]
    vehicle, p = board.vehicles[i], state[i]
    last = board.line_length(vehicle) - vehicle.length
    walls = set(board.walls)
    ways = []
    for step in (-1, 1):
        crossed: set = set()
        q = p
        while 0 <= q <= last:
            cells = set(board.cells_at(i, q))
            if cells & walls:
                break  # no way past a wall
            crossed |= cells
            if not cells & avoid:
                ways.append((abs(q - p), crossed - set(board.cells_at(i, p))))
                break
            q += step
    ways.sort(key=lambda way: way[0], reverse=not nearer)
    return [cells for _, cells in ways]


def _cluster_search_loaded(board: Board, state: State, seconds_left: float) -> bool:
    """Have the compiled cluster search come for the patterns' boards (the board with one
    vehicle: keys of one word, the board's cells), and say whether it is loaded: cached, it
    loads in a few tenths of a second where the search has ``seconds_left`` for it; else it
    is compiled in the background meanwhile."""
    target = board.targets[0]
    alone = Puzzle(board, state).without([v.label for v in board.vehicles if v.label != target])
    geometry = Geometry.of(alone.board, targets_leave=False)
    key = geometry.key(alone.placement)
    return RUNNER.warm_up(
        clusters.cluster,
        geometry.tables,
        key,
        UNLIMITED,
        seconds_left=seconds_left,
        by_slides=False,
    )


def _table(geometry: Geometry, keep: tuple[int, ...], graph: ClusterGraph) -> tuple | None:
    """One pattern's part of :class:`core.Patterns`: the kept vehicles' fields (shift and
    mask) and their radices, its indices sorted and their moves; None if its indices would
    not fit an int64.

    The index is made of the kept vehicles' fields in the real keys, as A* reads them: on
    packed keys, positions less their range's first (:attr:`Geometry.low`). Boards that
    put a kept vehicle outside its range are left out: A* never looks them up, since the
    real states it meets project onto boards within the ranges (they hold in every state
    reachable from the start, which the pattern's start is the projection of)."""
    import numpy as np  # only where patterns are built: its import costs a tenth of a second

    real = geometry.tables
    radix, product = [], 1
    for v in keep:
        radix.append(product)
        product *= real.last[v] + 1
    if product > MAX_INDEX:
        return None
    low = np.asarray([geometry.low[v] for v in keep], dtype=np.int64)
    last = np.asarray([real.last[v] for v in keep], dtype=np.int64)
    values = graph.positions() - low  # one column per vehicle kept, one row per board
    inside = np.all((values >= 0) & (values <= last), axis=1)
    index = values[inside] @ np.asarray(radix, dtype=np.int64)
    order = np.argsort(index, kind="stable")
    moves = np.asarray(graph.distance, dtype=np.int64)[inside][order]
    fields = [(real.shift[v], real.ones[v]) for v in keep]
    return fields, radix, index[order], moves


def as_arrays(tables: list[tuple]) -> core.Patterns:
    """Patterns' parts (:func:`_table`) in one :class:`core.Patterns`, of int64 arrays: the
    form every compiled call of ``core.best_first`` takes, so that one compiled code serves
    A* with patterns and without (none: no pattern at all)."""
    import numpy as np

    first, base = [0], [0]
    for fields, _, index, _ in tables:
        first.append(first[-1] + len(fields))
        base.append(base[-1] + len(index))

    def int64(values: list) -> Any:
        return np.asarray(values, dtype=np.int64)

    return core.Patterns(
        int64(first),
        int64([shift for t in tables for shift, _ in t[0]]),
        int64([ones for t in tables for _, ones in t[0]]),
        int64([r for t in tables for r in t[1]]),
        int64(base),
        np.concatenate([np.zeros(0, np.int64), *(t[2] for t in tables)]).astype(np.int64),
        np.concatenate([np.zeros(0, np.int64), *(t[3] for t in tables)]).astype(np.int64),
    )
