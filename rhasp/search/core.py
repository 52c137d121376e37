"""The search core: every search rhasp runs on boards, written once for two ways of running.

These functions are plain Python over integers, tuples, lists and dicts, in the subset of
Python that numba compiles. :mod:`rhasp.search.jit` compiles them (``njit(cache=True)``) for
every board of up to 189 cells (13×13), where they run at compiled speed on numpy arrays; the
same source also runs uncompiled on Python integers of any size, for small searches (numba
is loaded only once a process has searched enough), where numba is missing, and for
checking. So there is one core, and :mod:`rhasp.search.runner` decides which way it runs.
The two ways differ in a few small places only, each a function here with a compiled twin in
``jit`` (a numba ``overload``): scratch buffers (:func:`new_buffer`, :func:`key_buffer`), the
states BFS and A* keep (:mod:`rhasp.search.store`: lists, a set and a dict here, blocks of
numpy words and open-addressing tables when compiled), and the few operations on keys and sets
of cells (:func:`field`, :func:`moved`, :func:`meet` ...): one int64 word each on a board
whose keys and cells fit 63 bits, where the twin is this source itself, and a tuple of words
on larger boards (8×8 and up, or many vehicles).

A state is one integer *key*, ``bits`` bits per vehicle holding its position along its line
(``gone`` = all ones for a target that has left). Cells are bits ``row * width + col`` of an
occupancy integer. The board's geometry is a :class:`Tables` of flat sequences indexed by
``vehicle * stride + position``, so moving vehicle ``i`` by ``d`` cells is ``key + d * (1 <<
shift[i])`` and every test is a mask and a comparison.

The searches record states in the order found (breadth-first order, or Dijkstra's order of
first reaching) with the index of the state they came from, which is all a plan needs; a
search that only counts skips the links. Each stops at ``max_states`` states and says so
(``BUDGET``), so that the caller decides what a limit means.

Every search also keeps a *watch* up to date, a buffer of three numbers: the states found so
far and the depth being expanded (moves from the start, or slides for Dijkstra), which another
thread may read to show progress, and a stop mark, which another thread may set to end the
search early (it then returns ``BUDGET`` too): 0 for none, else the search stops once it has
found that many states (1: at once; a larger mark lowers ``max_states`` while it runs, see
:class:`rhasp.search.watched.Handle`). Writing two numbers per state expanded costs nothing
measurable, compiled or not.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import NamedTuple

from rhasp.search import store

NOT_FOUND = -1
BUDGET = -2  # returned instead of an index: the search reached its limit of states (max_states)
WEIGHT = 1 << 16  # fewest slides: a slide outweighs any number of moves (fewer than 2**16)
STATES, DEPTH, STOP = 0, 1, 2  # the watch's fields (see the module docstring)
SPREAD = -7046029254386353131  # 2**64 / golden ratio, as int64 (see :func:`spread`)
WATCH_FIELDS = 3


#: Room for one state's successors: a list here, an int64 array when compiled (see ``jit``).
Buffer = MutableSequence[int]
#: A table of the geometry: a tuple of Python ints here, an int64 array when compiled
#: (``jit.tables`` converts it).
Ints = Sequence[int]


class Tables(NamedTuple):
    """A board's geometry as the core reads it (built by :class:`rhasp.search.geometry.Geometry`).

    Per vehicle ``i``: ``shift[i]`` is where its field starts in a key, ``ones[i]`` the
    field's mask (all ones of its width: ``gone`` for a target, since only targets leave),
    ``last[i]`` its last position, ``exit_behind[i]``/``exit_ahead[i]`` whether it leaves
    through the edge at position 0 or ``last``. Per vehicle and position ``p`` (index
    ``i * stride + p``): ``masks`` its cells, ``behind``/``ahead`` the cell it enters moving
    from ``p`` to ``p - 1`` or ``p + 1``, ``near`` both (nothing for ``gone``). The goal:
    every target ``j`` has position ``goal_pos[j]`` in its field at ``goal_shift[j]``.
    """

    count: int
    gone: int
    stride: int
    walls: int
    shift: Ints
    ones: Ints
    last: Ints
    exit_behind: Ints
    exit_ahead: Ints
    masks: Ints
    behind: Ints
    ahead: Ints
    near: Ints
    goal_shift: Ints
    goal_pos: Ints


def new_buffer(size: int) -> Buffer:
    """Scratch room for one state's successors (compiled: numpy's int64 zeros)."""
    return [0] * size


def key_buffer(size: int, like: int) -> Buffer:
    """Scratch room for ``size`` keys of the same form as ``like`` (compiled: int64 zeros for
    one-word keys, a list of tuples for wider ones)."""
    return [like] * size


# A key or a set of cells is one integer here (of any size); compiled, one int64 word, or a
# tuple of words for the boards it outgrows (``jit`` twins each function below for both). The
# core reads and changes keys and cells through these functions only, never with the
# operators themselves, so that the same source runs on every board.


def field(key: int, shift: int, ones: int) -> int:
    """The field of ``key`` that starts at bit ``shift``, ``ones`` its mask: a vehicle's
    position (or ``gone``)."""
    return (key >> shift) & ones


def moved(key: int, shift: int, delta: int) -> int:
    """``key`` with its field at ``shift`` changed by ``delta`` (never past the field)."""
    return key + delta * (1 << shift)


def above(key: int, shift: int) -> int:
    """The fields of ``key`` from bit ``shift`` up, comparable with :func:`less`."""
    return key >> shift


def less(a: int, b: int) -> bool:
    """Whether ``a`` is smaller than ``b`` as a number (two keys, or two sets of cells)."""
    return a < b


def words(key: int) -> int:
    """How many words ``key`` takes in a table of keys (:func:`put_key`): one here."""
    return 1


def spread(key: int) -> int:
    """``key``'s hash, its bits well spread from bit 32 up: keys are well-mixed integers
    already, so one multiplication (by :data:`SPREAD`) does."""
    return (key * SPREAD) >> 32


def put_key(table: Buffer, at: int, key: int) -> None:
    """Write ``key`` at ``table[at]`` (and the words after it, :func:`words`)."""
    table[at] = key


def holds_key(table: Buffer, at: int, key: int) -> bool:
    """Whether ``table[at]`` (and the words after it) hold ``key``."""
    return table[at] == key


def key_at(table: Buffer, at: int, like: int) -> int:
    """The key written at ``table[at]``, of the same form as ``like``."""
    return table[at]


# The table of keys, for a cluster's states and their indices (``clusters.explore``, both ways;
# BFS and A* keep their states in :mod:`rhasp.search.store`):
# open addressing with linear probing in one buffer, kept at most half full. A slot is
# ``width`` words: a key's (its first word EMPTY_SLOT where free) and what is kept beside it,
# if anything. Its users know how many keys it holds (their lists of states).

EMPTY_SLOT = -1  # no key's first word is negative: fields keep off bit 63


def key_table(slots: int, width: int) -> Buffer:
    """Room for ``slots`` (a power of two) slots of ``width`` words, all free."""
    table = new_buffer(slots * width)
    for slot in range(slots):
        table[width * slot] = EMPTY_SLOT
    return table


def slot_of(table: Buffer, key: int, width: int) -> int:
    """Where ``key``'s slot begins in ``table`` (slots of ``width`` words) when it is there;
    else it is put in a free slot, and the answer is ``-1 -`` where that slot begins."""
    mask = len(table) // width - 1
    slot = spread(key) & mask
    while table[width * slot] != EMPTY_SLOT:
        if holds_key(table, width * slot, key):
            return width * slot
        slot = (slot + 1) & mask
    put_key(table, width * slot, key)
    return -1 - width * slot


def has_room(table: Buffer, keys: int, width: int) -> bool:
    """Whether ``table`` (slots of ``width`` words) holds ``keys`` keys and is at most half
    full: else it is grown first (:func:`grown_table`)."""
    return 2 * width * keys <= len(table)


def grown_table(table: Buffer, width: int, like: int) -> Buffer:
    """The same slots (keys of the same form as ``like``, and what each keeps beside it) in a
    table of four times as many."""
    slots = len(table) // width
    grown = key_table(4 * slots, width)
    for slot in range(slots):
        at = width * slot
        if table[at] != EMPTY_SLOT:
            there = -1 - slot_of(grown, key_at(table, at, like), width)
            for k in range(words(like), width):
                grown[there + k] = table[at + k]
    return grown


def no_cells(like: int) -> int:
    """The empty set of cells, of the same form as ``like``."""
    return 0


def cells_at(table: Ints, index: int) -> int:
    """The set of cells at ``index`` of one of :class:`Tables`' cell tables."""
    return table[index]


