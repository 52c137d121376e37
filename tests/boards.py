"""Shared test data: paths, small boards, and a hypothesis strategy for random valid puzzles."""

from __future__ import annotations

import itertools
from pathlib import Path

from hypothesis import strategies as st

from rhasp.formats import read_path, read_text
from rhasp.model import SIDES_ALONG, Piece, Puzzle, TargetSpec, build_puzzle

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
#: 20 published database lines with the largest clusters (35-49 moves, 23,000-42,000 states):
#: the repository's copy of the team's shared deck (lines of Fogleman's published database,
#: as the PyPI package parkinglotpuzzle ships it), so that a clone with nothing beside it
#: runs every test.
LARGE_CLUSTERS = PUZZLES / "large-clusters.txt"
ORIGINAL = PUZZLES / "original"
EXAMPLES = PUZZLES / "examples"
#: 10,000 lines of the published database (bench/database10k.txt).
DATABASE10K = ROOT / "bench" / "database10k.txt"


def database_deck_file(path: Path, lines: int) -> Path:
    """``path`` written with the first ``lines`` lines of :data:`DATABASE10K`; returned."""
    with DATABASE10K.open() as source:
        path.write_text("".join(itertools.islice(source, lines)))
    return path


# Minimal moves of the 40 original cards: the lengths of the solutions printed on the card
# backs, which a published table of optimal lengths confirms card by card.
_CARD_BACK_LENGTHS = """
    8 8 14 9 9 9 13 12 12 17 25 17 16 17 23 21 24 25 22 10
    21 26 29 25 27 28 28 30 31 32 37 37 40 43 43 44 47 48 50 51
"""
CARD_MOVES = [int(moves) for moves in _CARD_BACK_LENGTHS.split()]


#: Card 1's plan as the clingo executable prints it (``rhasp facts card01 > c.lp; clingo
#: encodings/moves.lp c.lp``, clingo 5.4.1): step, vehicle, cells with right/down positive.
CARD1_CLINGO_ATOMS = (
    'move(1,"A",2) move(2,"P",-1) move(3,"B",-1) move(4,"C",-3) '
    'move(5,"O",3) move(6,"R",-2) move(7,"Q",2) move(8,"X",3)'
)
#: Card 1's plan by BFS (``rhasp solve card01 --engine bfs``), in card notation and as the
#: atoms ``rhasp solve card01 --format json`` lists for the same plan under ``move_atoms``.
CARD1_BFS_PLAN = "AR1 CL3 OD3 PU1 BU1 RL2 QD2 XR3"
CARD1_BFS_ATOMS = (
    'move(1,"A",1) move(2,"C",-3) move(3,"O",3) move(4,"P",-1) '
    'move(5,"B",-1) move(6,"R",-2) move(7,"Q",2) move(8,"X",3)'
)

#: Card 1's plan as Fast Downward 26.6 wrote it (``sas_plan``; A* with LM-cut) on what
#: ``rhasp convert card01 --to pddl -o DIR`` writes: CL3 OD3 AR1 PU1 BU1 RL2 QD2 XR3.
CARD1_SAS_PLAN = """(left-3 c r5c5 r5c4 r5c3 r5c2 r5c6 r5c5 r5c4 r5c3)
(down-3 o r1c6 r2c6 r3c6 r4c6 r3c6 r4c6 r5c6 r6c6)
(right-1 a r1c1 r1c2 r1c2 r1c3)
(up-1 p r2c1 r1c1 r4c1 r3c1)
(up-1 b r5c1 r4c1 r6c1 r5c1)
(left-2 r r6c3 r6c2 r6c1 r6c5 r6c4 r6c3)
(down-2 q r2c4 r3c4 r4c4 r4c4 r5c4 r6c4)
(right-3 x r3c2 r3c3 r3c4 r3c5 r3c3 r3c4 r3c5 r3c6)
; cost = 8 (unit cost)
"""


#: Card 28 (30 moves, printed on its back) by A* within this many states: A* and its
#: confirming BFS stop at the limit, and the anytime searches find a plan past it, longer
#: than the bound the searches proved (2026-11-29: 31 moves, between 28 and 31).
ANYTIME_CARD, ANYTIME_STATES = 28, 900


# A (row 3) leaves right. B stands across its way and can only go down (a wall above), where
# C stands, which can go left or right; D stands in row 6, off everything.
THREE_DEEP = """
...#..
...B..
AA.B..
..CC..
......
.DD...
"""


def card(number: int) -> Puzzle:
    return read_path(str(ORIGINAL / f"card{number:02d}.txt"))[0]


def card_rows(number: int) -> list[str]:
    """A card's rows as its file writes them, for the naive reference solver: no rhasp code
    reads them."""
    text = (ORIGINAL / f"card{number:02d}.txt").read_text()
    return [line for line in text.splitlines() if not line.startswith(";")]


def example(name: str) -> Puzzle:
    return read_path(str(EXAMPLES / f"{name}.txt"))[0]


def grid(text: str, **options) -> Puzzle:
    """A puzzle from inline grid text (indentation stripped)."""
    rows = "\n".join(line.strip() for line in text.strip().splitlines())
    (puzzle,) = read_text(rows, "test.txt", name="test", **options)
    return puzzle


