"""Database lines: every ``x`` cell is a wall, however many and wherever they are.

Expected lengths and cluster sizes come from the naive string solver in tests/reference.py,
which is told the walls as ``#`` cells and knows nothing of rhasp's reader.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from rhasp.engines.bfs import BfsEngine
from rhasp.errors import InputError
from rhasp.formats import FORMATS, read_text, write
from rhasp.limits import Budget
from rhasp.search import solve_and_count
from tests.boards import EXAMPLES
from tests.reference import cluster, database_deck, database_rows, fewest

# A 6×6 database board without walls: A the target in row 3, cars B C D E, truck F.
BASE = ["BBoooC", "oooDoC", "AAoDoo", "oooooo", "EooFFF", "Eooooo"]

ARRANGEMENTS = {
    "one": [(3, 0)],
    "two adjacent in a row": [(3, 1), (3, 2)],
    "two adjacent in a column": [(4, 1), (5, 1)],
    "two apart": [(0, 2), (5, 5)],
    "three in a row": [(3, 3), (3, 4), (3, 5)],
    "three in a column": [(3, 2), (4, 2), (5, 2)],
    "three apart": [(0, 3), (3, 0), (5, 4)],
    "four in a block": [(3, 1), (3, 2), (4, 1), (4, 2)],
    "four in a row": [(3, 0), (3, 1), (3, 2), (3, 3)],
    "four apart": [(0, 2), (1, 0), (3, 5), (5, 3)],
}


def with_walls(cells: list[tuple[int, int]]) -> list[str]:
    rows = [list(row) for row in BASE]
    for r, c in cells:
        assert rows[r][c] == "o", (r, c)
        rows[r][c] = "x"
    return ["".join(row) for row in rows]


def naive_rows(rows: list[str]) -> list[str]:
    return database_rows("".join(rows))


@pytest.mark.parametrize("name", ARRANGEMENTS)
def test_every_x_of_a_database_line_is_a_wall(name):
    walls = ARRANGEMENTS[name]
    rows = with_walls(walls)
    (puzzle,) = read_text(f"9 {''.join(rows)} 100\n", "deck.txt", name="p")
    assert puzzle.board.walls == frozenset(walls)
    assert puzzle.board.targets == ("A",)
    assert sorted(v.label for v in puzzle.board.vehicles) == ["A", "B", "C", "D", "E", "F"]
    naive = naive_rows(rows)
    for objective in ("moves", "slides"):
        assert BfsEngine(budget=Budget()).solve(puzzle, objective).length == fewest(
            naive, {"A": "right"}, objective
        ), objective
    _, _, size = solve_and_count(puzzle.board, puzzle.placement, Budget())
    assert size == len(cluster(naive)[0])


@pytest.mark.parametrize("name", ARRANGEMENTS)
def test_a_database_grid_reads_x_as_walls_too(name):
    """A grid with o for empty cells is database style, like the one-line form."""
    rows = with_walls(ARRANGEMENTS[name])
    (puzzle,) = read_text("\n".join(rows) + "\n", "board.txt", name="p")
    assert puzzle.board.walls == frozenset(ARRANGEMENTS[name])


@pytest.mark.parametrize("name", ARRANGEMENTS)
def test_boards_with_walls_round_trip_through_every_format(name):
    rows = with_walls(ARRANGEMENTS[name])
    (puzzle,) = read_text("".join(rows) + "\n", "deck.txt", name="p")
    for fmt in FORMATS:
        try:
            text = write(puzzle, fmt)
        except InputError as error:  # the car list and the course CSV hold no walls
            assert fmt in ("carlist", "course-csv") and "cannot" in error.what
            continue
        (again,) = read_text(text, f"p.{fmt}", name="p")
        assert again == puzzle, fmt


def test_x_is_the_target_of_a_grid_without_a_and_without_o():
    (puzzle,) = read_text("....\nxx..\n..BB\n....\n", "board.txt", name="p")
    assert puzzle.board.targets == ("x",) and not puzzle.board.walls


def test_a_vehicle_named_x_is_not_written_on_one_line():
    (puzzle,) = read_text("....\nxx..\n..BB\n....\n", "board.txt", name="p")
    with pytest.raises(InputError, match="vehicle named x cannot be written on one line"):
        write(puzzle, "line")


def test_generated_decks_with_several_walls_verify(tmp_path):
    deck = tmp_path / "walls.txt"
    # Seed 1 draws clusters of 300 to 600 states, which the readable reference walks in
    # seconds (seed 5's 8,078-state cluster took it most of a minute).
    generate = [
        sys.executable,
        "-m",
        "rhasp",
        "generate",
        "--size",
        "6",
        "--seed",
        "1",
        "--count",
        "3",
        "--min-moves",
        "5",
        "--walls",
        "3",
        "--jobs",
        "1",
        "-o",
        str(deck),
    ]
    subprocess.run(generate, check=True, capture_output=True, text=True)
    lines = database_deck(deck.read_text())
    assert len(lines) == 3 and all(sum(row.count("#") for row in rows) == 3 for _, rows, _ in lines)
    for moves, rows, size in lines:
        assert fewest(rows, {"A": "right"}, "moves") == moves
        assert len(cluster(rows)[0]) == size
    verify = subprocess.run(
        [sys.executable, "-m", "rhasp", "deck", str(deck), "--verify", "--jobs", "1"],
        capture_output=True,
        text=True,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_examples_still_read_as_before():
    (walls,) = read_text((EXAMPLES / "walls.txt").read_text(), "walls.txt", name="walls")
    assert walls.board.walls  # '#' walls in a grid are walls, as always