def joined(a: int, b: int) -> int:
    """The cells of ``a`` or ``b``."""
    return a | b


def without(a: int, b: int) -> int:
    """The cells of ``a`` not in ``b``."""
    return a & ~b


def meet(a: int, b: int) -> bool:
    """Whether ``a`` and ``b`` share a cell."""
    return a & b != 0


def within(a: int, b: int) -> bool:
    """Whether every cell of ``a`` is in ``b``."""
    return a & ~b == 0


def fill_rows(
    masks: Buffer,
    behind: Buffer,
    ahead: Buffer,
    near: Buffer,
    base: int,
    first: int,
    step: int,
    length: int,
    last: int,
) -> None:
    """Fill one vehicle's rows of :class:`Tables` from ``base`` on, position by position: its
    cells, the cell it enters moving back or ahead, and both. The vehicle covers cells
    ``first + c * step`` (``c < length``) at position 0 and moves ``step`` bits a position, up
    to ``last``. The one place where a board's tables are worked out, for a puzzle's
    geometry and for every layout of the enumeration alike."""
    shape = 0
    for c in range(length):
        shape |= 1 << (first + c * step)
    for p in range(last + 1):
        masks[base + p] = shape << (p * step)
        behind[base + p] = 1 << (first + (p - 1) * step) if p > 0 else 0
        ahead[base + p] = 1 << (first + (p + length) * step) if p < last else 0
        near[base + p] = behind[base + p] | ahead[base + p]


