"""The command line: parsing arguments into requests and printing what comes back. All the
work goes through the API (:mod:`rhasp.api`), never around it (tests/test_layers.py), so the
command line and the web page give the same verdict on the same board; pictures and printing
have modules of their own.

Exit codes: :mod:`rhasp.exit_codes`. Errors are one line on standard error.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import signal
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from enum import StrEnum
from pathlib import Path
from types import FrameType
from typing import Annotated, Any, NoReturn, TextIO

import typer
from typer.core import TyperCommand, TyperGroup

try:  # typer carries its own copy of click from 0.20 on
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - older typer on the click package
    from click import exceptions as click_errors
from rich.console import Console

import rhasp
from rhasp import __version__, api
from rhasp.api import (
    ANALYSIS_BYTES_PER_STATE,
    BOARDS_PER_PUZZLE,
    BYTES_PER_STATE,
    CONFIRM_FACTOR,
    CONFIRM_FLOOR,
    ENGINES,
    GENERATE_SIDES,
    OBJECTIVES,
    OUT_OF_MEMORY,
    SECONDS_PER_PUZZLE,
    AnalyzeRequest,
    AspOptions,
    Budget,
    DeckRequest,
    DeckTally,
    EngineDisagreement,
    EnumerateRequest,
    GenerateRequest,
    Objective,
    Solution,
    SolveRequest,
    StaticVerdict,
    Tried,
    max_atoms_for,
    max_states_for,
    moves_of,
    worth_playing_text,
)
from rhasp.arguments import LARGEST, MAX_JOBS, checked_clingo_args, whole
from rhasp.errors import (
    ClusterLost,
    InputError,
    MissingTool,
    RhaspError,
    SearchLimit,
    about,
    install_command,
)
from rhasp.exit_codes import (
    EXIT_BAD_INPUT,
    EXIT_CLOSED_PIPE,
    EXIT_CLUSTER_LOST,
    EXIT_DISAGREE,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_TERMINATED,
    EXIT_UNSOLVED,
    SEVERITY,
)
from rhasp.files import destination, files_named, naming_the_file, written_whole
from rhasp.formats import (
    FORMATS,
    SUFFIX,
    Entry,
    decode,
    read_bounded,
    read_path_located,
    write,
)
from rhasp.formats.facts import write_facts
from rhasp.formats.pddl import DOMAIN_FILE, write_domain, write_problem
from rhasp.journal import journal_of
from rhasp.model import Move, Puzzle
from rhasp.notation import NOTATIONS, READ
from rhasp.output import (
    GENERATE_ADVICE,
    DeckProgress,
    EnumerationProgress,
    GenerateProgress,
    ProofProgress,
    SearchLine,
    advised,
    analysis_text,
    check_lines,
    counted,
    enumeration_table,
    hint_lines,
    reading_text,
    solution_dict,
    solution_text,
    tally_table,
    with_reading,
)
from rhasp.pictures import BOARD_FORMATS, CHART_FORMATS, GRAPH_FORMATS, picture_format, suffixes
from rhasp.pictures.boards import render_board, render_solution
from rhasp.pictures.charts import draw_cluster, draw_database, draw_profile

#: Plain words for the types typer's help would show as Python (``<list[str]>``, ``<str>``).
PLAIN_TYPES = {
    "<str>": "<text>",
    "<list[str]>": "<text>",
    "<int range>": "<integer>",
    "<float range>": "<number>",
    "<int>": "<integer>",
    "<float>": "<number>",
    "<path>": "<file>",
}


class PlainHelp:
    """Help in words, not Python: typer's rich help writes ``<bool>`` after every flag
    (``--boards``, ``--help``), as if it took a value, ``<list[str]>`` for a repeatable
    option, and ``{puzzle}`` for a required argument. Flags show no type, other options their
    type in words, arguments their name in capitals."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if getattr(param, "is_bool_flag", False):
                param.metavar = ""  # shown in place of the type
            elif param.param_type_name == "argument" and param.metavar is None:
                param.metavar = param.name.upper()
                param.display_type_rich = lambda ctx: None  # the name says it
            elif param.metavar is None and hasattr(param, "display_type"):
                shown = param.display_type(ctx)
                param.metavar = PLAIN_TYPES.get(shown, shown)
        return params

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = super().collect_usage_pieces(ctx)  # type: ignore[misc]
        return [piece.strip("{}") for piece in pieces]


