"""A cluster on the search core: its states with their moves kept, distances from the goals,
one optimal way down, and its hardest state in the database's order.

Plain Python in the subset numba compiles, like :mod:`rhasp.search.core`, and compiled the
same way (:mod:`rhasp.search.jit`). It is a module of its own, rather than part of the core
or of :mod:`rhasp.search.shards`, because two callers need the same definitions at two
speeds: ``rhasp enumerate`` runs them inside its compiled shard, once per layout, millions of
times (:func:`rhasp.search.shards.enumerate_shard`); ``analyze``, ``hardest``, hints,
``generate`` and the cluster drawing run them once per puzzle, through
:mod:`rhasp.canonical` and :func:`rhasp.search.runner.run`. The core stays the searches that
find plans; this module is what a whole cluster is.

**One exploration keeps the moves.** :func:`explore` finds the cluster in breadth-first order
and records every state's moves as indices (``edges[first_edge[i]:first_edge[i + 1]]``, in the
order :func:`rhasp.search.core.successors` lists them). Keeping them costs a look-up per move,
which finding the states pays anyway; the distance of every state to the nearest goal then
comes from one breadth-first pass over those indices from all goals at once
(:func:`goal_distances`), and one optimal way is a walk down the distances
(:func:`way_down`). Targets stay on the board, as puzzle databases count clusters: the goal is
the target at its exit edge. Optionally the exploration gives up as soon as a state before the
first one in the database's order turns up (the enumeration keeps a cluster only from its
least state).

**The database's order** of states (:func:`database_order`) breaks ties between hardest
states, for ``rhasp enumerate``, ``analyze`` and ``hardest`` alike (:func:`hardest_index`).
"""

from __future__ import annotations

from rhasp.search import core, store

# What :func:`explore` gives up on (its ``give_up``).
KEEP_ALL = 0  # never: the whole cluster
ANY_SMALLER = 1  # a state before the first one in the database's order
SMALLER_GOAL = 2  # a goal state before it (the first state is a goal state)

NOT_LEAST = -3  # returned instead of a count: a smaller state of the cluster turned up


def horizontal_shift(g: core.Tables, horizontal: core.Buffer) -> int:
    """Where the horizontal vehicles' fields begin in a key whose fields are ordered so that
    keys compare as the horizontal vehicles' cells do (vertical vehicles in the low fields;
    :func:`rhasp.search.shards._order_fields` builds such tables)."""
    lowest = g.shift[0]  # the target is horizontal
    for i in range(g.count):
        if horizontal[i] and g.shift[i] < lowest:
            lowest = g.shift[i]
    return lowest


def vertical_cells(g: core.Tables, key: int, horizontal: core.Buffer) -> int:
    """The cells of the vertical vehicles of state ``key``."""
    cells = core.no_cells(g.walls)
    for i in range(g.count):
        if not horizontal[i]:
            at = i * g.stride + core.field(key, g.shift[i], g.ones[i])
            cells = core.joined(cells, core.cells_at(g.masks, at))
    return cells


def database_order(g: core.Tables, key: int, horizontal: core.Buffer) -> tuple[int, int]:
    """State ``key``'s place in the database's order of states: the cells of its horizontal
    vehicles, then those of its vertical ones, each read as a binary number whose lowest bit
    is the top-left cell (walls, which never move, count in neither). Defined on any board's
    tables, so that every command breaks ties between hardest states the same way."""
    down = vertical_cells(g, key, horizontal)
    return core.without(core.without(core.occupancy(g, key), g.walls), down), down


def precedes(g: core.Tables, key: int, other: int, horizontal: core.Buffer) -> bool:
    """Whether state ``key`` comes before ``other`` in the database's order of states."""
    across, down = database_order(g, key, horizontal)
    other_across, other_down = database_order(g, other, horizontal)
    return core.less(across, other_across) or (
        across == other_across and core.less(down, other_down)
    )


