"""An independent, deliberately naive solver used only as a test oracle.

It knows nothing of rhasp's model: a state is the board as one string, vehicles are found by
scanning it, and a move is a run of one-cell shifts. Fewest moves is a BFS over whole moves;
fewest slides is a BFS over single-cell shifts (not rhasp's Dijkstra). Slow, but small boards
only.
"""

from __future__ import annotations

from collections import deque

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
    """Every board reachable by moves with nothing leaving, and the pairs one move apart.

    A move is a run of one-cell shifts of one vehicle in one direction; each position along
    the run is a neighbour.
    """
    width = len(rows[0])
    start = "".join(rows)
    states, edges, queue = {start}, set(), deque([start])
    while queue:
        cells = queue.popleft()
        for label, direction, after in _shifts(cells, width, {}):
            while True:
                edges.add(frozenset((cells, after)))
                if after not in states:
                    states.add(after)
                    queue.append(after)
                runs = [a for v, d, a in _shifts(after, width, {}) if (v, d) == (label, direction)]
                if not runs:
                    break
                after = runs[0]
    return states, edges
