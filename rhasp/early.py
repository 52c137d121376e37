"""What ``rhasp solve`` starts before its command line loads: the child process that builds the
ASP search's pattern databases (:class:`rhasp.search.PatternAside`).

In a process of its own, the search asks for its patterns early (at its first horizon), and a
child started then spent most of half a second on Python, numba's import and the compiled
code's load before it could answer (bench/README.md, "Issue 57: fewer
horizons, lighter steps, the lifts first"). Started as the process starts, the child imports
numba while the command line loads, then waits for its question on its standard input; the
first :class:`~rhasp.search.PatternAside` of the process takes it over (:func:`adopt`).

Light on purpose: :mod:`rhasp.__main__` imports this before the command line (nothing here
but the standard library's process modules). A child nobody adopts (another engine, a board
too large for ASP, an easy card, an error) is ended as the process ends (``atexit``); where the
process dies without its ``atexit``, the child's question never comes, its input ends, and it
ends with nothing to answer. The answer is never another: an adopted child is the same child,
asked the same question, as one started later.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys

#: The folder the package ``rhasp`` is in, and the module the child must run (it checks).
ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
ANSWERER = os.path.join(ROOT, "rhasp", "search", "aside.py")
#: The child's program: this package first on the path, then the answer.
CHILD = (
    "import sys; sys.path.insert(0, sys.argv[1]); from rhasp.search.aside import _answer; _answer()"
)

_early: subprocess.Popen[bytes] | None = None


def start_child() -> subprocess.Popen[bytes]:
    """A new child, waiting for its question (:func:`rhasp.search.aside._answer`). Raises
    OSError where no process can start."""
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, ROOT, ANSWERER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )


def wanted(arguments: list[str]) -> bool:
    """Whether the command line ``arguments`` (``sys.argv[1:]``) are a ``solve`` that may run
    the ASP engine with its state memo, on a machine with another core for the child."""
    if arguments[:1] != ["solve"] or (os.cpu_count() or 1) < 2:
        return False
    if any(a in ("--help", "--no-memo") for a in arguments):
        return False
    for i, argument in enumerate(arguments):
        if argument == "--engine" and arguments[i + 1 : i + 2] != ["asp"]:
            return False
        if argument.startswith("--engine=") and argument != "--engine=asp":
            return False
    return True


def start_for(arguments: list[str]) -> None:
    """Start the child now where the command line ``arguments`` may want it (:func:`wanted`);
    where no process can start, the search starts one later, or does without."""
    global _early
    if _early is not None or not wanted(arguments):
        return
    try:
        _early = start_child()
    except OSError:
        return
    atexit.register(_end)


def adopt() -> subprocess.Popen[bytes] | None:
    """The child started early, handed over once (None if none was, or it was taken)."""
    global _early
    child, _early = _early, None
    return child


def _end() -> None:
    """End the child started early if nobody adopted it."""
    child = adopt()
    if child is not None:
        child.kill()
        child.wait()
