"""The yardstick of issue 12: a first textbook Rush Hour solver, for database lines.

    python bench/naive_bfs.py DECK

A dict of tuple states and a deque, as one writes it the first time: no bitboards, no
compilation. Reads ``MOVES BOARD CLUSTER`` lines (6×6, ``o`` or ``.`` empty, ``x`` walls,
target ``A`` leaving through the right edge of its row) and prints each puzzle's fewest
moves, so that ``bench/deck.py`` can time it against ``rhasp deck`` and check both agree.
"""

from __future__ import annotations

import sys
from collections import deque

SIDE = 6


def solve(board: str) -> int | None:
    cells: dict[str, list[int]] = {}
    for i, c in enumerate(board):
        if c not in "o.x":
            cells.setdefault(c, []).append(i)
    walls = {i for i, c in enumerate(board) if c == "x"}
    names = sorted(cells)
    lanes = []  # (horizontal, row or column, length)
    start = []
    for name in names:
        first, length = cells[name][0], len(cells[name])
        horizontal = cells[name][1] - first == 1
        lanes.append((horizontal, first // SIDE if horizontal else first % SIDE, length))
        start.append(first % SIDE if horizontal else first // SIDE)
    target = names.index("A")

    def cell(i: int, p: int) -> int:
        horizontal, line, _ = lanes[i]
        return line * SIDE + p if horizontal else p * SIDE + line

    first = tuple(start)
    depth = {first: 0}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        if state[target] == SIDE - lanes[target][2]:
            return depth[state]
        taken = set(walls)
        for i, p in enumerate(state):
            taken.update(cell(i, p + k) for k in range(lanes[i][2]))
        for i, p in enumerate(state):
            length = lanes[i][2]
            for step, stop in ((-1, -1), (1, SIDE - length + 1)):
                q = p + step
                while q != stop and cell(i, q if step < 0 else q + length - 1) not in taken:
                    after = (*state[:i], q, *state[i + 1 :])
                    if after not in depth:
                        depth[after] = depth[state] + 1
                        queue.append(after)
                    q += step
    return None


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as deck:
        for line in deck:
            fields = line.split()
            if fields and not fields[0].startswith(";"):
                board = fields[1] if len(fields) > 1 else fields[0]
                print(solve(board))


if __name__ == "__main__":
    main()
