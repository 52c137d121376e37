"""The ``rhasp`` command as a process: Ctrl-C and SIGTERM while it is still loading, and a
capped address space (``ulimit -v``), each end in one line and a documented exit code, never
a traceback."""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import time
import tomllib

from tests.boards import ROOT

CARD = "puzzles/original/card01.txt"


def launcher() -> list[str]:
    """The ``rhasp`` console script as pip writes it, from ``[project.scripts]``: it imports
    the entry point's module, then calls it."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, function = scripts["rhasp"].split(":")
    code = f"import sys; from {module} import {function}; sys.exit({function}())"
    return [sys.executable, "-c", code]


WAYS = {"python -m rhasp": [sys.executable, "-m", "rhasp"], "rhasp": launcher()}


def signalled(command: list[str], sent: signal.Signals, delay: float) -> tuple[int, str]:
    """Start ``command``, send it ``sent`` after ``delay`` seconds; its exit code and standard
    error."""
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    time.sleep(delay)
    process.send_signal(sent)
    _, stderr = process.communicate(timeout=60)
    return process.returncode, stderr


def before_rhasp_ran(stderr: str) -> bool:
    """A traceback of the interpreter's own start, which no line of rhasp has reached:
    Python handles Ctrl-C from before it imports ``site`` (``Fatal Python error:
    init_import_site``) and runpy looks for the package's ``__main__`` before any of it runs.
    Those milliseconds (about 15 on the development machine; ``python -c pass`` has them
    too) are Python's, and no entry point can catch what comes before it is called."""
    return "Traceback" in stderr and not re.search(r"[/\\]rhasp[/\\]", stderr)


def test_ctrl_c_while_rhasp_loads_is_one_line_and_exit_code_130():
    # The command line imports clingo, typer, rich and the rest of rhasp before it runs (0.4
    # s): Ctrl-C then printed a KeyboardInterrupt traceback, in 6 of 12 tries. An exit by
    # the signal itself (-2) is what Python does after some interrupted imports; a shell
    # reports it as 130 too.
    rng = random.Random(40)
    interrupted = 0
    for attempt in range(12):
        way = list(WAYS)[attempt % 2]
        delay = rng.uniform(0, 0.4)
        code, stderr = signalled([*WAYS[way], "solve", CARD], signal.SIGINT, delay)
        if before_rhasp_ran(stderr):
            continue
        said = f"{way}, Ctrl-C after {delay:.3f} s: exit code {code}, {stderr!r}"
        assert code in (0, 130, -signal.SIGINT), said
        assert "Traceback" not in stderr and stderr.count("\n") <= 1, said
        assert stderr in ("", "rhasp: interrupted\n"), said
        interrupted += stderr == "rhasp: interrupted\n"
    assert interrupted >= 4  # most tries stopped rhasp while it loaded or ran


def test_sigterm_while_rhasp_loads_ends_it_with_exit_code_143():
    # Before the command line sets its handler, SIGTERM's default action ends the process
    # at once, as a shell reports with 143; after, the handler prints one line and exits 143.
    rng = random.Random(143)
    for attempt in range(6):
        way = list(WAYS)[attempt % 2]
        delay = rng.uniform(0, 0.4)
        code, stderr = signalled([*WAYS[way], "solve", CARD], signal.SIGTERM, delay)
        said = f"{way}, SIGTERM after {delay:.3f} s: exit code {code}, {stderr!r}"
        assert code in (0, 143, -signal.SIGTERM), said
        assert stderr in ("", "rhasp: terminated\n"), said


def test_importing_rhasp_loads_nothing_behind_its_names_until_one_is_used():
    # `python -m rhasp` imports the package before its entry point runs: the API's imports
    # must wait for the entry point's try, and `rhasp.deck` stays the function even after
    # the module of that name has loaded.
    code = (
        "import sys, rhasp\n"
        "assert not {'rhasp.api', 'typer', 'clingo'} & set(sys.modules), sorted(sys.modules)\n"
        "import rhasp.deck\n"
        "assert callable(rhasp.deck) and rhasp.deck.__module__ == 'rhasp.api', rhasp.deck\n"
        "assert rhasp.enumerate.__name__ == 'enumerate_puzzles'\n"
        "assert all(getattr(rhasp, name) is not None for name in rhasp.__all__)\n"
        "print(rhasp.solve(rhasp.read('" + CARD + "'), engine='bfs').moves)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout == "8\n", run.stderr
