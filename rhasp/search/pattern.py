"""A pattern database: the fewest moves (or slides) of the puzzle played with some of its
vehicles only.

Take the puzzle, keep its target and some other vehicles, and lift the rest off the board:
that smaller puzzle (the *pattern*) has few enough boards to be solved whole, from every
board of its cluster, before the ASP search starts. Its fewest moves are a lower bound on
the real puzzle's, board by board, and so are its fewest slides (the argument the ASP
engine's pruning rests on, by moves and by slides alike):

* Any plan of the real puzzle, with the moves of the vehicles lifted off dropped, is a plan
  of the pattern. Each move kept is still legal: the cells it crosses were free of every
  vehicle, so they are free of the fewer vehicles left; walls stay. The target still reaches
  its exit edge, since its own moves are all kept.
* Dropping moves never adds one, so the pattern's plan has at most as many moves as the real
  one, and the pattern's fewest moves from the board's projection is at most the real
  puzzle's from the board. Each move kept slides its vehicle as many cells as before, so
  the same holds of slides: the pattern's plan slides at most as many cells, and its fewest
  slides are at most the real puzzle's. A projection with no plan of its own means no real
  plan either.
* Every board the ASP search meets is reached from the start by legal moves, so its
  projection is reached from the start's projection by the same moves, dropped where they
  move a vehicle lifted off: it lies in the pattern's cluster, explored from there.

A vehicle a cell shorter is a relaxation too, and keeps more of the puzzle than its lift:
the vehicle keeps its first cells and gives up its last, its positions numbered as before
(:func:`_pattern`), so at each position it covers some of the cells it covered. Another
vehicle's move crosses no cell it covers that the real one did not cover. Its own move needs
free only cells that the real vehicle either stood on itself or crossed: sliding back, the
same cells as before; sliding forward from ``p`` to ``q``, the cells from its last cell's,
``p + L - 1``, where the real vehicle stood, to ``q + L - 2``, which it crossed. So every real
plan is a plan of the shorter puzzle, with the same moves and slides, and the shorter
puzzle's fewest from a board are at most the real puzzle's. Its cluster holds the real
boards and more (the shorter vehicle may stand a cell further on); the table keeps only the
boards whose shorter vehicle stands where the real one can, the only ones a real key looks up.

Which vehicles to keep is chosen from patterns alone, never from the real cluster: one
vehicle at a time, keeping those that make the start's projection farthest from the goal
(:meth:`PatternTable.of`), while the pattern's cluster stays within :data:`MAX_BOARDS` and at
least one vehicle stays off (with every vehicle, the table would be the real puzzle's
distances: a breadth-first search, not a bound). The table is the
core's cluster search (:func:`rhasp.search.explore_cluster`) on the pattern's board. Besides
the one chosen, the memo takes the patterns that lift one vehicle each
(:meth:`PatternTable.collection`): the largest of several bounds is one. The same argument
holds between two patterns, one keeping the other's vehicles and more: the one of more
vehicles bounds each board no less, so the choice keeps every vehicle whose lift is taken.

For one target (the cluster's distances are defined for one). The vehicles are chosen by
the pattern's fewest moves, by slides too (a few hundred patterns are tried, and the fewest
moves come with each cluster, where slides would cost a search more each); the table then
holds the chosen pattern's fewest slides (:func:`rhasp.search.clusters.goal_slides`, compiled
with the cluster search). The memo prunes by the largest of these and
:meth:`BoundTable.must_move <rhasp.search.BoundTable.must_move>` by moves, of these and
:meth:`BoundTable.core_bound <rhasp.search.BoundTable.core_bound>` by slides. The idea is
Culberson and Schaeffer's (1998), for the fifteen puzzle; taking the largest of several,
Holte, Felner, Newton, Meshulam and Furcy's (2004).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from rhasp.errors import SearchLimit
from rhasp.limits import Budget
from rhasp.model import Board, Puzzle, State
from rhasp.search import clusters
from rhasp.search.geometry import Geometry, key_words
from rhasp.search.graph import ClusterGraph, explore_cluster
from rhasp.search.runner import RUNNER, UNLIMITED, run

#: The most boards a pattern's cluster may have: the table is built before the search starts,
#: in the time of a breadth-first search of that many boards (bench/README.md, "Later still: a
#: pattern database"), and held as a dictionary.
MAX_BOARDS = 10_000
#: How many times as many boards a pattern that keeps every vehicle, one a cell shorter, may
#: have: it has at least the real cluster's (bench/README.md, "Issue 57: patterns with a
#: vehicle a cell shorter").
SHORT_SCALE = 5
#: How many of those the collection takes at most: the ones that put the start farthest from
#: the goal, and farther than every other pattern does.
SHORT_KEPT = 2
#: How many patterns each round of the choice keeps.
BEAM = 3
#: The compiled searches the choice runs, with the flags they take: every pattern it tries
#: reached, the chosen one explored whole for its table (by moves or by slides: a flag's value
#: is no other code).
CHOICE_SEARCHES = ((clusters.reach, {}), (clusters.cluster, {"by_slides": False}))
#: A pattern's ``short`` where it shortens no vehicle.
NO_SHORT = -1
#: How long the choice may take, in seconds, besides loading the compiled core: then it keeps
#: the best pattern found so far.
SECONDS = 1.0


@dataclass(frozen=True)
class PatternTable:
    """The pattern's fewest moves (or slides, ``by_slides``), looked up by the real puzzle's
    keys: ``fewest[key & mask]`` (the fields of the vehicles kept, as the real key holds
    them)."""

    keep: tuple[int, ...]  # the vehicles kept, by their index on the real board
    mask: int  # the kept vehicles' fields in a real key
    fewest: dict[int, int]  # the kept fields of a real key -> the pattern's fewest (-1: none)
    gone: int  # a target's field once it has left (a real key's)
    target_shift: int  # where the target's field starts in a real key
    by_slides: bool = False  # fewest slides, else fewest moves
    #: The vehicle kept a cell shorter (:func:`_pattern`), :data:`NO_SHORT` for none.
    short: int = NO_SHORT

    @staticmethod
    def costs_no_load(board: Board) -> bool:
        """Whether choosing a pattern for ``board`` now would load nothing: the compiled
        cluster search for its boards (the board's cells, keys of one word) is already loaded
        in this process. Asks only; loads nothing."""
        tables = _choice_geometry(board).tables
        return all(RUNNER.is_loaded(search, tables) for search, _ in CHOICE_SEARCHES)

    @classmethod
    def of(cls, board: Board, start: State, **choice: Any) -> PatternTable | None:
        """The pattern chosen for ``board`` from its ``start`` (a placement): the first of
        :meth:`collection` (``choice`` its arguments), None where it has none."""
        return next(cls.collection(board, start, **choice), None)

    @classmethod
    def collection(
        cls,
        board: Board,
        start: State,
        max_boards: int | None = None,
        seconds: float | None = None,
        by_slides: bool = False,
        seconds_left: float = math.inf,
        stop: Callable[[], bool] = lambda: False,
    ) -> Iterator[PatternTable]:
        """The patterns the memo bounds by, each as it is built, their tables by slides with
        ``by_slides`` (chosen by moves all the same: module docstring): where the cluster
        searches come compiled, every pattern that lifts one vehicle only and the pattern
        chosen: the lift that puts the start farthest from the goal first, as soon as the
        lifts are reached, then the choice where it puts the start farther still (a beam
        search, up to a few tenths of a second: the lift's bound serves meanwhile); then, of the
        patterns that keep every vehicle, one of them a cell shorter (within
        :data:`SHORT_SCALE` times ``max_boards``), at most :data:`SHORT_KEPT` that put the
        start farther than all of those; then the rest, the start farthest first. Where the
        searches are not compiled, the pattern chosen alone. None at all where there is none
        to choose: more than one target, or no pattern of at least one other vehicle within
        ``max_boards``. Each is a lower bound, so the largest of them is one too
        (:meth:`BoundTable.with_pattern <rhasp.search.BoundTable.with_pattern>`).

        The choice is a beam search over the vehicles kept: from the target and every vehicle
        whose own lift is within ``max_boards`` (a pattern without such a vehicle is bounded
        by its lift on every board: the lift keeps more vehicles, and a pattern of more
        vehicles bounds no less, by the argument of the module docstring applied between the
        two patterns), each
        round adds one vehicle to each of the :data:`BEAM` best patterns so far and keeps
        the best of those, best meaning the start farthest from the goal, then the fewer
        boards (room for more vehicles); each pattern tried is only reached
        (:func:`reach_pattern`), the chosen one explored whole for its table. A single best
        pattern a round (greedy) stalls where no one vehicle moves the start farther but two
        would; the beam gets past most such places (bench/README.md, "Later still: a pattern
        database"). Where the core is not compiled (yet), the choice is greedy: the beam
        would not get far within the time, nor would the patterns that lift a vehicle.

        Why the lifts: the choice grows one pattern from the target, a vehicle at a
        time, and the vehicles it never reaches count for nothing; each pattern that lifts a
        single vehicle counts all the others, and the one whose lifted vehicle matters least
        on a board bounds that board best (bench/README.md, "Issue 57: the patterns that
        lift one vehicle"). Nothing comes from a search of the puzzle itself: every pattern
        lifts a vehicle off or keeps one a cell shorter (a table of the whole puzzle would be
        a breadth-first search, not a bound).

        After :data:`SECONDS` (or ``seconds``, if fewer: the share of a search's deadline it
        may take) the lifts and the choice stop with what they have, and the tables are built
        within what is left of that time, the first one whatever is left: a weaker bound on a
        slow machine or where the core is not compiled yet, never another answer; where the
        memo builds them in the search's own thread, they take no more of its time than the
        choice alone took before. The best of the lifts and the choice comes before any
        shorter vehicle is tried: it comes soonest, and on most boards bounds nearly as well
        (bench/README.md, "Issue 57: patterns with a vehicle a cell shorter"). Cached
        compiled code is loaded only where the search has ``seconds_left`` for it, as for A*'s
        patterns (:meth:`rhasp.search.runner.Runner.warm_up`). Once ``stop()`` says so (the search
        that wanted the patterns has ended), it stops at once.
        """
        if len(board.targets) != 1 or None in start:
            return
        max_boards = MAX_BOARDS if max_boards is None else max_boards
        compiled = _compiled(board, start, seconds_left)
        deadline = time.perf_counter() + min(SECONDS, math.inf if seconds is None else seconds)
        lifts = _lifts(board, start, max_boards, deadline, stop) if compiled else []
        built = False  # a table is built: the first is built whatever the time, the rest in it
        if lifts and not stop():  # the best lift at once
            table = cls.kept(board, start, lifts[0][1], by_slides, max_boards)
            if table is not None:
                built = True
                yield table
        # A pattern that lifts off a vehicle whose own lift is among these is bounded by that
        # lift, board by board (module docstring: fewer vehicles, a bound no larger), so the
        # choice grows only patterns that keep every such vehicle.
        every = range(len(board.vehicles))
        base = {board.index(board.targets[0])}
        base.update(vehicle for _, keep in lifts for vehicle in every if vehicle not in keep)
        width = BEAM if compiled else 1
        chosen = _chosen(board, start, tuple(sorted(base)), max_boards, width, deadline, stop)
        plain = sorted({*lifts, *([chosen] if chosen else [])}, reverse=True)
        best_chosen = bool(plain) and plain[0] not in lifts[:1]  # the choice beats every lift
        in_time = not built or time.perf_counter() < deadline
        if best_chosen and in_time and not stop():
            table = cls.kept(board, start, plain[0][1], by_slides, max_boards)
            if table is not None:
                built = True
                yield table
        taken = {plain[0], *lifts[:1]} if plain else set()
        most_short = SHORT_SCALE * max_boards
        shortened = _shortened(board, start, most_short, deadline, stop) if compiled else []
        best = plain[0][0] if plain else None
        shortened = sorted(p for p in shortened if best is None or p[0] > best)[-SHORT_KEPT:]
        others = (pattern for pattern in plain if pattern not in taken)
        rest = sorted({*((s, k, NO_SHORT) for s, k in others), *shortened}, reverse=True)
        for _, keep, short in rest:
            if stop() or (time.perf_counter() >= deadline and built):
                return
            most = max_boards if short == NO_SHORT else most_short
            table = cls.kept(board, start, keep, by_slides, most, short)
            if table is not None:
                built = True
                yield table

    @classmethod
    def kept(
        cls,
        board: Board,
        start: State,
        keep: tuple[int, ...],
        by_slides: bool = False,
        max_boards: int = MAX_BOARDS,
        short: int = NO_SHORT,
    ) -> PatternTable | None:
        """The table of the pattern that keeps the vehicles ``keep`` (the target among them),
        None if its cluster has more than ``max_boards`` boards."""
        keep = tuple(sorted(keep))
        found = explore_pattern(board, start, keep, max_boards, by_slides, short)
        return None if found is None else cls._table(board, keep, found, by_slides, short)

    @classmethod
    def _table(
        cls,
        board: Board,
        keep: tuple[int, ...],
        graph: ClusterGraph,
        by_slides: bool,
        short: int = NO_SHORT,
    ) -> PatternTable:
        target = board.index(board.targets[0])
        real = Geometry.of(board).tables
        shift, gone = real.shift, real.gone
        distance = graph.slide_distance if by_slides else graph.distance
        # The pattern's vehicles are the kept ones, in order: each position of a pattern's
        # board goes to its vehicle's field of a real key (no target leaves a cluster; a
        # real key's field is its position, Geometry.of packs no key here).
        import numpy as np  # only where tables are built: its import costs a tenth of a second

        to = [shift[v] for v in keep]
        positions = graph.positions()
        distances = np.asarray(distance)
        if short != NO_SHORT:  # only where the real vehicle can stand: no real key is elsewhere
            vehicle = board.vehicles[short]
            at = positions[:, keep.index(short)] <= board.line_length(vehicle) - vehicle.length
            positions, distances = positions[at], distances[at]
        if key_words(real) == 1:  # in numpy's arrays: see ClusterGraph.positions
            keys = np.bitwise_or.reduce(positions << np.asarray(to, dtype=np.int64), axis=1)
            keys = keys.tolist()
        else:
            keys = [sum(p << t for p, t in zip(row, to, strict=True)) for row in positions.tolist()]
        fewest = dict(zip(keys, distances.tolist(), strict=True))
        mask = sum(gone << shift[v] for v in keep)
        return cls(keep, mask, fewest, gone, shift[target], by_slides, short)

    @property
    def most(self) -> int:
        """The largest bound the table gives."""
        return max(self.fewest.values(), default=0)

    def bound(self, key: int) -> int:
        """The pattern's fewest moves (or slides) from the real board ``key``: 0 once the
        target has left, -1 when the pattern has no plan (then neither has the board)."""
        if ((key >> self.target_shift) & self.gone) == self.gone:
            return 0
        return self.fewest.get(key & self.mask, 0)


def _compiled(board: Board, start: State, seconds: float) -> bool:
    """Have the core's cluster searches (:data:`CHOICE_SEARCHES`) come compiled, and say
    whether they have: the choice explores a few hundred small clusters, several times faster
    compiled. Loaded now if cached (a few tenths of a second) and the search has ``seconds``
    left for it (:meth:`rhasp.search.runner.Runner.warm_up`), else compiled in the background
    while the choice runs uncompiled."""
    geometry = _choice_geometry(board)
    key = geometry.key(start)
    return all(
        [
            RUNNER.warm_up(search, geometry.tables, key, UNLIMITED, seconds_left=seconds, **flags)
            for search, flags in CHOICE_SEARCHES
        ]
    )


def _choice_geometry(board: Board) -> Geometry:
    """The tables whose compiled cluster searches the choice has come (:func:`_compiled`) and
    asks about (:meth:`PatternTable.costs_no_load`): the board's, its targets staying, as a
    cluster is searched."""
    return Geometry.of(board, targets_leave=False)


def explore_pattern(
    board: Board,
    start: State,
    keep: tuple[int, ...],
    max_boards: int,
    by_slides: bool = False,
    short: int = NO_SHORT,
) -> ClusterGraph | None:
    """The cluster of the pattern that keeps ``keep`` from the start's projection, with its
    distances in slides too ``by_slides``; None beyond ``max_boards`` (A*'s patterns are
    explored here too: :mod:`rhasp.search.pattern_bound`)."""
    pattern = _pattern(board, start, keep, short)
    budget = Budget(states=max_boards)
    try:
        return explore_cluster(pattern.board, pattern.placement, budget, by_slides)
    except SearchLimit:
        return None


def reach_pattern(
    board: Board, start: State, keep: tuple[int, ...], max_boards: int, short: int = NO_SHORT
) -> tuple[int, int] | None:
    """The boards of the cluster of the pattern that keeps ``keep``, and its start's fewest
    moves (-1: no plan), as :func:`explore_pattern` finds them but without handing the
    cluster back (:func:`rhasp.search.clusters.reach`): what the choice asks of every pattern
    it tries. None beyond ``max_boards``."""
    pattern = _pattern(board, start, keep, short)
    return _reached(Geometry.of(pattern.board, targets_leave=False), pattern, max_boards)


def _reached(geometry: Geometry, pattern: Puzzle, max_boards: int) -> tuple[int, int] | None:
    """:func:`reach_pattern` of the pattern puzzle ``pattern``, whose ``geometry`` is had."""
    key = geometry.key(pattern.placement)
    try:
        states, fewest = run(geometry, clusters.reach, key, budget=Budget(states=max_boards))
    except SearchLimit:
        return None
    return int(states), int(fewest)


def _pattern(board: Board, start: State, keep: tuple[int, ...], short: int = NO_SHORT) -> Puzzle:
    """The puzzle from ``start`` with every vehicle but ``keep`` lifted off, and the vehicle
    ``short`` (if any) a cell shorter: its last cell given up, its positions numbered as
    before."""
    if short != NO_SHORT:
        vehicles = list(board.vehicles)
        vehicles[short] = replace(vehicles[short], length=vehicles[short].length - 1)
        board = replace(board, vehicles=tuple(vehicles))
    lifted = {v.label for i, v in enumerate(board.vehicles) if i not in keep}
    return Puzzle(board, start).without(lifted)


def _chosen(
    board: Board,
    start: State,
    base: tuple[int, ...],
    max_boards: int,
    width: int,
    deadline: float,
    stop: Callable[[], bool],
) -> tuple[tuple[int, int], tuple[int, ...]] | None:
    """The vehicles the choice keeps (:meth:`PatternTable.collection`), with their score
    (:func:`_score`): ``base`` (the target, and the vehicles every pattern worth choosing
    keeps) and more, a vehicle a round, by a beam search ``width`` patterns wide, until
    ``deadline`` (``time.perf_counter()``); never every vehicle. None if it found none or was
    told to ``stop``."""
    count = len(board.vehicles)
    best = None
    if 1 < len(base) < count:  # a pattern of its own (the target alone bounds nothing)
        reached = reach_pattern(board, start, base, max_boards)
        if reached is None:  # a pattern of more vehicles has more boards
            return None
        best = (_score(*reached), base)
    beam: list[tuple[int, ...]] = [base]
    seen: set[tuple[int, ...]] = set()
    while beam and len(beam[0]) < count - 1 and time.perf_counter() < deadline:
        round_ = []
        for keep in beam:
            for vehicle in range(count):
                if stop():
                    return None
                if time.perf_counter() >= deadline:
                    break
                pattern = tuple(sorted((*keep, vehicle)))
                if vehicle in keep or pattern in seen:
                    continue
                seen.add(pattern)
                reached = reach_pattern(board, start, pattern, max_boards)
                if reached is not None:
                    round_.append((_score(*reached), pattern))
        round_.sort(reverse=True)
        del round_[width:]
        beam = [pattern for _, pattern in round_]
        if round_ and (best is None or round_[0][0] > best[0]):
            best = round_[0]
    return None if stop() else best


def _lifts(
    board: Board,
    start: State,
    max_boards: int,
    deadline: float,
    stop: Callable[[], bool],
) -> list[tuple[tuple[int, int], tuple[int, ...]]]:
    """The patterns that lift one vehicle (never the target) within ``max_boards``, with their
    scores (:func:`_score`), the best first, as far as they are reached by ``deadline`` or
    told to ``stop``."""
    every = range(len(board.vehicles))
    tried = []
    for lifted in _others(board, deadline, stop):
        keep = tuple(vehicle for vehicle in every if vehicle != lifted)
        reached = reach_pattern(board, start, keep, max_boards)
        if reached is not None:
            tried.append((_score(*reached), keep))
    tried.sort(reverse=True)
    return tried


def _shortened(
    board: Board,
    start: State,
    max_boards: int,
    deadline: float,
    stop: Callable[[], bool],
) -> list[tuple[tuple[int, int], tuple[int, ...], int]]:
    """The patterns that keep every vehicle, one of them (never the target, whose exit would
    move) a cell shorter, within ``max_boards``, with their scores (:func:`_score`) and the
    vehicle shortened, as far as they are reached by ``deadline`` or told to ``stop``."""
    every = tuple(range(len(board.vehicles)))
    words = key_words(_choice_geometry(board).tables)
    tried = []
    for short in _others(board, deadline, stop):
        # A shorter vehicle has a position more, which may take its key past a word: the
        # cluster search would then be other code than the one loaded for the board (the
        # cells are the board's either way), perhaps not compiled at all. Not tried there.
        pattern = _pattern(board, start, every, short)
        geometry = Geometry.of(pattern.board, targets_leave=False)
        if key_words(geometry.tables) != words:
            continue
        reached = _reached(geometry, pattern, max_boards)
        if reached is not None:
            tried.append((_score(*reached), every, short))
    return tried


def _others(board: Board, deadline: float, stop: Callable[[], bool]) -> Iterator[int]:
    """Every vehicle but the target, in order, while ``deadline`` (``time.perf_counter()``)
    is not past and nobody says ``stop``: the vehicles the lifts and the shorter vehicles
    try, one pattern each."""
    target = board.index(board.targets[0])
    for vehicle in range(len(board.vehicles)):
        if vehicle == target:
            continue
        if stop() or time.perf_counter() >= deadline:
            return
        yield vehicle


def _score(states: int, fewest: int) -> tuple[int, int]:
    """How far the pattern puts the start from the goal (a pattern without a plan from the
    start settles the puzzle: no plan), then the fewer boards."""
    return (1 << 20 if fewest < 0 else fewest), -states
