"""Running the ``rhasp`` command in the test process, as the tests of every module do."""

from __future__ import annotations

from typer.testing import CliRunner, Result

from rhasp.cli import app

runner = CliRunner()


def rhasp(*args: str, stdin: str | None = None) -> Result:
    """``rhasp ARGS`` with ``stdin`` as its input; its exit code, stdout and stderr."""
    return runner.invoke(app, list(args), input=stdin)
