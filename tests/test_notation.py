"""Moves written and read in card, arrow and signed notation."""

from __future__ import annotations

import json

import pytest

from rhasp.errors import InputError
from rhasp.model import Move, replay
from rhasp.notation import (
    extract_plan,
    format_move,
    format_plan,
    parse_move,
    parse_plan,
    written_as_moves,
)
from tests.boards import (
    CARD1_BFS_ATOMS,
    CARD1_BFS_PLAN,
    CARD1_CLINGO_ATOMS,
    CARD1_SAS_PLAN,
    card,
)

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


# --- move(T,V,D) atoms, as the encodings print them -----------------------------------------------


def test_atoms_in_any_order_read_as_the_plan_they_spell():
    atoms = CARD1_BFS_ATOMS.split()
    shuffled = " ".join(atoms[3:] + atoms[:3][::-1])
    assert parse_plan(shuffled, BOARD) == parse_plan(CARD1_BFS_PLAN, BOARD)
    assert len(parse_plan(CARD1_BFS_ATOMS, BOARD)) == 8


def test_the_atoms_clingo_prints_replay_to_the_goal_with_their_signs():
    """Right and down positive, as in the encodings (``move(t,V,P-Q)``): card 1's plan from the
    clingo executable solves the puzzle when replayed; with the signs flipped it cannot start."""
    assert replay(card(1), parse_plan(CARD1_CLINGO_ATOMS, card(1).board)).solved
    flipped = CARD1_CLINGO_ATOMS.replace('move(1,"A",2)', 'move(1,"A",-2)')
    with pytest.raises(InputError, match="move 1"):
        replay(card(1), parse_plan(flipped, card(1).board))


@pytest.mark.parametrize(
    "text",
    ['move(1,"A",1)\nmove(2, "C", -3)', "move(1,A,1) move(2,c,-3)", 'move(2,"C",-3),move(1,"A",1)'],
    ids=["spaces", "unquoted", "commas"],
)
def test_atoms_quoted_or_not_and_spaced_or_not(text):
    assert parse_plan(text, BOARD) == (Move("A", 1), Move("C", -3))


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('move(1,"A",1) move(1,"C",-3)', ["'move(1,\"A\",1)'", "'move(1,\"C\",-3)'", "step 1"]),
        ('move(1,"A",1) move(3,"C",-3)', ["step 2"]),
        ('move(0,"A",1)', ["'move(0,\"A\",1)'", "from 1"]),
        ('move(1,"Z",1)', ["'move(1,\"Z\",1)'", "no vehicle Z"]),
        ('move(1,"A",0)', ["'move(1,\"A\",0)'", "0 cells"]),
        ('move(1,"A")', ["'move(1,\"A\")'", "move(T,V,D)"]),
        ('move(1,"A",1) CL3', ["'CL3'", "atoms"]),
        ('CL3 move(2,"A",1)', ["'CL3'", "atoms"]),
    ],
    ids=["repeated", "gap", "step-0", "no-vehicle", "no-cells", "malformed", "mixed", "mixed-1st"],
)
def test_bad_atoms_are_named_in_one_line(text, named):
    with pytest.raises(InputError) as caught:
        parse_plan(text, BOARD, "plan")
    said = str(caught.value)
    assert said.startswith("plan: ") and "\n" not in said
    assert all(part in said for part in named), said


# --- what rhasp solve prints, read back as a plan (written out by hand here) ----------------------

SOLVED_TEXT = """\
4x4 · moves 3 · optimal: proven by bfs · engine bfs · 9 states explored · 0.00 s
   1. BL1
   2. AD2
   3. XR2
"""
SOLVED_BOARDS = """\
4x4 · moves 1 · optimal: proven by bfs · engine bfs · 2 states explored · 0.00 s
+----+
<..A.|
|XXA.>
|....|
|.#B.|
+-v^-+
   1. X→2
+----+
|..A.|
|....>
|....|
|.#B.|
+----+
"""


