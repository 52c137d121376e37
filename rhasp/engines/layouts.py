"""Every layout of a board, once per cluster: the search core of ``rhasp enumerate``.

Like :mod:`rhasp.engines.core`, this is plain Python in the subset numba compiles, one source
run two ways (:mod:`rhasp.engines.jit` compiles it; tests also run it as it stands). The
definitions it implements are the puzzle database's, spelled out in the README ("rhasp
enumerate"); this docstring says why the search finds each cluster exactly once.

**Layouts line by line.** A board has ``2 * size`` lines: the exit row, the other rows top to
bottom, then the columns left to right. Each line has a list of *entries*, every way its own
pieces (horizontal vehicles and walls in a row, vertical vehicles in a column) can stand in it
(built by :mod:`rhasp.enumeration`). A layout picks one entry per line, depth first in that
order, such that no two overlap. The order of the pieces so picked is the database's lettering:
target ``A``, walls of the exit row, the rows' pieces, then the columns'.

**One layout per cluster.** States are ordered by (cells of horizontal vehicles, cells of
vertical vehicles), each read as a binary number with the top-left cell as its lowest bit.
Sliding a horizontal vehicle left, or a vertical one up, makes a state smaller, so a cluster's
least state has every vehicle *packed*: blocked on its left (or top) by the edge, a wall or
another vehicle. Each entry carries the cells its vehicles need occupied on that side
(``require``); the columns, placed last, must cover what the rows require and find what they
require already covered. So only packed layouts are visited, the least state of every cluster
among them, and a cluster is kept only from its least state: its exploration stops at once
when a smaller state turns up (:func:`explore_if_least`). With ``from_goals`` (the default of
``rhasp enumerate``), the exit row holds the target at its exit only and the target need not
be packed: every solvable cluster's least *goal* state is such a layout (moving any other
vehicle up or left keeps the target at the exit and makes a smaller goal state), and only
goal states are compared, so unsolvable clusters are never visited, and half the work is.

**Distances without a second search.** The exploration keeps every state's moves (as lists
of neighbour indices), so the moves from each state to the nearest goal come from one
breadth-first search over those lists from all goal states at once, and one optimal way down
from the hardest state is a walk down the distances.

**What is kept.** A cluster whose least state is the layout, with a goal (the target at its
exit edge, targets staying on the board), gives its hardest state: the farthest in moves from
the nearest goal, ties to the least in the order above. It is a puzzle of the database when it
is *minimal*: removing any vehicle or wall but the target shortens its solution. A vehicle that
moves in one optimal plan is needed (the plan without its moves would be shorter), so only the
others, and each wall, are removed and solved again.
"""

from __future__ import annotations

from typing import NamedTuple

from rhasp.engines import core

# What a layout's exploration returns instead of a count.
NOT_LEAST = -3  # a smaller state of the cluster turned up: the cluster is kept elsewhere

# The kinds of piece in an entry.
HORIZONTAL, VERTICAL, WALL = 0, 1, 2

# The shard's tallies (see :func:`enumerate_shard`).
LAYOUTS, LEAST, SOLVABLE, PUZZLES = 0, 1, 2, 3
TALLIES = 4

# Each puzzle found is ``2 + size * size`` numbers: moves, cluster size, then the board's
# characters (``o`` empty, ``x`` walls, letters in piece order).
EMPTY_CELL, WALL_CELL, FIRST_LETTER = ord("o"), ord("x"), ord("A")


class Lines(NamedTuple):
    """A board's lines and their entries, as the enumeration reads them (built by
    :func:`rhasp.enumeration.line_tables`).

    Line ``l`` has entries ``line_first[l]`` to ``line_first[l + 1] - 1``. Entry ``e`` covers
    ``mask[e]``, needs ``require[e]`` covered by others, holds ``vehicles[e]`` vehicles and
    ``walls[e]`` walls, and its pieces are ``piece_first[e]`` to ``piece_first[e + 1] - 1``:
    each a first cell (``row * size + col``), a length and a kind. ``column[l]`` is the cells
    of line ``l`` when it is a column, else 0.
    """

    size: int
    line_first: core.Ints  # each: a tuple of Python ints, or an int64 numpy array
    column: core.Ints
    mask: core.Ints
    require: core.Ints
    vehicles: core.Ints
    walls: core.Ints
    piece_first: core.Ints
    piece_cell: core.Ints
    piece_length: core.Ints
    piece_kind: core.Ints


