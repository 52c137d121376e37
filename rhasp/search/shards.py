"""Every layout of a board, once per cluster: the shard loop of ``rhasp enumerate``.

Like :mod:`rhasp.search.core`, this is plain Python in the subset numba compiles, one source
run two ways (:mod:`rhasp.search.jit` compiles it; tests also run it as it stands). It owns
the line entries, the walk over layouts, each layout's tables (built in place, in the field
order the database's order needs) and the minimality test on those tables; what a cluster is
(its exploration, distances, hardest state and the database's order of states) it takes from
:mod:`rhasp.search.clusters`, which ``analyze``, ``hardest`` and ``generate`` share. The
definitions are the puzzle database's, spelled out in the README ("rhasp enumerate"); this
docstring says why the search finds each cluster exactly once.

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
when a smaller state turns up (:func:`rhasp.search.clusters.explore`). With
``from_goals`` (the default of ``rhasp enumerate``), the exit row holds the target at its exit
only and the target need not be packed: every solvable cluster's least *goal* state is such a
layout (moving any other vehicle up or left keeps the target at the exit and makes a smaller
goal state), and only goal states are compared, so unsolvable clusters are never visited, and
half the work is.

**Distances without a second search.** The exploration keeps every state's moves, so the
distances to the goals and one optimal way down come without searching the board again
(:mod:`rhasp.search.clusters`).

**What is kept.** A cluster whose least state is the layout, with a goal (the target at its
exit edge, targets staying on the board), gives its hardest state: the farthest in moves from
the nearest goal, ties to the least in the order above. It is a puzzle of the database when it
is *minimal*: removing any vehicle or wall but the target shortens its solution. A vehicle that
moves in one optimal plan is needed (the plan without its moves would be shorter), so only the
others, and each wall, are removed and solved again.
"""

from __future__ import annotations

from typing import NamedTuple

from rhasp.search import clusters, core

# The kinds of piece in an entry.
HORIZONTAL, VERTICAL, WALL = 0, 1, 2
SHORTEST = 2  # a car: of the pieces, the one with most positions on a line

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


class ShardLimits(NamedTuple):
    """What one shard keeps and how far its searches may go."""

    min_vehicles: int
    max_vehicles: int
    min_walls: int
    max_walls: int
    from_goals: int  # 1: start from goal layouts only (module docstring)
    max_states: int  # states one cluster search may reach


class Scratch(NamedTuple):
    """Room reused by every layout of a shard: its pieces, and its geometry's tables."""

    cell: core.Buffer
    length: core.Buffer
    kind: core.Buffer
    vehicle: core.Buffer  # the piece of each vehicle
    horizontal: core.Buffer  # per vehicle
    tables: core.Tables


def side_field_bits(size: int) -> int:
    """Bits of a vehicle's field in a key: room for every position of a car (the longest
    run of positions) along a line of ``size``, and ``gone``."""
    return core.field_bits(size - SHORTEST)


def scratch(size: int) -> Scratch:
    """Room for any layout of a ``size`` board: no more pieces than cells."""
    cells = size * size
    stride = 1 << side_field_bits(size)
    ones = core.new_buffer(cells)  # every field as wide as the widest: its mask is gone's
    for i in range(cells):
        ones[i] = stride - 1
    tables = core.Tables(
        0,
        stride - 1,
        stride,
        0,
        core.new_buffer(cells),
        ones,
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
    lines: Lines, prefix: core.Buffer, limits: ShardLimits, watch: core.Buffer
) -> tuple[int, list[int], list[int]]:
    """Every layout that starts with the entries ``prefix`` (one per line, from the first),
    each explored if it is its cluster's least state.

    Returns (0, or BUDGET when a cluster outgrew ``limits.max_states``; the tallies, TALLIES
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
    limits: ShardLimits,
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
    limits: ShardLimits,
    chosen: list[int],
    room: Scratch,
    tallies: list[int],
    found: list[int],
    watch: core.Buffer,
) -> int:
    """Explore the layout ``chosen``; note it in ``tallies`` and its puzzle, if any, in
    ``found``. BUDGET when its cluster outgrew max_states states, else 0."""
    tallies[LAYOUTS] += 1
    pieces = _gather(lines, chosen, room)
    g = _geometry(lines.size, pieces, -1, room)
    start = _start_key(lines.size, g, room)
    give_up = clusters.SMALLER_GOAL if limits.from_goals else clusters.ANY_SMALLER
    reached, order, first_edge, edges = clusters.explore(
        g, start, room.horizontal, give_up, limits.max_states, watch
    )
    if reached == clusters.NOT_LEAST:
        return 0
    if reached == core.BUDGET:
        return core.BUDGET
    tallies[LEAST] += 1
    distance, by_distance = clusters.goal_distances(g, order, first_edge, edges)
    if len(by_distance) == 0:
        return 0
    tallies[SOLVABLE] += 1
    hardest = clusters.hardest_index(g, order, distance, by_distance, room.horizontal)
    far = distance[hardest]
    moved = core.new_buffer(g.count)
    clusters.moved_on_the_way(g, hardest, order, distance, first_edge, edges, moved)
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
    bits = side_field_bits(size)
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
        core.fill_rows(t.masks, t.behind, t.ahead, t.near, i * stride, start, step, length, last)
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
        t.ones,
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
    (:func:`rhasp.search.clusters.horizontal_shift`) orders states as their horizontal cells
    do."""
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


def is_minimal(
    size: int,
    g: core.Tables,
    hardest: int,
    moves: int,
    pieces: int,
    moved: core.Buffer,
    room: Scratch,
    limits: ShardLimits,
    watch: core.Buffer,
) -> int:
    """1 if removing any piece but the target from state ``hardest`` (``moves`` from a goal)
    shortens its solution, else 0; BUDGET if a search outgrew max_states states. The vehicles that
    move on one optimal way (``moved``, per vehicle) are needed (module docstring): only the
    others are tried.

    The same definition as :func:`rhasp.canonical.needless_piece`, in a loop of its own: this
    one runs inside the compiled shard, millions of times, on the tables of ``g``, which live
    in ``room`` and are rebuilt without each piece in turn, then restored; that one works on
    boards and puzzles. tests/test_canonical.py checks that the two agree."""
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
        goal, _, path = core.breadth_first(smaller, key, limits.max_states, watch, True, True)
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
