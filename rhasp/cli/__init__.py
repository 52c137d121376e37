"""The command line: parsing arguments into requests and printing what comes back. All the
work goes through the API (:mod:`rhasp.api`), never around it (tests/test_layers.py), so the
command line and the web page give the same verdict on the same board; pictures and printing
have modules of their own.

A module a command (``solve.py`` … ``serve.py``: its body and the helpers only it uses), over
what they share: the application and its help (``app.py``), the arguments and options
(``options.py``), what a command reads and where it writes (``io.py``), and how a run ends,
an error as one line and its exit code, the signals, :func:`main` (``running.py``; the codes
themselves are :mod:`rhasp.exit_codes`). Importing the package registers every command.
"""

from __future__ import annotations

from rhasp.cli.app import app
from rhasp.cli.running import COMPILING, main

# isort: off
# Each module registers its command with the app, in the order ``rhasp --help`` lists them.
from rhasp.cli import (  # noqa: F401
    solve,
    check,
    hint,
    convert,
    deck,
    analyze,
    hardest,
    generate,
    enumerate,
    render,
    facts,
    serve,
)
# isort: on

__all__ = ["COMPILING", "app", "main"]