@pytest.mark.parametrize(
    ("text", "plan"),
    [
        ("AR1 QU1 XR3", "AR1 QU1 XR3"),
        (SOLVED_TEXT, "1. BL1 2. AD2 3. XR2"),
        (SOLVED_BOARDS, "1. X→2"),
        (
            '{\n  "puzzle": "4x4",\n  "plan": [\n    "BL1",\n    "AD2",\n    "XR2"\n  ]\n}\n',
            "BL1 AD2 XR2",
        ),
        ('{"line": 1, "puzzle": "deck-1", "plan": "BL1 AD2 XR2"}\n', "BL1 AD2 XR2"),
        ('{"puzzle": "unsolvable", "solved": false, "plan": null}', ""),
        ("unsolvable · no solution · proven by bfs: all 3 reachable states explored\n", ""),
    ],
    ids=["plain", "text", "boards", "json", "deck-line", "json-unsolved", "text-unsolved"],
)
def test_the_plan_is_taken_out_of_what_solve_prints(text, plan):
    assert extract_plan(text).split() == plan.split()


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        (SOLVED_TEXT + SOLVED_TEXT, "out.txt: holds the plans of 2 puzzles; give the plan of one"),
        ('{"plan": "XR2"}\n{"plan": "XR2"}\n', "out.txt: holds 2 JSON records; give the plan"),
        ('{"puzzle": "4x4", "solves": true}', "out.txt: a JSON record without a plan field"),
        ('{"plan": [1, 2]}', "out.txt: the plan field is not a list of moves"),
        ('{"plan": ["XR2"],\n "puzzle": }', "out.txt:2:12: not JSON: Expecting value"),
        ('{"a": ' + "[" * 100_000, "out.txt: not JSON rhasp reads"),
        ('{"a": ' + "9" * 5000 + "}", "out.txt: not JSON rhasp reads"),
    ],
    ids=["two-puzzles", "two-records", "no-plan", "not-moves", "bad-json", "deep", "digits"],
)
def test_output_that_holds_no_single_plan_is_named(text, complaint):
    with pytest.raises(InputError) as caught:
        extract_plan(text, "out.txt")
    assert str(caught.value).startswith(complaint)


def test_the_lines_under_a_summary_are_not_read_as_moves():
    printed = (
        "left12 · moves 2 · optimal: proven by astar (bfs stopped at its share) · 2.52 s\n"
        "  engine: astar (board larger than 6×6)\n"
        "  searched: astar 7,925 states 0.08 s; bfs stopped at 1,000,043 states 2.44 s\n"
        "  stopped: bfs stopped at 1,000,043 states, its share\n"
        "   1. LD1\n"
        "   2. XR2\n"
    )
    assert extract_plan(printed).split() == ["1.", "LD1", "2.", "XR2"]
    unsolvable = (
        "x · no solution · proven by static analysis · 0.00 s\n  why: row 3, column 5 ...\n"
    )
    assert extract_plan(unsolvable).strip() == ""


# --- what clingo prints: texts as clingo 5.4.1 (Debian's executable) and
# pyclingo 5.8.3 (``python -m clingo``) print them, card 1's atoms in the last answer -------

_HEAD = "clingo version 5.4.1\nReading from encodings/moves.lp ...\n" + "Solving...\n" * 9
_FIGURES = (
    "\nModels       : 1+\nCalls        : 9\n"
    "Time         : 0.034s (Solving: 0.01s 1st Model: 0.00s Unsat: 0.01s)\n"
    "CPU Time     : 0.033s\n"
)
_STATS = (
    "\nChoices      : 493     \nConflicts    : 317      (Analyzed: 311)\n"
    "Rules        : 8360     (Original: 8152)\n  Choice     : 8       \nTight        : Yes\n"
)
CLINGO_TEXTS = {
    "executable": f"{_HEAD}Answer: 1\n{CARD1_CLINGO_ATOMS}\nSATISFIABLE\n{_FIGURES}",
    "stats": f"{_HEAD}Answer: 1\n{CARD1_CLINGO_ATOMS}\nSATISFIABLE\n{_FIGURES}{_STATS}",
    "pyclingo": (
        "pyclingo version 5.8.3\nReading from plan.lp\nSolving...\n"
        f"Answer: 1 (Time: 0.001s)\n{CARD1_CLINGO_ATOMS}\nSATISFIABLE\n{_FIGURES}"
    ),
    "last-of-two": (
        f"{_HEAD}Answer: 1\n{CARD1_BFS_ATOMS.replace('-3', '-2')}\nOptimization: 9\n"
        f"Answer: 2\n{CARD1_CLINGO_ATOMS}\nOptimization: 8\nOPTIMUM FOUND\n{_FIGURES}"
    ),
    "V0": f'move(1,"A",1)\nOptimization: 9\n{CARD1_CLINGO_ATOMS}\nOptimization: 8\nOPTIMUM FOUND\n',
    "other-atoms": (
        f'{_HEAD}Answer: 1\nhorizon(8) note("a b) c") {CARD1_CLINGO_ATOMS} move(2,3)\n'
        f"SATISFIABLE\n{_FIGURES}"
    ),
    "json": json.dumps(  # clingo --outf=2: a call per horizon, the last with the witness
        {
            "Solver": "clingo version 5.4.1",
            "Input": ["encodings/moves.lp", "c.lp"],
            "Call": [{}, {"Witnesses": [{"Value": CARD1_CLINGO_ATOMS.split()}]}],
            "Result": "SATISFIABLE",
            "Models": {"Number": 1, "More": "yes"},
            "Calls": 2,
        },
        indent=2,
    ),
}


