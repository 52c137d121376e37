"""``rhasp analyze``: why a puzzle is hard, as text or JSON, with its cluster and
profile drawn on request."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from rhasp import api
from rhasp.api import ANALYSIS_BYTES_PER_STATE, AnalyzeRequest, StaticVerdict
from rhasp.cli.application import app
from rhasp.cli.io import err, out, read_one
from rhasp.cli.options import OnePuzzleArg, TargetOpt, max_states_option
from rhasp.cli.running import guarded_command, live_budget, report
from rhasp.exit_codes import EXIT_OK, EXIT_UNSOLVED
from rhasp.files import destination, written_whole
from rhasp.notation import READ
from rhasp.output import analysis_text, reading_text, with_reading
from rhasp.pictures import CHART_FORMATS, GRAPH_FORMATS, picture_format, suffixes
from rhasp.pictures.charts import draw_cluster, draw_profile


class ReportFormat(StrEnum):
    text = "text"
    json = "json"


@app.command()
@guarded_command
def analyze(
    puzzle: OnePuzzleArg,
    output_format: Annotated[
        ReportFormat, typer.Option("--format", help="text for people, json for programs.")
    ] = ReportFormat.text,
    graph_file: Annotated[
        Path | None,
        typer.Option(
            "--graph", help=f"Draw the cluster with Graphviz ({suffixes(GRAPH_FORMATS)})."
        ),
    ] = None,
    profile_file: Annotated[
        Path | None,
        typer.Option(
            "--profile",
            help=f"Draw the distance profile as a bar chart ({suffixes(CHART_FORMATS)}).",
        ),
    ] = None,
    target: TargetOpt = None,
    max_states: max_states_option(
        "Stop after this many states of the cluster or the all-moves graph, with exit code 4",
        bytes_each=ANALYSIS_BYTES_PER_STATE,
    ) = None,
) -> int:
    """Why a puzzle is hard: cluster, game graph, all-moves graph, distance profile."""

    for path, formats in ((graph_file, GRAPH_FORMATS), (profile_file, CHART_FORMATS)):
        if path is not None:
            picture_format(destination(path), formats)  # before the work, not after
    entry = read_one(puzzle, target)
    budget = live_budget(max_states, output_format.value, ANALYSIS_BYTES_PER_STATE)
    analysis = api.run_analyze(AnalyzeRequest(entry, budget))
    reading = reading_text(entry)
    if isinstance(analysis, StaticVerdict):
        # The cluster is too large to analyse, but its verdict is proven: say both.
        report(analysis.stopped)
        out.print(analysis.verdict)
        if reading:
            out.print(f"  {READ}{reading}", markup=False)
        return EXIT_UNSOLVED
    if output_format is ReportFormat.json:
        print(json.dumps(with_reading(analysis.record(), entry)))
    else:
        out.print(analysis_text(analysis, entry.board, reading), end="")
    if graph_file is not None:  # first: the drawing that may refuse the cluster
        with written_whole(graph_file) as path:
            draw_cluster(entry, analysis.graph, path)
        err.print(f"wrote {graph_file}")
    if profile_file is not None:
        with written_whole(profile_file) as path:
            draw_profile(entry.name, analysis.profile, analysis.minimal_moves, path)
        err.print(f"wrote {profile_file}")
    return EXIT_OK if analysis.minimal_moves is not None else EXIT_UNSOLVED
