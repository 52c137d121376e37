"""Moves written and read in card, arrow and signed notation."""

from __future__ import annotations

import pytest

from rhasp.errors import InputError
from rhasp.model import Move
from rhasp.notation import format_move, format_plan, parse_move, parse_plan
from tests.boards import card

BOARD = card(1).board  # X, A, C horizontal; O, P, Q, B vertical


@pytest.mark.parametrize(
    ("move", "card_form", "arrow", "signed"),
    [
        (Move("X", 3), "XR3", "X→3", "X+3"),
        (Move("A", -1), "AL1", "A←1", "A-1"),
        (Move("P", -2), "PU2", "P↑2", "P-2"),
        (Move("Q", 1), "QD1", "Q↓1", "Q+1"),
    ],
)
def test_each_notation_writes_and_reads_back(move, card_form, arrow, signed):
    assert format_move(move, BOARD, "card") == card_form
    assert format_move(move, BOARD, "arrow") == arrow
    assert format_move(move, BOARD, "signed") == signed
    for text in (card_form, arrow, signed):
        assert parse_move(text, BOARD) == move


def test_a_plan_may_mix_notations_and_carry_numbering():
    plan = parse_plan("1. AR1 2. Q↑1,\n3) x+3", BOARD)
    assert plan == (Move("A", 1), Move("Q", -1), Move("X", 3))
    assert format_plan(plan, BOARD) == ["AR1", "QU1", "XR3"]


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("XU1", "X is horizontal and moves L or R only"),
        ("PR1", "P is vertical and moves U or D only"),
        ("ZR1", "there is no vehicle Z"),
        ("X3", "is not a move"),
        ("XR0", "moves 0 cells"),
        ("XRR", "is not a move"),
    ],
)
def test_bad_moves_are_named(text, complaint):
    with pytest.raises(InputError) as caught:
        parse_plan(f"AR1 {text}", BOARD, "plan")
    assert complaint in str(caught.value)
    assert "move 2" in str(caught.value)


def test_a_move_of_thousands_of_digits_is_an_error_not_a_traceback():
    with pytest.raises(InputError) as caught:
        parse_plan(f"AR1 XR{'9' * 5000}", BOARD, "plan")
    assert str(caught.value).startswith("plan: move 2: 'XR999")
    assert "is not a move" in str(caught.value)
