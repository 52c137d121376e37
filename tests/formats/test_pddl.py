"""PDDL for planners: the domain and problem text of hand-made boards, played by STRIPS
semantics here, and (slow) Fast Downward's optimal plans checked by rhasp."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rhasp
from rhasp.errors import InputError
from rhasp.formats.pddl import write_domain, write_problem
from rhasp.model import Move
from rhasp.notation import parse_plan
from tests.boards import CARD_MOVES, card, example, grid

# --- a reader of the PDDL written, of its own: s-expressions, and STRIPS played out -------


def sexpr(text: str) -> list:
    """``text`` (comments cut) as nested lists of lowercase words."""
    tokens = re.findall(r"[()]|[^\s()]+", re.sub(r";[^\n]*", "", text).lower())
    stack: list[list] = [[]]
    for token in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token)
    (whole,) = stack[0]
    return whole


def section(tree: list, key: str) -> list:
    return next(part for part in tree if isinstance(part, list) and part[0] == key)


def facts(items: list) -> set[tuple[str, ...]]:
    return {tuple(item) for item in items}


def typed(words: list[str]) -> dict[str, str]:
    """``a b - t c - u`` as {a: t, b: t, c: u}."""
    kinds, pending = {}, []
    for at, word in enumerate(words):
        if word == "-" or (at and words[at - 1] == "-"):
            if word != "-":
                kinds |= dict.fromkeys(pending, word)
                pending = []
            continue
        pending.append(word)
    return kinds


def schemas(domain: str) -> dict[str, tuple[list[str], list, list]]:
    """Each action: its parameters, its precondition's literals, its effect's literals."""
    found = {}
    for part in sexpr(domain)[2:]:
        if part[0] == ":action":
            keys = dict(zip(part[2::2], part[3::2], strict=True))
            parameters = list(typed(keys[":parameters"]))
            found[part[1]] = (parameters, keys[":precondition"][1:], keys[":effect"][1:])
    return found


def play(domain: str, problem: str, plan: list[str]) -> set[tuple[str, ...]]:
    """The state after ``plan`` (ground actions, one a line) from the problem's start,
    by STRIPS semantics: every precondition holds, the deletes go, then the adds come."""
    actions = schemas(domain)
    state = facts(section(sexpr(problem), ":init")[1:])
    for line in plan:
        name, *arguments = sexpr(line)
        parameters, precondition, effect = actions[name]
        binding = dict(zip(parameters, arguments, strict=True))

        def ground(atom: list, binding: dict[str, str] = binding) -> tuple[str, ...]:
            return tuple(binding.get(word, word) for word in atom)

        missing = [ground(atom) for atom in precondition if ground(atom) not in state]
        assert not missing, f"{line}: {missing}"
        deletes = {ground(literal[1]) for literal in effect if literal[0] == "not"}
        adds = {ground(literal) for literal in effect if literal[0] != "not"}
        state = (state - deletes) | adds
    return state


def goal(problem: str) -> tuple[str, ...]:
    (atom,) = section(sexpr(problem), ":goal")[1:]
    return tuple(atom)


# --- a hand-made 4×4: B steps left, A drives down, X leaves (BL1 AD2 XR2), a wall in a corner

FOUR = """
    #.A.
    XXA.
    ....
    .BB.
