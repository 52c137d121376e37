"""MkDocs hook: a command page's table of arguments and options, drawn from the command line
itself, so that the docs never keep a second copy of its help.

A page writes ``<!-- options: solve -->`` where the table goes. (mkdocs-click and
mkdocs-typer2 would do this, but neither reads the parameters of Typer 0.29, which carries a
click of its own.) A marker naming no command fails the build.
"""

from __future__ import annotations

import re
from typing import Any

import typer

MARKER = re.compile(r"<!-- options: (\w+) -->")
#: A default the help works out from the memory of the machine it runs on: the docs say how
#: it is reckoned (the solve page's Limits), not what it came to where they were built.
MEMORY_FIGURE = re.compile(
    r"(from this machine's memory)(, shared by the workers)?[:,] [\d,]+(?: for one)?"
)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return MARKER.sub(lambda match: options_table(match.group(1)), markdown)


def options_table(name: str) -> str:
    """The Markdown table of command ``name``'s arguments and options, as ``--help`` has them."""
    from rhasp.cli import app  # the package, installed where the docs are built

    commands = typer.main.get_command(app).commands
    if name not in commands:
        raise ValueError(f"<!-- options: {name} -->: rhasp has no command {name!r}")
    command = commands[name]
    context = command.context_class(command, info_name=name)
    rows = ["| argument or option | meaning |", "| --- | --- |"]
    for parameter in command.get_params(context):
        record = parameter.get_help_record(context)
        if record is None or parameter.name == "help":
            continue
        names, meaning = record
        meaning = MEMORY_FIGURE.sub(r"\1\2", meaning)
        rows.append(f"| `{names}` | {escaped(meaning)} |")  # a pipe in a code span is text
    return "\n".join(rows) + "\n"


def escaped(text: str) -> str:
    """Help text as one table cell: a pipe escaped, so that it does not end the cell."""
    return " ".join(text.replace("|", "\\|").split())
