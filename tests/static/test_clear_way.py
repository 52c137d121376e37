"""The second static rule (a target reaches a cell of its way only from right behind it, with
that cell free) against the model's own breadth-first walk, by hand and on random crowded
boards of the original game's shape, where it fires most."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rhasp.formats import read_text
from rhasp.model import Piece, Puzzle, TargetSpec, build_puzzle
from rhasp.static import blocked_exit, clear_way, static_analysis
from tests.boards import draw_walls, place_if_free
from tests.static.test_static import WALK_LIMIT, check_against_the_walk, reachable, walk
from tests.volume import examples


def line(rows: str) -> Puzzle:
    """A 6×6 puzzle from rows split by ``/`` (``.`` empty, ``#`` wall, ``A`` the target)."""
    text = rows.replace("/", "").replace(".", "o").replace("#", "x")
    (puzzle,) = read_text(text, "test.txt", name="test")
    return puzzle


def covers(puzzle: Puzzle, label: str, cell) -> bool:
    """Whether some reachable state has ``label`` on ``cell``."""
    row, col = cell
    return any(puzzle.board.grid(state)[row][col] == label for state in reachable(puzzle))


# By hand: G (column 3) and E (column 5) cross A's row and can leave it only upwards, walls
# being under them; car C on row 1, between two walls, stands on columns 2-3, 3-4 or 4-5,
# covering column 3 or column 5 in each. For A to reach column 5 it must stand on columns
# 3-4 (G gone up, so C on 4-5) with column 5 free (E gone up, so C not on 4-5): never. No
# cell is covered in every placement of any line, so the line rule proves nothing.
EITHER_OR = "#CC..#/..G.E./AAG.E./..#.#./....../......"


def test_a_target_that_needs_two_cells_a_car_always_covers_one_of_never_reaches_the_second():
    puzzle = line(EITHER_OR)
    found = blocked_exit(puzzle, "full")
    assert (found.target, found.cell, found.kind) == ("A", (2, 4), "never reached")
    assert "C has no place left on its row 1" in found.proof()
    assert blocked_exit(puzzle, "lines") is None and blocked_exit(puzzle, "stuck") is None
    assert not covers(puzzle, "A", (2, 4))
    check_against_the_walk(puzzle)


# By hand: A can pass column 3 only with I up on rows 1-2, which needs F pushed right, which
# needs E down across A's row. But once A stands on columns 3-4, I may come back down behind
# it, F go back left and E up: the way ahead of A clears *after* A has passed column 3. A
# rule asking the whole way from A's start to be clear at one moment calls this unsolvable.
RETAKEN_BEHIND = "J#FFFE/J#I.CE/AAI.C./.HHLLD/.KKK.D/GG.BBB"


def test_cells_the_target_has_passed_may_be_taken_again_behind_it():
    puzzle = line(RETAKEN_BEHIND)
    assert any(puzzle.board.is_solved(state) for state in reachable(puzzle))
    assert blocked_exit(puzzle, "full") is None
    check_against_the_walk(puzzle)


def _whole_way_clear_from_the_start(board, state, lines, runs, may_go, target):
    """The rule made wrong on purpose: the target at its start, its whole way free."""
    t = board.vehicles[target]
    pieces = clear_way._pieces(board, lines, runs, may_go, target)
    pieces[target].positions = 1 << state[target]
    way = {pieces[target].cell(p) for p in range(state[target] + t.length, board.width)}
    why = clear_way._no_state(board, lines, pieces, way)
    return None if why is None else clear_way.NeverReached(t.label, min(way), "start", why)


def test_the_walk_catches_the_rule_made_wrong_on_purpose(monkeypatch):
    monkeypatch.setattr("rhasp.static.never_reached", _whole_way_clear_from_the_start)
    puzzle = line(RETAKEN_BEHIND)
    assert blocked_exit(puzzle, "full") is not None  # wrong: the walk solves it
    assert any(puzzle.board.is_solved(state) for state in reachable(puzzle))


@st.composite
def crowded_games(draw) -> Puzzle:
    """The original game's shape: 6×6, target car A on row 3 leaving right, 8 to 13 vehicles
    in all, 0 to 2 walls: crowded enough that the second rule fires."""
    taken = {(2, 0), (2, 1)}
    pieces = [Piece("A", "h", 2, 0, 2)]
    for label in "BCDEFGHIJKLM"[: draw(st.integers(7, 12))]:
        horizontal = draw(st.booleans())
        length = draw(st.sampled_from((2, 2, 3)))
        row = draw(st.integers(0, 5 if horizontal else 6 - length))
        col = draw(st.integers(0, 6 - length if horizontal else 5))
        place_if_free(Piece(label, "h" if horizontal else "v", row, col, length), pieces, taken)
    walls = draw_walls(draw, 2, 6, 6, taken)
    targets = [TargetSpec("A", "right")]
    return build_puzzle(6, 6, pieces, walls, targets, where="random", name="random")


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded_games())
def test_a_cell_called_never_reached_is_never_covered_by_the_target(puzzle):
    walked = walk(puzzle, WALK_LIMIT)  # a few boards drawn reach 100,000 states and more
    assume(walked is not None)
    analysis = static_analysis(puzzle.board, puzzle.start)
    found = analysis.blocked_exit()
    if found is not None and found.kind == "never reached":
        assert not covers(puzzle, found.target, found.cell)
    check_against_the_walk(puzzle, walked)
