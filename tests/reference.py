"""An independent, deliberately naive solver used only as a test oracle.

It knows nothing of rhasp's model: a state is the board as one string, vehicles are found by
scanning it, and a move is a run of one-cell shifts. Fewest moves is a BFS over whole moves;
fewest slides is a BFS over single-cell shifts (not rhasp's Dijkstra). Slow, but small boards
only.
"""

from __future__ import annotations

from collections import deque
from itertools import product
from math import isqrt

EMPTY = "."
STEP = {"right": (0, 1), "left": (0, -1), "bottom": (1, 0), "top": (-1, 0)}


def _vehicles(cells: str, width: int) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for i, char in enumerate(cells):
        if char not in (EMPTY, "#"):
            found.setdefault(char, []).append(i)
    return found


def _shifts(cells: str, width: int, exits: dict[str, str]):
    """(label, direction, next cells) for every one-cell shift, the exit rule applied."""
    height = len(cells) // width
    for label, spots in _vehicles(cells, width).items():
        horizontal = len({i // width for i in spots}) == 1
        for direction in ("left", "right") if horizontal else ("top", "bottom"):
            dr, dc = STEP[direction]
            moved = []
            for i in spots:
                r, c = divmod(i, width)
                r, c = r + dr, c + dc
                if not (0 <= r < height and 0 <= c < width):
                    break
                j = r * width + c
                if cells[j] not in (EMPTY, label):
                    break
                moved.append(j)
            else:
                grid = [EMPTY if ch == label else ch for ch in cells]
                for j in moved:
                    grid[j] = label
                if exits.get(label) == direction and _touches(moved, direction, width, height):
                    grid = [EMPTY if ch == label else ch for ch in grid]
                yield label, direction, "".join(grid)


def _touches(spots: list[int], direction: str, width: int, height: int) -> bool:
    rows = [i // width for i in spots]
    cols = [i % width for i in spots]
    return {
        "right": max(cols) == width - 1,
        "left": min(cols) == 0,
        "bottom": max(rows) == height - 1,
        "top": min(rows) == 0,
    }[direction]


def _solved(cells: str, exits: dict[str, str]) -> bool:
    return not any(label in cells for label in exits)


def _settle(cells: str, width: int, exits: dict[str, str]) -> str:
    height = len(cells) // width
    for label, spots in _vehicles(cells, width).items():
        if label in exits and _touches(spots, exits[label], width, height):
            cells = cells.replace(label, EMPTY)
    return cells


def fewest(rows: list[str], exits: dict[str, str], objective: str) -> int | None:
    """Minimal moves or slides for a board given as rows; None if it has no solution."""
    width = len(rows[0])
    start = _settle("".join(rows), width, exits)
    seen = {(start, None): 0} if objective == "moves" else {start: 0}
    queue = deque([(start, None)])
    while queue:
        cells, last = queue.popleft()
        key = (cells, last) if objective == "moves" else cells
        cost = seen[key]
        if _solved(cells, exits):
            return cost
        for label, direction, after in _shifts(cells, width, exits):
            if objective == "slides":
                if after not in seen:
                    seen[after] = cost + 1
                    queue.append((after, None))
                continue
            # A move is a run of shifts of one vehicle in one direction: continuing the run
            # costs nothing, starting a new one costs a move (0-1 BFS).
            same = last == (label, direction)
            new_key = (after, (label, direction))
            new_cost = cost if same else cost + 1
            if new_key not in seen or new_cost < seen[new_key]:
                seen[new_key] = new_cost
                (queue.appendleft if same else queue.append)((after, (label, direction)))
    return None


def cluster(rows: list[str]) -> tuple[set[str], set[frozenset[str]]]:
    """Every board reachable by moves with nothing leaving, and the pairs one move apart."""
    width = len(rows[0])
    start = "".join(rows)
    states, edges, queue = {start}, set(), deque([start])
    while queue:
        cells = queue.popleft()
        for after in _moves(cells, width):
            edges.add(frozenset((cells, after)))
            if after not in states:
                states.add(after)
                queue.append(after)
    return states, edges


def goal_distance(rows: list[str], target: str = "A") -> dict[str, int]:
    """Moves to the nearest goal (``target`` at the right edge) for every state of the
    cluster that reaches one: a breadth-first search from all goals over its pairs."""
    states, edges = cluster(rows)
    width = len(rows[0])
    near: dict[str, list[str]] = {state: [] for state in states}
    for a, b in map(tuple, edges):
        near[a].append(b)
        near[b].append(a)
    ends = range(width - 1, width * len(rows), width)
    frontier = [s for s in states if any(s[i] == target for i in ends)]
    distance = dict.fromkeys(frontier, 0)
    while frontier:
        following = []
        for a in frontier:
            for b in near[a]:
                if b not in distance:
                    distance[b] = distance[a] + 1
                    following.append(b)
        frontier = following
    return distance


def _moves(cells: str, width: int):
    """Every board one move away, nothing leaving: a move is a run of one-cell shifts of one
    vehicle in one direction, and each position along the run is a neighbour."""
    for label, direction, after in _shifts(cells, width, {}):
        while True:
            yield after
            runs = [a for v, d, a in _shifts(after, width, {}) if (v, d) == (label, direction)]
            if not runs:
                break
            after = runs[0]


def all_moves(rows: list[str]) -> tuple[int, set[str], set[frozenset[str]]]:
    """The all-moves graph by brute force: every combination of every vehicle's places on
    its line, kept if nothing overlaps and vehicles sharing a line keep their order; with
    the placements tried (the product over lines of each line's own valid placements)."""
    width, height = len(rows[0]), len(rows)
    start = "".join(rows)
    spots = _vehicles(start, width)
    line = {label: _line_of(cells, width) for label, cells in spots.items()}
    places = {v: _places(line[v], len(cells), width, height) for v, cells in spots.items()}

    def fits(placed: dict[str, tuple[int, ...]]) -> bool:
        used = [i for where in placed.values() for i in where]
        if any(start[i] == "#" for i in used) or len(set(used)) < len(used):
            return False
        return all(
            (spots[a][0] < spots[b][0]) == (placed[a][0] < placed[b][0])
            for a, b in product(placed, repeat=2)
            if a < b and line[a] == line[b]
        )

    def placements(labels: list[str]):
        for combo in product(*(places[label] for label in labels)):
            placed = dict(zip(labels, combo, strict=True))
            if fits(placed):
                yield placed

    tried = 1
    for each in set(line.values()):
        tried *= sum(1 for _ in placements([v for v in spots if line[v] == each]))
    states = set()
    for placed in placements(sorted(spots)):
        cells = ["#" if ch == "#" else EMPTY for ch in start]
        for label, where in placed.items():
            for i in where:
                cells[i] = label
        states.add("".join(cells))
    edges = {frozenset((cells, after)) for cells in states for after in _moves(cells, width)}
    return tried, states, edges


def _line_of(cells: list[int], width: int) -> tuple[str, int]:
    rows = {i // width for i in cells}
    return ("row", rows.pop()) if len(rows) == 1 else ("column", cells[0] % width)


def _places(line: tuple[str, int], length: int, width: int, height: int) -> list[tuple[int, ...]]:
    """Every run of ``length`` cells along a row or column, as cell indices."""
    kind, number = line
    along = (
        [number * width + c for c in range(width)]
        if kind == "row"
        else [r * width + number for r in range(height)]
    )
    return [tuple(along[k : k + length]) for k in range(len(along) - length + 1)]


def database_rows(board: str) -> list[str]:
    """A database board as this solver reads it: ``o`` empty becomes ``.``, every ``x`` a
    ``#`` wall, the square cut into rows."""
    cells = board.replace("o", EMPTY).replace("x", "#")
    side = isqrt(len(cells))
    return [cells[i : i + side] for i in range(0, len(cells), side)]


def database_deck(text: str) -> list[tuple[int, list[str], int | None]]:
    """(moves, rows, cluster) of each ``MOVES BOARD CLUSTER`` line, the cluster None on a
    ``MOVES BOARD`` line; comments are skipped."""
    found = []
    for line in text.splitlines():
        if not line.strip() or line.startswith(";"):
            continue
        moves, board, *cluster_states = line.split()
        assert len(moves) >= 2 and moves.isdigit(), f"MOVES is two digits at least: {line!r}"
        counted = int(cluster_states[0]) if cluster_states else None
        found.append((int(moves), database_rows(board), counted))
    return found


# The puzzle database, by brute force: every layout, every cluster, the definitions applied
# word for word (docs/commands/enumerate.md). Small boards only.

TARGET = "A"
OTHER_LABELS = "BCDEFGHIJKLMNOPQRSTUVWYZbcdefghijklmnpqrstuvwyz"


def database(
    size: int, exit_row: int = 2, walls: tuple[int, int] = (0, 0), pieces: tuple[int, int] = (1, 99)
) -> tuple[list[str], int, int]:
    """(the database's lines ``MM BOARD CLUSTER``, sorted; the clusters; the solvable ones)."""
    seen: set[str] = set()
    lines, clusters, solvable = [], 0, 0
    for layout in _layouts(size, exit_row, walls, pieces):
        if _unlabelled(layout, size) in seen or not _interesting_layout(layout, size, exit_row):
            continue
        states, _ = cluster(_rows(layout, size))
        seen.update(_unlabelled(state, size) for state in states)
        clusters += 1
        goals = [state for state in states if _at_exit(state, size)]
        if not goals:
            continue
        solvable += 1
        distance = _distances(goals, size)
        far = max(distance.values())
        hardest = min((s for s, d in distance.items() if d == far), key=lambda s: _order(s, size))
        if _minimal(hardest, size, far):
            lines.append(f"{far:02d} {_lettered(hardest, size, exit_row)} {len(states)}")
    return sorted(lines), clusters, solvable


def deepest(size: int, exit_row: int, walls: int) -> tuple[int | None, int]:
    """(the most moves from any state of a solvable cluster, None if none is solvable; the
    clusters) over every board of ``size`` with exactly ``walls`` walls: every layout, no
    definition of the database's left out. Small boards only (4×4: seconds to minutes)."""
    seen: set[str] = set()
    most, clusters = None, 0
    for layout in _layouts(size, exit_row, (walls, walls), (1, 99)):
        if _unlabelled(layout, size) in seen:
            continue
        states, _ = cluster(_rows(layout, size))
        seen.update(_unlabelled(state, size) for state in states)
        clusters += 1
        goals = [state for state in states if _at_exit(state, size)]
        if goals:
            far = max(_distances(goals, size).values())
            most = far if most is None else max(most, far)
    return most, clusters


def _layouts(size: int, exit_row: int, walls: tuple[int, int], pieces: tuple[int, int]):
    """Every board with the target on the exit row and any other vehicles (2 or 3 long, either
    way) and walls within the counts, each piece named by its first cell."""
    for column in range(size - 1):
        cells = ["."] * (size * size)
        cells[exit_row * size + column] = cells[exit_row * size + column + 1] = TARGET
        yield from _fill(cells, size, 0, 1, 0, walls, pieces)


def _fill(cells, size, at, vehicles, built, walls, pieces):
    if at == len(cells):
        if pieces[0] <= vehicles <= pieces[1] and walls[0] <= built <= walls[1]:
            yield "".join(cells)
        return
    yield from _fill(cells, size, at + 1, vehicles, built, walls, pieces)
    if cells[at] != ".":
        return
    if built < walls[1]:
        cells[at] = "#"
        yield from _fill(cells, size, at + 1, vehicles, built + 1, walls, pieces)
        cells[at] = "."
    if vehicles >= pieces[1]:
        return
    row, col = divmod(at, size)
    for length in (2, 3):
        for step, fits in ((1, col + length <= size), (size, row + length <= size)):
            spots = [at + k * step for k in range(length)]
            if fits and all(cells[i] == "." for i in spots):
                for i in spots:
                    cells[i] = OTHER_LABELS[vehicles]
                yield from _fill(cells, size, at + 1, vehicles + 1, built, walls, pieces)
                for i in spots:
                    cells[i] = "."


def _rows(cells: str, size: int) -> list[str]:
    return [cells[i : i + size] for i in range(0, len(cells), size)]


def _pieces(cells: str, size: int) -> dict[str, tuple[bool, list[int]]]:
    """Each vehicle's label: (horizontal, its cells)."""
    return {
        label: (spots[1] - spots[0] == 1, spots) for label, spots in _vehicles(cells, size).items()
    }


def _unlabelled(cells: str, size: int) -> str:
    """The board with its vehicles named by the order of their first cells: equal boards
    named apart read alike."""
    names: dict[str, str] = {TARGET: TARGET}
    pool = iter(OTHER_LABELS)
    return "".join(ch if ch in ".#" else names.setdefault(ch, next(pool)) for ch in cells)


def _interesting_layout(cells: str, size: int, exit_row: int) -> bool:
    """No row full of horizontal vehicles and walls, no column full of vertical vehicles; on
    the exit row no other horizontal vehicle, and walls only left of the target."""
    pieces = _pieces(cells, size)
    horizontal = {i for across, spots in pieces.values() if across for i in spots}
    vertical = {i for across, spots in pieces.values() if not across for i in spots}
    for k in range(size):
        if all(k * size + c in horizontal or cells[k * size + c] == "#" for c in range(size)):
            return False
        if all(r * size + k in vertical for r in range(size)):
            return False
    target_col = pieces[TARGET][1][0] % size
    for c in range(size):
        i = exit_row * size + c
        if cells[i] == "#" and c > target_col:
            return False
        if i in horizontal and cells[i] != TARGET:
            return False
    return True


def _at_exit(cells: str, size: int) -> bool:
    return cells.index(TARGET) % size == size - 2


def _distances(goals: list[str], size: int) -> dict[str, int]:
    distance = dict.fromkeys(goals, 0)
    queue = deque(goals)
    while queue:
        cells = queue.popleft()
        for after in _moves(cells, size):
            if after not in distance:
                distance[after] = distance[cells] + 1
                queue.append(after)
    return distance


def _order(cells: str, size: int) -> tuple[int, int]:
    """(horizontal vehicles' cells, vertical vehicles' cells) as binary numbers, the top-left
    cell the lowest bit, counting along rows."""
    pieces = _pieces(cells, size)
    across = sum(1 << i for h, spots in pieces.values() if h for i in spots)
    down = sum(1 << i for h, spots in pieces.values() if not h for i in spots)
    return across, down


def _minimal(cells: str, size: int, moves: int) -> bool:
    """Removing any vehicle but the target, or any wall, changes the fewest moves."""
    removable = [label for label in _vehicles(cells, size) if label != TARGET] + [
        i for i, ch in enumerate(cells) if ch == "#"
    ]
    for piece in removable:
        if isinstance(piece, int):
            smaller = cells[:piece] + "." + cells[piece + 1 :]
        else:
            smaller = cells.replace(piece, ".")
        if fewest(_rows(smaller, size), {TARGET: "right"}, "moves") == moves:
            return False
    return True


def _lettered(cells: str, size: int, exit_row: int) -> str:
    """The database's lettering: the target A; walls on its row; the other rows top to
    bottom, left to right, horizontal vehicles and walls; the columns left to right, top to
    bottom, vertical vehicles. Walls use up a letter and print as x; empty cells are o."""
    order: list[object] = [TARGET]
    order += [exit_row * size + c for c in range(size) if cells[exit_row * size + c] == "#"]
    pieces = _pieces(cells, size)
    for r in [r for r in range(size) if r != exit_row]:
        for c in range(size):
            i = r * size + c
            if cells[i] == "#":
                order.append(i)
            elif cells[i] != "." and pieces[cells[i]][0] and pieces[cells[i]][1][0] == i:
                order.append(cells[i])
    for c in range(size):
        for r in range(size):
            i = r * size + c
            if cells[i] not in ".#" and not pieces[cells[i]][0] and pieces[cells[i]][1][0] == i:
                order.append(cells[i])
    letters = "ABCDEFGHIJKLMNOPQRSTUVWYZ"
    out = ["o"] * len(cells)
    for letter, piece in zip(letters, order, strict=False):
        if isinstance(piece, int):
            out[piece] = "x"
        else:
            for i in pieces[piece][1]:
                out[i] = letter
    return "".join(out)
