"""The command line: parsing arguments into requests and printing what comes back. All the
work goes through the API (:mod:`rhasp.api`), never around it (tests/test_layers.py), so the
command line and the web page give the same verdict on the same board; pictures and printing
have modules of their own.

A module a command (``solve.py`` … ``serve.py``: its body and the helpers only it uses), over
what they share: the application, its help and its commands (``application.py``), the
arguments and options (``options.py``), what a command reads and where it writes
(``io.py``), and how a run ends,
an error as one line and its exit code, the signals, :func:`main` (``running.py``; the codes
themselves are :mod:`rhasp.exit_codes`). :func:`main` loads the one command it runs;
``rhasp.cli.app`` is the application with every command.
"""

from __future__ import annotations

from typing import Any

from rhasp.cli.running import COMPILING, main


def __getattr__(name: str) -> Any:
    """``app``: the typer application with every command registered (a test's runner, the
    docs' pages of options). :func:`main` registers only the command its line names
    (:func:`rhasp.cli.application.register`)."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from rhasp.cli.application import app, register

    register()
    return app


__all__ = ["COMPILING", "app", "main"]
