"""The ``rhasp`` application: the typer app each command module registers its command with,
its help written in words rather than Python, the options of ``rhasp`` itself
(``--version``), and which command modules are loaded (:func:`register`)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from rhasp import __version__

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


#: Other names an option answers to, hidden from the help: ``--output`` is read as ``--out``.
HIDDEN_ALIASES = {"--out": ("--output",)}


class Command(PlainHelp, TyperCommand):
    """A command whose options also answer to their :data:`HIDDEN_ALIASES`."""

    def make_parser(self, ctx: Any) -> Any:
        parser = super().make_parser(ctx)
        for param in self.get_params(ctx):
            for name in getattr(param, "opts", ()):
                for alias in HIDDEN_ALIASES.get(name, ()):
                    parser.add_option(obj=param, opts=[alias], dest=param.name, nargs=param.nargs)
        return parser


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


#: The commands, a module each (``rhasp/cli/<name>.py``), in the order ``rhasp --help`` lists
#: them.
COMMANDS = (
    "solve",
    "check",
    "hint",
    "convert",
    "deck",
    "analyze",
    "hardest",
    "generate",
    "enumerate",
    "render",
    "facts",
    "serve",
)


def register(arguments: Sequence[str] | None = None) -> None:
    """Load the module of the command that the command line ``arguments`` (``sys.argv[1:]``)
    names, which registers it with :data:`app`; where they name none (``rhasp --help``, a
    misspelt command, whose suggestions need every name) or are None, every command's, in
    :data:`COMMANDS`' order. A run loads only the command it runs: typer reads the signature
    of every command registered each time it starts, and one command does not load what the
    others need (``rhasp solve`` reaches its search 45 ms sooner: bench/README.md)."""
    named = arguments[0] if arguments else None
    for name in (named,) if named in COMMANDS else COMMANDS:
        importlib.import_module(f"rhasp.cli.{name}")
    order = {f"rhasp.cli.{name}": place for place, name in enumerate(COMMANDS)}
    app.registered_commands.sort(key=lambda info: order[info.callback.__module__])
