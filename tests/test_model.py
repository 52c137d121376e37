"""The reference model: move generation, exits, replay, on hand-checked boards."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from rhasp.errors import InputError, PlanError
from rhasp.model import Move, Piece, TargetSpec, build_puzzle, replay
from rhasp.notation import format_move, parse_plan
from tests.boards import card, card_backs, card_rows, example, grid

FOUR = """
    ..A.
    XXA.
    ....
    .BB.
"""


def moves_from_start(puzzle) -> set[str]:
    board = puzzle.board
    return {format_move(move, board) for move, _ in board.successors(puzzle.start)}


def test_moves_on_the_4x4_board_counted_by_hand():
    # A can only go down one (B below it); B left or right one; X is blocked by A.
    assert moves_from_start(grid(FOUR)) == {"AD1", "BL1", "BR1"}


def test_moves_of_card_1_counted_by_hand():
    # AA...O / P..Q.O / PXXQ.O / P..Q.. / B...CC / B.RRR.
    # A slides up to O; O only down to C; P and B are boxed in; X is boxed in.
    expected = {"AR1", "AR2", "AR3", "QU1", "QD1", "OD1", "CL1", "CL2", "CL3", "RL1", "RR1"}
    assert moves_from_start(card(1)) == expected


def test_walls_block_moves():
    puzzle = grid("""
        ......
        ...#..
        XX.A..
        ...A..
        ...#..
        ......
    """)
    assert moves_from_start(puzzle) == {"XR1"}


def test_a_target_leaves_when_it_reaches_its_exit_edge():
    puzzle = grid(FOUR)
    board = puzzle.board
    state = puzzle.start
    for move in (Move("B", -1), Move("A", 2)):
        state = board.apply(state, move)
    assert not board.is_solved(state)
    after = board.apply(state, Move("X", 2))
    assert after[board.index("X")] is None
    assert board.is_solved(after)
    assert all("X" not in row for row in board.grid(after))


def test_a_target_placed_at_its_exit_edge_has_already_left():
    puzzle = grid("""
        ....
        ..XX
        .A..
        .A..
    """)
    assert puzzle.placement[puzzle.board.index("X")] == 2
    assert puzzle.board.is_solved(puzzle.start)


def test_other_targets_block_until_they_leave():
    puzzle = example("two-targets")
    board = puzzle.board
    state = board.apply(puzzle.start, Move("A", 1))
    assert "XR1" in {format_move(m, board) for m, _ in board.successors(state)}
    assert "XR2" not in {format_move(m, board) for m, _ in board.successors(state)}
    state = board.apply(state, Move("Y", 1))
    assert state[board.index("Y")] is None and not board.is_solved(state)


def test_states_are_immutable_and_hashable():
    puzzle = card(1)
    assert isinstance(puzzle.start, tuple)
    assert {puzzle.start: 1}[card(1).start] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        puzzle.board.width = 7  # type: ignore[misc]


def test_replay_of_the_card_back_solution_of_card_1():
    puzzle = card(1)
    played = replay(puzzle, parse_plan(card_backs()[1], puzzle.board))
    assert played.solved
    # The card drives X out with XR5; it leaves on reaching the edge, after 3 cells.
    assert played.clipped == [8]
    assert played.moves[-1] == Move("X", 3)
    assert len(played.states) == 9


@pytest.mark.parametrize(
    ("plan", "number", "reason"),
    [
        ("BL1 ZR1", 2, "there is no vehicle Z"),
        ("AD2", 1, "A is blocked by B at row 4, column 3"),
        ("BL2", 1, "B would leave the board"),
        ("BL1 AD2 XR2 BR1", 4, "already solved"),
        ("XR1", 1, "X is blocked by A at row 2, column 3"),
    ],
)
def test_replay_names_the_first_bad_move(plan, number, reason):
    puzzle = grid(FOUR)
    moves = tuple(Move(t[0], int(t[2:]) * (1 if t[1] in "RD" else -1)) for t in plan.split())
    with pytest.raises(PlanError) as caught:
        replay(puzzle, moves)
    assert caught.value.index == number
    assert f"move {number}:" in str(caught.value)
    assert reason in str(caught.value)


def test_a_plan_that_stops_short_replays_unsolved():
    puzzle = grid(FOUR)
    played = replay(puzzle, (Move("B", -1), Move("A", 2)))
    assert not played.solved


# Issue 13: what build_puzzle refuses, whichever reader hands it the pieces.
@pytest.mark.parametrize(
    ("piece", "targets", "error"),
    [
        # A length of 10**30 is checked at its ends: listing its cells would never end.
        (
            Piece("A", "h", 0, 0, 10**30, "w"),
            ["A"],
            f"w: vehicle A ({10**30} cells from row 1, column 1)",
        ),
        # Labels every format can write: one ASCII letter or digit, not o.
        (Piece("é", "h", 0, 0, 2, "w"), ["é"], "w: vehicle label 'é' must be one letter or digit"),
        (Piece(";", "h", 0, 0, 2, "w"), [";"], "w: vehicle label ';' must be one letter or digit"),
        # A target label that is not a label is shown quoted, so the error stays one line.
        (Piece("A", "h", 0, 0, 2), ["A\nB"], "w: target 'A\\nB' is not a vehicle on the board"),
    ],
)
def test_pieces_and_targets_no_format_could_write_are_refused(piece, targets, error):
    with pytest.raises(InputError) as caught:
        build_puzzle(4, 4, [piece], [], [TargetSpec(t) for t in targets], where="w")
    assert str(caught.value).startswith(error)
    assert len(str(caught.value).splitlines()) == 1


@pytest.mark.parametrize(
    ("rows", "move", "blocker"),
    [
        # Card 1 by hand: B (rows 5-6, column 1) going up meets P (rows 2-4) at row 4 first.
        (None, Move("B", -3), "B is blocked by P at row 4, column 1"),
        # X (row 3, columns 4-5) going left meets C (column 3) before A (columns 1-2).
        (
            ["......", "..C...", "AACXX.", "......"],
            Move("X", -3),
            "blocked by C at row 3, column 3",
        ),
    ],
)
def test_a_blocked_move_names_the_first_cell_it_would_meet(rows, move, blocker):
    # The cells were once scanned from the line's low end whichever way the vehicle went: a
    # move up or left named the farthest blocker (BU3 on card 1: P at row 2).
    puzzle = card(1) if rows is None else grid("\n".join(rows))
    with pytest.raises(PlanError) as caught:
        replay(puzzle, (move,))
    assert blocker in str(caught.value)


def test_a_card_prints_as_its_file_shows_it():
    rows = card_rows(1)  # the file's own rows, read by no rhasp code
    assert str(card(1)).splitlines() == ["; card01", *rows]


def test_a_puzzle_prints_the_target_lines_the_card_convention_would_not_read():
    # 5x5.txt: "@target A" (right, the default of a horizontal car), as the file says.
    assert str(example("5x5")).splitlines()[:3] == ["; 5x5", "@target A right", "IHHDD"]
    # X, but leaving left: the line names the edge.
    left = grid("@target X left\n......\n......\n.XX...\n......")
    assert str(left).splitlines()[1] == "@target X left"


def test_a_lowercase_puzzle_prints_rather_than_raises():
    # No grid text reads back as these labels (a grid reads them as capitals): still printed.
    pieces = [Piece("x", "h", 0, 0, 2), Piece("b", "v", 1, 1, 2)]
    puzzle = build_puzzle(3, 3, pieces, [], [TargetSpec("x")], where="test", name="small")
    assert str(puzzle).splitlines() == ["; small", "@target x right", "xx.", ".b.", ".b."]


def test_a_board_is_framed_with_its_exits_marked():
    # By hand: X leaves left of row 3; a vertical target T leaves through the top of column 4.
    left = grid("@target X left\n...\n...\nXX.")
    assert left.board.framed(left.placement) == ["+---+", "|...|", "|...|", "<XX.|", "+---+"]
    top = grid("@target T top\n....\n...T\n...T")
    assert top.board.framed(top.placement) == ["+---^+", "|....|", "|...T|", "|...T|", "+----+"]


def test_a_puzzle_shows_in_ipython_as_it_prints():
    printed: list[str] = []
    card(1)._repr_pretty_(SimpleNamespace(text=printed.append), cycle=False)
    assert printed == ["\n".join(["; card01", *card_rows(1)])]
