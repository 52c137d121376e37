"""What the command line prints of an answer: the answer's own words, with boards in colour
and the command line's advice on a limit."""

from __future__ import annotations

from dataclasses import replace

import pytest

import rhasp
from rhasp.limits import Limit
from rhasp.output.text import advised, solution_text
from tests.boards import card


def test_a_limit_is_advised_in_the_command_lines_words_once_for_each_kind():
    atoms = Limit("ground program limit reached after 9 atoms at horizon 3", "atoms", 9)
    states = Limit("state limit reached after 51 states at depth 2", "states", 50, 51)
    assert advised(states) == f"{states.text} (raise --max-states)"
    both = replace(atoms, also=("bfs", states))
    assert (
        advised(both) == f"{atoms.text}; bfs: {states.text} (raise --max-atoms; raise --max-states)"
    )
    assert advised(replace(states, also=("bfs", states))).count("raise") == 1
    timed = Limit("timed out at horizon 4", "time", 1.0)
    assert advised(timed) == "timed out at horizon 4"  # the command line's --timeout was given


@pytest.mark.parametrize("notation", ["card", "arrow"])
def test_the_boards_come_between_the_words_and_change_none_of_them(notation):
    solution = rhasp.solve(card(11), engine="bfs")
    words = solution_text(solution, notation, boards=False, verbose=True).plain
    drawn = solution_text(solution, notation, boards=True, verbose=True).plain.splitlines()
    # Each board: a frame line (+---+), its rows between | (or an exit mark), a frame line.
    frames = [n for n, line in enumerate(drawn) if line.startswith("+")]
    assert len(frames) == 2 * (solution.moves + 1)
    pairs = zip(frames[::2], frames[1::2], strict=True)
    rows = {n for top, bottom in pairs for n in range(top, bottom + 1)}
    assert [line for n, line in enumerate(drawn) if n not in rows] == words.splitlines()