def occupancy(g: Tables, key: int) -> int:
    """The occupied cells of state ``key``: the walls and every vehicle's cells."""
    masks, shift, ones, stride = g.masks, g.shift, g.ones, g.stride
    occupied = g.walls
    for i in range(g.count):
        occupied = joined(occupied, cells_at(masks, i * stride + field(key, shift[i], ones[i])))
    return occupied


def solved(g: Tables, key: int) -> bool:
    for j in range(len(g.goal_shift)):
        if field(key, g.goal_shift[j], g.gone) != g.goal_pos[j]:
            return False
    return True


def successors(g: Tables, key: int, skip: int, keys: Buffer, slides: Buffer, movers: Buffer) -> int:
    """Fill ``keys``, ``slides`` and ``movers`` (the vehicle moved) with every legal move from
    ``key`` of every vehicle but ``skip``; return how many.

    Vehicle by vehicle, backwards then forwards, nearest first: the order the readable model
    lists its moves in, so that both find the same plan.
    """
    occupied = occupancy(g, key)
    shift, ones, last, gone, stride = g.shift, g.ones, g.last, g.gone, g.stride
    behind, ahead, near = g.behind, g.ahead, g.near
    exit_behind, exit_ahead = g.exit_behind, g.exit_ahead
    found = 0
    for i in range(g.count):
        base = i * stride
        p = field(key, shift[i], ones[i])
        if i == skip or within(cells_at(near, base + p), occupied):  # boxed in (or gone)
            continue
        q = p
        while q > 0 and not meet(cells_at(behind, base + q), occupied):
            q -= 1
            keys[found] = moved(key, shift[i], q - p)
            slides[found] = p - q
            movers[found] = i
            found += 1
        if q == 0 < p and exit_behind[i]:  # it reached its exit edge: it leaves instead
            keys[found - 1] = moved(key, shift[i], gone - p)
        end = last[i]
        q = p
        while q < end and not meet(cells_at(ahead, base + q), occupied):
            q += 1
            keys[found] = moved(key, shift[i], q - p)
            slides[found] = q - p
            movers[found] = i
            found += 1
        if q == end > p and exit_ahead[i]:
            keys[found - 1] = moved(key, shift[i], gone - p)
    return found


def most_successors(g: Tables) -> int:
    """Room enough for any state's successors: every vehicle's every other position."""
    room = 1
    for i in range(g.count):
        room += g.last[i]
    return room


def buffers(g: Tables, like: int) -> tuple[Buffer, Buffer, Buffer]:
    """Scratch room for :func:`successors`' keys (of the same form as ``like``), slides and
    movers."""
    room = most_successors(g)
    return key_buffer(room, like), new_buffer(room), new_buffer(room)


