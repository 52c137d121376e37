"""``rhasp render``: a board, or its optimal solution, drawn as a picture."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

import rhasp
from rhasp import api
from rhasp.cli.application import app
from rhasp.cli.io import out, read_one
from rhasp.cli.options import MaxStatesOpt, ObjectiveChoice, ObjectiveOpt, OnePuzzleArg, TargetOpt
from rhasp.cli.running import guarded_command, live_budget, report
from rhasp.errors import InputError, SearchLimit
from rhasp.exit_codes import EXIT_OK, EXIT_UNSOLVED
from rhasp.files import destination, written_whole
from rhasp.output import counted
from rhasp.pictures import BOARD_FORMATS, picture_format, suffixes
from rhasp.pictures.boards import render_board, render_solution


@app.command()
@guarded_command
def render(
    puzzle: OnePuzzleArg,
    dest: Annotated[
        Path, typer.Option("-o", "--out", help=f"The picture: {suffixes(BOARD_FORMATS)}.")
    ],
    solution: Annotated[
        bool,
        typer.Option(
            "--solution",
            help="Draw an optimal plan (bfs): animated in a .gif, a strip of boards otherwise.",
        ),
    ] = False,
    objective: ObjectiveOpt = ObjectiveChoice.moves,
    cell: Annotated[int, typer.Option(min=8, max=400, help="Pixels a cell.")] = 60,
    fixed: Annotated[
        bool,
        typer.Option(
            "--fixed",
            help="Mark each cell occupied in every reachable state (static analysis) with a "
            "corner triangle, and say whether one blocks a target's way out.",
        ),
    ] = False,
    target: TargetOpt = None,
    max_states: MaxStatesOpt = None,
) -> int:
    """Draw a board, or its optimal solution, as a picture."""

    picture_format(destination(dest), BOARD_FORMATS)
    entry = read_one(puzzle, target)
    if not solution:
        marked, blocked = api.fixed_cells(entry) if fixed else ({}, None)
        with written_whole(dest) as path:
            render_board(entry, path, cell=cell, fixed=marked)
        out.print(f"wrote {dest}")
        if fixed:
            verdict = f"unsolvable: {blocked.proof()}" if blocked else "no target is blocked"
            out.print(
                f"{counted(len(marked), 'cell')} occupied in every reachable state; {verdict}"
            )
        return EXIT_OK
    budget = live_budget(max_states)
    found = rhasp.solve(entry, objective.value, engine="bfs", budget=budget, anytime=False)
    if found.limit:
        raise SearchLimit(found.limit, entry.name)
    if found.plan is None:
        report(InputError("no solution to draw", puzzle))
        return EXIT_UNSOLVED
    with written_whole(dest) as path:
        render_solution(entry, found.plan, path, cell=cell)
    out.print(f"wrote {dest}: {entry.name} · {objective.value} {found.length} · optimal: bfs")
    return EXIT_OK