class Limits(NamedTuple):
    """What one shard keeps and how far its searches may go."""

    min_vehicles: int
    max_vehicles: int
    min_walls: int
    max_walls: int
    from_goals: int  # 1: start from goal layouts only (module docstring)
    budget: int  # states one cluster search may reach


class Scratch(NamedTuple):
    """Room reused by every layout of a shard: its pieces, and its geometry's tables."""

    cell: core.Buffer
    length: core.Buffer
    kind: core.Buffer
    vehicle: core.Buffer  # the piece of each vehicle
    horizontal: core.Buffer  # per vehicle
    tables: core.Tables


def bits_for(size: int) -> int:
    """Bits of a vehicle's field in a key: room for every position along a line of ``size``."""
    bits = 0
    while (1 << bits) < size:  # numba has no int.bit_length
        bits += 1
    return bits


def scratch(size: int) -> Scratch:
    """Room for any layout of a ``size`` board: no more pieces than cells."""
    cells = size * size
    stride = 1 << bits_for(size)
    tables = core.Tables(
        0,
        stride - 1,
        stride,
        0,
        core.new_buffer(cells),
        core.new_buffer(cells),
        core.new_buffer(cells),
        core.new_buffer(cells),
        core.new_buffer(cells * stride),
        core.new_buffer(cells * stride),
        core.new_buffer(cells * stride),
        core.new_buffer(cells * stride),
        core.new_buffer(1),
        core.new_buffer(1),
    )
    return Scratch(
        core.new_buffer(cells),
        core.new_buffer(cells),
        core.new_buffer(cells),
        core.new_buffer(cells),
        core.new_buffer(cells),
        tables,
    )


def enumerate_shard(
    lines: Lines, prefix: core.Buffer, limits: Limits, watch: core.Buffer
) -> tuple[int, list[int], list[int]]:
    """Every layout that starts with the entries ``prefix`` (one per line, from the first),
    each explored if it is its cluster's least state.

    Returns (0, or BUDGET when a cluster outgrew ``limits.budget``; the tallies, TALLIES
    numbers: layouts, least states, solvable clusters, puzzles; the puzzles found, each
    ``2 + size * size`` numbers, see :data:`EMPTY_CELL`).
    """
    count = len(lines.line_first) - 1
    room = scratch(lines.size)
    tallies = [0] * TALLIES
    found = [0]
    found.pop()
    chosen = [0] * count
    occupied = [0] * (count + 1)
    required = [0] * (count + 1)
    vehicles = [0] * (count + 1)
    walls = [0] * (count + 1)
    level = 0
    for entry in prefix:  # the shard's own lines, each its one entry
        if not _fits(lines, limits, level, entry, occupied, required, vehicles, walls):
            return 0, tallies, found
        chosen[level] = entry
        level += 1
    first = level
    if level == count:  # the prefix is a whole layout
        outcome = 0
        if vehicles[count] >= limits.min_vehicles:
            outcome = _layout(lines, limits, chosen, room, tallies, found, watch)
        return outcome, tallies, found
    chosen[level] = lines.line_first[level] - 1
    while level >= first:
        chosen[level] += 1
        entry = chosen[level]
        if entry >= lines.line_first[level + 1]:
            level -= 1
            continue
        if not _fits(lines, limits, level, entry, occupied, required, vehicles, walls):
            continue
        if level + 1 < count:
            level += 1
            chosen[level] = lines.line_first[level] - 1
        elif vehicles[count] >= limits.min_vehicles:
            outcome = _layout(lines, limits, chosen, room, tallies, found, watch)
            if outcome == core.BUDGET:
                return outcome, tallies, found
    return 0, tallies, found


