"""What the commands share of their arguments and options: the choices (from the tuples the
package defines), the puzzle arguments, and the options declared once for every command
that takes them (``--target``, ``--jobs``, ``--format``, ``--max-states``, ``--max-atoms``,
``--objective``, ``--confirm``), with their checks, worded as the API words them."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from typing import Annotated, Any

import typer

from rhasp.api import (
    BYTES_PER_STATE,
    CONFIRM_FACTOR,
    CONFIRM_FLOOR,
    ENGINES,
    OBJECTIVES,
    max_atoms_for,
    max_states_for,
)
from rhasp.arguments import BOUNDS, checked_clingo_args, whole
from rhasp.errors import InputError
from rhasp.formats import FORMATS
from rhasp.notation import NOTATIONS


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
    return _within(None, high)


def bounds_of(name: str) -> Callable[[int | None], int | None]:
    """The check of the option for the count ``name`` (``jobs``): the bounds the request
    checks (:data:`rhasp.arguments.BOUNDS`), worded as the API words them."""
    return _within(*BOUNDS[name])


def _within(low: int | None, high: int) -> Callable[[int | None], int | None]:
    def checked(value: int | None) -> int | None:
        try:
            return None if value is None else whole(value, "", low, high)
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
    typer.Option(callback=bounds_of("jobs"), help="Worker processes (default: all cores)."),
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
            callback=bounds_of("max_states"),
            show_default=False,
            help=f"{what} (default: {default}).",
        ),
    ]


MaxStatesOpt = max_states_option()
MaxAtomsOpt = Annotated[
    int | None,
    typer.Option(
        "--max-atoms",
        callback=bounds_of("max_atoms"),
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


@contextmanager
def option_names(*fields: str) -> Iterator[None]:
    """A request's error naming one of its ``fields`` names the option instead (``walls``:
    ``--walls``), as every other error of the command line does; a decorator too."""
    try:
        yield
    except InputError as error:
        error.rename(fields, lambda name: "--" + name.replace("_", "-"))
        raise
