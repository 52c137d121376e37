"""``rhasp convert``: puzzles written in another format, or as PDDL (a domain and its
problems), one file a puzzle where the format holds one."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from rhasp.api import Objective
from rhasp.cli.application import app
from rhasp.cli.io import emit, located_entries
from rhasp.cli.options import ObjectiveChoice, PuzzleArg, TargetOpt, choices
from rhasp.cli.running import guarded_command, report
from rhasp.errors import InputError
from rhasp.exit_codes import EXIT_BAD_INPUT, EXIT_OK
from rhasp.files import files_named
from rhasp.formats import FORMATS, SUFFIX, write
from rhasp.formats.pddl import DOMAIN_FILE, write_domain, write_problem
from rhasp.model import Puzzle

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
            "-o", "--out", help="File to write (directory for several puzzles, and for pddl)."
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