#: Breadth-first searches skip the vehicle that made a state's last move: any move of it from
#: there is one move from the state before (the cells it crosses were clear), so it leads to a
#: state already found, one layer up at most. Only the work of looking it up is saved; the
#: states and their order are the same. (Dijkstra's costs do not allow this: NO_SKIP.)
NO_SKIP = -1


def breadth_first(
    g: Tables, first: int, max_states: int, watch: Buffer, stop_at_goal: bool, with_links: bool
) -> tuple[int, int, list[int]]:
    """States from ``first`` in breadth-first order.

    Returns (index of the first goal state found, or NOT_FOUND or BUDGET; the states found;
    the keys of a shortest path from ``first`` to that goal, empty without ``with_links``).
    With ``stop_at_goal`` it stops at that goal, else it visits every reachable state.
    """
    max_states = min(max_states, store.MOST_STATES)
    order = store.key_store(first)  # every state's key, in breadth-first order
    parent = store.small_store(-1)  # with links: the place of the state each was found from
    found_by = store.byte_store(NO_SKIP)  # the vehicle whose move found each (see NO_SKIP)
    seen = store.seen_set(order, first)
    states = 1
    goal = 0 if solved(g, first) else NOT_FOUND
    keys, slides, movers = buffers(g, first)
    first_shift, first_pos = quick_goal_test(g)
    done = 0
    depth, layer_end = 0, 1  # the layer being expanded ends before place layer_end
    while done < states and not (stop_at_goal and goal >= 0):
        if done == layer_end:
            depth, layer_end = depth + 1, states
        if post_progress(watch, states, depth, max_states):
            return BUDGET, states, [first][:0]
        if store.set_full(seen, states + len(keys)):
            seen = store.no_set(seen)  # let go before the new one is made
            seen = store.rebuilt_set(seen, order, states, first)
        here = store.key_of(order, done, first)
        n = successors(g, here, store.value_of(found_by, done), keys, slides, movers)
        for j in range(n):
            after = keys[j]
            if store.add_new(seen, order, after, states):
                store.add_key(order, states, after)
                store.add_value(found_by, states, movers[j])
                if with_links:
                    store.add_value(parent, states, done)
                states += 1
                if goal < 0 and field(after, first_shift, g.gone) == first_pos and solved(g, after):
                    goal = states - 1
                    if stop_at_goal:
                        break
        done += 1
    path = [first][:0]
    if goal >= 0 and with_links:
        path = store.stored_path(order, parent, goal, first)
    return goal, states, path


def quick_goal_test(g: Tables) -> tuple[int, int]:
    """The first target's field and goal position, a test cheaper than :func:`solved` that
    every goal passes; with no target left on the board every state is a goal, the start
    among them, so the test is never asked for (and the tables hold no target to read)."""
    if len(g.goal_shift) == 0:
        return 0, 0
    return g.goal_shift[0], g.goal_pos[0]


def post_progress(watch: Buffer, states: int, depth: int, max_states: int) -> bool:
    """Post the search's progress on ``watch``; whether it must stop (past max_states, or at
    its stop mark)."""
    watch[STATES] = states
    watch[DEPTH] = depth
    return states > max_states or stop_asked(watch, states)


def stop_asked(watch: Buffer, states: int) -> bool:
    """Whether ``watch``'s stop mark asks a search that has found ``states`` states to stop
    (1: at once, whatever it has found)."""
    mark = watch[STOP]
    return mark == 1 or (mark != 0 and states >= mark)


def cheapest(g: Tables, first: int, max_states: int, watch: Buffer) -> tuple[int, int, list[int]]:
    """Dijkstra over whole moves, cost (slides, moves): fewest slides, then fewest moves.
    :func:`best_first` with no bound (which is what Dijkstra's search is).

    Returns (the goal's index, or NOT_FOUND or BUDGET; the states reached; the keys of the
    cheapest path to the goal).
    """
    return best_first(g, first, max_states, watch, True, False, no_patterns())


