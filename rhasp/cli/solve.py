"""``rhasp solve``: an optimal plan for a puzzle, or for each puzzle of a deck, as text
or JSON; the exit code that of the most serious outcome."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from rhasp import api
from rhasp.api import AspOptions, EngineDisagreement, Solution, SolveRequest
from rhasp.arguments import LARGEST
from rhasp.cli.application import app
from rhasp.cli.io import err, out, read_entries
from rhasp.cli.options import (
    ConfirmOpt,
    EngineChoice,
    FormatOpt,
    MaxAtomsOpt,
    MaxStatesOpt,
    NotationChoice,
    ObjectiveChoice,
    ObjectiveOpt,
    OutputChoice,
    PuzzleArg,
    TargetOpt,
    at_most,
    clingo_search_options,
    flag_option,
)
from rhasp.cli.running import guarded_command, live_budget, report
from rhasp.errors import InputError
from rhasp.exit_codes import (
    EXIT_BAD_INPUT,
    EXIT_DISAGREE,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_UNSOLVED,
    most_serious,
)
from rhasp.output import ProofProgress, solution_dict, solution_text


@app.command()
@guarded_command
def solve(
    puzzle: PuzzleArg,
    objective: ObjectiveOpt = ObjectiveChoice.moves,
    engine: Annotated[
        EngineChoice | None,
        typer.Option(
            help="asp: clingo horizon proof; bfs: breadth-first search; astar: A* with a lower "
            "bound. Default: asp up to 6×6, astar on a larger board.",
            show_default=False,
        ),
    ] = None,
    confirm: ConfirmOpt = True,
    max_horizon: Annotated[
        int | None,
        typer.Option(
            min=0, callback=at_most(LARGEST), help="ASP: stop after this many steps (default: 500)."
        ),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            min=0,
            help="Stop after this many seconds per puzzle, the confirming BFS included.",
        ),
    ] = None,
    clingo_arg: Annotated[
        list[str] | None,
        typer.Option(
            callback=clingo_search_options,
            help="ASP: pass an option of clingo's search to clingo, e.g. "
            "--clingo-arg=--configuration=crafty; options that change what an answer means "
            "(--models, --enum-mode, --const, ...) are refused.",
        ),
    ] = None,
    memo: Annotated[
        bool,
        typer.Option(
            help="ASP: prune boards reached at an earlier step (state memo); "
            "--no-memo runs the plain encodings."
        ),
    ] = True,
    notation: Annotated[
        NotationChoice, typer.Option(help="Moves as XR3 (card), X→3 (arrow) or X+3 (signed).")
    ] = NotationChoice.card,
    output: FormatOpt = OutputChoice.text,
    boards: flag_option("--boards", help="Print the board after every move.") = False,
    verbose: flag_option(
        "--verbose",
        "-v",
        help="Under the summary, the engines' work: the engine and why, the ASP horizon, "
        "choices, conflicts and memo, each search's states and seconds, why one stopped.",
    ) = False,
    target: TargetOpt = None,
    max_states: MaxStatesOpt = None,
    max_atoms: MaxAtomsOpt = None,
) -> int:
    """Find an optimal plan for a puzzle (or for every puzzle of a deck)."""
    live = ProofProgress(err) if output == OutputChoice.text else None

    asp = AspOptions(tuple(clingo_arg or ()), memo, live)
    bounds = {"timeout": timeout, "max_horizon": max_horizon, "max_atoms": max_atoms}

    budget = live_budget(max_states, output.value)
    entries = read_entries(puzzle, target)
    codes = [EXIT_OK]
    for entry in entries:
        if isinstance(entry, InputError):
            report(entry)
            codes.append(EXIT_BAD_INPUT)
            continue
        try:
            named = None if engine is None else engine.value
            request = SolveRequest(entry, objective.value, named, confirm, budget, asp, **bounds)
            solution = api.run_solve(request)
        except EngineDisagreement as error:
            report(error)
            codes.append(EXIT_DISAGREE)
            continue
        finally:
            if live is not None:
                live.stop()
        show_solution(solution, notation.value, output, boards, verbose, len(entries) > 1)
        codes.append(outcome(solution))
    return most_serious(codes)


def outcome(solution: Solution) -> int:
    """A limit stays a limit (exit code 4), with a plan not proven minimal too."""
    if solution.limit:
        return EXIT_LIMIT
    return EXIT_OK if solution.has_plan else EXIT_UNSOLVED


def show_solution(
    solution: Solution,
    notation: Any,
    output: OutputChoice,
    boards: bool,
    verbose: bool,
    compact: bool,
) -> None:
    if output is OutputChoice.json:  # everything, verbose or not
        record = solution_dict(solution, notation)
        print(json.dumps(record, ensure_ascii=False, indent=None if compact else 2), flush=True)
    else:
        out.print(solution_text(solution, notation, boards, verbose), end="")
