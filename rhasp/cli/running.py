"""How a command runs and ends. Its body returns its exit code (:mod:`rhasp.exit_codes`);
bad input, a search limit, the memory running out or the Dask cluster lost become one line
on standard error and their code (:func:`guarded`); a usage error, Ctrl-C, SIGTERM and
standard output closed by its reader end as docs/exit-codes.md says (:func:`main`).
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer

try:  # typer carries its own copy of click from 0.20 on
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - older typer on the click package
    from click import exceptions as click_errors

from rhasp import api
from rhasp.api import BYTES_PER_STATE, OUT_OF_MEMORY, Budget
from rhasp.cli.application import app, register
from rhasp.cli.io import ClosedPipe, err
from rhasp.errors import ClusterLost, InputError, RhaspError, SearchLimit
from rhasp.exit_codes import (
    EXIT_BAD_INPUT,
    EXIT_CLOSED_PIPE,
    EXIT_CLUSTER_LOST,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_TERMINATED,
)
from rhasp.output import DeckProgress, SearchLine, advised
from rhasp.stopping import INTERRUPTED, TERMINATED, Terminated, stop_on_sigterm


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
def saying_what_is_kept(dest: Path | None, progress: DeckProgress) -> Iterator[None]:
    """On Ctrl-C or SIGTERM, one line before the run stops: what ``dest`` keeps, and that
    ``--resume`` finishes the run (or, stopped before the run began, that nothing was
    written: the numbers are not known yet)."""
    try:
        yield
    except (KeyboardInterrupt, Terminated):
        if dest is not None and progress.began:
            report(RhaspError(api.kept_until_resumed(progress.kept(), dest)))
        elif dest is not None:  # stopped while loading: the file was not opened
            report(RhaspError("stopped before the run began, nothing written", str(dest)))
        raise


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
    compile its process group started (docs/design.md, "The cache never fails a run").
    Only the command the line names is loaded (:func:`~rhasp.cli.application.register`)."""
    stop_on_sigterm()
    register(sys.argv[1:])
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
        err.print(TERMINATED)
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
        err.print(INTERRUPTED)
    return code if isinstance(code, int) else EXIT_OK
