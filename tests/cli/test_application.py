"""The application: one name, ``--out``, for the file every writing command writes; a run
loads the command it runs, help all of them, in one order."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest
from typer.main import get_command

from rhasp.cli import app
from rhasp.cli.application import COMMANDS
from tests.boards import ORIGINAL
from tests.command import rhasp, runner

#: Every command that writes a file of its own (not standard output alone).
WRITERS = ("convert", "deck", "enumerate", "generate", "hardest", "render")


def help_text(command: str) -> str:
    return runner.invoke(app, [command, "--help"], terminal_width=200).stdout


def test_every_writer_names_its_file_out_and_no_help_shows_output():
    commands = get_command(app).commands
    for name in WRITERS:
        assert "--out" in help_text(name).split(), name
    for name, command in commands.items():
        assert "--output" not in help_text(name), name
        assert not any("--output" in getattr(param, "opts", ()) for param in command.params)


@pytest.mark.parametrize("command", ["hardest", "convert"])
def test_output_is_still_read_as_out(command, tmp_path):
    written = {}
    for option in ("--out", "--output", "-o"):
        dest = tmp_path / f"{option.strip('-')}.txt"
        result = rhasp(command, str(ORIGINAL / "card01.txt"), "--to", "line", option, str(dest))
        assert result.exit_code == 0, result.stderr
        written[option] = dest.read_text()
    assert written["--out"].strip()
    assert written["--output"] == written["--out"] == written["-o"]


def test_output_with_an_equals_sign_names_the_picture(tmp_path):
    dest = tmp_path / "card01.svg"
    result = rhasp("render", str(ORIGINAL / "card01.txt"), f"--output={dest}")
    assert result.exit_code == 0, result.stderr
    assert dest.read_text().lstrip().startswith("<")


#: A command line run as a process, printing at its end the command modules it loaded.
LOADED = """
import atexit, sys
atexit.register(lambda: print(sorted(m for m in sys.modules if m.startswith("rhasp."))))
sys.argv = ["rhasp", *sys.argv[1:]]
from rhasp.cli import main
main()
"""


def loaded(*arguments: str) -> set[str]:
    """rhasp's modules a run of ``rhasp`` with these arguments has loaded by its end."""
    ran = subprocess.run(
        [sys.executable, "-c", LOADED, *arguments], capture_output=True, text=True, check=False
    )
    return set(ast.literal_eval(ran.stdout.splitlines()[-1]))


def loaded_commands(*arguments: str) -> set[str]:
    return {m.removeprefix("rhasp.cli.") for m in loaded(*arguments)} & set(COMMANDS)


def test_a_run_loads_only_the_command_its_line_names_and_help_loads_them_all():
    assert loaded_commands("facts", str(ORIGINAL / "card01.txt")) == {"facts"}
    assert loaded_commands("--help") == set(COMMANDS)
    assert loaded_commands("sovle") == set(COMMANDS)  # "did you mean" needs every name


def test_solve_loads_neither_a_decks_modules_nor_the_workers():
    modules = loaded("solve", str(ORIGINAL / "card01.txt"), "--engine", "asp", "--no-confirm")
    assert "rhasp.engines.asp" in modules
    assert not {"rhasp.deck", "rhasp.parallel"} & modules


def test_the_commands_keep_the_helps_order_whichever_came_first():
    code = (
        "from rhasp.cli.application import app, register\n"
        "register(['serve']); register(['deck']); register()\n"
        "print([info.callback.__module__ for info in app.registered_commands])"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    modules = ast.literal_eval(ran.stdout.splitlines()[-1])
    assert modules == [f"rhasp.cli.{name}" for name in COMMANDS]
    assert list(get_command(app).commands) == list(COMMANDS)
