"""The fast search core: states as integers, boards as bit masks.

A state is one Python integer, four bits per vehicle holding its position (``GONE`` = 15 for a
target that has left), so moving vehicle ``i`` by ``d`` cells is ``key + d * unit[i]``, and
visited sets and parent links are dicts of small integers. Cells are bits ``row * width +
col`` of an occupancy integer built from per-vehicle, per-position masks. The geometry is
computed once per board (:class:`Geometry`); the loops below then touch nothing but integers
and tuples. The readable model in :mod:`rhasp.model` stays the reference: tests check that
this core finds the same lengths on every board.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rhasp.model import Board, Move, Plan, State

BITS = 4
GONE = (1 << BITS) - 1  # positions run to at most MAX_SIDE - 2 = 10, so 15 is free


#: One vehicle, as the inner loop reads it: (shift, unit, masks, behind, ahead, last, exits
#: behind, exits ahead, near), where near[p] holds the two cells next to the vehicle at p.
Row = tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int, bool, bool,
            tuple[int, ...]]  # fmt: skip
#: A successor: (key, occupancy, slides, a target left).
Step = tuple[int, int, int, bool]


@dataclass(frozen=True)
class Geometry:
    """Everything the search needs about a board, as integers and tuples."""

    count: int
    walls: int  # occupancy bits of the walls
    rows: tuple[Row, ...]
    targets: tuple[int, ...]  # vehicle indices of the targets
    labels: tuple[str, ...]

    @classmethod
    def of(cls, board: Board, *, targets_leave: bool = True) -> Geometry:
        """The board's geometry; with ``targets_leave`` False, targets stay at their exits."""
        width = board.width
        rows = []
        for i, vehicle in enumerate(board.vehicles):
            last = board.line_length(vehicle) - vehicle.length
            cells = vehicle.cells(0)
            bits = [sum(1 << (r * width + c) for r, c in vehicle.cells(p)) for p in range(last + 1)]
            step = 1 if vehicle.horizontal else width  # bit distance between neighbour cells
            head = 1 << (cells[-1][0] * width + cells[-1][1])
            tail = 1 << (cells[0][0] * width + cells[0][1])
            ahead = [head << (step * (p + 1)) for p in range(last)]  # entered going p -> p+1
            behind = [0] + [tail << (step * (p - 1)) for p in range(1, last + 1)]  # p -> p-1
            near = [behind[p] | (ahead[p] if p < last else 0) for p in range(last + 1)]
            side = board.exit_side(vehicle.label) if targets_leave else None
            rows.append((
                BITS * i, 1 << (BITS * i), _padded(bits), tuple(behind), tuple(ahead), last,
                side in ("left", "top"), side in ("right", "bottom"), _padded(near),
            ))  # fmt: skip
        return cls(
            count=len(board.vehicles),
            walls=sum(1 << (r * width + c) for r, c in board.walls),
            rows=tuple(rows),
            targets=tuple(board.index(label) for label in board.targets),
            labels=tuple(vehicle.label for vehicle in board.vehicles),
        )

    def key(self, state: State) -> int:
        return sum((GONE if p is None else p) << (BITS * i) for i, p in enumerate(state))

    def state(self, key: int) -> State:
        positions = ((key >> (BITS * i)) & GONE for i in range(self.count))
        return tuple(None if p == GONE else p for p in positions)

    def occupancy(self, key: int) -> int:
        occupied = self.walls
        for shift, _, masks, *_ in self.rows:
            occupied |= masks[(key >> shift) & GONE]
        return occupied

    def solved(self, key: int) -> bool:
        return all((key >> (BITS * i)) & GONE == GONE for i in self.targets)

    def expand(self, key: int, occupied: int) -> list[Step]:
        """Every legal move from ``key``: the search's inner loop, kept tight."""
        steps: list[Step] = []
        add = steps.append
        for shift, unit, masks, behind, ahead, last, exit_behind, exit_ahead, near in self.rows:
            p = (key >> shift) & GONE
            if not near[p] & ~occupied:  # boxed in on both sides (or gone: near is 0)
                continue
            rest = occupied ^ masks[p]
            q = p
            while q and not occupied & behind[q]:
                q -= 1
                if q == 0 and exit_behind:
                    add((key + (GONE - p) * unit, rest, p, True))
                else:
                    add((key - (p - q) * unit, rest | masks[q], p - q, False))
            q = p
            while q < last and not occupied & ahead[q]:
                q += 1
                if q == last and exit_ahead:
                    add((key + (GONE - p) * unit, rest, last - p, True))
                else:
                    add((key + (q - p) * unit, rest | masks[q], q - p, False))
        return steps

    def neighbours(self, key: int) -> list[int]:
        """The states one move away from ``key``."""
        return [after for after, *_ in self.expand(key, self.occupancy(key))]

    def move(self, before: int, after: int) -> Move:
        """The move that turns ``before`` into ``after`` (one vehicle's field differs)."""
        for shift, _, _, _, _, last, _, exit_ahead, _ in self.rows:
            p, q = (before >> shift) & GONE, (after >> shift) & GONE
            if p != q:
                if q == GONE:
                    q = last if exit_ahead else 0
                return Move(self.labels[shift // BITS], q - p)
        raise ValueError("the two states are the same")

    def plan(self, parents: dict[int, int], key: int) -> Plan:
        keys = [key]
        while parents[keys[-1]] != keys[-1]:
            keys.append(parents[keys[-1]])
        keys.reverse()
        return tuple(self.move(a, b) for a, b in itertools.pairwise(keys))


def _padded(values: list[int]) -> tuple[int, ...]:
    """Indexable by every 4-bit position: GONE and unused positions hold no cells."""
    return (*values, *[0] * (GONE + 1 - len(values)))


def fewest_moves(board: Board, start: State) -> tuple[Plan | None, int]:
    """Breadth-first search: a plan with the fewest moves and the number of states reached."""
    geometry = Geometry.of(board)
    first = geometry.key(start)
    if geometry.solved(first):
        return (), 1
    parents, found = _breadth_first(geometry, first, geometry.solved)
    return (None if found is None else geometry.plan(parents, found)), len(parents)


def _breadth_first(
    geometry: Geometry, first: int, goal: Callable[[int], bool] | None
) -> tuple[dict[int, int], int | None]:
    """Parent links of the states found from ``first`` in breadth-first order, up to the first
    state where a target has just left and ``goal`` holds (then also returned), or all."""
    parents = {first: first}
    frontier = [(first, geometry.occupancy(first))]
    expand = geometry.expand
    while frontier:
        following = []
        for key, occupied in frontier:
            for after, after_occupied, _, left in expand(key, occupied):
                if after not in parents:
                    parents[after] = key
                    if left and goal is not None and goal(after):
                        return parents, after
                    following.append((after, after_occupied))
        frontier = following
    return parents, None


def fewest_slides(board: Board, start: State) -> tuple[Plan | None, int]:
    """Dijkstra over whole moves, cost (slides, moves): fewest slides, then fewest moves."""
    geometry = Geometry.of(board)
    first = geometry.key(start)
    weight = 1 << 16  # slides dominate; moves (fewer than 2**16) break ties
    best = {first: 0}
    parents = {first: first}
    queue = [(0, first, geometry.occupancy(first))]
    expand, solved = geometry.expand, geometry.solved
    while queue:
        cost, key, occupied = heapq.heappop(queue)
        if cost > best[key]:
            continue
        if solved(key):
            return geometry.plan(parents, key), len(best)
        for after, after_occupied, slides, _ in expand(key, occupied):
            new = cost + slides * weight + 1
            if new < best.get(after, new + 1):
                best[after] = new
                parents[after] = key
                heapq.heappush(queue, (new, after, after_occupied))
    return None, len(best)


def explore(board: Board, placement: State) -> tuple[Geometry, dict[int, int]]:
    """Every state reachable from ``placement``, goal states included, with parent links.

    As puzzle databases count them: targets stay on the board (a target at its exit edge is a
    state like any other, and may move back), so this is the connected component of the start
    in the graph of all moves. The dict lists the states in the order found, which is
    breadth-first order; the geometry reads the keys.
    """
    geometry = Geometry.of(board, targets_leave=False)
    parents, _ = _breadth_first(geometry, geometry.key(placement), None)  # no target leaves
    return geometry, parents


def cluster_size(board: Board, placement: State) -> int:
    """The number of states in the placement's cluster (see :func:`explore`)."""
    return len(explore(board, placement)[1])


def solve_and_count(board: Board, placement: State) -> tuple[Plan | None, int, int]:
    """Fewest moves and the cluster size from one exploration (one target only).

    In the cluster's graph the target stays on the board, so the first state found with the
    target at its exit edge ends a shortest plan: its last move reaches the edge, where the
    target would leave. Returns the plan (None if there is none), the states found up to it,
    and the cluster size.
    """
    geometry, parents = explore(board, placement)
    at_exit = at_exit_test(board, geometry)
    for found, key in enumerate(parents, 1):
        if at_exit(key):
            return geometry.plan(parents, key), found, len(parents)
    return None, len(parents), len(parents)


def at_exit_test(board: Board, geometry: Geometry) -> Callable[[int], bool]:
    """Whether a key has the (only) target at its exit edge."""
    if len(geometry.targets) != 1:
        raise ValueError("defined here for one target")
    (target,) = geometry.targets
    shift = BITS * target
    return lambda key: board.at_exit(target, (key >> shift) & GONE)


def goal_distances(board: Board, placement: State) -> tuple[Geometry, dict[int, int]]:
    """The fewest moves from every state of the cluster to a solution (single target).

    A breadth-first search from all goal states at once (the target at its exit edge), over
    the cluster's moves, which can all be undone; the last move, to the edge, counts.
    """
    geometry, parents = explore(board, placement)
    goals = list(filter(at_exit_test(board, geometry), parents))
    return geometry, layers(geometry.neighbours, goals)


def layers(
    neighbours: Callable[[int], Iterable[int]],
    sources: list[int],
    enters: Callable[[int], bool] | None = None,
) -> dict[int, int]:
    """Breadth-first distances from ``sources`` (in moves), stepping only into states for
    which ``enters`` holds (all, by default). The dict is in breadth-first order."""
    distance = dict.fromkeys(sources, 0)
    frontier = sources
    while frontier:
        following = []
        for key in frontier:
            for after in neighbours(key):
                if after not in distance and (enters is None or enters(after)):
                    distance[after] = distance[key] + 1
                    following.append(after)
        frontier = following
    return distance