def explore(
    g: core.Tables,
    first: int,
    horizontal: core.Buffer,
    give_up: int,
    max_states: int,
    watch: core.Buffer,
) -> tuple[int, list[int], list[int], list[int]]:
    """``first``'s cluster in breadth-first order, with its moves; with ``give_up``
    (:data:`ANY_SMALLER`, :data:`SMALLER_GOAL`) NOT_LEAST at once when such a state turns up,
    which needs tables ordered as :func:`horizontal_shift` says. BUDGET beyond ``max_states``
    states.

    Returns (the count, or NOT_LEAST or BUDGET; the states' keys; and the moves,
    ``edges[first_edge[i]:first_edge[i + 1]]`` being the indices of state ``i``'s
    neighbours, in :func:`rhasp.search.core.successors`' order).
    """
    split = horizontal_shift(g, horizontal) if give_up != KEEP_ALL else 0
    least = core.above(first, split)
    least_down = core.no_cells(g.walls)  # the vertical cells of ``first``, once needed
    knows_least_down = False
    order = [first]
    first_edge = [0]
    edges = [0]
    edges.pop()
    width = core.words(first) + 1  # each slot: a key, and its index in ``order``
    index = core.key_table(128, width)
    _index_of(index, first, 0)
    keys, slides, movers = core.buffers(g, first)
    done = 0
    depth, layer_end = 0, 1  # the layer being expanded ends before order[layer_end]
    while done < len(order):
        # The depth is for watching a whole cluster explored (a limit line says where it
        # stopped); the enumeration's explorations, mostly given up within a few states, do
        # not count it: the test alone cost 4 % of a 5×5 enumeration (bench/before_after.py).
        if give_up == KEEP_ALL and done == layer_end:
            depth, layer_end = depth + 1, len(order)
        if core.post_progress(watch, len(order), depth, max_states):
            return core.BUDGET, order, first_edge, edges
        if not core.has_room(index, len(order) + len(keys), width):
            index = core.grown_table(index, width, first)
        n = core.successors(g, order[done], core.NO_SKIP, keys, slides, movers)
        for j in range(n):
            after = keys[j]
            at = _index_of(index, after, len(order))
            if at < 0:  # a new state
                if (
                    give_up != KEEP_ALL
                    and not core.less(least, core.above(after, split))
                    and (give_up == ANY_SMALLER or core.solved(g, after))
                ):
                    if core.less(core.above(after, split), least):
                        return NOT_LEAST, order, first_edge, edges
                    if not knows_least_down:
                        least_down = vertical_cells(g, first, horizontal)
                        knows_least_down = True
                    if core.less(vertical_cells(g, after, horizontal), least_down):
                        return NOT_LEAST, order, first_edge, edges
                at = len(order)
                order.append(after)
            edges.append(at)
        first_edge.append(len(edges))
        done += 1
    return len(order), order, first_edge, edges


def _index_of(table: core.Buffer, key: int, index: int) -> int:
    """``key``'s index in ``table`` (:func:`rhasp.search.core.key_table`, each slot a key and
    its index); if it is not there, it is put there with ``index``, and the answer is -1."""
    width = core.words(key) + 1
    at = core.slot_of(table, key, width)
    if at >= 0:
        return table[at + width - 1]
    table[-1 - at + width - 1] = index
    return -1


def goal_distances(
    g: core.Tables, order: list[int], first_edge: list[int], edges: list[int]
) -> tuple[list[int], list[int]]:
    """Each state's moves to the nearest goal state (the target at its exit edge; -1 when
    none is reachable), by one breadth-first search from all of them over the moves
    :func:`explore` kept; and the states' indices in the order reached, nearest first (so
    the goals first). Nothing reached: no goal."""
    distance = [-1] * len(order)
    reached = [0]
    reached.pop()
    for i in range(len(order)):
        if core.solved(g, order[i]):
            distance[i] = 0
            reached.append(i)
    head = 0
    while head < len(reached):
        i = reached[head]
        head += 1
        for e in range(first_edge[i], first_edge[i + 1]):
            j = edges[e]
            if distance[j] < 0:
                distance[j] = distance[i] + 1
                reached.append(j)
    return distance, reached


def goal_slides(
    g: core.Tables, order: list[int], first_edge: list[int], edges: list[int]
) -> list[int]:
    """Each state's fewest slides (cells) to the nearest goal state (-1 when none is
    reachable): Dijkstra's search from all of them at once over the moves :func:`explore`
    kept, a move costing the cells its vehicle slides, as
    :func:`rhasp.search.core.successors` lists them again (in the order the moves were
    kept). A move undone slides as many cells back, so the cost to a goal is the cost from
    it."""
    distance = [-1] * len(order)
    queue = store.f_queue(0, 0)
    store.queue_pop(queue)
    for i in range(len(order)):
        if core.solved(g, order[i]):
            store.queue_push(queue, 0, i)
    keys, slides, movers = core.buffers(g, order[0])
    while not store.queue_empty(queue):
        cost, i = store.queue_pop(queue)
        if distance[i] >= 0:
            continue
        distance[i] = cost
        core.successors(g, order[i], core.NO_SKIP, keys, slides, movers)
        for e in range(first_edge[i], first_edge[i + 1]):
            j = edges[e]
            if distance[j] < 0:
                store.queue_push(queue, cost + slides[e - first_edge[i]], j)
    return distance


