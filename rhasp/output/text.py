"""What the command line prints of each answer: the answer's own words (a solution's, a hint's,
a check's, an analysis's lines), with the boards drawn in colour and the command line's advice
on a limit (the option that raises it)."""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text

from rhasp.analysis import Analysis
from rhasp.hints import Hint
from rhasp.limits import Limit, RanOut
from rhasp.model import Board, Puzzle, replay
from rhasp.notation import Notation
from rhasp.output.boards import board_text, vehicle_styles
from rhasp.plan_check import PlanCheck
from rhasp.solution import Solution

#: How the command line says to go further after each kind of limit: the option that raises
#: it (the page, where no option can be raised, says what the position needs instead).
ADVICE: dict[RanOut, str] = {
    "states": "raise --max-states",
    "atoms": "raise --max-atoms",
    "horizon": "raise --max-horizon",
    "memory": "lower --max-states, or free memory",
    "address space": "raise ulimit -v, or use --engine bfs",
}


#: What the command line says when ``rhasp generate`` ends short of its count, by the bound
#: that ended it (the page, whose bounds are the server's, says to try again).
GENERATE_ADVICE: dict[RanOut, str] = {
    "time": "ask for fewer moves, or allow more seconds",
    "boards": "ask for fewer moves, or allow more boards",
}


def advised(limit: Limit) -> str:
    """A limit in the command line's words: what stopped, then how to go further
    (``state limit reached after 1,000 states at depth 7 (raise --max-states)``)."""
    advice = [ADVICE[kind] for kind in limit.kinds() if kind in ADVICE]
    return f"{limit} ({'; '.join(advice)})" if advice else str(limit)


def solution_text(
    solution: Solution, notation: Notation, boards: bool, verbose: bool = False
) -> Text:
    """What ``rhasp solve`` prints (:meth:`~rhasp.solution.Solution.lines`, a limit
    :func:`advised`), with the board drawn in colour before the plan and after each move if
    ``boards``."""
    text = Text("".join(line + "\n" for line in solution.heading(verbose, advised)))
    if solution.plan is None:
        return text
    moves = solution.plan_lines(notation)
    if not boards:
        text.append("".join(move + "\n" for move in moves))
        return text
    board = solution.puzzle.board
    states = replay(solution.puzzle, solution.plan).states
    styles = vehicle_styles(board, states)  # one colour a vehicle for the whole plan
    text.append(board_text(board, states[0], styles) + "\n")
    for move, state in zip(moves, states[1:], strict=True):
        text.append(move + "\n")
        text.append(board_text(board, state, styles) + "\n")
    return text


def hint_lines(
    hint: Hint, puzzle: Puzzle, played: int, notation: Notation, reading: str
) -> list[str]:
    """The text of ``rhasp hint`` (:meth:`~rhasp.hints.Hint.lines`) for the position
    ``puzzle`` reached after the moves ``played``."""
    return replace(hint, puzzle=puzzle).lines(played, notation, reading)


def check_lines(result: PlanCheck, reading: str = "") -> list[str]:
    """The text report of :func:`rhasp.plan_check.check_plan`
    (:meth:`~rhasp.plan_check.PlanCheck.lines`); ``reading`` (what the reader inferred,
    :func:`~rhasp.solution.reading_text`) on a line under its verdict."""
    return result.lines(reading)


def analysis_text(analysis: Analysis, board: Board, reading: str = "") -> Text:
    """The figures of ``rhasp analyze`` (:meth:`~rhasp.analysis.Analysis.lines`), then the
    first hardest state drawn as a board in colour."""
    text = Text("".join(line + "\n" for line in analysis.lines(reading)))
    if analysis.hardest:
        text.append_text(board_text(board, analysis.hardest[0]))
        text.append("\n")
    return text
