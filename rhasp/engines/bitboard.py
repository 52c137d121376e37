"""The fast searches: boards as bit masks, run on the one search core, compiled where it pays.

:class:`Geometry` turns a board into the integer tables of :mod:`rhasp.engines.core` and
back (keys to states, paths to plans). Every search here runs the core's source, in one of two
ways, chosen per search:

- **compiled** (numba, :mod:`rhasp.engines.jit`), for boards whose keys and cells fit 63-bit
  words (:attr:`Geometry.compiles`): every board up to 6×6, and boards of up to 63 cells with
  up to 21 vehicles (15 when a line is longer than 8 cells);
- **uncompiled**, the same functions on Python integers, for every other board, when numba is
  missing, and at first in each process: loading numba and its cached code costs about as
  much as 100,000 states searched uncompiled, so a process searches uncompiled until it has
  spent that much (:data:`SWITCH_STATES`), then switches for good, restarting the search that
  crossed the line. A small solve never pays for numba; work known to be large (decks,
  generation) loads it at once (:func:`prefer_compiled`). ``RHASP_JIT=always`` or ``never``
  fixes the choice (tests and benchmarks).

The readable model in :mod:`rhasp.model` stays the reference: tests check that the core finds
the same plans and counts on every kind of board, compiled and not.
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import Any

from rhasp.engines import core
from rhasp.engines.limits import PROGRESS_EVERY, Budget, state_limit, time_limit
from rhasp.errors import SearchLimit
from rhasp.model import Board, Move, Piece, Plan, Puzzle, State, TargetSpec, build_puzzle

WORD_BITS = 63  # what an int64 holds without its sign bit
SWITCH_STATES = 100_000
UNLIMITED = 1 << 62


@dataclass(frozen=True)
class Geometry:
    """A board as the core sees it, with the ways back from keys to states and moves."""

    board: Board
    tables: core.Tables  # Python integers and tuples: the uncompiled core's form
    bits: int
    targets: tuple[int, ...]  # vehicle indices of the targets
    exits: tuple[int, ...]  # per vehicle: the position it leaves from (-1: it does not)

    @property
    def compiles(self) -> bool:
        """Whether the cells and a whole state each fit a 63-bit word."""
        cells = self.board.width * self.board.height
        return cells <= WORD_BITS and self.count * self.bits <= WORD_BITS

    @classmethod
    def of(cls, board: Board, *, targets_leave: bool = True) -> Geometry:
        """The board's geometry. With ``targets_leave``, a target that reaches its exit edge
        leaves (its field becomes ``gone``) and the goal is every target gone; without, as
        puzzle databases count clusters, targets stay and the goal is every target at its
        exit edge."""
        lasts = [board.line_length(v) - v.length for v in board.vehicles]
        bits = (max(lasts) + 1).bit_length()  # room for every position and for gone
        gone, stride = (1 << bits) - 1, 1 << bits
        rows = [_vehicle_rows(board, i, stride) for i in range(len(board.vehicles))]
        exit_at = [_exit_position(board, i, last) for i, last in enumerate(lasts)]
        leaving = [p if targets_leave else -1 for p in exit_at]
        targets = tuple(board.index(label) for label in board.targets)
        tables = core.Tables(
            count=len(board.vehicles),
            gone=gone,
            stride=stride,
            walls=sum(1 << (r * board.width + c) for r, c in board.walls),
            shift=tuple(bits * i for i in range(len(board.vehicles))),
            last=tuple(lasts),
            exit_behind=tuple(int(p == 0) for p in leaving),
            exit_ahead=tuple(int(p > 0) for p in leaving),
            masks=sum((row[0] for row in rows), ()),
            behind=sum((row[1] for row in rows), ()),
            ahead=sum((row[2] for row in rows), ()),
            near=sum((row[3] for row in rows), ()),
            goal_shift=tuple(bits * i for i in targets),
            goal_pos=tuple(gone if targets_leave else exit_at[i] for i in targets),
        )
        return cls(board, tables, bits, targets, tuple(leaving))

    @property
    def count(self) -> int:
        return len(self.board.vehicles)

    @cached_property
    def horizontal(self) -> tuple[int, ...]:
        """Per vehicle, 1 if it is horizontal (the database's order of states needs it)."""
        return tuple(int(vehicle.horizontal) for vehicle in self.board.vehicles)

    @cached_property
    def compiled(self) -> core.Tables:
        """The tables as the compiled core takes them (asked for only once it is loaded)."""
        jit = _jit()
        if jit is None:
            raise RuntimeError("the compiled core is not loaded")
        return jit.tables(self.tables)

    def key(self, state: State) -> int:
        gone = self.tables.gone
        return sum((gone if p is None else p) << (self.bits * i) for i, p in enumerate(state))

    def position(self, key: int, i: int) -> int:
        """Vehicle ``i``'s field in ``key`` (``tables.gone`` for a target that has left)."""
        return (key >> (self.bits * i)) & self.tables.gone

    def state(self, key: int) -> State:
        gone = self.tables.gone
        positions = (self.position(key, i) for i in range(self.count))
        return tuple(None if p == gone else p for p in positions)

    def occupancy(self, key: int) -> int:
        return core.occupancy(self.tables, key)

    def solved(self, key: int) -> bool:
        """Every target gone (or, when targets stay, at its exit edge)."""
        return core.solved(self.tables, key)

    def neighbours(self, key: int) -> list[int]:
        """The states one move away from ``key``, in the readable model's order."""
        keys, slides, movers = core.buffers(self.tables)
        return keys[: core.successors(self.tables, key, core.NO_SKIP, keys, slides, movers)]

    def move(self, before: int, after: int) -> Move:
        """The move that turns ``before`` into ``after`` (one vehicle's field differs)."""
        for i in range(self.count):
            p, q = self.position(before, i), self.position(after, i)
            if p != q:
                if q == self.tables.gone:
                    q = self.exits[i]
                return Move(self.board.vehicles[i].label, q - p)
        raise ValueError("the two states are the same")

    def plan(self, path: Sequence[int]) -> Plan:
        return tuple(self.move(a, b) for a, b in itertools.pairwise(path))


def _vehicle_rows(board: Board, i: int, stride: int) -> tuple[tuple[int, ...], ...]:
    """Vehicle ``i``'s masks, behind, ahead and near cells per position, ``stride`` long."""
    width, vehicle = board.width, board.vehicles[i]
    last = board.line_length(vehicle) - vehicle.length
    cells = vehicle.cells(0)
    step = 1 if vehicle.horizontal else width  # bit distance between neighbour cells
    first = sum(1 << (r * width + c) for r, c in cells)
    masks = [first << (step * p) for p in range(last + 1)]
    head = 1 << (cells[-1][0] * width + cells[-1][1])
    tail = 1 << (cells[0][0] * width + cells[0][1])
    ahead = [head << (step * (p + 1)) for p in range(last)] + [0]  # entered going p -> p+1
    behind = [0] + [tail << (step * (p - 1)) for p in range(1, last + 1)]  # p -> p-1
    near = [b | a for b, a in zip(behind, ahead, strict=True)]
    return tuple((*row, *[0] * (stride - len(row))) for row in (masks, behind, ahead, near))


def _exit_position(board: Board, i: int, last: int) -> int:
    """Where vehicle ``i`` touches its exit edge: 0 or ``last``, or -1 for no exit."""
    side = board.exit_side(board.vehicles[i].label)
    return -1 if side is None else 0 if side in ("left", "top") else last


# Which way the core runs (see the module docstring).

_uncompiled_states = 0  # states this process has searched uncompiled so far


@functools.cache
def _jit() -> ModuleType | None:
    """The compiled core, or None where it cannot be loaded (numba broken, or no folder to
    cache its code in): then every search runs uncompiled."""
    try:
        from rhasp.engines import jit
    except (ImportError, RuntimeError, OSError):
        return None
    return jit


@functools.cache
def _numba_installed() -> bool:
    """Whether the core can be compiled here, found without importing numba (half a second)."""
    return importlib.util.find_spec("numba") is not None


def prefer_compiled() -> bool:
    """Switch this process to the compiled core now, for work known to be large (a deck, a
    generation run), and load its code, so that worker processes forked afterwards start
    with it. False if the core cannot or must not be compiled."""
    if use_compiled() is None:
        return False
    puzzle = _tiny_puzzle()
    for targets_leave in (True, False):  # numba loads each function's code at its first call
        geometry = Geometry.of(puzzle.board, targets_leave=targets_leave)
        key = geometry.key(puzzle.placement)
        for search, args in WARM_UP:
            _compiled(geometry, search, [key] if search == "layers" else key, Budget(), *args)
    return True


def use_compiled() -> ModuleType | None:
    """The compiled core, this process switched to it for good, without loading the code of
    any search yet; None if it cannot or must not be compiled (``RHASP_JIT=never``)."""
    global _uncompiled_states
    if os.environ.get("RHASP_JIT") == "never" or not _numba_installed() or _jit() is None:
        return None
    _uncompiled_states = max(_uncompiled_states, SWITCH_STATES)
    return _jit()


WARM_UP = (("breadth_first", (True, True)), ("layers", ()), ("goal_layers", ()), ("cheapest", ()))


def _tiny_puzzle() -> Puzzle:
    return build_puzzle(4, 4, [Piece("A", "h", 1, 0, 2)], [], [TargetSpec("A")], where="", name="")


def run(
    geometry: Geometry, search: str, start: Any, *args: Any, budget: Budget | None = None
) -> tuple[Any, ...]:
    """``core.<search>(tables, start, states, watch, *args)``, compiled or not (module
    docstring), within ``budget``: beyond its states it raises :class:`SearchLimit`.

    An uncompiled search that could compile gets the states left before the switch as its
    budget; when it spends them first, the search starts again compiled.
    """
    global _uncompiled_states
    budget = budget or Budget()
    mode = os.environ.get("RHASP_JIT", "auto")
    compiles = geometry.compiles and mode != "never" and _numba_installed()
    if not compiles or (mode != "always" and _uncompiled_states < SWITCH_STATES):
        spare = max(1, SWITCH_STATES - _uncompiled_states) if compiles else UNLIMITED
        states = min(budget.states, spare)
        function, tables, watch = _way(geometry, search, None)
        result = _watched(budget, watch, lambda: function(tables, start, states, watch, *args))
        if result[0] != core.BUDGET:
            _uncompiled_states += _states(result)
            return result
        if not compiles or states == budget.states:
            raise _limit(watch)
        _uncompiled_states = SWITCH_STATES  # this search alone is worth the switch: restart it
    return _compiled(geometry, search, start, budget, *args)


def _compiled(
    geometry: Geometry, search: str, start: Any, budget: Budget, *args: Any
) -> tuple[Any, ...]:
    jit = _jit()
    function, tables, watch = _way(geometry, search, jit)
    if jit is not None and not isinstance(start, int):
        start = jit.keys(start)
    states = min(budget.states, UNLIMITED)  # an int64 holds it
    result = _watched(budget, watch, lambda: function(tables, start, states, watch, *args))
    if result[0] == core.BUDGET:
        raise _limit(watch)
    return result


def _way(geometry: Geometry, search: str, jit: ModuleType | None) -> tuple[Any, Any, Any]:
    """The search function, the tables it reads and a watch for it to write: the core's own
    (uncompiled) when ``jit`` is None, else the compiled one's."""
    if jit is None:
        return getattr(core, search), geometry.tables, core.new_buffer(core.WATCH_FIELDS)
    return getattr(jit, search), geometry.compiled, jit.watch()


def _limit(watch: Sequence[int]) -> SearchLimit:
    return state_limit(int(watch[core.STATES]), f"at depth {int(watch[core.DEPTH])}")


def interruptible(watch: Any, search: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
    """``search()``, a long core search that writes ``watch``, in a thread of its own, so that
    Ctrl-C or SIGTERM stops it at once rather than when it ends (see :func:`_watched`)."""
    return _watched(Budget(UNLIMITED), watch, search, threaded=True)


def _watched(
    budget: Budget, watch: Any, search: Callable[[], tuple[Any, ...]], threaded: bool = False
) -> tuple[Any, ...]:
    """``search()``, which writes ``watch``. With a progress display or a time limit (or when
    ``threaded``), the search runs in a thread of its own (the compiled core releases the
    GIL) while this one shows its progress, stops it when its time is up, and on Ctrl-C or
    SIGTERM asks it to stop before passing the interrupt on."""
    if budget.progress is None and budget.seconds is None and not threaded:
        return search()
    outcome: list[Any] = []

    def work() -> None:
        try:
            outcome.append(search())
        except BaseException as error:  # handed to the waiting thread
            outcome.append(error)

    thread = threading.Thread(target=work, name="rhasp-search", daemon=True)
    began = time.perf_counter()
    deadline = math.inf if budget.seconds is None else began + budget.seconds
    thread.start()
    try:
        while thread.is_alive():
            thread.join(max(0.0, min(PROGRESS_EVERY, deadline - time.perf_counter())))
            now = time.perf_counter()
            if budget.progress is not None:
                budget.progress(int(watch[core.STATES]), int(watch[core.DEPTH]), now - began)
            if now >= deadline and thread.is_alive():
                watch[core.STOP] = 1
                thread.join()
                reached = f"at depth {int(watch[core.DEPTH])}"
                raise time_limit(budget.seconds or 0, int(watch[core.STATES]), reached)
    except BaseException:
        watch[core.STOP] = 1
        thread.join()
        raise
    finally:
        if budget.progress is not None:
            budget.progress.done()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _states(result: tuple[Any, ...]) -> int:
    """How many states a core search reached, from what it returned."""
    return result[1] if isinstance(result[1], int) else len(result[1])


# The searches.


def fewest_moves(
    board: Board, start: State, budget: Budget | None = None
) -> tuple[Plan | None, int]:
    """Breadth-first search: a plan with the fewest moves and the number of states reached."""
    geometry = Geometry.of(board)
    key = geometry.key(start)
    goal, found, path = run(geometry, "breadth_first", key, True, True, budget=budget)
    return (geometry.plan(path) if goal >= 0 else None), found


def fewest_slides(
    board: Board, start: State, budget: Budget | None = None
) -> tuple[Plan | None, int]:
    """Dijkstra over whole moves, cost (slides, moves): fewest slides, then fewest moves."""
    geometry = Geometry.of(board)
    goal, found, path = run(geometry, "cheapest", geometry.key(start), budget=budget)
    return (geometry.plan(path) if goal >= 0 else None), found


def explore(
    board: Board, placement: State, budget: Budget | None = None
) -> tuple[Geometry, list[int]]:
    """Every state reachable from ``placement``, goal states included, in breadth-first order.

    As puzzle databases count them: targets stay on the board (a target at its exit edge is a
    state like any other, and may move back), so this is the connected component of the start
    in the graph of all moves. The geometry reads the keys.
    """
    geometry = Geometry.of(board, targets_leave=False)
    _, order, _ = run(geometry, "layers", [geometry.key(placement)], budget=budget)
    return geometry, order


def cluster_size(board: Board, placement: State, budget: Budget | None = None) -> int:
    """The number of states in the placement's cluster (see :func:`explore`), counted without
    keeping a state's link to the one it came from."""
    geometry = Geometry.of(board, targets_leave=False)
    return run(geometry, "breadth_first", geometry.key(placement), False, False, budget=budget)[1]


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
    goal, size, path = run(geometry, "breadth_first", key, False, True, budget=budget)
    if goal < 0:
        return None, size, size
    return geometry.plan(path), goal + 1, size


def goal_layers(
    board: Board, placement: State, budget: Budget | None = None
) -> tuple[Geometry, list[int], list[int]]:
    """The cluster by distance from the nearest goal (single target): the states in order of
    that distance, and where each distance ends (as :func:`rhasp.engines.core.layers`).

    A breadth-first search from all goal states at once (the target at its exit edge), over
    the cluster's moves, which can all be undone; the last move, to the edge, counts.
    Empty when no goal is reachable.
    """
    geometry = Geometry.of(board, targets_leave=False)
    _, order, ends = run(geometry, "goal_layers", geometry.key(placement), budget=budget)
    return geometry, order, ends


def goal_distances(
    board: Board, placement: State, budget: Budget | None = None
) -> tuple[Geometry, dict[int, int]]:
    """The fewest moves from every state of the cluster to a solution (see :func:`goal_layers`)."""
    geometry, order, ends = goal_layers(board, placement, budget)
    return geometry, distances(order, ends)


def distances(order: list[int], ends: list[int]) -> dict[int, int]:
    """Each state's layer, from :func:`rhasp.engines.core.layers`' order and ends."""
    distance = {}
    begin = 0
    for d, end in enumerate(ends):
        distance.update(dict.fromkeys(order[begin:end], d))
        begin = end
    return distance