@pytest.mark.parametrize("printed", CLINGO_TEXTS.values(), ids=CLINGO_TEXTS.keys())
def test_the_plan_is_the_move_atoms_of_clingos_last_answer(printed):
    plan = parse_plan(extract_plan(printed, "out.txt"), BOARD, "out.txt")
    assert plan == parse_plan(CARD1_CLINGO_ATOMS, BOARD)
    assert replay(card(1), plan).solved


def test_an_empty_answer_is_the_empty_plan():
    # A puzzle solved at the start: clingo answers with no atoms, and no move is its plan.
    assert extract_plan(f"{_HEAD}Answer: 1\n\nSATISFIABLE\n{_FIGURES}") == ""


@pytest.mark.parametrize(
    ("printed", "complaint"),
    [
        (f"{_HEAD}UNSATISFIABLE\n{_FIGURES}", "no answer (UNSATISFIABLE): clingo found no plan"),
        (f"{_HEAD}UNKNOWN\n", "no answer (UNKNOWN)"),
        (
            f'{_HEAD}Answer: 1\nincmode_not_run("run clingo, not python -m clingo")\n'
            f"SATISFIABLE\n{_FIGURES}",
            "clingo's answer 1 holds no move(T,V,D) atoms, only incmode_not_run(",
        ),
        (
            '{"Solver": "clingo version 5.4.1", "Call": [{}], "Result": "UNSATISFIABLE"}',
            "no answer (UNSATISFIABLE)",
        ),
        (
            '{"Solver": "clingo", "Call": [{"Witnesses": 7}, 3], "Result": "SATISFIABLE"}',
            "no answer (SATISFIABLE)",
        ),
    ],
    ids=["unsatisfiable", "unknown", "no-move-atoms", "json-unsatisfiable", "json-malformed"],
)
def test_clingo_output_without_a_plan_says_so(printed, complaint):
    with pytest.raises(InputError) as caught:
        extract_plan(printed, "out.txt")
    assert str(caught.value).startswith("out.txt: ")
    assert complaint in str(caught.value)


# --- a PDDL planner's plan: Fast Downward's sas_plan for card 1 -----------------------------------


def test_a_pddl_plan_reads_as_the_moves_its_actions_name():
    expected = parse_plan("CL3 OD3 AR1 PU1 BU1 RL2 QD2 XR3", BOARD)
    assert parse_plan(extract_plan(CARD1_SAS_PLAN), BOARD, "sas_plan", card(1).start) == expected
    assert parse_plan(CARD1_SAS_PLAN.upper(), BOARD) == expected  # PDDL has no case


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("(jump x)", "'jump' is not an action of rhasp's PDDL domain"),
        ("(right-1 a r1c1)", "right-1 takes 5 arguments, not 2"),
        ("(right-1 z r1c1 r1c2 r1c2 r1c3)", "there is no vehicle z on the board"),
        ("(down-1 a r1c1 r2c1 r1c2 r2c2)", "A is horizontal and cannot move down"),
        ("(right-1 a r1c1 r1c2 r1c2 r1c9)", "r1c9 is not a cell of the 6×6 board"),
        ("(right-1 a r1c1 r1c2 r1c3 r1c4)", "not the cells A crosses moving 1 right from r1c1"),
        ("(right-1 a r1c2 r1c3 r1c3 r1c4)", "A stands at r1c1 there, not r1c2"),
        ("AR1", "'AR1' is not an action"),
    ],
    ids=["name", "arity", "vehicle", "direction", "off-board", "cells", "where", "mixed"],
)
def test_a_bad_pddl_action_is_named_with_its_line(line, complaint):
    text = f"; a comment\n(left-3 c r5c5 r5c4 r5c3 r5c2 r5c6 r5c5 r5c4 r5c3)\n{line}\n"
    with pytest.raises(InputError) as caught:
        parse_plan(text, BOARD, "sas_plan", card(1).start)
    assert str(caught.value).startswith("sas_plan:3: ")
    assert complaint in str(caught.value)


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("XR3", True),
        ("1. AL1 2. X→3, B+2; Q-1", True),
        ('move(1,"X",3) move(2,x,-1)', True),
        ("myplan.txt", False),
        ("plans/card01", False),
        ("XR3 hello", False),
        ("", False),
    ],
)
def test_a_plan_is_written_as_moves_whatever_the_board(text, moves):
    assert written_as_moves(text) is moves
