"""Static analysis against the model's own moves and against a plain restatement of its rules.

The walk: every cell a rule marks is occupied in every state a breadth-first walk of the moves
reaches, and a puzzle it calls unsolvable has no plan (the walk reaches no state with every
target gone). The reference (``tests/static_reference.py``) enumerates every placement of every
line by brute force: rhasp must find the same cells, and prove a target never leaves whenever
the reference does. Hand boards check both where the answer can be worked out on paper.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from random import Random

import pytest
from hypothesis import HealthCheck, Phase, assume, find, given, settings
from hypothesis import strategies as st

import rhasp
from rhasp.model import EMPTY, Cell, Piece, Puzzle, State, TargetSpec, build_puzzle
from rhasp.static import Blocked, always_occupied, blocked_exit, position_ranges
from tests import static_reference as ref
from tests.boards import PUZZLES, draw_walls, example, grid, place_if_free, puzzles
from tests.volume import examples as volume

RULES = ("stuck", "lines", "full")
#: Boards whose walk goes past this many states are left out: the odd sparse 7×7 board
#: reaches hundreds of thousands, and the rules bite on crowded boards anyway.
WALK_LIMIT = 3000


def reachable(puzzle: Puzzle, limit: int | None = None) -> set[State] | None:
    """Every state the model's moves reach from the start (targets leave as they do); None
    when there are more than ``limit``."""
    board, start = puzzle.board, puzzle.start
    seen, queue = {start}, deque([start])
    while queue:
        for _, after in board.successors(queue.popleft()):
            if after not in seen:
                seen.add(after)
                queue.append(after)
                if limit is not None and len(seen) > limit:
                    return None
    return seen


@dataclass(frozen=True)
class Walk:
    """What the walk found: the cells empty in some reachable state, whether some
    reachable state is solved, and per vehicle the positions it takes in them."""

    ever_empty: frozenset[Cell]
    solvable: bool
    positions: tuple[frozenset[int], ...]


def walk(puzzle: Puzzle, limit: int | None = None) -> Walk | None:
    states = reachable(puzzle, limit)
    if states is None:
        return None
    board = puzzle.board
    empty = set()
    for state in states:
        rows = board.grid(state)
        empty |= {
            (r, c) for r, row in enumerate(rows) for c, char in enumerate(row) if char == EMPTY
        }
    positions = tuple(
        frozenset(state[i] for state in states if state[i] is not None)
        for i in range(len(board.vehicles))
    )
    return Walk(frozenset(empty), any(board.is_solved(state) for state in states), positions)


def walk_faults(walked: Walk, occupied: Iterable[Cell], unsolvable: bool) -> list[str]:
    """What the walk contradicts: cells called always occupied that some state leaves empty,
    and a puzzle called unsolvable that some plan solves."""
    faults = [
        f"{cell} is empty in some reachable state"
        for cell in sorted(occupied)
        if cell in walked.ever_empty
    ]
    if unsolvable and walked.solvable:
        faults.append("called unsolvable, but some reachable state is solved")
    return faults


def check_against_the_walk(puzzle: Puzzle, walked: Walk | None = None) -> None:
    """Every rule's cells and verdict, and every vehicle's range of positions, hold in every
    state the walk reaches."""
    walked = walk(puzzle) if walked is None else walked
    for rules in RULES:
        unsolvable = blocked_exit(puzzle, rules) is not None
        occupied = always_occupied(puzzle.board, puzzle.start, rules)
        assert walk_faults(walked, occupied, unsolvable) == [], rules
    ranges = position_ranges(puzzle.board, puzzle.start)
    vehicles = puzzle.board.vehicles
    for vehicle, taken, allowed in zip(vehicles, walked.positions, ranges, strict=True):
        assert taken <= set(allowed), f"{vehicle.label} stands outside {allowed}"


def crowded_puzzles() -> st.SearchStrategy[Puzzle]:
    """Boards of 4×4 to 7×7 crowded with vehicles and walls, up to three targets: where
    vehicles get stuck and lines pack tight, the rules bite."""
    return puzzles(min_side=4, max_side=7, max_others=16, max_targets=3, max_walls=4)


@st.composite
def busy_lines(draw) -> Puzzle:
    """A row (or column) holding up to four pieces in a row, some of them targets leaving by
    either end, crossed by a few vehicles of the other orientation, and a few walls: the
    chains of targets that leave one after the other, which random boards seldom make."""
    along, across = draw(st.integers(4, 8)), draw(st.integers(3, 6))
    horizontal = draw(st.booleans())
    width, height = (along, across) if horizontal else (across, along)
    sides = ("left", "right") if horizontal else ("top", "bottom")
    line = draw(st.integers(0, across - 1))
    target_labels, other_labels = iter("XYZ"), iter("ABC")
    pieces, targets = [], []
    place = draw(st.integers(0, 1))
    while True:
        length = draw(st.sampled_from((2, 2, 3)))
        label = next(target_labels if draw(st.booleans()) else other_labels, None)
        if place + length > along or label is None:
            break
        if label in "XYZ":
            targets.append(TargetSpec(label, draw(st.sampled_from(sides))))
        row, col = (line, place) if horizontal else (place, line)
        pieces.append(Piece(label, "h" if horizontal else "v", row, col, length))
        place += length + draw(st.integers(0, 2))
    assume(targets)
    taken = {cell for piece in pieces for cell in piece.vehicle().cells(piece.position)}
    for label in "DEFGHIJK"[: draw(st.integers(0, 6))]:
        length = draw(st.sampled_from((2, 3)))
        at, start = draw(st.integers(0, along - 1)), draw(st.integers(0, across - length))
        row, col = (start, at) if horizontal else (at, start)
        place_if_free(Piece(label, "v" if horizontal else "h", row, col, length), pieces, taken)
    walls = draw_walls(draw, 3, height, width, taken)
    return build_puzzle(width, height, pieces, walls, targets, where="random", name="random")


def any_puzzles() -> st.SearchStrategy[Puzzle]:
    sparse = puzzles(min_side=4, max_side=7, max_targets=3, max_walls=4)
    return st.one_of(sparse, crowded_puzzles(), busy_lines())


def examples(count: int) -> settings:
    return settings(
        max_examples=volume(count), deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


@examples(400)
@given(puzzles(min_side=4, max_side=7, max_targets=3, max_walls=4))
def test_marked_cells_stay_occupied_and_unsolvable_means_no_plan(puzzle):
    walked = walk(puzzle, WALK_LIMIT)
    assume(walked is not None)
    check_against_the_walk(puzzle, walked)


@examples(600)
@given(crowded_puzzles())
def test_on_crowded_boards_with_up_to_three_targets_too(puzzle):
    walked = walk(puzzle, WALK_LIMIT)
    assume(walked is not None)
    check_against_the_walk(puzzle, walked)


@examples(300)
@given(busy_lines())
def test_on_lines_of_targets_leaving_one_after_the_other_too(puzzle):
    walked = walk(puzzle, WALK_LIMIT)
    assume(walked is not None)
    check_against_the_walk(puzzle, walked)


# --- agreement with the reference -----------------------------------------------------------


@examples(1000)
@given(any_puzzles())
def test_rhasp_finds_the_cells_and_the_blocked_targets_the_reference_finds(puzzle):
    board, start = puzzle.board, puzzle.start
    proven = {rules: ref.reference_never_leaves(puzzle, rules) for rules in RULES}
    for rules in RULES:
        assert set(always_occupied(board, start, rules)) == ref.reference_occupied(
            board, start, rules
        ), rules
    # "stuck" and "lines" prove exactly the reference's first target never to leave...
    for rules in ("stuck", "lines"):
        found = blocked_exit(puzzle, rules)
        first = ref.reference_first_never_leaving(puzzle, rules)
        assert (found and found.target) == first, rules
    # ... and "full" at least whatever any of the three proves.
    if proven["stuck"] | proven["lines"] | proven["full"]:
        assert blocked_exit(puzzle, "full") is not None


@examples(200)
@given(any_puzzles())
def test_the_full_rule_only_grows_what_the_line_and_stuck_rules_find(puzzle):
    board, start = puzzle.board, puzzle.start
    full = set(always_occupied(board, start, "full"))
    assert set(always_occupied(board, start, "lines")) <= full
    assert set(always_occupied(board, start, "stuck")) <= full


@examples(200)
@given(any_puzzles())
def test_the_second_rule_adds_proofs_but_no_cells_to_the_greatest_fixpoint(puzzle):
    board, start = puzzle.board, puzzle.start
    greatest = set(always_occupied(board, start, "greatest"))
    assert greatest == set(always_occupied(board, start, "full"))
    if blocked_exit(puzzle, "greatest") is not None:
        assert blocked_exit(puzzle, "full") is not None


@examples(200)
@given(any_puzzles())
def test_always_covered_cells_are_start_cells_so_the_full_rule_needs_no_intersection(puzzle):
    # Every placement of a line includes the start, so a cell always covered is a start
    # cell: keeping "full" to the start cells never removes anything. (Which is also why
    # skipping that intersection is no wrong rule the walk could catch.)
    board, start = puzzle.board, puzzle.start
    cells = ref.start_cells(board, start)
    held = dict(cells)
    while True:
        new = ref.one_round(board, start, held)
        assert new.items() <= cells.items()
        if new == held:
            break
        held = new
    assert held == ref.reference_held(board, start, "full")


# --- rules made wrong on purpose -------------------------------------------------------------


def _targets_never_gone(board, pieces, i, k, run, size, placement):
    return False


def _crossing_vehicles_fixed(original):
    """Every vehicle blocks crossing lines where it starts, as if it never moved."""

    def one_round(board, state, held):
        return original(board, state, ref.start_cells(board, state) | held)

    return one_round


def _full_after_one_round(original):
    """The full rule stopped after its first round instead of at the fixpoint."""

    def held(board, state, rules):
        if rules != "full":
            return original(board, state, rules)
        start = ref.start_cells(board, state)
        return {c: i for c, i in ref.one_round(board, state, start).items() if c in start}

    return held


def _break(monkeypatch, wrong: str) -> None:
    if wrong == "targets never leave":
        monkeypatch.setattr(ref, "may_be_gone", _targets_never_gone)
    elif wrong == "crossing vehicles never move":
        monkeypatch.setattr(ref, "one_round", _crossing_vehicles_fixed(ref.one_round))
    elif wrong == "full stops after one round":
        monkeypatch.setattr(ref, "reference_held", _full_after_one_round(ref.reference_held))
    else:
        raise AssertionError(wrong)


def _wrong_by_the_walk(puzzle: Puzzle) -> bool:
    walked = walk(puzzle, WALK_LIMIT)
    if walked is None:
        return False
    board, start = puzzle.board, puzzle.start
    for rules in ("lines", "full"):
        occupied = ref.reference_occupied(board, start, rules)
        unsolvable = bool(ref.reference_never_leaves(puzzle, rules))
        if walk_faults(walked, occupied, unsolvable):
            return True
    return False


SEARCH = settings(
    max_examples=3000,
    database=None,
    phases=[Phase.generate],
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.mark.parametrize(
    "wrong",
    ["targets never leave", "crossing vehicles never move", "full stops after one round"],
)
def test_the_walk_catches_a_rule_made_wrong_on_purpose(monkeypatch, wrong):
    _break(monkeypatch, wrong)
    found = find(crowded_puzzles(), _wrong_by_the_walk, settings=SEARCH, random=Random(32))
    assert _wrong_by_the_walk(found)


def _pieces_pass_blocked_cells(size, blocked, start, length):
    return 0, size - 1


def _any_target_may_go_once_ahead_is_gone(board, pieces, i, k, run, size, placement):
    """The looser reading: ahead gone, whatever edge it left by."""
    side = board.exit_side(board.vehicles[i].label)
    if side in ref.HIGH_SIDES:
        return run[1] == size - 1 and all(q is ref.GONE for q in placement[k + 1 :])
    return run[0] == 0 and all(q is ref.GONE for q in placement[:k])


@pytest.mark.parametrize(
    "wrong", ["pieces pass blocked cells", "a target passes one leaving the other way"]
)
def test_agreement_catches_a_rule_made_wrong_on_the_safe_side(monkeypatch, wrong):
    # Wrong this way, the rule proves less than it could: the walk finds nothing wrong, but
    # rhasp no longer agrees with the reference.
    if wrong == "pieces pass blocked cells":
        monkeypatch.setattr(ref, "run_of", _pieces_pass_blocked_cells)
    else:
        monkeypatch.setattr(ref, "may_be_gone", _any_target_may_go_once_ahead_is_gone)

    def disagrees(puzzle: Puzzle) -> bool:
        board, start = puzzle.board, puzzle.start
        differ = any(
            set(always_occupied(board, start, rules)) != ref.reference_occupied(board, start, rules)
            or bool(blocked_exit(puzzle, rules)) != bool(ref.reference_never_leaves(puzzle, rules))
            for rules in ("lines", "full")
        )
        return differ and walk(puzzle, WALK_LIMIT) is not None

    found = find(any_puzzles(), disagrees, settings=SEARCH, random=Random(32))
    walked = walk(found, WALK_LIMIT)
    for rules in ("lines", "full"):
        occupied = ref.reference_occupied(found.board, found.start, rules)
        unsolvable = bool(ref.reference_never_leaves(found, rules))
        assert walk_faults(walked, occupied, unsolvable) == []


# --- boards worked out by hand ----------------------------------------------------------------


def nothing() -> dict[str, set]:
    """Nothing found, by any of the rules."""
    return {rules: set() for rules in RULES}


def cells_by(puzzle: Puzzle, rules: str) -> set[Cell]:
    return set(always_occupied(puzzle.board, puzzle.start, rules))


def check_by_hand(puzzle: Puzzle, cells: dict[str, set[Cell]], never_leaves: dict[str, set[str]]):
    """rhasp, the reference and the walk all agree with what the hand found."""
    for rules in RULES:
        expected = set(puzzle.board.walls) | cells[rules]
        assert cells_by(puzzle, rules) == expected, rules
        assert ref.reference_occupied(puzzle.board, puzzle.start, rules) == expected, rules
        assert ref.reference_never_leaves(puzzle, rules) == never_leaves[rules], rules
        found = blocked_exit(puzzle, rules)
        if never_leaves[rules]:
            assert found is not None and found.target in never_leaves[rules], rules
        elif rules != "full":
            assert found is None, rules
    check_against_the_walk(puzzle)


def test_a_row_like_aaa_dot_bb_always_covers_three_cells():
    # AAA.BB: A (3 cells) stands at column 0 or 1 (at 1 only with B at 4), B at 3 or 4. A
    # covers columns 1 and 2 (0-based) both ways, B column 4. X, alone on its row, may leave.
    puzzle = grid("AAA.BB\n......\nXX....\n......\n......\n......")
    lines = {(0, 1), (0, 2), (0, 4)}
    check_by_hand(puzzle, {"stuck": set(), "lines": lines, "full": lines}, nothing())


def test_a_row_like_aa_dots_bb_always_covers_nothing():
    # AA..BB: A at 0, 1 or 2 covers {0, 1}, {1, 2} or {2, 3}: no cell each time; B likewise.
    puzzle = grid("AA..BB\n......\nXX....\n......\n......\n......")
    check_by_hand(puzzle, nothing(), nothing())


def test_a_column_pinned_by_a_rows_always_covered_cell_blocks_the_target():
    # static.go's example: row 3 (0-based 2) is AAA.BB, so (2, 2) is always covered by A,
    # which blocks column 2 for C (rows 3-4): C stays in rows 3..5, at 3 or 4, so always
    # covers (4, 2). That blocks row 4 for X: X stays in columns 0..1, covering both, and
    # never reaches the right edge. No vehicle is stuck: A, B, C and X can all move.
    puzzle = grid("......\n......\nAAA.BB\n..C...\nXXC...\n......")
    lines = {(2, 1), (2, 2), (2, 4), (4, 2), (4, 0), (4, 1)}
    check_by_hand(
        puzzle,
        {"stuck": set(), "lines": lines, "full": lines},
        {"stuck": set(), "lines": {"X"}, "full": {"X"}},
    )


def test_each_vehicle_is_kept_to_the_positions_its_packed_line_leaves_it():
    # The board above: A (AAA.BB) stands at column 0 or 1, B at 3 or 4; C, blocked at row 2
    # by A's always-covered cell, at row 3 or 4 of its column. X is the target, and a target
    # may leave: it keeps its whole row, columns 0 to 4, though the cell A pins blocks it.
    puzzle = grid("......\n......\nAAA.BB\n..C...\nXXC...\n......")
    labels = [v.label for v in puzzle.board.vehicles]
    ranges = dict(zip(labels, position_ranges(puzzle.board, puzzle.start), strict=True))
    assert ranges == {"A": range(0, 2), "B": range(3, 5), "C": range(3, 5), "X": range(0, 5)}
    check_against_the_walk(puzzle)


def test_a_pinwheel_is_found_by_the_full_and_stuck_rules_but_not_the_line_rule():
    # A's right end meets B, B's lower end C, C's left end D, D's upper end A, each one's
    # other end the edge: none can move first. X (leaving by the top) has A above it and the
    # edge below. Alone on its line, each piece has room to slide when nothing is blocked
    # yet, so the line rule, starting from nothing, finds no cell; the full rule, starting
    # from every start cell, keeps them all.
    ring = grid("@target X top\n..B.\nAAB.\nXDCC\nXD..")
    everything = set(ref.start_cells(ring.board, ring.start))
    check_by_hand(
        ring,
        {"stuck": everything, "lines": set(), "full": everything},
        {"stuck": {"X"}, "lines": set(), "full": {"X"}},
    )
    assert blocked_exit(ring, "full") == Blocked("X", (1, 0), "vehicle A")


def test_walls_confine_a_truck_that_then_blocks_the_target():
    # Row 3 (0-based) is #AAA.#: A (3 cells) stands in columns 1..4, at 1 or 2, so always
    # covers (3, 2) and (3, 3). X, in column 2 and leaving by the bottom, cannot pass (3, 2):
    # it stays in rows 0..2, at 0 or 1, covering (1, 2). A can slide, so nothing is stuck.
    puzzle = grid("@target X bottom\n..X...\n..X...\n......\n#AAA.#\n......\n......")
    lines = {(3, 2), (3, 3), (1, 2)}
    check_by_hand(
        puzzle,
        {"stuck": set(), "lines": lines, "full": lines},
        {"stuck": set(), "lines": {"X"}, "full": {"X"}},
    )


def test_a_target_with_a_non_target_ahead_on_its_row_never_leaves():
    # XX.AA.: A is no target, so never leaves, and pieces never pass: X never reaches the
    # right edge, though no cell is always covered (X at 0..2, A at 2..4).
    puzzle = grid("......\n......\nXX.AA.\n......\n......\n......")
    check_by_hand(
        puzzle,
        nothing(),
        {"stuck": set(), "lines": {"X"}, "full": {"X"}},
    )
    found = blocked_exit(puzzle, "lines")
    assert (found.target, found.holder, found.kind) == ("X", "vehicle A", "ahead")


def test_two_targets_leaving_right_one_behind_the_other_are_not_proven_stuck():
    # XX.YY. with both leaving right: Y leaves first, then X. Nothing is proven.
    puzzle = grid("@target X right\n@target Y right\n......\n......\nXX.YY.\n......")
    check_by_hand(puzzle, nothing(), nothing())
    assert walk(puzzle).solvable


def test_a_target_behind_a_target_leaving_the_other_way_never_leaves():
    # XX.YY. with X leaving right and Y left: X can only leave after Y, which can only leave
    # after X (pieces never pass each other), so neither ever does; no cell is always
    # covered (X at 0..2, Y at 2..4). The stuck rule sees nothing: both can slide.
    puzzle = grid("@target X right\n@target Y left\n......\n......\nXX.YY.\n......")
    check_by_hand(
        puzzle,
        nothing(),
        {"stuck": set(), "lines": {"X", "Y"}, "full": {"X", "Y"}},
    )
    assert not walk(puzzle).solvable


def test_a_target_behind_a_target_that_never_leaves_says_why_both_are_stuck():
    # XX.YY# with both leaving right: Y faces the wall at column 6, and X can only leave
    # after Y (pieces never pass each other).
    puzzle = grid("@target X right\n@target Y right\n......\nXX.YY#\n......")
    found = blocked_exit(puzzle, "full")
    assert (found.target, found.cell, found.holder, found.kind) == (
        "X",
        (1, 3),
        "target Y",
        "ahead",
    )
    assert found.proof().endswith(
        "(row 2, column 6 is occupied in every reachable state, by a wall: target Y can never "
        "leave)"
    )
    assert not walk(puzzle).solvable


def test_the_example_boards():
    # unsolvable.txt: truck A stands on a wall, across X's way out (the file says so).
    found = blocked_exit(example("unsolvable"))
    assert (found.target, found.cell, found.holder) == ("X", (2, 4), "vehicle A")
    # walled12.txt: a wall at the exit, right of A (row 6, column 12 of the file).
    walled = rhasp.read(PUZZLES / "large" / "walled12.txt")
    assert (
        blocked_exit(walled)
        .proof()
        .startswith("row 6, column 12 is occupied in every reachable state, by a wall")
    )
    for rules in RULES:
        assert blocked_exit(example("4x4"), rules) is None
