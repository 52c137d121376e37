"""``rhasp check``: a plan replayed, and measured against the proven minimum."""

from __future__ import annotations

import json
from typing import Annotated

import typer

import rhasp
from rhasp.api import moves_of
from rhasp.cli.application import app
from rhasp.cli.io import out, plan_text, read_one
from rhasp.cli.options import FormatOpt, MaxStatesOpt, OnePuzzleArg, OutputChoice, TargetOpt
from rhasp.cli.running import guarded_command, live_budget
from rhasp.exit_codes import EXIT_OK, EXIT_UNSOLVED
from rhasp.output import check_lines, reading_text, with_reading


@app.command()
@guarded_command
def check(
    puzzle: OnePuzzleArg,
    plan: Annotated[
        str,
        typer.Argument(
            help='The plan, e.g. "AL1 PU1 XR5" (any notation), what clingo prints (its last '
            "answer's move(T,V,D) atoms) or a PDDL plan (convert --to pddl's actions), a file "
            "holding it, or -; what rhasp solve prints (text or JSON) reads as its plan."
        ),
    ],
    output: FormatOpt = OutputChoice.text,
    target: TargetOpt = None,
    max_states: MaxStatesOpt = None,
) -> int:
    """Replay a plan: does it solve the puzzle, and is it minimal in moves and in slides?"""

    board_puzzle = read_one(puzzle, target)
    text, source = plan_text(plan)
    moves = moves_of(board_puzzle, text, source)
    result = rhasp.check(board_puzzle, moves, budget=live_budget(max_states, output.value))
    if output is OutputChoice.json:
        record = with_reading(result.record(), board_puzzle)
        print(json.dumps(record, ensure_ascii=False, indent=2))
    else:
        out.print("\n".join(check_lines(result, reading_text(board_puzzle))), markup=False)
    return EXIT_OK if result.solves else EXIT_UNSOLVED
