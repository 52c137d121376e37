"""Plan checking: every plan the solver prints is accepted, and judged against the minimum."""

from __future__ import annotations

import pytest

from rhasp.limits import Budget
from rhasp.model import Move
from rhasp.notation import format_plan, parse_plan
from rhasp.plan_check import check_plan
from tests.boards import card, example


@pytest.mark.parametrize("number", range(1, 41))
def test_solver_plans_of_every_card_are_accepted_as_minimal(card_solutions, number):
    for objective in ("moves", "slides"):
        solution = card_solutions[number, objective]
        # Through text, as a user would pass it: card notation written, then read back.
        text = " ".join(format_plan(solution.plan, solution.puzzle.board))
        result = check_plan(card(number), parse_plan(text, solution.puzzle.board), Budget())
        assert result.solves
        assert getattr(result, f"{objective}_minimal"), (number, objective)
        assert getattr(result, objective) == solution.length


def test_a_longer_plan_is_judged_not_minimal():
    # 4×4: BL1 AD2 XR2 is minimal; going B right and back first costs two more moves.
    moves = (Move("B", 1), Move("B", -2), Move("A", 2), Move("X", 2))
    result = check_plan(example("4x4"), moves, Budget())
    assert result.solves
    assert (result.moves, result.minimal_moves, result.moves_minimal) == (4, 3, False)
    assert (result.slides, result.minimal_slides, result.slides_minimal) == (7, 5, False)


def test_a_failing_plan_names_its_move():
    result = check_plan(example("4x4"), (Move("B", -1), Move("X", 1)), Budget())
    assert not result.solves
    assert result.failed_move == 2
    assert "X is blocked by A" in result.error


def test_a_plan_that_ends_too_soon_names_the_targets_still_on_the_board():
    # two-targets.txt: the plan of no move leaves both targets; card 1's first two moves
    # leave X.
    two = example("two-targets")
    assert check_plan(two, (), Budget()).targets_on_board == two.board.targets
    result = check_plan(card(1), (Move("A", 3), Move("P", -1)), Budget())
    assert (result.solves, result.error, result.targets_on_board) == (False, None, ("X",))
    assert result.record()["targets_on_board"] == ["X"]
    solved = check_plan(example("4x4"), (Move("B", -1), Move("A", 2), Move("X", 2)), Budget())
    assert solved.solves and "targets_on_board" not in solved.record()


def test_a_plan_for_a_puzzle_static_analysis_proves_unsolvable_says_so():
    # unsolvable.txt by hand: X may slide right once, and never leaves (truck A on a wall).
    result = check_plan(example("unsolvable"), (Move("X", 1),), Budget())
    assert not result.solves and result.moves == 1
    assert result.unsolvable.startswith("row 3, column 5 is occupied in every reachable state")
    assert (
        check_plan(example("4x4"), (Move("B", -1),), Budget()).unsolvable is None
    )  # solvable: silent


class Printer:
    """IPython's pretty printer as far as ``_repr_pretty_`` uses it."""

    def __init__(self) -> None:
        self.shown = ""

    def text(self, text: str) -> None:
        self.shown += text


def test_a_check_prints_as_rhasp_check_says_it_in_card_notation():
    # 4×4 by hand: B right and back costs two moves and two slides more than BL1 AD2 XR2;
    # XR4 goes past the exit, two cells away.
    moves = (Move("B", 1), Move("B", -2), Move("A", 2), Move("X", 4))
    result = check_plan(example("4x4"), moves, Budget())
    assert str(result).splitlines() == [
        "note: move 4 XR4 drives the target past its exit; counted up to the edge as XR2",
        "4x4 · the plan solves the puzzle",
        "moves: 4, not minimal: the fewest is 3 (proven by bfs)",
        "slides: 7, not minimal: the fewest is 5 (proven by bfs)",
    ]
    printer = Printer()
    result._repr_pretty_(printer, cycle=False)  # what IPython and Jupyter show
    assert printer.shown == str(result)
    assert repr(result).startswith("PlanCheck(puzzle='4x4', plan_moves=4")  # for debugging


def test_a_failing_check_prints_the_move_and_why():
    result = check_plan(example("4x4"), (Move("B", -1), Move("X", 1)), Budget())
    assert str(result) == "4x4 · the plan fails at move 2: X is blocked by A at row 2, column 3"


def test_why_a_plan_does_not_solve_is_one_field_whatever_the_reason():
    # By hand: card 1's first two moves leave X on the board; 4×4's B cannot go right twice
    # (it stands at the right edge after one move); both targets of two-targets.txt stay.
    short = check_plan(card(1), (Move("A", 3), Move("P", -1)), Budget())
    assert short.why_not.endswith("after 2 moves: X is still on the board")
    failed = check_plan(example("4x4"), (Move("B", -1), Move("X", 1)), Budget())
    assert failed.why_not.startswith("the plan fails at move 2") and "X" in failed.why_not
    two = check_plan(example("two-targets"), (), Budget())
    assert " and ".join(two.targets_on_board) in two.why_not
    assert "are still on the board" in two.why_not
    solved = check_plan(example("4x4"), (Move("B", -1), Move("A", 2), Move("X", 2)), Budget())
    assert solved.why_not is None
    assert str(short).endswith(short.why_not) and str(failed).endswith(failed.why_not)