def _fits(
    lines: Lines,
    limits: Limits,
    level: int,
    entry: int,
    occupied: list[int],
    required: list[int],
    vehicles: list[int],
    walls: list[int],
) -> bool:
    """Whether ``entry`` can stand on line ``level`` after the lines before it; if so, what
    the layout covers, requires and holds after it is noted at ``level + 1``."""
    cells, needs = lines.mask[entry], lines.require[entry]
    if cells & occupied[level]:
        return False
    # In a column, the rows are all placed: what the column's vehicles need above them is
    # there or never will be, and what the rows need in this column only it can cover.
    owed = required[level] & lines.column[level]
    if lines.column[level] and (occupied[level] & needs != needs or cells & owed != owed):
        return False
    held = vehicles[level] + lines.vehicles[entry]
    built = walls[level] + lines.walls[entry]
    if held > limits.max_vehicles or built > limits.max_walls:
        return False
    rows_done = level + 1 == lines.size
    if rows_done and built < limits.min_walls:  # walls stand in rows only
        return False
    occupied[level + 1] = occupied[level] | cells
    required[level + 1] = required[level] | needs
    vehicles[level + 1] = held
    walls[level + 1] = built
    return True


def _layout(
    lines: Lines,
    limits: Limits,
    chosen: list[int],
    room: Scratch,
    tallies: list[int],
    found: list[int],
    watch: core.Buffer,
) -> int:
    """Explore the layout ``chosen``; note it in ``tallies`` and its puzzle, if any, in
    ``found``. BUDGET when its cluster outgrew the budget, else 0."""
    tallies[LAYOUTS] += 1
    pieces = _gather(lines, chosen, room)
    g = _geometry(lines.size, pieces, -1, room)
    start = _start_key(lines.size, g, room)
    reached, order, first_edge, edges = explore_if_least(g, start, room.horizontal, limits, watch)
    if reached == NOT_LEAST:
        return 0
    if reached == core.BUDGET:
        return core.BUDGET
    tallies[LEAST] += 1
    distance, by_distance = goal_distances(g, order, first_edge, edges)
    if len(by_distance) == 0:
        return 0
    tallies[SOLVABLE] += 1
    far = distance[by_distance[-1]]
    last = len(by_distance)
    while last > 0 and distance[by_distance[last - 1]] == far:
        last -= 1
    hardest = by_distance[last]
    for k in range(last + 1, len(by_distance)):
        if precedes(g, order[by_distance[k]], order[hardest], room.horizontal):
            hardest = by_distance[k]
    moved = core.new_buffer(g.count)
    moved_on_the_way(g, hardest, order, distance, first_edge, edges, moved)
    minimal = is_minimal(lines.size, g, order[hardest], far, pieces, moved, room, limits, watch)
    if minimal == core.BUDGET:
        return core.BUDGET
    if minimal:
        tallies[PUZZLES] += 1
        found.append(far)
        found.append(len(order))
        _write_board(lines.size, g, order[hardest], pieces, room, found)
    return 0


def _gather(lines: Lines, chosen: list[int], room: Scratch) -> int:
    """The layout's pieces, in lettering order, into ``room``; how many."""
    pieces = 0
    for level in range(len(chosen)):
        entry = chosen[level]
        for p in range(lines.piece_first[entry], lines.piece_first[entry + 1]):
            room.cell[pieces] = lines.piece_cell[p]
            room.length[pieces] = lines.piece_length[p]
            room.kind[pieces] = lines.piece_kind[p]
            pieces += 1
    return pieces


