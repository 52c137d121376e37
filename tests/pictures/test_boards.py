"""rhasp render: files that open, of the sizes worked out by hand, with the right colours."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

import pytest

from rhasp.api import moves_of, read
from rhasp.errors import install_command
from rhasp.pictures.boards import FIXED, MOVED, TARGET, TRUCKS, WALL, solution_scenes
from rhasp.pictures.scene import Box
from tests.boards import EXAMPLES, ORIGINAL
from tests.command import rhasp
from tests.reference import fewest

Image = pytest.importorskip("PIL.Image", reason="the pictures extra is not installed")

CARD1 = str(ORIGINAL / "card01.txt")
# card 1, 0-based (row, column): X at (2, 1)-(2, 2), truck P at (1..3, 0), car A at (0, 0)-(0, 1)
CARD1_ROWS = ["AA...O", "P..Q.O", "PXXQ.O", "P..Q..", "B...CC", "B.RRR."]


def centre(row: int, col: int, cell: int = 60) -> tuple[int, int]:
    """The pixel at the middle of a cell: half a cell of margin, then ``cell`` a cell."""
    return cell // 2 + col * cell + cell // 2, cell // 2 + row * cell + cell // 2


def hex_colour(rgb: tuple[int, ...]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb[:3])


def test_a_board_png_has_the_size_of_its_cells_and_margin(tmp_path):
    out = tmp_path / "board.png"
    assert rhasp("render", CARD1, "-o", str(out)).exit_code == 0
    picture = Image.open(out).convert("RGB")
    assert picture.size == (6 * 60 + 60, 6 * 60 + 60)
    assert hex_colour(picture.getpixel(centre(2, 1))) == TARGET
    assert hex_colour(picture.getpixel(centre(1, 0))) in TRUCKS  # P is a truck
    car = hex_colour(picture.getpixel(centre(0, 0)))
    assert car not in TRUCKS and car != TARGET
    exit_arrow = (6 * 60 + 30 + 15, centre(2, 5)[1])  # in the right margin, X's row
    assert hex_colour(picture.getpixel(exit_arrow)) == TARGET
    no_exit = (6 * 60 + 30 + 15, centre(3, 5)[1])
    assert hex_colour(picture.getpixel(no_exit)) != TARGET


def test_walls_are_dark_and_the_cell_option_scales(tmp_path):
    out = tmp_path / "walls.png"
    result = rhasp("render", str(EXAMPLES / "walls.txt"), "-o", str(out), "--cell", "40")
    assert result.exit_code == 0
    picture = Image.open(out).convert("RGB")
    assert picture.size == (6 * 40 + 40, 6 * 40 + 40)
    assert hex_colour(picture.getpixel(centre(4, 3, 40))) == WALL  # the wall of walls.txt


def test_an_svg_board_is_the_same_picture(tmp_path):
    out = tmp_path / "board.svg"
    assert rhasp("render", CARD1, "-o", str(out)).exit_code == 0
    root = ET.parse(out).getroot()
    assert (root.get("width"), root.get("height")) == ("420", "420")
    ns = "{http://www.w3.org/2000/svg}"
    labels = sorted(text.text for text in root.iter(f"{ns}text"))
    assert labels == sorted(set("".join(CARD1_ROWS)) - {"."})
    assert any(rect.get("fill") == TARGET for rect in root.iter(f"{ns}rect"))


def test_the_solution_gif_has_a_frame_a_move_and_the_target_leaves(tmp_path):
    out = tmp_path / "solution.gif"
    result = rhasp("render", CARD1, "--solution", "-o", str(out))
    assert result.exit_code == 0
    moves = fewest(CARD1_ROWS, {"X": "right"}, "moves")
    assert f"moves {moves} · optimal: bfs" in result.stdout
    picture = Image.open(out)
    assert picture.n_frames == moves + 1
    assert picture.size == (420, 420 + 36)  # a caption band of 0.6 of a cell
    picture.seek(picture.n_frames - 1)
    last = picture.convert("RGB")
    assert all(hex_colour(last.getpixel(centre(2, col))) != TARGET for col in range(6))


def test_the_solution_strip_wraps_into_even_rows(tmp_path):
    out = tmp_path / "solution.png"
    assert rhasp("render", CARD1, "--solution", "--cell", "36", "-o", str(out)).exit_code == 0
    # 9 boards (start + 8 moves) at most 8 a row: 2 rows of 5; a board is 6 * 36 + 36 = 252
    # wide and 252 + round(0.6 * 36) = 274 high with its caption.
    assert Image.open(out).size == (5 * 252, 2 * 274)


def test_fixed_marks_the_cells_static_analysis_finds_and_says_why(tmp_path):
    # unsolvable.txt, by hand: truck A (column 5, rows 1-3) stands on the wall at row 4; both
    # are there in every state. X (row 3, columns 1-2) moves.
    out = tmp_path / "fixed.png"
    result = rhasp("render", str(EXAMPLES / "unsolvable.txt"), "--fixed", "-o", str(out))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1] == (
        "4 cells occupied in every reachable state; unsolvable: row 3, column 5 is occupied "
        "in every reachable state, by vehicle A: target X can never leave (column 5, rows "
        "1–3: covered by A wherever A can stand between the top edge and the wall at row 4)"
    )
    picture = Image.open(out).convert("RGB")

    def corner(row: int, col: int) -> str:  # just inside the cell's top left corner
        return hex_colour(picture.getpixel((30 + col * 60 + 5, 30 + row * 60 + 5)))

    assert [corner(row, 4) for row in range(6)] == [FIXED] * 4 + [corner(4, 0)] * 2
    assert corner(2, 0) != FIXED and corner(2, 1) != FIXED  # X's cells


def test_each_board_of_a_plan_rings_the_vehicle_just_moved():
    # The card back's first moves, by hand: C left 3 to (4, 1)-(4, 2); O down 3 to (3..5, 5).
    puzzle = read(CARD1)
    plan = moves_of(puzzle, "CL3 OD3 AR1")
    scenes = solution_scenes(puzzle, plan, cell=60)
    rings = [
        [s for s in scene.shapes if isinstance(s, Box) and s.fill == MOVED] for scene in scenes
    ]
    assert [len(found) for found in rings] == [0, 1, 1, 1]  # none at the start

    def inside(ring: Box, cell: tuple[int, int]) -> bool:
        x, y = centre(*cell)
        return ring.x < x < ring.x + ring.width and ring.y < y < ring.y + ring.height

    assert [inside(rings[1][0], (4, col)) for col in range(4)] == [False, True, True, False]
    assert [inside(rings[2][0], (row, 5)) for row in range(6)] == [False] * 3 + [True] * 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "board.jpg"], "board.jpg: this picture can be a .png, .svg or .gif file"),
        (["-o", "no/such/dir/board.png"], "there is no folder no/such/dir to write into"),
    ],
)
def test_bad_output_is_one_line(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = rhasp("render", CARD1, *args)
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_an_unsolvable_puzzle_has_no_solution_to_draw(tmp_path):
    result = rhasp(
        "render", str(EXAMPLES / "unsolvable.txt"), "--solution", "-o", str(tmp_path / "s.gif")
    )
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("no solution to draw")


def test_a_missing_pillow_is_named_once(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL.Image", None)  # import PIL.Image now fails
    out = tmp_path / "board.png"
    result = rhasp("render", CARD1, "-o", str(out))
    assert result.exit_code == 2 and not out.exists()
    assert result.stderr == (
        "rhasp: drawing a PNG or GIF: Pillow is not installed: "
        + install_command("pictures")
        + "\n"
    )
