"""Every command the README and the docs show runs as shown.

The code blocks of README.md and docs/ are read as a person reads them: a line ``$ COMMAND``
is a command and the lines under it what it prints; in a ``sh`` block every line is a
command. Each page's commands run in order, in a folder of their own that holds the
checkout's ``puzzles/`` and ``encodings/`` (a later command may read what an earlier one
wrote), through the checkout's own ``rhasp``. A command must end with exit code 0, or the one
a ``# exit code N`` comment after it names; every line shown under it must be printed, in
order, where ``...`` stands for anything and times (``0.07 s``) may differ. A command shown
that cannot run here is in :data:`NOT_RUN` with the reason and where it is tested instead;
any other command fails the test, so nothing shown goes unchecked.

The blocks of encodings/README.md, which docs/encodings.md includes, are run by
tests/engines/test_asp.py with the clingo executable's own output.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from rhasp.arguments import max_states_for
from rhasp.limits import max_atoms_for

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

#: Commands shown but not run by this test, by how they begin: why, and what tests them.
NOT_RUN = {
    "python3 -m venv": "makes the virtual environment .ci/run makes",
    "python3 -m pip install": "installs, as .ci/run does from a clean clone",
    "mkdocs": ".ci/run builds the site, strictly",
    "dask ": "starts a scheduler or workers: tests/test_deck.py runs a two-worker cluster",
    "rhasp deck database.txt --cluster --scheduler": "needs that cluster (as above)",
    "PYTHONPATH=. clingo": "the memo in the clingo executable: tests/engines/test_asp.py",
    'python3 "$(python3 -c': "Fast Downward (up-fast-downward): tests/formats/test_pddl.py (slow)",
    "rhasp check card01 sas_plan": "Fast Downward's plan, above: tests/test_cli.py checks its text",
}
EXIT_NOTE = re.compile(r"\s+# exit code (\d+)\b.*$")
TIME = re.compile(r"\b\d+\.\d+ s\b")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


@dataclass
class Shown:
    """A command a page shows, what it prints under it, and the exit code it must end with."""

    command: str
    printed: list[str] = field(default_factory=list)
    exit_code: int = 0


def commands_shown(page: Path) -> list[Shown]:
    shown: list[Shown] = []
    for language, block in FENCE.findall(page.read_text(encoding="utf-8")):
        session = None
        for line in block.splitlines():
            if line.startswith("$ "):
                session = shown_command(line[2:])
                shown.append(session)
            elif session is not None:
                session.printed.append(line)
            elif language == "sh" and line.strip():
                shown.append(shown_command(line))
    return shown


def shown_command(line: str) -> Shown:
    note = EXIT_NOTE.search(line)
    command = EXIT_NOTE.sub("", line).strip()
    return Shown(command, exit_code=int(note.group(1)) if note else 0)


def not_run(command: str) -> bool:
    return any(command.startswith(prefix) for prefix in NOT_RUN)


def pages_with_commands() -> list[Path]:
    return [page for page in PAGES if any(not not_run(s.command) for s in commands_shown(page))]


@pytest.fixture(scope="module")
def checkout_rhasp(tmp_path_factory) -> dict[str, str]:
    """An environment whose ``rhasp`` is the checkout's, whose ``python`` is the one running
    the tests (with the checkout's clingo), and whose output is never wrapped."""
    folder = tmp_path_factory.mktemp("bin")
    for name, start in (("rhasp", ["-m", "rhasp"]), ("python", [])):
        script = folder / name
        script.write_text(
            shlex.join(["exec", sys.executable, *start]).join(["#!/bin/sh\n", ' "$@"\n'])
        )
        script.chmod(0o755)
    path = f"{folder}{os.pathsep}{os.environ['PATH']}"
    return os.environ | {"PATH": path, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}


def test_every_command_shown_is_run_or_skipped_for_a_reason():
    shown = [s.command for page in PAGES for s in commands_shown(page)]
    assert len(shown) >= 30  # the reading found the blocks
    assert "rhasp solve card26" in shown
    runs = [command for command in shown if not not_run(command)]
    assert all(command.startswith(("rhasp ", "clingo ", "sort ", "python ")) for command in runs)


@pytest.mark.parametrize("page", pages_with_commands(), ids=lambda page: page.stem)
def test_the_commands_of_a_page_run_as_shown(page, tmp_path, checkout_rhasp):
    for name in ("puzzles", "encodings"):
        (tmp_path / name).symlink_to(ROOT / name)
    for shown in commands_shown(page):
        if not_run(shown.command):
            continue
        if shown.command.startswith("clingo ") and shutil.which("clingo") is None:
            pytest.skip("the clingo executable is not installed (Debian's package gringo)")
        result = subprocess.run(
            ["bash", "-c", shown.command],
            cwd=tmp_path,
            env=checkout_rhasp | uncompiled_on_large_boards(shown.command),
            capture_output=True,
            text=True,
            timeout=300,
        )
        where = f"{page.relative_to(ROOT)}: $ {shown.command}"
        assert result.returncode == shown.exit_code, f"{where}\n{result.stderr}"
        missing = not_printed(shown.printed, result.stdout, result.stderr)
        assert missing is None, f"{where}\nshown but not printed: {missing!r}\n{result.stdout}"


def uncompiled_on_large_boards(command: str) -> dict[str, str]:
    """``RHASP_JIT=never`` for a command on a board of ``puzzles/large/``: on a cold cache (CI's)
    its searches end uncompiled before the code of their shape would be compiled, and that
    compile (5-20 s of CPU a function, in the background) is only the suite's cost
    (``tests/conftest.py``, ``uncompiled``). Nothing a page shows depends on it."""
    return {"RHASP_JIT": "never"} if "puzzles/large/" in command else {}


def not_printed(shown: list[str], stdout: str, stderr: str) -> str | None:
    """The first line shown that the run did not print, in order on its stream; or None."""
    streams = [TIME.sub("T s", stdout).splitlines(), TIME.sub("T s", stderr).splitlines()]
    places = [0, 0]
    for line in shown:
        if line.strip() in ("", "..."):
            continue
        wanted = re.compile(".*".join(map(re.escape, TIME.sub("T s", line).split("..."))))
        for k, lines in enumerate(streams):
            found = next(
                (i for i in range(places[k], len(lines)) if wanted.fullmatch(lines[i].rstrip())),
                None,
            )
            if found is not None:
                places[k] = found + 1
                break
        else:
            return line
    return None


def test_a_line_not_printed_is_found():
    printed = "card01 · moves 8 · 0.02 s\n   1. AR1\n   2. CL3\n"
    assert not_printed(["card01 · moves 8 · 0.07 s", "...", "   2. CL3"], printed, "") is None
    assert not_printed(["   2. CL3", "   1. AR1"], printed, "") == "   1. AR1"  # order kept
    assert not_printed(["card01 · moves 9 · 0.02 s"], printed, "") is not None
    assert not_printed(["wrote x.png"], "", "wrote x.png\n") is None  # standard error too
    assert not_printed(['{"a": 1, "b": [...]}'], '{"a": 1, "b": [1, 2]}\n', "") is None


def roles_hook():
    """docs/hooks/roles.py, which renders the docstrings for the API page (mkdocs.yml)."""
    spec = importlib.util.spec_from_file_location("roles", ROOT / "docs" / "hooks" / "roles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_api_page_links_the_sphinx_roles_and_fails_on_a_raw_one():
    roles = roles_hook()
    text = roles.linked(
        "raises :class:`~rhasp.errors.PlanError`, as :func:`solve` does", "rhasp.api"
    )
    assert ":class:" not in text and ":func:" not in text
    assert 'identifier="rhasp.errors.PlanError" optional><code>PlanError</code>' in text
    assert 'identifier="rhasp.api.solve" optional><code>solve</code>' in text
    page = SimpleNamespace(file=SimpleNamespace(src_path="api.md"))
    assert roles.on_post_page("<p>fine</p>", page, None) == "<p>fine</p>"
    with pytest.raises(ValueError, match=r"api\.md: a raw Sphinx role"):
        roles.on_post_page("<p>see :class:<code>Puzzle</code></p>", page, None)


def test_a_fields_comment_is_its_description_on_the_api_page():
    lines = [
        "class Hint:",
        "    #: The next move;",
        "    #: None when solved.",
        "    move: Move | None",
        "    moves_left: int | None  # moves to the exit",
        "    proven_by: str",
    ]
    comment = roles_hook().field_comment
    assert comment(lines, 4, 4) == "The next move; None when solved."
    assert comment(lines, 5, 5) == "moves to the exit"
    assert comment(lines, 6, 6) is None


def test_the_option_tables_say_how_a_default_is_reckoned_not_what_it_came_to_here():
    spec = importlib.util.spec_from_file_location("options", ROOT / "docs/hooks/options.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    here = f"{max_states_for(None):,}"  # what --help says on this machine
    for command in ("solve", "deck", "hardest", "enumerate"):
        table = module.options_table(command)
        assert "from this machine's memory" in table and here not in table, command
    assert f"{max_atoms_for(None):,}" not in module.options_table("solve")