class Command(PlainHelp, TyperCommand):
    pass


class Group(PlainHelp, TyperGroup):
    pass


class Rhasp(typer.Typer):
    """The typer application whose commands are :class:`Command`."""

    def command(self, *args: Any, **kwargs: Any) -> Any:
        return super().command(*args, cls=kwargs.pop("cls", Command), **kwargs)


app = Rhasp(
    cls=Group,
    help="Optimal Rush Hour plans: fewest moves or fewest slides, proven minimal.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


class ClosedPipe(BaseException):
    """Standard output closed by its reader (``rhasp solve deck.txt | head -1``): not an
    error, so rhasp ends quietly with exit code 141, as a program killed by SIGPIPE does. (Not
    an OSError, which typer turns into exit code 1, nor rich's exit code 1.)"""


class Output(Console):
    """A rich console that ends rhasp quietly when its reader goes away (see
    :class:`ClosedPipe`)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise ClosedPipe


out = Output(highlight=False, soft_wrap=True)
err = Output(stderr=True, highlight=False, soft_wrap=True)


def choices(name: str, values: Sequence[str]) -> type[StrEnum]:
    """A typer choice type from the tuple of values that the package itself defines."""
    return StrEnum(name, {value: value for value in values})


ObjectiveChoice = choices("ObjectiveChoice", OBJECTIVES)
EngineChoice = choices("EngineChoice", ENGINES)
NotationChoice = choices("NotationChoice", NOTATIONS)
OutputChoice = choices("OutputChoice", ("text", "json"))
FormatChoice = choices("FormatChoice", FORMATS)


PuzzleArg = Annotated[
    str,
    typer.Argument(
        help="Puzzle file, deck file, directory of puzzles, a one-line board written inline "
        "(GBBoLoGHIoLM...), - for stdin, or a card of the original deck by name (card26, "
        "card26.txt or 26: a file of that name, where there is one, comes first)."
    ),
]
OnePuzzleArg = Annotated[
    str,
    typer.Argument(
        help="One puzzle: a board file in any format rhasp reads, a one-line board written "
        "inline, - for stdin, or a card of the original deck by name (card26 or 26)."
    ),
]
TargetOpt = Annotated[
    list[str] | None,
    typer.Option("--target", help="Label of the target vehicle (repeat for several)."),
]


def at_most(high: int) -> Callable[[int | None], int | None]:
    """An option's check of its upper bound (typer's ``max`` would print the bound in the help,
    all 19 digits of it), worded as the API words it (:mod:`rhasp.arguments`): typer's ``min=1``
    alone lets 2**63 through, to an OverflowError deep in a worker."""

    def checked(value: int | None) -> int | None:
        try:
            return None if value is None else whole(value, "", None, high)
        except InputError as error:
            raise typer.BadParameter(error.what) from None

    return checked


def clingo_search_options(values: list[str] | None) -> list[str] | None:
    """``--clingo-arg``'s check: the options of clingo's search, as for the API
    (:mod:`rhasp.engines.clingo_options`), refused as a bad option value."""
    try:
        return None if values is None else list(checked_clingo_args(values))
    except InputError as error:
        raise typer.BadParameter(error.what) from None


JobsOpt = Annotated[
    int | None,
    typer.Option(min=1, callback=at_most(MAX_JOBS), help="Worker processes (default: all cores)."),
]
FormatOpt = Annotated[OutputChoice, typer.Option("--format", help="Output as text or JSON.")]


def flag_option(*names: str, help: str) -> Any:
    """A yes-or-no option that takes no value (``--boards``, never ``--boards true``)."""
    return Annotated[bool, typer.Option(*names, help=help)]


def max_states_option(
    what: str = "Stop any search after this many states, with exit code 4",
    *,
    shared: bool = False,
    bytes_each: int = BYTES_PER_STATE,
    default: str | None = None,
) -> Any:
    """The ``--max-states`` option, declared once for every command: ``what`` happens at the
    limit, and its default in words (from the memory, ``shared`` by worker processes, at
    ``bytes_each`` a state; or ``default``)."""
    if default is None:
        states = f"{max_states_for(None, bytes_each=bytes_each):,}"
        default = "from this machine's memory, " + (
            f"shared by the workers: {states} for one" if shared else states
        )
    return Annotated[
        int | None,
        typer.Option(
            "--max-states",
            min=1,
            callback=at_most(LARGEST),
            show_default=False,
            help=f"{what} (default: {default}).",
        ),
    ]


MaxStatesOpt = max_states_option()
MaxAtomsOpt = Annotated[
    int | None,
    typer.Option(
        "--max-atoms",
        min=1,
        callback=at_most(LARGEST),
        help="ASP: stop before the ground program holds more atoms, with exit code 4 "
        f"(default: from this machine's memory, {max_atoms_for(None):,}).",
    ),
]
ObjectiveOpt = Annotated[
    ObjectiveChoice, typer.Option(help="Minimise moves (any distance) or slides (cells).")
]
ConfirmOpt = Annotated[
    bool,
    typer.Option(
        help="Confirm the answer of asp or astar with BFS (a difference is exit code 3); "
        f"after astar the BFS gets {CONFIRM_FACTOR}× its states (at least "
        f"{CONFIRM_FLOOR:,}) and, stopped there, leaves the answer proven by astar. "
        "--no-confirm: the engine alone (bfs runs alone either way)."
    ),
]


def report(error: RhaspError) -> None:
    """One line on standard error, whatever the message holds (a file name with a line
    break, say)."""
    limit = error.limit if isinstance(error, SearchLimit) else None
    what = error.what if limit is None else advised(limit)
    said = f"{error.where}: {what}" if error.where else what
    err.print(f"rhasp: {one_line(said)}", markup=False)


def one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


def fail(error: RhaspError) -> NoReturn:
    report(error)
    raise typer.Exit(EXIT_BAD_INPUT)


def guarded(run: Callable[[], int]) -> None:
    """Run a command body, turning bad input (or a file that cannot be written) into one line
    and exit code 2, a search limit (or the memory running out) into one line and exit code
    4, and the Dask cluster lost into one line (what was kept) and exit code 5."""
    try:
        code = run()
    except SearchLimit as limit:
        report(limit)
        raise typer.Exit(EXIT_LIMIT) from None
    except ClusterLost as lost:
        report(lost)
        raise typer.Exit(EXIT_CLUSTER_LOST) from None
    except MemoryError:
        report(SearchLimit(OUT_OF_MEMORY))
        raise typer.Exit(EXIT_LIMIT) from None
    except RhaspError as error:
        fail(error)
    except BrokenPipeError:
        raise ClosedPipe from None
    except OSError as error:
        fail(InputError(error.strerror or str(error), str(error.filename or "standard output")))
    raise typer.Exit(code)


def guarded_command(body: Callable[..., int]) -> Callable[..., None]:
    """A command whose body returns its exit code, run by :func:`guarded`: bad input, a
    search limit or the memory running out become one line and their exit code."""

    @functools.wraps(body)
    def command(*args: Any, **kwargs: Any) -> None:
        guarded(lambda: body(*args, **kwargs))

    return command


def live_budget(
    max_states: int | None, output: str = "text", bytes_each: int = BYTES_PER_STATE
) -> Budget:
    """The budget of a command's searches (:func:`rhasp.api.search_budget`), shown live on a
    terminal unless the output is JSON."""
    progress = SearchLine(err) if output == "text" else None
    return api.search_budget(max_states, bytes_each=bytes_each, progress=progress)


@contextmanager
def option_names(*fields: str) -> Iterator[None]:
    """A request's error naming one of its ``fields`` names the option instead (``walls``:
    ``--walls``), as every other error of the command line does."""
    try:
        yield
    except InputError as error:
        if error.where in fields:
            error.where = "--" + error.where.replace("_", "-")
        raise


@contextmanager
def open_output(dest: Path | None, keep_partial: bool = False) -> Iterator[TextIO]:
    """The file to write (in one piece: see :func:`written_whole`), or standard output."""
    if dest is None:
        yield sys.stdout
        return
    with (
        written_whole(dest, keep_partial) as temporary,
        naming_the_file(dest),
        temporary.open("w", encoding="utf-8") as handle,
    ):
        yield handle


def read_entries(path: str, targets: Sequence[str] | None) -> list[Entry]:
    """Every puzzle of a file, a directory or stdin; or the one board written inline."""
    return [entry for _, entry in located_entries(path, targets)]


def located_entries(path: str, targets: Sequence[str] | None) -> list[tuple[str, Entry]]:
    """:func:`read_entries`, each entry with where it was read (its file, or its deck file
    and line), for messages that name it."""
    if path == "-" or _exists(path):
        return read_path_located(path, targets=tuple(targets or ()))
    return [("the board given", read_one(path, targets))]


def read_one(path: str, targets: Sequence[str] | None) -> Puzzle:
    """One puzzle from a file or stdin, or written inline (a path that exists wins)."""
    return rhasp.read(path, targets=tuple(targets or ()))


def _exists(path: str) -> bool:
    try:
        return Path(path).exists()
    except (OSError, ValueError):  # too long for a file name, or a NUL
        return False


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
            solution = api.solution(request)
        except EngineDisagreement as error:
            report(error)
            codes.append(EXIT_DISAGREE)
            continue
        finally:
            if live is not None:
                live.stop()
        show_solution(solution, notation.value, output, boards, verbose, len(entries) > 1)
        codes.append(outcome(solution))
    return max(codes, key=SEVERITY.index)


def outcome(solution: Solution) -> int:
    if solution.has_plan:
        return EXIT_OK
    return EXIT_LIMIT if solution.limit else EXIT_UNSOLVED


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


def plan_text(plan: str) -> tuple[str, str]:
    """The text of the plan and where it comes from: standard input, a file, or the argument."""
    if plan == "-":
        return decode(read_bounded(sys.stdin.buffer, "<stdin>"), "<stdin>"), "<stdin>"
    try:
        is_file = Path(plan).is_file()
    except OSError:  # a plan too long to be a file name
        is_file = False
    if not is_file:
        return plan, "plan"
    with Path(plan).open("rb") as handle:
        return decode(read_bounded(handle, plan), plan), plan


ConvertChoice = choices("ConvertChoice", (*FORMATS, "pddl"))


@app.command()
@guarded_command
def convert(
    puzzle: PuzzleArg,
    to: Annotated[
        ConvertChoice,
        typer.Option(
            "--to", help="Format to write; pddl writes a planner's domain and problems (-o DIR)."
        ),
    ],
    dest: Annotated[
        Path | None,
        typer.Option(
            "-o", "--output", help="File to write (directory for several puzzles, and for pddl)."
        ),
    ] = None,
    objective: Annotated[
        ObjectiveChoice | None,
        typer.Option(
            help="With --to pddl: an action a move (any distance) or a one-cell slide. "
            "Default: moves.",
            show_default=False,
        ),
    ] = None,
    target: TargetOpt = None,
) -> int:
    """Convert a puzzle or deck between grid, line, JSON, car-list and course CSV, or to PDDL."""

    if objective is not None and to.value != "pddl":
        raise InputError("applies to --to pddl only", "--objective")
    if to.value == "pddl" and dest is None:
        raise InputError(
            "writes two files, the domain and the problem: give -o DIRECTORY", "--to pddl"
        )
    counted_by = (objective or ObjectiveChoice.moves).value
    located = located_entries(puzzle, target)
    written: list[tuple[Puzzle, str, str]] = []  # each puzzle, its text, where it was read
    code = EXIT_OK
    for source, entry in located:
        try:
            if isinstance(entry, InputError):
                raise entry
            text = (
                write_problem(entry, counted_by) if to.value == "pddl" else write(entry, to.value)
            )
            written.append((entry, text, source))
        except InputError as error:
            report(error)
            code = EXIT_BAD_INPUT
    if not written:
        return code  # nothing to write: each puzzle's error is reported
    if to.value == "pddl":
        assert dest is not None
        return write_pddl(written, counted_by, dest, puzzle) or code
    if len(located) == 1 or to is ConvertChoice.line:
        emit("".join(text for _, text, _ in written), dest)
        return code
    if dest is None:
        raise InputError(f"several puzzles in {to.value} format need -o DIRECTORY", puzzle)
    files = checked_files(written, dest, SUFFIX[to.value], puzzle)
    if files is None:
        return EXIT_BAD_INPUT  # none written: the files would not be the puzzles read
    dest.mkdir(parents=True, exist_ok=True)
    for file, (_, text, _) in zip(files, written, strict=True):
        emit(text, file)
    return code


def checked_files(
    written: Sequence[tuple[Puzzle, str, str]],
    dest: Path,
    suffix: str,
    puzzle: str,
    more: Sequence[tuple[str, str]] = (),
) -> list[Path] | None:
    """The file in ``dest`` of each puzzle written (and of each ``(name, what)`` of ``more``),
    or None when any is refused, each refusal reported."""
    names = in_name_order([entry.name for entry, _, _ in written])
    named = [*zip(names, [source for _, _, source in written], strict=True), *more]
    inputs = [] if puzzle == "-" else [puzzle]
    files, problems = files_named(dest, named, suffix, inputs)
    for problem in problems:
        report(problem)
    return None if problems else files


def write_pddl(
    written: Sequence[tuple[Puzzle, str, str]], objective: Objective, dest: Path, puzzle: str
) -> int:
    """The problems ``written`` and their one domain, in the directory ``dest``: a nonzero
    exit code when the puzzles need more than one domain or a file is refused."""
    sizes = sorted({(entry.board.width, entry.board.height) for entry, _, _ in written})
    domains = {write_domain(width, height, objective) for width, height in sizes}
    if len(domains) > 1:
        shown = " and ".join(f"{width}×{height}" for width, height in sizes)
        report(
            InputError(
                f"boards of {shown} need a domain each: convert each size to a directory "
                "of its own",
                puzzle,
            )
        )
        return EXIT_BAD_INPUT
    domain_file = (DOMAIN_FILE.removesuffix(".pddl"), "the domain")
    files = checked_files(written, dest, ".pddl", puzzle, [domain_file])
    if files is None:
        return EXIT_BAD_INPUT
    dest.mkdir(parents=True, exist_ok=True)
    texts = [text for _, text, _ in written] + list(domains)
    for file, text in zip(files, texts, strict=True):
        emit(text, file)
    return EXIT_OK


TRAILING_NUMBER = re.compile(r"\d+$")


def in_name_order(names: Sequence[str]) -> list[str]:
    """The names with the numbers that end them padded to one width (``deck-01`` …
    ``deck-40``, a deck's line numbers), so that files named so, read back in name order as a
    directory is, keep the deck's order."""
    width = max((len(found[0]) for found in map(TRAILING_NUMBER.search, names) if found), default=0)
    return [TRAILING_NUMBER.sub(lambda found: found[0].zfill(width), name) for name in names]


@app.command()
@guarded_command
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
        typer.Option("--out", help="Stream results to a .jsonl or .csv file (default: stdout)."),
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

    if resume and dest is None:
        raise InputError("--resume needs --out FILE", "--resume")
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
        tally = api.run_deck(request, progress, report)
    err.print(tally_table(tally, progress.seconds, check_numbers, since_start()))
    return deck_code(tally)


@contextmanager
def saying_what_is_kept(dest: Path | None, progress: DeckProgress) -> Iterator[None]:
    """On Ctrl-C or SIGTERM, one line before the run stops: what ``dest`` keeps, and that
    ``--resume`` finishes the run (or, stopped before the run began, that nothing was
    written: the numbers are not known yet)."""
    try:
        yield
    except (KeyboardInterrupt, Terminated):
        if dest is not None and progress.began:
            said = f"{progress.kept()} kept; the same command with --resume finishes the run"
            report(RhaspError(said, str(dest)))
        elif dest is not None:  # stopped while loading: the file was not opened
            report(RhaspError("stopped before the run began, nothing written", str(dest)))
        raise


def deck_code(tally: DeckTally) -> int:
    """The exit code of a deck run: its most serious outcome (:data:`SEVERITY`)."""
    codes = [EXIT_OK]
    codes += [
        code
        for code, count in (
            (EXIT_UNSOLVED, tally.unsolvable),
            (EXIT_LIMIT, tally.limited),
            (EXIT_BAD_INPUT, tally.errors),
            (EXIT_DISAGREE, len(tally.mismatches)),
        )
        if count
    ]
    return max(codes, key=SEVERITY.index)


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
    analysis = api.analysis(AnalyzeRequest(entry, budget))
    reading = reading_text(entry)
    if isinstance(analysis, StaticVerdict):
        # The cluster is too large to analyse, but its verdict is proven: say both.
        report(analysis.stopped)
        out.print(f"{entry.name} · no solution · proven by static analysis: {analysis.proof}")
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


@app.command()
@guarded_command
def hardest(
    puzzle: OnePuzzleArg,
    to: Annotated[FormatChoice, typer.Option("--to", help="Format to write.")] = FormatChoice.grid,
    dest: Annotated[
        Path | None, typer.Option("-o", "--output", help="File to write (default: stdout).")
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


@app.command()
@guarded_command
def generate(
    size: Annotated[
        int, typer.Option(min=GENERATE_SIDES[0], max=GENERATE_SIDES[1], help="Board side.")
    ] = 6,
    min_moves: Annotated[
        int | None,
        typer.Option(
            "--min-moves",
            min=0,
            show_default=False,
            help=f"Keep puzzles of at least this many moves (default: {worth_playing_text()}).",
        ),
    ] = None,
    walls: Annotated[int, typer.Option(min=0, help="Walls on every board.")] = 0,
    count: Annotated[
        int, typer.Option(min=1, callback=at_most(LARGEST), help="How many puzzles to make.")
    ] = 10,
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
            min=1,
            show_default=False,
            help="Give up after this many boards, with exit code 4 "
            f"(default: {BOARDS_PER_PUZZLE:,} per puzzle asked for).",
        ),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option(
            min=0,
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
) -> int:
    """Make new puzzles, a deck line each: a search over boards for deep ones.

    Each kept at the hardest state of its cluster, one per cluster, its minimum proven."""

    chosen = random.randrange(10**6) if seed is None else seed
    with option_names("walls", "min_moves"):
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
        )
    flags = f"--size {size} --min-moves {request.min_moves} --walls {walls} --seed {chosen}"
    tried = Tried()
    progress = GenerateProgress(err)
    puzzles = api.new_puzzles(request, tried, progress)
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
        int, typer.Option("--exit-row", min=0, help="The target's row, from 0 at the top.")
    ] = 2,
    dest: Annotated[
        Path | None,
        typer.Option("--out", help="Write the lines here, resumably (default: stdout)."),
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

    if resume and dest is None:
        raise InputError("--resume needs --out FILE", "--resume")
    if histogram is not None:
        picture_format(destination(histogram), CHART_FORMATS)  # before the work, not after
    progress = EnumerationProgress(err)
    with saying_what_is_kept(dest, progress):  # from the start: a signal at once says it too
        with option_names("walls", "pieces"):
            request = EnumerateRequest(size, walls, pieces, exit_row, jobs, scheduler, max_states)
        tally = api.enumerate_database(request, dest, resume, progress)
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


@app.command()
@guarded_command
def render(
    puzzle: OnePuzzleArg,
    dest: Annotated[
        Path, typer.Option("-o", "--output", help=f"The picture: {suffixes(BOARD_FORMATS)}.")
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
    found = rhasp.solve(entry, objective.value, "bfs", budget=live_budget(max_states))
    if found.limit:
        raise SearchLimit(found.limit, entry.name)
    if found.plan is None:
        report(InputError("no solution to draw", puzzle))
        return EXIT_UNSOLVED
    with written_whole(dest) as path:
        render_solution(entry, found.plan, path, cell=cell)
    out.print(f"wrote {dest}: {entry.name} · {objective.value} {found.length} · optimal: bfs")
    return EXIT_OK


@app.command()
@guarded_command
def facts(puzzle: OnePuzzleArg, target: TargetOpt = None) -> int:
    """Print a puzzle as ASP facts for the encodings (clingo encodings/moves.lp FACTS)."""
    sys.stdout.write(write_facts(read_one(puzzle, target)))
    return EXIT_OK


#: What one request to the page's server may search, unless ``serve --max-states`` says.
SERVE_MAX_STATES = 2_000_000


@app.command()
@guarded_command
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on; 127.0.0.1 keeps the page to this machine.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")] = 8000,
    open_page: Annotated[
        bool, typer.Option("--open", help="Open the page in the web browser.")
    ] = False,
    max_states: max_states_option(
        "States one request's search may reach", default=f"{SERVE_MAX_STATES:,}"
    ) = SERVE_MAX_STATES,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit", min=0.1, help="Seconds one request's searches may take together."
        ),
    ] = 10.0,
    database: Annotated[
        Path | None,
        typer.Option(help="A puzzle database (rhasp enumerate's lines) to pick puzzles from."),
    ] = None,
) -> int:
    """Serve the web page: play a card, get a hint, watch an optimal plan and its proof."""

    try:
        from rhasp.web.server import (
            GENERATE_PAGE_SIDES,
            Database,
            ServerLimits,
            create_app,
            serve_app,
        )
    except ImportError:
        raise MissingTool(
            "FastAPI and uvicorn are not installed: " + install_command("web"), "serve"
        ) from None
    puzzles = None if database is None else Database(database)  # a bad file: one line
    listening = listen(host, port)  # first, so that a taken port is one line
    limits = ServerLimits(states=max_states, seconds=time_limit)
    bound = listening.getsockname()[1]
    address = f"http://{'[' + host + ']' if ':' in host else host}:{bound}/"

    def announce() -> None:
        err.print(f"rhasp serve: {address} (Ctrl-C stops)", markup=False)
        if open_page:  # in a thread: a browser starting holds up no request
            threading.Thread(target=webbrowser.open, args=(address,), daemon=True).start()

    # A server searches for as long as it runs: the compiled core from its start, for the
    # boards its page generates too, loaded by a thread of its own if cached, else compiled
    # in the background. The address comes at once: loading a dozen functions took 16 to 30 s
    # on a busy machine, and requests meanwhile run uncompiled, within their limits.
    threading.Thread(
        target=warm_up_quietly, args=(GENERATE_PAGE_SIDES,), name="rhasp-warm-up", daemon=True
    ).start()
    serve_app(create_app(limits, puzzles), listening, announce)
    return EXIT_OK


def warm_up_quietly(sides: Sequence[int]) -> None:
    """:func:`rhasp.api.warm_up` for a server's thread: code that cannot be loaded (no memory
    left for numba, say) leaves its searches uncompiled, as they are until it comes, and the
    server runs on."""
    with suppress(Exception):  # MemoryError among them
        api.warm_up(sides)


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` for the server, or one line saying why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Said to be TCP, so that asyncio turns Nagle's delay off on every connection (with 0 it
    # does not, and each answer on a kept connection waits for a delayed acknowledgement).
    listening = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
        listening.listen()  # from now on a connection waits for the server, never refused
    except (OSError, UnicodeError) as error:
        listening.close()
        reason = getattr(error, "strerror", None) or str(error)
        raise InputError(f"cannot listen on {host} port {port}: {reason}", "serve") from None
    return listening


def emit(text: str, dest: Path | None) -> None:
    with open_output(dest) as handle:
        handle.write(text)


def version_callback(value: bool) -> None:
    if value:
        print(f"rhasp {__version__}")
        raise typer.Exit()


@app.callback()
def common(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=version_callback, is_eager=True, help="Show the version."
        ),
    ] = False,
) -> None:
    """rhasp solves Rush Hour puzzles optimally and proves it."""


class Terminated(BaseException):
    """SIGTERM, handled like Ctrl-C: what is done is flushed, and rhasp exits 143. (Not a
    KeyboardInterrupt, which typer turns into exit code 130.)"""


def _terminate(signum: int, frame: FrameType | None) -> None:
    """SIGTERM's handler: raise :class:`Terminated` where the command runs. Where the signal
    lands in a callback whose exceptions Python ignores (the import system's module locks:
    "Exception ignored in … cb", and the run went on to the end), it is sent again a moment
    later instead, to land where it ends the run."""
    if (
        frame is not None
        and frame.f_code.co_name == "cb"
        and "importlib" in (frame.f_code.co_filename)
    ):
        threading.Timer(0.01, os.kill, (os.getpid(), signum)).start()
        return
    raise Terminated


def plain_usage_error(message: str) -> str:
    """A usage error on one line, without the validator's ``Value error, `` prefix (typer's
    check of a choice reads ``Value error, 'foo' is not one of 'moves', 'slides'``)."""
    return " ".join(message.replace("Value error, ", "").split())  # click: a choice a line


#: What a terminal is told while the search core compiles (numba, once, then cached).
COMPILING = (
    "compiling the search core for this kind of board in the background "
    "(once, cached after; the search goes on meanwhile)"
)

#: When this process started the command line, near enough: before numba is loaded or any
#: code compiled, so that a summary can say how long the whole run took.
STARTED = time.perf_counter()


def since_start() -> float:
    return time.perf_counter() - STARTED


def main() -> None:
    """The ``rhasp`` command. Usage errors (a bad option value, an extra argument) are one line
    naming the command, exit code 2, like every other error; bare ``rhasp`` prints its help.
    Ctrl-C and SIGTERM stop it cleanly (exit codes 130 and 143), and so does standard output
    closed by its reader (141, nothing on standard error). SIGTERM also ends the background
    compile its process group started (docs/design.md, "The cache never fails a run")."""
    signal.signal(signal.SIGTERM, _terminate)
    if err.is_terminal:
        api.when_compiling(lambda: err.print(COMPILING, markup=False))
    try:
        code = run_app()
        sys.stdout.flush()  # here, not at exit, where a closed pipe would print a warning
    except (ClosedPipe, BrokenPipeError):
        code = closed_pipe()
    sys.exit(code)


def closed_pipe() -> int:
    """Exit code 141, and standard output sent nowhere, so that what is still buffered for it
    is not written (nor complained about) when Python exits."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_CLOSED_PIPE


def run_app() -> int:
    """Run the command line; its exit code."""
    try:
        code = app(prog_name="rhasp", standalone_mode=False)
    except Terminated:
        api.stop_compiling()  # a killed job leaves nothing running (Ctrl-C lets it finish)
        err.print("rhasp: terminated")
        return EXIT_TERMINATED
    except KeyboardInterrupt:  # typer turns it into exit code 130 itself, mostly
        code = EXIT_INTERRUPTED
    except click_errors.NoArgsIsHelpError:
        return EXIT_OK  # the help is printed already, as with --help
    except click_errors.UsageError as error:
        command = error.ctx.command_path if error.ctx else "rhasp"
        message = plain_usage_error(error.format_message())
        err.print(f"{command}: {message} (see {command} --help)", markup=False)
        return EXIT_BAD_INPUT
    except click_errors.ClickException as error:
        err.print(f"rhasp: {error.format_message()}", markup=False)
        return error.exit_code
    if code == EXIT_INTERRUPTED:
        err.print("rhasp: interrupted")
    return code if isinstance(code, int) else EXIT_OK