def card_backs() -> dict[int, str]:
    """The solutions printed on the original cards, by card number."""
    solutions = {}
    for line in (PUZZLES / "original40-cardbacks.txt").read_text().splitlines():
        if line and not line.startswith(";"):
            number, plan = line.split(None, 1)
            solutions[int(number)] = plan
    return solutions


OTHER_LABELS = "ABCDEFGHIJKLMNOPQRSTUVW"


def place_if_free(piece: Piece, pieces: list[Piece], taken: set[tuple[int, int]]) -> bool:
    """Add ``piece`` to ``pieces`` when none of its cells is ``taken`` (then they are)."""
    cells = set(piece.vehicle().cells(piece.position))
    if cells & taken:
        return False
    taken |= cells
    pieces.append(piece)
    return True


def draw_walls(draw, most: int, height: int, width: int, taken: set[tuple[int, int]]) -> list:
    """Up to ``most`` walls on random free cells, as ``build_puzzle`` takes them."""
    walls = []
    for _ in range(draw(st.integers(0, most))):
        cell = (draw(st.integers(0, height - 1)), draw(st.integers(0, width - 1)))
        if cell not in taken:
            taken.add(cell)
            walls.append((cell, ""))
    return walls


@st.composite
def puzzles(
    draw,
    min_side: int = 4,
    max_side: int = 7,
    max_others: int = 6,
    max_targets: int = 2,
    max_walls: int = 3,
) -> Puzzle:
    """Random valid puzzles: walls, one to ``max_targets`` targets (at most three), exits on any
    side their line allows."""
    width = draw(st.integers(min_side, max_side))
    height = draw(st.integers(min_side, max_side))
    taken: set[tuple[int, int]] = set()
    pieces: list[Piece] = []
    targets: list[TargetSpec] = []

    def try_place(label: str) -> Piece | None:
        orientation = draw(st.sampled_from("hv"))
        length = draw(st.sampled_from((2, 2, 2, 3)))
        along = width if orientation == "h" else height
        line = draw(st.integers(0, (height if orientation == "h" else width) - 1))
        position = draw(st.integers(0, along - length))
        row, col = (line, position) if orientation == "h" else (position, line)
        piece = Piece(label, orientation, row, col, length)
        return piece if place_if_free(piece, pieces, taken) else None

    for label in "XYZ"[: draw(st.integers(1, max_targets))]:
        piece = try_place(label)
        if piece is not None:
            side = draw(st.sampled_from(SIDES_ALONG[piece.orientation]))
            targets.append(TargetSpec(label, side))
    if not targets:  # the first target always fits on an empty board
        raise AssertionError("unreachable")
    for label in OTHER_LABELS[: draw(st.integers(0, max_others))]:
        try_place(label)
    walls = draw_walls(draw, max_walls, height, width, taken)
    return build_puzzle(width, height, pieces, walls, targets, where="random", name="random")


#: Vehicle counts around the compiled core's word boundaries: a key of 3-bit fields fills a
#: 63-bit word at 21 vehicles, of 4-bit fields at 15; two words at 30 (module
#: ``rhasp.search.geometry``).
WORD_EDGES = (14, 15, 16, 20, 21, 22, 29, 30, 31, 32)
CROWDED_LABELS = "ABCDEFGHIJKLMNPQRSTUVWabcdefghijklmnpqrstuvwxyz0123456789"  # no o, X, Y


@st.composite
def crowded_puzzles(draw, min_side: int = 3, max_side: int = 12) -> Puzzle:
    """Random valid puzzles with up to 40 vehicles, often as many as just fill a word of
    the compiled core's keys, or one more; one or two targets, up to three walls. Labels
    ``X``, ``Y``, then letters and digits (a label is one character)."""
    width = draw(st.integers(min_side, max_side))
    height = draw(st.integers(min_side, max_side))
    wanted = draw(st.sampled_from(WORD_EDGES) | st.integers(0, 40))
    taken: set[tuple[int, int]] = set()
    pieces: list[Piece] = []
    targets: list[TargetSpec] = []
    labels = "XY"[: draw(st.integers(1, 2))] + CROWDED_LABELS[:wanted]
    for label in labels:
        for _ in range(4):  # a few tries each: crowded boards leave little room
            orientation = draw(st.sampled_from("hv"))
            length = draw(st.sampled_from((2, 2, 2, 3)))
            along, across = (width, height) if orientation == "h" else (height, width)
            if length > along:
                continue
            line = draw(st.integers(0, across - 1))
            position = draw(st.integers(0, along - length))
            row, col = (line, position) if orientation == "h" else (position, line)
            if place_if_free(Piece(label, orientation, row, col, length), pieces, taken):
                if label in "XY":
                    side = draw(st.sampled_from(SIDES_ALONG[orientation]))
                    targets.append(TargetSpec(label, side))
                break
    if not targets:  # X, first on an empty board of sides 3 or more, always fits
        raise AssertionError("unreachable")
    walls = draw_walls(draw, 3, height, width, taken)
    return build_puzzle(width, height, pieces, walls, targets, where="random", name="crowded")