def cluster(
    g: core.Tables, first: int, max_states: int, watch: core.Buffer, by_slides: bool
) -> tuple[int, list[int], list[int], list[int], list[int], list[int], list[int]]:
    """The whole cluster of ``first`` with its moves (:func:`explore`) and its distances
    (:func:`goal_distances`), and ``by_slides`` its distances in slides too
    (:func:`goal_slides`), in one call, as :func:`rhasp.search.runner.run` runs it.

    Returns (the count, or BUDGET; the keys; first_edge; edges; the distance per index; the
    indices nearest first; the slides per index, or none)."""
    reached, order, first_edge, edges = explore(
        g, first, core.new_buffer(0), KEEP_ALL, max_states, watch
    )
    if reached == core.BUDGET:
        return reached, order, first_edge, edges, first_edge[:0], first_edge[:0], first_edge[:0]
    distance, by_distance = goal_distances(g, order, first_edge, edges)
    slides = goal_slides(g, order, first_edge, edges) if by_slides else first_edge[:0]
    return reached, order, first_edge, edges, distance, by_distance, slides


def reach(g: core.Tables, first: int, max_states: int, watch: core.Buffer) -> tuple[int, int]:
    """How large ``first``'s cluster is and how far ``first`` is from its nearest goal state
    (moves; -1 when no goal is reachable), as :func:`cluster` finds them, and nothing else:
    what choosing a pattern asks of each vehicle set it tries
    (:meth:`rhasp.search.PatternTable.of`). Compiled, the cluster's keys, moves and distances
    stay inside the compiled call; boxed into Python and dropped again, they cost more than
    the search itself (bench/README.md, "the pattern choice reaches the patterns it tries").

    Returns (the count, or BUDGET beyond ``max_states`` states; the distance, -1 then)."""
    found = cluster(g, first, max_states, watch, False)
    if found[0] == core.BUDGET:
        return core.BUDGET, -1
    return found[0], found[4][0]


def hardest_index(
    g: core.Tables,
    order: list[int],
    distance: list[int],
    by_distance: list[int],
    horizontal: core.Buffer,
) -> int:
    """The index of the cluster's hardest state: the farthest from the nearest goal, ties to
    the least in the database's order (:func:`precedes`). ``by_distance`` is
    :func:`goal_distances`' order, which must not be empty."""
    far = distance[by_distance[len(by_distance) - 1]]
    last = len(by_distance)
    while last > 0 and distance[by_distance[last - 1]] == far:
        last -= 1
    hardest = by_distance[last]
    for k in range(last + 1, len(by_distance)):
        if precedes(g, order[by_distance[k]], order[hardest], horizontal):
            hardest = by_distance[k]
    return hardest


def way_down(start: int, distance: list[int], first_edge: list[int], edges: list[int]) -> list[int]:
    """The indices of one shortest way from state ``start`` (an index) to a goal: downhill in
    ``distance``, each step to the first neighbour one move nearer. Just ``start`` when no goal
    is reachable from it."""
    way = [start]
    i = start
    while distance[i] > 0:
        for e in range(first_edge[i], first_edge[i + 1]):
            j = edges[e]
            if distance[j] == distance[i] - 1:
                i = j
                break
        way.append(i)
    return way


def moved_on_the_way(
    g: core.Tables,
    start: int,
    order: list[int],
    distance: list[int],
    first_edge: list[int],
    edges: list[int],
    moved: core.Buffer,
) -> None:
    """Mark in ``moved`` (per vehicle) every vehicle that moves on :func:`way_down` from state
    ``start`` (an index): those a minimality test need not remove (a vehicle that moves on an
    optimal way is needed: the way without its moves would be shorter)."""
    way = way_down(start, distance, first_edge, edges)
    for k in range(1, len(way)):
        before, after = order[way[k - 1]], order[way[k]]
        for v in range(g.count):
            shift, ones = g.shift[v], g.ones[v]
            if core.field(before, shift, ones) != core.field(after, shift, ones):
                moved[v] = 1