def _geometry(size: int, pieces: int, skip: int, room: Scratch) -> core.Tables:
    """The tables of the layout in ``room``, without piece ``skip`` (-1: with every piece):
    vehicles in piece order, targets staying on the board, the goal the target (the first
    piece) at its exit edge on the right."""
    t = room.tables
    stride = t.stride
    bits = bits_for(stride)
    walls = 0
    i = 0
    for k in range(pieces):
        if k == skip:
            continue
        cell, length = room.cell[k], room.length[k]
        if room.kind[k] == WALL:
            walls |= 1 << cell
            continue
        across = room.kind[k] == HORIZONTAL
        step = 1 if across else size  # bit distance between neighbour cells
        start = cell - (cell % size if across else (cell // size) * size)  # position 0's cell
        last = size - length
        room.vehicle[i] = k
        room.horizontal[i] = 1 if across else 0
        t.last[i] = last
        t.exit_behind[i] = 0
        t.exit_ahead[i] = 0
        shape = 0
        for c in range(length):
            shape |= 1 << (start + c * step)
        base = i * stride
        for p in range(last + 1):
            t.masks[base + p] = shape << (p * step)
            t.behind[base + p] = 1 << (start + (p - 1) * step) if p > 0 else 0
            t.ahead[base + p] = 1 << (start + (p + length) * step) if p < last else 0
            t.near[base + p] = t.behind[base + p] | t.ahead[base + p]
        i += 1
    _order_fields(i, bits, room)
    t.goal_shift[0] = t.shift[0]
    t.goal_pos[0] = t.last[0]
    return core.Tables(
        i,
        t.gone,
        stride,
        walls,
        t.shift,
        t.last,
        t.exit_behind,
        t.exit_ahead,
        t.masks,
        t.behind,
        t.ahead,
        t.near,
        t.goal_shift,
        t.goal_pos,
    )


def _order_fields(count: int, bits: int, room: Scratch) -> None:
    """Place the vehicles' fields in a key so that keys compare as the horizontal vehicles'
    cells do: vertical vehicles in the low fields, then the horizontal ones by first cell.
    Within a row, the union of its vehicles' cells compares as their positions do from the
    rightmost vehicle on, and a lower row is more significant, so the key's horizontal part
    (:func:`horizontal_shift`) orders states as their horizontal cells do."""
    shift = room.tables.shift
    vertical = 0
    for i in range(count):
        if room.horizontal[i] == 0:
            shift[i] = bits * vertical
            vertical += 1
    for i in range(count):
        if room.horizontal[i]:
            rank = vertical
            for j in range(count):
                if room.horizontal[j] and room.cell[room.vehicle[j]] < room.cell[room.vehicle[i]]:
                    rank += 1
            shift[i] = bits * rank


def _start_key(size: int, g: core.Tables, room: Scratch) -> int:
    """The layout's own state in the tables of :func:`_geometry`."""
    key = 0
    for i in range(g.count):
        cell = room.cell[room.vehicle[i]]
        position = cell % size if room.horizontal[i] else cell // size
        key |= position << g.shift[i]
    return key


def horizontal_shift(g: core.Tables, horizontal: core.Buffer) -> int:
    """Where the horizontal vehicles' fields begin in a key (see :func:`_order_fields`)."""
    lowest = g.shift[0]  # the target is horizontal
    for i in range(g.count):
        if horizontal[i] and g.shift[i] < lowest:
            lowest = g.shift[i]
    return lowest


def vertical_cells(g: core.Tables, key: int, horizontal: core.Buffer) -> int:
    """The cells of the vertical vehicles of state ``key``."""
    cells = 0
    for i in range(g.count):
        if not horizontal[i]:
            cells |= g.masks[i * g.stride + ((key >> g.shift[i]) & g.gone)]
    return cells


def database_order(g: core.Tables, key: int, horizontal: core.Buffer) -> tuple[int, int]:
    """State ``key``'s place in the database's order of states: the cells of its horizontal
    vehicles, then those of its vertical ones, each read as a binary number whose lowest bit
    is the top-left cell (walls, which never move, count in neither). This order breaks ties
    between hardest states, for ``rhasp enumerate``, ``analyze`` and ``hardest`` alike, on
    any board's tables."""
    down = vertical_cells(g, key, horizontal)
    return core.occupancy(g, key) & ~g.walls & ~down, down


def precedes(g: core.Tables, key: int, other: int, horizontal: core.Buffer) -> bool:
    """Whether state ``key`` comes before ``other`` in the database's order of states."""
    across, down = database_order(g, key, horizontal)
    other_across, other_down = database_order(g, other, horizontal)
    return across < other_across or (across == other_across and down < other_down)


def least_of(g: core.Tables, keys: list[int], begin: int, end: int, horizontal: core.Buffer) -> int:
    """The least of ``keys[begin:end]`` in the database's order of states (:func:`precedes`)."""
    best = keys[begin]
    for k in range(begin + 1, end):
        if precedes(g, keys[k], best, horizontal):
            best = keys[k]
    return best


def explore_if_least(
    g: core.Tables, first: int, horizontal: core.Buffer, limits: Limits, watch: core.Buffer
) -> tuple[int, list[int], list[int], list[int]]:
    """``first``'s cluster in breadth-first order, with its moves, unless a state before it
    turns up (a goal state, with ``limits.from_goals``): then NOT_LEAST at once. BUDGET
    beyond the budget.

    Returns (the count, or NOT_LEAST or BUDGET; the states; and the moves as lists of
    neighbours, ``edges[first_edge[i]:first_edge[i + 1]]`` being the indices of state
    ``i``'s). Keeping the moves costs a look-up per move, which finding the states pays
    anyway; the distances then need no second search (:func:`goal_distances`).
    """
    split = horizontal_shift(g, horizontal)
    least = first >> split
    least_down = -1  # the vertical cells of ``first``, once needed
    order = [first]
    first_edge = [0]
    edges = [0]
    edges.pop()
    index = _index_table(128)
    _index_of(index, first, 0)
    keys, slides, movers = core.buffers(g)
    done = 0
    while done < len(order):
        if core.post_progress(watch, len(order), 0, limits.budget):
            return core.BUDGET, order, first_edge, edges
        if 4 * (len(order) + len(keys)) > len(index):  # at most half of the slots taken
            index = _grown(index)
        n = core.successors(g, order[done], core.NO_SKIP, keys, slides, movers)
        for j in range(n):
            after = keys[j]
            at = _index_of(index, after, len(order))
            if at < 0:  # a new state
                if after >> split <= least and (limits.from_goals == 0 or core.solved(g, after)):
                    if after >> split < least:
                        return NOT_LEAST, order, first_edge, edges
                    if least_down < 0:
                        least_down = vertical_cells(g, first, horizontal)
                    if vertical_cells(g, after, horizontal) < least_down:
                        return NOT_LEAST, order, first_edge, edges
                at = len(order)
                order.append(after)
            edges.append(at)
        first_edge.append(len(edges))
        done += 1
    return len(order), order, first_edge, edges


# The states' indices while a cluster is explored: open addressing with linear probing in one
# buffer, each slot a key (EMPTY_SLOT where free) and its index side by side, one memory
# access for both; kept at most half full. Keys are well-mixed integers already: one
# multiplication spreads them.

EMPTY_SLOT = -1  # no key is negative
SPREAD = -7046029254386353131  # 2**64 / golden ratio, as int64


def _index_table(slots: int) -> core.Buffer:
    table = core.new_buffer(2 * slots)
    for slot in range(slots):
        table[2 * slot] = EMPTY_SLOT
    return table


def _index_of(table: core.Buffer, key: int, index: int) -> int:
    """``key``'s index in ``table``; if it is not there, it is put there with ``index``, and
    the answer is -1."""
    mask = len(table) // 2 - 1
    slot = ((key * SPREAD) >> 32) & mask
    while table[2 * slot] != EMPTY_SLOT:
        if table[2 * slot] == key:
            return table[2 * slot + 1]
        slot = (slot + 1) & mask
    table[2 * slot] = key
    table[2 * slot + 1] = index
    return -1


def _grown(table: core.Buffer) -> core.Buffer:
    """The same keys and indices in four times the slots."""
    grown = _index_table(2 * len(table))
    for slot in range(len(table) // 2):
        if table[2 * slot] != EMPTY_SLOT:
            _index_of(grown, table[2 * slot], table[2 * slot + 1])
    return grown


def goal_distances(
    g: core.Tables, order: list[int], first_edge: list[int], edges: list[int]
) -> tuple[list[int], list[int]]:
    """Each state's moves to the nearest goal state (the target at its exit edge), by one
    breadth-first search from all of them over the moves :func:`explore_if_least` kept; and
    the states' indices in the order reached, nearest first. Nothing reached: no goal."""
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


def moved_on_the_way(
    g: core.Tables,
    start: int,
    order: list[int],
    distance: list[int],
    first_edge: list[int],
    edges: list[int],
    moved: core.Buffer,
) -> None:
    """Mark in ``moved`` (per vehicle) every vehicle that moves on one shortest way from state
    ``start`` (an index) to a goal: downhill in ``distance``, a move at a time."""
    i = start
    while distance[i] > 0:
        for e in range(first_edge[i], first_edge[i + 1]):
            j = edges[e]
            if distance[j] == distance[i] - 1:
                for v in range(g.count):
                    if (order[i] >> g.shift[v]) & g.gone != (order[j] >> g.shift[v]) & g.gone:
                        moved[v] = 1
                i = j
                break


def is_minimal(
    size: int,
    g: core.Tables,
    hardest: int,
    moves: int,
    pieces: int,
    moved: core.Buffer,
    room: Scratch,
    limits: Limits,
    watch: core.Buffer,
) -> int:
    """1 if removing any piece but the target from state ``hardest`` (``moves`` from a goal)
    shortens its solution, else 0; BUDGET if a search outgrew the budget. The vehicles that
    move on one optimal way (``moved``, per vehicle) are needed (module docstring): only the
    others are tried.

    The tables of ``g`` live in ``room`` and are rebuilt without each piece in turn, then
    restored."""
    count = g.count
    needed = [0] * pieces
    needed[0] = 1
    position = [0] * pieces  # each vehicle's position in the hardest state, by piece
    for i in range(count):
        position[room.vehicle[i]] = (hardest >> g.shift[i]) & g.gone
        if moved[i]:
            needed[room.vehicle[i]] = 1
    outcome = 1
    # Last piece first: the columns' vertical vehicles, then the rows'. Most clusters are
    # not minimal, and one removal that leaves the length as it is ends the test; tried in
    # this order, it comes sooner (6×6 samples: the whole enumeration 7-15 % faster).
    for k in range(pieces - 1, 0, -1):
        if needed[k]:
            continue
        smaller = _geometry(size, pieces, k, room)
        key = 0
        for i in range(smaller.count):
            key |= position[room.vehicle[i]] << smaller.shift[i]
        goal, _, path = core.breadth_first(smaller, key, limits.budget, watch, True, True)
        if goal == core.BUDGET:
            outcome = core.BUDGET
            break
        if len(path) - 1 == moves:
            outcome = 0
            break
    _geometry(size, pieces, -1, room)
    return outcome


def _write_board(
    size: int, g: core.Tables, key: int, pieces: int, room: Scratch, found: list[int]
) -> None:
    """State ``key`` as a database board, appended to ``found`` a character at a time."""
    board = [EMPTY_CELL] * (size * size)
    for k in range(pieces):
        if room.kind[k] == WALL:
            board[room.cell[k]] = WALL_CELL
    for i in range(g.count):
        cells = g.masks[i * g.stride + ((key >> g.shift[i]) & g.gone)]
        letter = FIRST_LETTER + room.vehicle[i]
        for c in range(size * size):
            if (cells >> c) & 1:
                board[c] = letter
    for c in range(size * size):
        found.append(board[c])