def best_first(
    g: Tables,
    first: int,
    max_states: int,
    watch: Buffer,
    by_slides: bool,
    bounded: bool = True,
    patterns: Patterns | None = None,
    weight: int = 1,
    estimated: bool = False,
) -> tuple[int, int, list[int]]:
    """A*: Dijkstra's search over whole moves (cost: slides, then moves; or moves alone), each
    state queued by its cost so far plus :func:`bound_of` (with ``bounded``: the larger of
    :func:`lower_bound` and the ``patterns``' fewest moves), so that states that cannot lead
    to a shorter plan are never expanded. The bound is admissible and consistent (see there),
    so the first goal taken from the queue is optimal, as in Dijkstra's search (of equal
    f-values, the state queued last is taken first: :func:`rhasp.search.store.f_queue`); the watch's
    depth is the smallest f-value still queued (moves, or slides). With ``weight`` above 1,
    weighted A*: the bound counts ``weight`` times, so the first goal taken is a plan at most
    ``weight`` times the optimum, found in far fewer states, and the watch's depth is no
    lower bound. With ``estimated`` too, each state's bound is raised to :func:`estimate`
    where that is larger: a search for *a* plan (the anytime search), no longer within
    ``weight`` times the optimum, that follows the chain of vehicles in the way where the
    bound sees only the first of them. Each state is expanded once: with the bound consistent,
    none is reached more cheaply after its expansion; weighted A* that expands none again
    stays within ``weight`` times the optimum all the same (Likhachev, Gordon and Thrun,
    ARA*, 2003: each state expanded has a cost within ``weight`` times its fewest).

    Returns (the goal's index, or NOT_FOUND or BUDGET; the states reached; the keys of the
    optimal path to the goal, :func:`cheapest_path`).
    """
    unit = WEIGHT if by_slides else 1
    targets = target_vehicles(g)
    if patterns is None:
        patterns = no_patterns()
    first_bound = bound_of(g, targets, first, by_slides, patterns) if bounded else 0
    if estimated and first_bound >= 0:
        first_bound = max(first_bound, estimate(g, targets, first))
    if first_bound < 0:
        return NOT_FOUND, 1, [first][:0]
    max_states = min(max_states, store.MOST_STATES)
    keys = store.key_store(first)  # every state's key, in the order first reached
    # Its cost so far (moves; or slides * WEIGHT + moves), written ~cost (negative) once it is
    # expanded (closed: see below); neither the state it came from nor its bound is kept.
    cost = store.small_store(0)
    index = store.key_index(keys, first)
    states = 1
    queue = store.f_queue(first_bound * unit * weight, 0)
    after_keys, slides, movers = buffers(g, first)
    while not store.queue_empty(queue):
        f, here = store.queue_pop(queue)
        spent = store.value_of(cost, here)
        if spent < 0:
            continue  # expanded already, from this entry's cheaper twin
        key = store.key_of(keys, here, first)
        if solved(g, key):
            return here, states, cheapest_path(g, keys, index, cost, here, first, by_slides)
        if post_progress(watch, states, f // unit, max_states):
            return BUDGET, states, [first][:0]
        store.set_value(cost, here, ~spent)
        if store.index_full(index, states + len(slides)):
            index = store.no_index(index)  # let go before the new one is made
            index = store.rebuilt_index(index, keys, states, first)
        n = successors(g, key, NO_SKIP, after_keys, slides, movers)
        for j in range(n):
            new = spent + (slides[j] * WEIGHT + 1 if by_slides else 1)
            there = store.place_of(index, keys, after_keys[j])
            if there >= 0 and not 0 <= new < store.value_of(cost, there):
                continue  # expanded already, or reached as cheaply
            left = bound_of(g, targets, after_keys[j], by_slides, patterns) if bounded else 0
            if left < 0:
                continue  # a wall on a target's way out: no plan through this state
            if estimated:
                left = max(left, estimate(g, targets, after_keys[j]))
            if there < 0:
                store.remember(index, after_keys[j], there, states)
                there, states = states, states + 1
                store.add_key(keys, there, after_keys[j])
                store.add_value(cost, there, new)
            else:
                store.set_value(cost, there, new)
            store.queue_push(queue, new + left * unit * weight, there)
    return NOT_FOUND, states, [first][:0]


# A* keeps no state's parent: the plan is found again from the costs. Soundness: every cost
# stored is that of a real path (the cost of the state it was reached from, then expanded,
# plus the move), and an expanded state's cost never changes again. So every state but the
# start has a neighbour ``p`` with ``cost(p) + move <= cost(state)`` (the one its cost was last
# set from, at least), found by trying every vehicle at every other position; any such ``p``
# will do, its cost being a real path's too. Costs fall at each step back, so the walk ends at
# the start (the one state of cost 0), and the plan costs no more than the state it ends at:
# the optimum, where A* proves one. A move can take a target off the board, which no move
# brings back, so a step back is tried as a move forward from each candidate
# (:func:`successors`), never as the reverse move.


def cheapest_path(
    g: Tables, keys: Buffer, index: Buffer, cost: Buffer, place: int, like: int, by_slides: bool
) -> list[int]:
    """The keys from the start of an A* search (place 0 of ``keys``) to the state at
    ``place``, by the search's ``index`` and ``cost`` (see above), at most its cost."""
    after_keys, slides, movers = buffers(g, like)
    path = [store.key_of(keys, place, like)]
    while place != 0:
        place = step_back(g, keys, index, cost, place, like, by_slides, after_keys, slides, movers)
        if place < 0:
            raise AssertionError("A* found no way back from a state it reached")
        path.append(store.key_of(keys, place, like))
    path.reverse()
    return path


def step_back(
    g: Tables,
    keys: Buffer,
    index: Buffer,
    cost: Buffer,
    place: int,
    like: int,
    by_slides: bool,
    after_keys: Buffer,
    slides: Buffer,
    movers: Buffer,
) -> int:
    """The place of a state one move from which reaches the state at ``place`` for no more
    than the difference of their costs (see above); -1 where there is none. ``after_keys``,
    ``slides`` and ``movers``: scratch room for :func:`successors`."""
    key, spent = store.key_of(keys, place, like), cost_of(cost, place)
    for i in range(g.count):
        at = field(key, g.shift[i], g.ones[i])
        for p in range(g.last[i] + 1):
            if p == at:
                continue
            before = moved(key, g.shift[i], p - at)
            there = store.place_of(index, keys, before)
            if there < 0:
                continue  # no state the search reached
            n = successors(g, before, NO_SKIP, after_keys, slides, movers)
            for j in range(n):
                step = slides[j] * WEIGHT + 1 if by_slides else 1
                same = not less(after_keys[j], key) and not less(key, after_keys[j])
                if same and cost_of(cost, there) + step <= spent:
                    return there
    return -1


def cost_of(cost: Buffer, place: int) -> int:
    """The cost A* stored for the state at ``place``, expanded or not."""
    value = store.value_of(cost, place)
    return ~value if value < 0 else value


class Patterns(NamedTuple):
    """Pattern databases as A* looks them up (built, and argued a lower bound, in
    :mod:`rhasp.search.pattern_bound`). Pattern ``k`` keeps the vehicles whose fields start
    at ``shift[v]`` (of mask ``ones[v]``), ``v`` from ``first[k]`` to ``first[k + 1] - 1``:
    their fields give an index (the sum of field × ``radix[v]``), found by binary search
    among the sorted ``index[base[k]:base[k + 1]]``, where ``moves`` holds the pattern's
    fewest moves (-1: none). Sequences of int64 (numpy arrays) both ways, read through
    ``int()``."""

    first: Ints
    shift: Ints
    ones: Ints
    radix: Ints
    base: Ints
    index: Ints
    moves: Ints


def no_patterns() -> Patterns:
    """No pattern at all: :func:`pattern_bound` is 0 everywhere. Lists here, so that a small
    search, run uncompiled, loads no numpy (nor, under a memory cap, OpenBLAS's threads); the
    compiled core is given int64 arrays (``jit.patterns``, by ``compiled.way``)."""
    nothing = new_buffer(0)
    return Patterns(new_buffer(1), nothing, nothing, nothing, new_buffer(1), nothing, nothing)


def bound_of(g: Tables, targets: list[int], key: int, by_slides: bool, patterns: Patterns) -> int:
    """A*'s bound: the larger of :func:`lower_bound` and :func:`pattern_bound` (-1 when
    either says no plan is left). Both are admissible and consistent, and so is their
    larger: by moves each changes by at most 1 a move; by slides the patterns' moves count
    one slide each (a move slides at least one cell), the units of ``best_first``."""
    left = lower_bound(g, targets, key, by_slides)
    if left < 0 or len(targets) != 1:
        return left
    by_pattern = pattern_bound(patterns, key, g.shift[targets[0]], g.gone)
    return -1 if by_pattern < 0 else max(left, by_pattern)


def pattern_bound(p: Patterns, key: int, target_shift: int, gone: int) -> int:
    """The most of the patterns' fewest moves from ``key``: 0 once the target (its field at
    ``target_shift``) has left (or for a key no pattern holds), -1 when a pattern has no plan
    from it. Called for every state A* meets: given the few numbers it reads, not the board's
    tables (numba passes every array of them, compiled, at each call)."""
    if field(key, target_shift, gone) == gone:
        return 0
    most = 0
    for k in range(len(p.base) - 1):
        index = 0
        for v in range(int(p.first[k]), int(p.first[k + 1])):
            index += field(key, int(p.shift[v]), int(p.ones[v])) * int(p.radix[v])
        low, high = int(p.base[k]), int(p.base[k + 1])
        while low < high:  # the first of the pattern's indices not below ``index``
            middle = (low + high) // 2
            if int(p.index[middle]) < index:
                low = middle + 1
            else:
                high = middle
        if low < int(p.base[k + 1]) and int(p.index[low]) == index:
            moves = int(p.moves[low])
            if moves < 0:
                return -1
            most = max(most, moves)
    return most


def target_vehicles(g: Tables) -> list[int]:
    """The vehicle of each target (the one whose field is the target's)."""
    found = []
    for j in range(len(g.goal_shift)):
        for i in range(g.count):
            if g.shift[i] == g.goal_shift[j]:
                found.append(i)
    return found


def lower_bound(g: Tables, targets: list[int], key: int, by_slides: bool) -> int:
    """At least this many moves (or slides) are left from ``key``; -1 when no plan is left.

    Every target still on the board must move: one move, or by slides the cells of its way
    out (:func:`way_out`) one a slide. So must every other vehicle across a target's way
    (the target cannot pass it): one move, or by slides the fewest cells that take it off
    that way (:func:`clearing`). Each move moves one vehicle, so the parts add up; a vehicle
    across the ways of two targets counts once, with the larger need (it may clear each way
    at a different time). No plan is left when a wall is on a target's way, or a vehicle
    across it has no position off it.

    Admissible, then; and consistent: one move changes the bound by at most its own cost. A
    target moves only through free cells, so it never passes a vehicle on its way out, and
    its way only shrinks as it nears its exit (a target that leaves had an empty way); a
    blocker's k slides change its need by at most k (by moves, it stays or leaves the set
    of vehicles that must move); a target's k slides shorten its way by at most k.

    The state memo (:mod:`rhasp.engines.memo`) tabulates this same bound per position, from
    :func:`way_out`, :func:`own_need` and :func:`blocker_need`, so that the ASP search and A*
    prune by one definition.
    """
    occupied = occupancy(g, key)
    across = [0] * g.count  # per vehicle, the most it must move for any target's way
    left = 0
    for t in targets:
        p = field(key, g.shift[t], g.gone)
        if p == g.gone:
            continue  # left already
        way = way_out(g, t, p)
        if meet(way, g.walls):
            return -1
        left += own_need(g, t, p, by_slides)
        if not meet(way, occupied):
            continue
        for i in range(g.count):
            if is_target(targets, i):
                continue
            need = blocker_need(g, i, field(key, g.shift[i], g.ones[i]), way, by_slides)
            if need < 0:
                return -1
            if need > across[i]:
                across[i] = need
    for need in across:
        left += need
    return left


def way_out(g: Tables, t: int, p: int) -> int:
    """The cells target ``t`` at position ``p`` must still cross to reach its exit edge."""
    base = t * g.stride
    way = no_cells(g.walls)
    if g.exit_ahead[t]:
        for q in range(p + 1, g.last[t] + 1):
            way = joined(way, cells_at(g.masks, base + q))
    else:
        for q in range(p):
            way = joined(way, cells_at(g.masks, base + q))
    return without(way, cells_at(g.masks, base + p))


def own_need(g: Tables, t: int, p: int, by_slides: bool) -> int:
    """What target ``t`` at position ``p`` needs itself: one move, or a slide a cell of its
    way out."""
    if not by_slides:
        return 1
    return g.last[t] - p if g.exit_ahead[t] else p


def blocker_need(g: Tables, i: int, p: int, way: int, by_slides: bool) -> int:
    """What vehicle ``i`` at position ``p`` needs to stand off ``way``: nothing, one move, or
    by slides :func:`clearing`; -1 if it never can."""
    cells = clearing(g, i, p, way)
    return cells if by_slides or cells <= 0 else 1


def clearing(g: Tables, i: int, p: int, way: int) -> int:
    """The fewest cells vehicle ``i`` at position ``p`` must slide along its line to stand
    off ``way`` (0 if it does already), or -1 if no position of its line does."""
    base = i * g.stride
    if not meet(cells_at(g.masks, base + p), way):
        return 0
    for distance in range(1, g.last[i] + 1):
        for q in (p - distance, p + distance):
            if 0 <= q <= g.last[i] and not meet(cells_at(g.masks, base + q), way):
                return distance
    return -1


def estimate(g: Tables, targets: list[int], key: int) -> int:
    """An estimate of the moves left from ``key``, by moves: **not a bound** (it may count
    more than a plan takes), for a search after any plan (``best_first``'s ``estimated``).

    :func:`lower_bound` counts the targets and the vehicles across their ways out; this
    follows the chain on. Each vehicle in the chain must free some cells (a target's way,
    or the room the vehicle that needs it moves into): of the nearest position of its line
    that stands off them in each direction, it takes the one whose cells on the way there
    hold fewer vehicles not counted yet. A direction is closed by a wall, the edge, or the
    cells of a vehicle that waits for this one (those free only after it has moved). The
    vehicles in the room it takes join the chain, needing that room freed. Every vehicle
    counts once, one move each: the targets, then the chain. On a crowded board, where the
    bound stays at the few vehicles across the way while the plan must first clear the room
    they move into (say a row of vehicles packed end to end, moved one by one), this counts
    them all."""
    counted = [False] * g.count
    walls = g.walls
    here = [cells_of(g, key, i) for i in range(g.count)]
    total = 0
    chain = [-1]  # the vehicles to move, in the order found (from index 1 on); for each,
    needs = [no_cells(walls)]  # the cells it must free,
    held = [no_cells(walls)]  # and the cells of the vehicles that wait for it
    for t in targets:
        p = field(key, g.shift[t], g.gone)
        counted[t] = True
        if p == g.gone:
            continue  # left already
        way = way_out(g, t, p)
        total += 1 + enlisted(here, way, here[t], counted, chain, needs, held)
    k = 1
    while k < len(chain):
        i, need, waiting = chain[k], needs[k], held[k]
        k += 1
        base, p = i * g.stride, field(key, g.shift[i], g.ones[i])
        own = here[i]
        fewest, room = g.count + 1, no_cells(walls)
        for step in (-1, 1):
            swept, q = no_cells(walls), p + step
            while 0 <= q <= g.last[i]:
                cells = cells_at(g.masks, base + q)
                if meet(cells, walls) or meet(cells, waiting):
                    break
                swept = joined(swept, cells)
                if not meet(cells, need):
                    there = without(swept, own)
                    new = 0
                    for j in range(g.count):
                        if not counted[j] and meet(here[j], there):
                            new += 1
                    if new < fewest:
                        fewest, room = new, there
                    break
                q += step
        if fewest <= g.count:  # else no position off those cells: it counts, nothing more
            total += enlisted(here, room, joined(waiting, own), counted, chain, needs, held)
    return total


def enlisted(
    here: list[int],
    cells: int,
    waiting: int,
    counted: list[bool],
    chain: list[int],
    needs: list[int],
    held: list[int],
) -> int:
    """How many vehicles not counted yet stand on ``cells``, each now counted and added to
    :func:`estimate`'s chain, needing ``cells`` freed while the ``waiting`` cells stay."""
    added = 0
    for j in range(len(here)):
        if not counted[j] and meet(here[j], cells):
            counted[j] = True
            added += 1
            chain.append(j)
            needs.append(cells)
            held.append(waiting)
    return added


def cells_of(g: Tables, key: int, i: int) -> int:
    """The cells of vehicle ``i`` in state ``key`` (none for a target that has left: the
    tables' row for ``gone`` is empty, as :func:`occupancy` reads them too)."""
    return cells_at(g.masks, i * g.stride + field(key, g.shift[i], g.ones[i]))


def is_target(targets: list[int], i: int) -> bool:
    for t in targets:  # noqa: SIM110 (numba compiles no generator expression)
        if t == i:
            return True
    return False


def field_bits(last: int) -> int:
    """Bits of a key's field for positions 0 to ``last`` with ``gone`` (all ones) above them."""
    bits = 1
    while (1 << bits) - 1 <= last:  # numba has no int.bit_length
        bits += 1
    return bits