"""


def test_the_problem_of_a_hand_made_4x4():
    problem = sexpr(write_problem(grid(FOUR), "moves"))
    cells = [f"r{row}c{col}" for row in range(1, 5) for col in range(1, 5)]
    objects = typed(section(problem, ":objects")[1:])
    assert objects == dict.fromkeys(cells, "cell") | {
        "b": "horizontal",
        "x": "horizontal",
        "a": "vertical",
    }
    assert section(problem, ":domain") == [":domain", "rush-hour-moves-4x4"]
    init = facts(section(problem, ":init")[1:])
    at = {fact for fact in init if fact[0] == "at"}
    assert at == {
        ("at", "a", "r1c3", "r2c3"),
        ("at", "x", "r2c1", "r2c2"),
        ("at", "b", "r4c2", "r4c3"),
    }
    clear = {fact[1] for fact in init if fact[0] == "clear"}
    # 16 cells less A's 2, X's 2, B's 2 and the wall at row 1, column 1.
    assert clear == {"r1c2", "r1c4", "r2c4", "r3c1", "r3c2", "r3c3", "r3c4", "r4c1", "r4c4"}
    right = {fact[1:] for fact in init if fact[0] == "next-right"}
    down = {fact[1:] for fact in init if fact[0] == "next-down"}
    assert len(right) == len(down) == 12
    assert ("r2c3", "r2c4") in right and ("r2c4", "r3c1") not in right
    assert ("r3c2", "r4c2") in down and ("r4c2", "r1c3") not in down
    assert len(init) == 3 + 9 + 24
    assert goal(write_problem(grid(FOUR), "moves")) == ("at", "x", "r2c3", "r2c4")


def test_the_domain_has_an_action_per_direction_and_distance():
    by_moves = schemas(write_domain(4, 5, "moves"))
    # A vehicle of 2 cells moves at most 2 cells along a side of 4, 3 along a side of 5.
    assert set(by_moves) == {"right-1", "right-2", "left-1", "left-2"} | {
        f"{direction}-{d}" for direction in ("down", "up") for d in (1, 2, 3)
    }
    assert set(schemas(write_domain(4, 5, "slides"))) == {"right-1", "left-1", "down-1", "up-1"}
    parameters, precondition, effect = by_moves["right-2"]
    assert parameters == ["?v", "?f0", "?f1", "?f2", "?l0", "?l1", "?l2"]
    assert facts(precondition) == {
        ("at", "?v", "?f0", "?l0"),
        ("next-right", "?f0", "?f1"),
        ("next-right", "?f1", "?f2"),
        ("next-right", "?l0", "?l1"),
        ("next-right", "?l1", "?l2"),
        ("clear", "?l1"),
        ("clear", "?l2"),
    }
    assert {str(literal) for literal in effect} == {
        str(["not", ["at", "?v", "?f0", "?l0"]]),
        str(["at", "?v", "?f2", "?l2"]),
        str(["clear", "?f0"]),
        str(["clear", "?f1"]),
        str(["not", ["clear", "?l1"]]),
        str(["not", ["clear", "?l2"]]),
    }
    # Leftwards the first cell leads: its chain steps left along next-right read backwards.
    _, precondition, _ = by_moves["up-1"]
    assert ("next-down", "?f1", "?f0") in facts(precondition)
    assert ("clear", "?f1") in facts(precondition)
    domain = write_domain(6, 6, "moves")
    assert not re.search(r":negative-preconditions|forall|exists|\(when|\(or", domain)
    literals = [
        literal for _, precondition, _ in schemas(domain).values() for literal in precondition
    ]
    assert literals and all(literal[0] != "not" for literal in literals)


#: BL1 AD2 XR2 as ground actions, written by hand from the board.
FOUR_PLAN = [
    "(left-1 b r4c2 r4c1 r4c3 r4c2)",
    "(down-2 a r1c3 r2c3 r3c3 r2c3 r3c3 r4c3)",
    "(right-2 x r2c1 r2c2 r2c3 r2c2 r2c3 r2c4)",
]


def test_the_hand_plan_played_by_strips_reaches_the_goal_and_reads_as_its_moves():
    domain, problem = write_domain(4, 4, "moves"), write_problem(grid(FOUR), "moves")
    state = play(domain, problem, FOUR_PLAN)
    assert goal(problem) in state
    assert play(domain, problem, FOUR_PLAN[:2]) & {goal(problem)} == set()
    moves = parse_plan("\n".join(FOUR_PLAN), grid(FOUR).board, "plan", grid(FOUR).start)
    assert moves == (Move("B", -1), Move("A", 2), Move("X", 2))


def test_a_jump_past_the_vehicles_length_leaves_the_cells_between_clear():
    """X (2 cells) moving 3: the cells between, both entered and left by the effects, stay
    clear since STRIPS deletes before it adds."""
    puzzle = grid(
        """
        .....
        XX...
        .....
        """
    )
    domain, problem = write_domain(5, 3, "moves"), write_problem(puzzle, "moves")
    state = play(domain, problem, ["(right-3 x r2c1 r2c2 r2c3 r2c4 r2c2 r2c3 r2c4 r2c5)"])
    assert ("at", "x", "r2c4", "r2c5") in state and goal(problem) in state
    row = {fact[1] for fact in state if fact[0] == "clear" and fact[1].startswith("r2")}
    assert row == {"r2c1", "r2c2", "r2c3"}


def test_by_slides_a_move_is_its_cells_one_at_a_time():
    domain, problem = write_domain(4, 4, "slides"), write_problem(grid(FOUR), "slides")
    slides = [
        "(left-1 b r4c2 r4c1 r4c3 r4c2)",
        "(down-1 a r1c3 r2c3 r2c3 r3c3)",
        "(down-1 a r2c3 r3c3 r3c3 r4c3)",
        "(right-1 x r2c1 r2c2 r2c2 r2c3)",
        "(right-1 x r2c2 r2c3 r2c3 r2c4)",
    ]
    assert goal(problem) in play(domain, problem, slides)  # 5 slides, the hand count


def test_several_targets_are_refused_in_one_line():
    with pytest.raises(InputError) as caught:
        write_problem(example("two-targets"), "moves")
    assert str(caught.value).count("\n") == 0
    assert "2 (X, Y)" in str(caught.value)


def test_every_side_and_walls_are_written():
    puzzle = example("vertical-target")
    side = puzzle.board.exit_side(puzzle.board.targets[0])
    target = puzzle.board.vehicles[puzzle.board.index(puzzle.board.targets[0])]
    ends = goal(write_problem(puzzle, "moves"))
    last = puzzle.board.height if side == "bottom" else target.length
    assert ends[2:] == (
        f"r{last - target.length + 1}c{target.line + 1}",
        f"r{last}c{target.line + 1}",
    )
    walls = example("walls")
    init = facts(section(sexpr(write_problem(walls, "moves")), ":init")[1:])
    clear = {fact[1] for fact in init if fact[0] == "clear"}
    assert clear.isdisjoint(f"r{row + 1}c{col + 1}" for row, col in walls.board.walls)


# --- Fast Downward, the planners' reference (PyPI up-fast-downward) -------------------------

SPEC = importlib.util.find_spec("up_fast_downward")
FAST_DOWNWARD = (
    None
    if SPEC is None or not SPEC.submodule_search_locations
    else Path(SPEC.submodule_search_locations[0]) / "downward" / "fast-downward.py"
)


@pytest.mark.slow
@pytest.mark.skipif(
    FAST_DOWNWARD is None and not os.environ.get("CI"),
    reason="Fast Downward is not installed (pip install up-fast-downward: the test extras)",
)
@pytest.mark.parametrize("objective", ["moves", "slides"])
def test_fast_downwards_optimal_plans_check_at_rhasps_minimum(objective, tmp_path):
    """A* with LM-cut (admissible) on cards 1 to 10: each plan passes rhasp check, and its
    length is the minimum (by moves, the card backs' lengths; by slides, rhasp's BFS)."""
    assert FAST_DOWNWARD is not None
    for number in range(1, 11):
        puzzle = card(number)
        domain, problem, plan = (tmp_path / f"{n}-{number}" for n in ("domain", "problem", "plan"))
        domain.write_text(write_domain(6, 6, objective))
        problem.write_text(write_problem(puzzle, objective))
        files = [str(plan), str(domain), str(problem)]
        ran = subprocess.run(
            [
                sys.executable,
                str(FAST_DOWNWARD),
                "--plan-file",
                *files,
                "--search",
                "astar(lmcut())",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
        checked = rhasp.check(puzzle, plan.read_text())
        assert checked.solves, number
        if objective == "moves":
            assert checked.moves == checked.minimal_moves == CARD_MOVES[number - 1], number
        else:
            assert checked.moves == checked.slides == checked.minimal_slides, number
