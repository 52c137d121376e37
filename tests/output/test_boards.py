"""Terminal boards: colours that tell neighbours apart and letters that can be read."""

from __future__ import annotations

import pytest
from rich.color import Color
from rich.text import Text

import rhasp
from rhasp.model import replay
from rhasp.output.boards import TARGET_COLOURS, VEHICLE_COLOURS, letter_style
from rhasp.output.text import solution_text
from tests.boards import EXAMPLES, card

#: WCAG 2's least contrast for normal text (level AA).
READABLE = 4.5


def luminance(name: str) -> float:
    """WCAG 2's relative luminance, worked out here apart from rhasp's own."""

    def linear(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = Color.parse(name).get_truecolor()
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("background", TARGET_COLOURS + VEHICLE_COLOURS)
def test_every_letter_is_readable_on_its_colour(background):
    bold, letter, on, colour = letter_style(background).split()
    assert (bold, on, colour) == ("bold", "on", background)
    assert contrast(letter, background) >= READABLE


def test_the_palettes_hold_no_colour_twice_and_targets_stand_apart():
    assert len(set(VEHICLE_COLOURS)) == len(VEHICLE_COLOURS)
    assert set(TARGET_COLOURS).isdisjoint(VEHICLE_COLOURS)


def boards_shown(text: Text) -> list[list[list[tuple[str, str]]]]:
    """Each framed board of ``text`` as rows of (letter, background) pairs, read back from
    the printed text and its styles alone."""
    styles = [""] * len(text.plain)
    for span in text.spans:
        for offset in range(span.start, span.end):
            styles[offset] = str(span.style)
    boards, board, offset = [], None, 0
    for line in text.plain.split("\n"):
        if line.startswith("+"):
            board = [] if board is None else boards.append(board)
        elif board is not None and line[:1] in "|<>^v" and line:
            cells = range(offset + 1, offset + len(line) - 1)
            board.append([(text.plain[i], styles[i].split(" on ")[-1]) for i in cells])
        offset += len(line) + 1
    return boards


def neighbours_sharing_a_colour(board: list[list[tuple[str, str]]]) -> list[tuple[str, str]]:
    clashes = []
    for r, row in enumerate(board):
        for c, (letter, colour) in enumerate(row):
            beside = [row[c + 1]] if c + 1 < len(row) else []
            below = [board[r + 1][c]] if r + 1 < len(board) else []
            for other, other_colour in beside + below:
                different = letter.isalpha() and other.isalpha() and letter != other
                if different and colour == other_colour:
                    clashes.append((letter, other))
    return clashes


@pytest.mark.parametrize("number", [1, 11, 25, 26, 40])
def test_touching_vehicles_never_share_a_colour_in_any_board_of_a_plan(number):
    solution = rhasp.solve(card(number), engine="bfs")
    text = solution_text(solution, "card", boards=True)
    boards = boards_shown(text)
    assert len(boards) == solution.moves + 1
    for board in boards:
        assert neighbours_sharing_a_colour(board) == []
    # And one colour a vehicle all plan long.
    colours = {}
    for board in boards:
        for row in board:
            for letter, colour in row:
                if letter.isalpha():
                    assert colours.setdefault(letter, colour) == colour


def test_two_targets_touching_take_two_reds():
    puzzle = rhasp.read(str(EXAMPLES / "two-targets.txt"))
    states = replay(puzzle, []).states
    assert len(states) == 1
    solution = rhasp.solve(puzzle, engine="bfs")
    for board in boards_shown(solution_text(solution, "card", boards=True)):
        assert neighbours_sharing_a_colour(board) == []
