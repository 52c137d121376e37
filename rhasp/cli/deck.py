"""``rhasp deck``: every puzzle of a deck solved on all cores or a Dask cluster, one
record a puzzle, resumable."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rhasp import api
from rhasp.api import DeckRequest, DeckTally
from rhasp.cli.application import app
from rhasp.cli.io import err
from rhasp.cli.options import (
    ConfirmOpt,
    EngineChoice,
    JobsOpt,
    MaxAtomsOpt,
    ObjectiveChoice,
    ObjectiveOpt,
    PuzzleArg,
    TargetOpt,
    flag_option,
    max_states_option,
    option_names,
)
from rhasp.cli.running import guarded_command, report, saying_what_is_kept, since_start
from rhasp.exit_codes import EXIT_BAD_INPUT, EXIT_DISAGREE, EXIT_LIMIT, EXIT_UNSOLVED, most_serious
from rhasp.output import DeckProgress, tally_table


@app.command()
@guarded_command
@option_names("resume", "out")
def deck(
    puzzles: PuzzleArg,
    objective: ObjectiveOpt = ObjectiveChoice.moves,
    engine: Annotated[
        EngineChoice | None,
        typer.Option(
            help="Solver engine (default: bfs up to 6×6, astar on a larger board).",
            show_default=False,
        ),
    ] = None,
    confirm: ConfirmOpt = True,
    jobs: JobsOpt = None,
    dest: Annotated[
        Path | None,
        typer.Option(
            "-o", "--out", help="Stream results to a .jsonl or .csv file (default: stdout)."
        ),
    ] = None,
    resume: flag_option(
        "--resume", help="Skip the puzzles already in --out, append the rest."
    ) = False,
    cluster: flag_option(
        "--cluster", help="Also count every state reachable from the start."
    ) = False,
    check_numbers: flag_option(
        "--verify",
        help="Compare the length (and with --cluster the cluster) with the deck line's "
        "figures; a difference is exit code 3.",
    ) = False,
    scheduler: Annotated[
        str | None,
        typer.Option(help="Run on a Dask cluster, e.g. tcp://10.0.0.1:8786, instead of locally."),
    ] = None,
    target: TargetOpt = None,
    max_states: max_states_option(
        "Stop a puzzle's search after this many states and record the limit", shared=True
    ) = None,
    max_atoms: MaxAtomsOpt = None,
) -> int:
    """Solve every puzzle of a deck on all cores, streaming one record per puzzle.

    The exit code is that of the most serious outcome, as for solve: 3 a mismatch (with
    --verify), 2 a bad line, 4 a search limit, 1 an unsolvable puzzle, else 0."""

    progress = DeckProgress(err)
    with saying_what_is_kept(dest, progress):  # from the start: a signal at once says it too
        request = DeckRequest(
            puzzles,
            objective.value,
            None if engine is None else engine.value,
            cluster,
            check_numbers,
            jobs,
            scheduler,
            dest,
            resume,
            tuple(target or ()),
            max_states,
            max_atoms,
            confirm,
        )
        tally = api.run_deck(request, progress, report, echo=api.print_record)
    err.print(tally_table(tally, progress.seconds, check_numbers, since_start()))
    return deck_code(tally)


def deck_code(tally: DeckTally) -> int:
    """The exit code of a deck run: its most serious outcome (:func:`most_serious`)."""
    codes = [
        code
        for code, count in (
            (EXIT_UNSOLVED, tally.unsolvable),
            (EXIT_LIMIT, tally.limited),
            (EXIT_BAD_INPUT, tally.errors),
            (EXIT_DISAGREE, len(tally.mismatches)),
        )
        if count
    ]
    return most_serious(codes)
