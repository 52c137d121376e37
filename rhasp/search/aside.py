"""A pattern database chosen beside the search that wants it, while that search goes on: in a
process of its own where this process has not loaded the choice's compiled code
(:class:`PatternAside`), in a thread where it has (:class:`PatternThread`).

Choosing the pattern (:meth:`PatternTable.of`) in a new process first loads numba and the
compiled cluster search, most of a second, holding the interpreter's lock: a thread beside
the ASP search would stall the memo's callbacks (bench/README.md, "the pattern's compiled code
loaded from the first horizon, in a thread"). A child process holds no lock of the parent's
and runs on the other core, so the search goes on without the pattern meanwhile and takes it
when it comes. The answer cannot change: the pattern's bound is a true lower bound whenever it
is added, and a child that fails or is too late only leaves the search without it.

Once the code is loaded here (a process that solves several puzzles: a deck's worker, the
server, a notebook), a thread serves: the compiled cluster searches, most of a choice, let go
of the interpreter's lock, and the ASP search runs one solver thread, so the choice takes the
other core (bench/README.md, "the choice beside the search, in a thread").

The child is this module run by the same interpreter: it reads the question (the board, the
start and the choice's bounds) pickled from its standard input and writes the table pickled to
its standard output, which it then closes: the parent takes the answer at once, not after the
child's end (numba's teardown takes a fifth of a second more). Both ends must be this very
code: a table of another rhasp (a checkout in the folder the command runs from, ahead of the
installed package on the path of ``python -m``) could key its boards otherwise and prune a
minimal plan. So the child puts this package's folder first on its path and answers only if
the module it runs is this file; anything else is a child that failed.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from rhasp.model import Board, State
from rhasp.search.pattern import PatternTable

#: A child's answer not come yet, and one that is none (it failed, or wrote something else).
_PENDING, _FAILED = object(), object()
#: This module, which the child must run, and the folder its package ``rhasp`` is in.
HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
#: The child's program: this package first on the path, then :func:`_answer`.
CHILD = (
    "import sys; sys.path.insert(0, sys.argv[1]); from rhasp.search.aside import _answer; _answer()"
)


class PatternAside:
    """:meth:`PatternTable.of` for ``board`` from ``start``, asked of a child process at once:
    :attr:`ready` once it has answered (or failed), :meth:`table` then its answer, None where
    there is none or the child failed; :meth:`close` ends the child if it still runs."""

    #: Whether this process has asked a child before: one that solves several puzzles (a
    #: deck, a benchmark, a notebook) does better to load the pattern's code once itself.
    asked = False

    @classmethod
    def worth(cls, board: Board) -> bool:
        """Whether to ask a child for ``board``'s pattern: there is another core for it to run
        on, the code it needs is not loaded in this process, and no child was asked here
        before."""
        cores = os.cpu_count() or 1
        return cores > 1 and not cls.asked and not PatternTable.costs_no_load(board)

    def __init__(self, board: Board, start: State, **choice: Any) -> None:
        PatternAside.asked = True
        self._answer: object = _PENDING  # read once, by the thread that waits for it
        self._process = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(ROOT), str(HERE)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        question = pickle.dumps((board, start, choice))
        threading.Thread(target=self._talk, args=(question,), daemon=True).start()

    def _talk(self, question: bytes) -> None:
        """Ask, then wait for the answer (the wait lets go of the interpreter's lock), and
        read it: a pattern or None, else :data:`_FAILED`. The answer is read to the end of
        the child's output, which the child closes once it has written it, not to the
        child's end: numba's teardown as a process ends takes a fifth of a second more. A
        child that ends before it has answered whole leaves no answer: what it wrote does
        not unpickle (:func:`_unpickled`)."""
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        try:
            with process.stdin:
                process.stdin.write(question)
            with process.stdout:
                written = process.stdout.read()
        except (OSError, ValueError):  # the child ended early, or was closed
            written = b""
        self._answer = _unpickled(written)

    @property
    def ready(self) -> bool:
        """Whether the child has answered, or failed."""
        return self._answer is not _PENDING

    @property
    def failed(self) -> bool:
        """Whether the child ended without an answer (killed, or no Python to run this
        module: a frozen application; or its answer is not one), once :attr:`ready`."""
        return self._answer is _FAILED

    def table(self) -> PatternTable | None:
        """The child's pattern, once :attr:`ready`: None where it found none or failed."""
        return self._answer if isinstance(self._answer, PatternTable) else None

    def close(self) -> None:
        """End the child if it still runs (the search ended first)."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()


class PatternThread:
    """:meth:`PatternTable.of` for ``board`` from ``start``, chosen in a thread of this process
    at once, with :class:`PatternAside`'s face: :attr:`ready` once chosen, :meth:`table` then
    the pattern (None where there is none; what the choice raised is raised there, in the
    search's thread, as if it had chosen itself), :meth:`close` stops the choice at its next
    pattern tried."""

    @staticmethod
    def worth() -> bool:
        """Whether a thread gains: there is another core for it to run on."""
        return (os.cpu_count() or 1) > 1

    def __init__(self, board: Board, start: State, **choice: Any) -> None:
        self._answer: object = _PENDING
        self._stop = threading.Event()
        arguments = (board, start, choice)
        self._thread = threading.Thread(target=self._choose, args=arguments, daemon=True)
        self._thread.start()

    def _choose(self, board: Board, start: State, choice: dict[str, Any]) -> None:
        try:
            self._answer = PatternTable.of(board, start, stop=self._stop.is_set, **choice)
        except BaseException as error:  # raised again by table(), in the search's thread
            self._answer = error

    @property
    def ready(self) -> bool:
        """Whether the choice is over."""
        return self._answer is not _PENDING

    #: A thread never fails as a child does: what it raises is raised by :meth:`table`.
    failed = False

    def table(self) -> PatternTable | None:
        """The pattern chosen, once :attr:`ready` (None: there is none)."""
        if isinstance(self._answer, BaseException):
            raise self._answer
        return self._answer if isinstance(self._answer, PatternTable) else None

    def close(self) -> None:
        """Stop the choice, and wait for it to end (at its next pattern tried)."""
        self._stop.set()
        self._thread.join()


def _unpickled(written: bytes) -> object:
    """What the child wrote, unpickled: a pattern or None, else :data:`_FAILED` (it printed
    something else, or ended early)."""
    try:
        answer = pickle.loads(written)
    except Exception:  # whatever unpickling raises: not an answer
        return _FAILED
    return answer if answer is None or isinstance(answer, PatternTable) else _FAILED


def _answer() -> None:
    """The child's part: the question from standard input, the answer to standard output,
    which nothing else writes to (what the choice prints goes to standard error)."""
    answer, sys.stdout = sys.stdout.buffer, sys.stderr
    if str(HERE) != sys.argv[2]:
        sys.exit(f"another rhasp: {HERE}, not {sys.argv[2]}")
    board, start, choice = pickle.loads(sys.stdin.buffer.read())
    answer.write(pickle.dumps(PatternTable.of(board, start, **choice)))
    answer.flush()
    # The parent reads to the end of the answer: end it now, not at the process's end.
    os.dup2(os.open(os.devnull, os.O_WRONLY), answer.fileno())
