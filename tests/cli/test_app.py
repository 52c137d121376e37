"""The application: one name, ``--out``, for the file every writing command writes."""

from __future__ import annotations

import pytest
from typer.main import get_command

from rhasp.cli import app
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
