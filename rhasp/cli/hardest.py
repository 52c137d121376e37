"""``rhasp hardest``: the hardest state of a puzzle's cluster, as a puzzle."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

import rhasp
from rhasp.cli.application import app
from rhasp.cli.io import emit, read_one
from rhasp.cli.options import FormatChoice, MaxStatesOpt, OnePuzzleArg, TargetOpt
from rhasp.cli.running import guarded_command, live_budget, report
from rhasp.errors import InputError
from rhasp.exit_codes import EXIT_OK, EXIT_UNSOLVED
from rhasp.formats import write
from rhasp.output import counted


@app.command()
@guarded_command
def hardest(
    puzzle: OnePuzzleArg,
    to: Annotated[FormatChoice, typer.Option("--to", help="Format to write.")] = FormatChoice.grid,
    dest: Annotated[
        Path | None, typer.Option("-o", "--out", help="File to write (default: stdout).")
    ] = None,
    target: TargetOpt = None,
    max_states: MaxStatesOpt = None,
) -> int:
    """Print the hardest state of the puzzle's cluster (most moves from any goal) as a puzzle."""

    entry = read_one(puzzle, target)
    hardest_found = rhasp.hardest(entry, budget=live_budget(max_states))
    if hardest_found is None:
        report(InputError("no goal state is reachable, so no state is hardest", entry.name))
        return EXIT_UNSOLVED
    found, moves = hardest_found
    text = write(found, to.value)
    if to is FormatChoice.grid:
        text = f"; {counted(moves, 'move')} from the nearest goal (bfs)\n" + text
    emit(text, dest)
    return EXIT_OK
