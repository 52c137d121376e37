"""``rhasp enumerate``: every interesting puzzle of a board, a line a cluster, resumable.
(The module is named for the command; its function is ``enumerate_command``, so that the
builtin ``enumerate`` keeps its name.)"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rhasp import api
from rhasp.api import EnumerateRequest
from rhasp.cli.application import app
from rhasp.cli.io import err
from rhasp.cli.options import JobsOpt, max_states_option, option_names
from rhasp.cli.running import guarded_command, saying_what_is_kept, since_start
from rhasp.exit_codes import EXIT_OK
from rhasp.files import destination, written_whole
from rhasp.journal import journal_of
from rhasp.output import EnumerationProgress, enumeration_table
from rhasp.pictures import CHART_FORMATS, picture_format, suffixes
from rhasp.pictures.charts import draw_database


@app.command("enumerate")
@guarded_command
def enumerate_command(
    size: Annotated[
        int,
        typer.Option(min=api.MIN_SIZE, max=api.MAX_SIZE, help="Board side."),
    ] = 6,
    walls: Annotated[
        str, typer.Option(help="Walls on every board: a count, or a range such as 0..1.")
    ] = "0",
    pieces: Annotated[
        str | None,
        typer.Option(help="Vehicles, the target included: a count, or a range such as 1..7."),
    ] = None,
    exit_row: Annotated[
        int, typer.Option("--exit-row", help="The target's row, from 1 at the top.")
    ] = 3,
    dest: Annotated[
        Path | None,
        typer.Option("-o", "--out", help="Write the lines here, resumably (default: stdout)."),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option("--resume", help="Keep the shards already in --out and do the rest."),
    ] = False,
    jobs: JobsOpt = None,
    scheduler: Annotated[
        str | None,
        typer.Option(help="Run on a Dask cluster, e.g. tcp://10.0.0.1:8786, instead of locally."),
    ] = None,
    histogram: Annotated[
        Path | None,
        typer.Option(
            help=f"Draw the puzzles by moves and by cluster size ({suffixes(CHART_FORMATS)})."
        ),
    ] = None,
    max_states: max_states_option(
        "Stop with exit code 4 at a cluster of more states", shared=True
    ) = None,
) -> int:
    """List every interesting puzzle of a board, a MOVES BOARD CLUSTER line per cluster.

    As the published puzzle database does; on all cores or a Dask cluster, resumable."""

    if histogram is not None:
        picture_format(destination(histogram), CHART_FORMATS)  # before the work, not after
    progress = EnumerationProgress(err)
    with saying_what_is_kept(dest, progress):  # from the start: a signal at once says it too
        with option_names("walls", "pieces", "exit_row", "resume", "out"):
            request = EnumerateRequest(
                size, walls, pieces, exit_row, jobs, scheduler, max_states, dest, resume
            )
        tally = api.run_enumerate(request, progress)
    journal = None if dest is None else journal_of(dest)
    err.print(enumeration_table(tally, progress.seconds, journal, since_start()))
    if histogram is not None:
        with written_whole(histogram) as temporary:
            draw_database(
                f"rhasp enumerate --size {size} --walls {walls}",
                tally.by_moves,
                tally.by_cluster,
                temporary,
            )
    return EXIT_OK
