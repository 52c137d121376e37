"""``rhasp generate``: new puzzles, a deck line each, and a summary of the search."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer

from rhasp import api
from rhasp.api import (
    ANY_SHARE,
    BOARDS_PER_PUZZLE,
    GENERATE_SIDES,
    SECONDS_PER_PUZZLE,
    GenerateRequest,
    Tried,
    default_covered_text,
    worth_playing_text,
)
from rhasp.cli.application import app
from rhasp.cli.io import err, open_output
from rhasp.cli.options import JobsOpt, max_states_option, option_names
from rhasp.cli.running import guarded_command
from rhasp.errors import SearchLimit
from rhasp.exit_codes import EXIT_OK
from rhasp.output import GENERATE_ADVICE, GenerateProgress, counted


@app.command()
@guarded_command
def generate(
    size: Annotated[
        int, typer.Option(help=f"Board side, {GENERATE_SIDES[0]} to {GENERATE_SIDES[1]}.")
    ] = 6,
    min_moves: Annotated[
        int | None,
        typer.Option(
            "--min-moves",
            show_default=False,
            help=f"Keep puzzles of at least this many moves (default: {worth_playing_text()}).",
        ),
    ] = None,
    walls: Annotated[int, typer.Option(help="Walls on every board.")] = 0,
    count: Annotated[int, typer.Option(help="How many puzzles to make.")] = 10,
    seed: Annotated[
        int | None, typer.Option(help="Random seed: the same seed makes the same deck.")
    ] = None,
    minimal: Annotated[
        bool,
        typer.Option(
            "--minimal",
            help="Remove every vehicle the minimal length does not need (needs the whole "
            "cluster: a puzzle whose cluster is past the state limit is not kept).",
        ),
    ] = False,
    max_boards: Annotated[
        int | None,
        typer.Option(
            "--max-boards",
            show_default=False,
            help="Give up after this many boards, with exit code 4 "
            f"(default: {BOARDS_PER_PUZZLE:,} per puzzle asked for).",
        ),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option(
            show_default=False,
            help="Give up after this many seconds, with exit code 4 "
            f"(default: {SECONDS_PER_PUZZLE:g} per puzzle asked for).",
        ),
    ] = None,
    jobs: JobsOpt = None,
    dest: Annotated[
        Path | None, typer.Option("-o", "--out", help="Write the deck here (default: stdout).")
    ] = None,
    max_states: max_states_option("States any one search may reach", shared=True) = None,
    covered: Annotated[
        str | None,
        typer.Option(
            "--covered",
            show_default=False,
            help="Crowded boards: the share of the cells the vehicles (the target too) cover, "
            f"a range of percentages LOW..HIGH, e.g. 67..74, or {ANY_SHARE} "
            f"(default: {default_covered_text()}).",
        ),
    ] = None,
) -> int:
    """Make new puzzles, a deck line each: a search over boards for deep ones.

    Each kept at the hardest state of its cluster, one per cluster, its minimum proven."""

    chosen = random.randrange(10**6) if seed is None else seed
    names = ("size", "walls", "min_moves", "count", "max_boards", "seconds", "covered", "minimal")
    with option_names(*names):
        request = GenerateRequest(
            chosen,
            min_moves,
            count,
            size,
            walls,
            minimal,
            max_boards,
            seconds,
            jobs,
            max_states,
            covered,
        )
    flags = f"--size {size} --min-moves {request.min_moves} --walls {walls} --seed {chosen}"
    if request.covered is not None:
        flags += " --covered {:g}..{:g}".format(*request.covered)
    tried = Tried()
    progress = GenerateProgress(err)
    puzzles = api.run_generate(request, tried, progress)
    with open_output(dest, keep_partial=True) as deck_file:
        deck_file.write(f"; rhasp generate {flags}{' --minimal' if minimal else ''}\n")
        deck_file.write(PROOF_NOTE)
        try:
            for found in puzzles:
                deck_file.write(found.deck_line() + "\n")
                deck_file.flush()  # an interrupted run keeps what it made
        except SearchLimit as limit:  # a bound ended the run: what it made, why (exit code 4)
            progress.stop()
            if tried.deepest_found is not None:  # the message names its depth: here it is
                deck_file.write(f"; the deepest found: {tried.deepest_found.deck_line()}\n")
            err.print(generate_summary(tried, chosen))
            advice = GENERATE_ADVICE.get(limit.limit.ran_out) if limit.limit else None
            if advice is None:
                raise
            raise SearchLimit(f"{limit.what}; {advice}", limit.where) from None
        finally:
            progress.stop()
    err.print(generate_summary(tried, chosen))
    return EXIT_OK


#: The deck's second line: what proved each line's minimum.
PROOF_NOTE = (
    "; each minimum is proven: by BFS over the whole cluster where the line ends with its "
    "size (the cluster's hardest state), else by A* from the state written\n"
)


def generate_summary(tried: Tried, seed: int) -> str:
    made = f"{counted(tried.kept, 'puzzle')} from {counted(tried.boards, 'board')}"
    if tried.skipped:
        made += f", {counted(tried.skipped, 'board')} skipped at the state limit"
    return f"rhasp generate: {made} (seed {seed})"
