"""``rhasp hint``: the next move of an optimal plan from the position some moves reach."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated

import typer

import rhasp
from rhasp.api import moves_of
from rhasp.cli.application import app
from rhasp.cli.io import out, plan_text, read_one
from rhasp.cli.options import (
    FormatOpt,
    MaxStatesOpt,
    NotationChoice,
    OnePuzzleArg,
    OutputChoice,
    TargetOpt,
)
from rhasp.cli.running import guarded_command, live_budget
from rhasp.errors import about
from rhasp.exit_codes import EXIT_OK, EXIT_UNSOLVED
from rhasp.model import Move
from rhasp.output import hint_lines, reading_text, with_reading


@app.command()
@guarded_command
def hint(
    puzzle: OnePuzzleArg,
    plan: Annotated[
        str | None,
        typer.Argument(
            help='The moves played so far, e.g. "AL1 PU1" (any notation), a file holding them, '
            "or -; the hint is for the position they reach. Default: the start.",
            show_default=False,
        ),
    ] = None,
    notation: Annotated[
        NotationChoice, typer.Option(help="Moves as XR3 (card), X→3 (arrow) or X+3 (signed).")
    ] = NotationChoice.card,
    output: FormatOpt = OutputChoice.text,
    target: TargetOpt = None,
    max_states: MaxStatesOpt = None,
) -> int:
    """The next move of an optimal plan, and how many moves are left (the page's Hint)."""

    board_puzzle = read_one(puzzle, target)
    played: Sequence[Move] = ()
    source = "plan"
    if plan is not None:
        text, source = plan_text(plan)
        played = moves_of(board_puzzle, text, source)
    with about(source):  # a move that cannot be played: the plan's line, not the puzzle's
        position = rhasp.play(board_puzzle, played)
    found = rhasp.hint(position, budget=live_budget(max_states, output.value))
    assert found is not None  # a hint that may search always answers
    if output is OutputChoice.json:
        record = {"puzzle": board_puzzle.name, "played": len(played)}
        record |= found.record(position.board)
        print(json.dumps(with_reading(record, board_puzzle), ensure_ascii=False, indent=2))
    else:
        reading = reading_text(board_puzzle)
        lines = hint_lines(found, position, len(played), notation.value, reading)
        out.print("\n".join(lines), markup=False)
    return EXIT_UNSOLVED if found.moves_left is None else EXIT_OK
