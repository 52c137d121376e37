"""Pattern databases built beside the search that wants them, while that search goes on: in
a process of its own where this process has not loaded the choice's compiled code
(:class:`PatternAside`), in a thread where it has (:class:`PatternThread`). Either hands
over each pattern of :meth:`PatternTable.collection` as it is built (the patterns that lift
one vehicle and the choice, those with a vehicle a cell shorter, in the collection's order),
and the memo takes each as it comes.

Choosing the pattern (:meth:`PatternTable.of`) in a new process first loads numba and the
compiled cluster search, most of a second, holding the interpreter's lock: a thread beside
the ASP search would stall the memo's callbacks (bench/README.md, "the pattern's compiled code
loaded from the first horizon, in a thread"). A child process holds no lock of the parent's
and runs on the other core, so the search goes on without the patterns meanwhile and takes
each when it comes. The answer cannot change: each pattern's bound is a true lower bound
whenever it is added, and a child that fails or is too late only leaves the search without
some of them.

Once the code is loaded here (a process that solves several puzzles: a deck's worker, the
server, a notebook), a thread serves: the compiled cluster searches, most of a choice, let go
of the interpreter's lock, and the ASP search runs one solver thread, so the choice takes the
other core (bench/README.md, "the choice beside the search, in a thread").

The child is started by :mod:`rhasp.early`, as ``rhasp solve`` starts or when it is asked for.
It is this module run by the same interpreter: it reads the question (the board, the
start and the choice's bounds) pickled from its standard input and writes each pattern
pickled to its standard output as it is built, then an end, and closes it: the parent takes
each pattern at once, and the end before the child's own (numba's teardown takes a fifth of
a second more). What follows a pattern cut short, or anything but a pattern, is no answer:
the whole patterns before it stay. Both ends must be this very code: a table of another
rhasp (a checkout in the folder the command runs from, ahead of the installed package on the
path of ``python -m``) could key its boards otherwise and prune a minimal plan. So the child
puts this package's folder first on its path and answers only if the module it runs is this
file; anything else is a child that failed.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
import threading
from collections import deque
from pathlib import Path
from typing import Any

from rhasp import early
from rhasp.model import Board, State
from rhasp.search.pattern import PatternTable

#: The end of a child's answer: every pattern it had is written (:func:`_answer`).
_END = None
#: This module, which the child must run (:mod:`rhasp.early` starts it: its program, the
#: package's folder first on its path, then :func:`_answer`).
HERE = Path(__file__).resolve()


class _Arrivals:
    """The patterns that a child or thread has built, handed over as they come: the face
    :class:`PatternAside` and :class:`PatternThread` share (the memo takes each pattern as
    it comes, :meth:`rhasp.engines.memo.StateMemo._came`)."""

    def __init__(self) -> None:
        self._tables: deque[PatternTable] = deque()  # come, not taken yet (one end each)
        self._taken = 0  # how many have been taken
        #: Whether no more will come (all built, or the child ended or failed).
        self.done = False

    def _arrive(self, table: PatternTable) -> None:
        self._tables.append(table)

    def arrived(self) -> list[PatternTable]:
        """The patterns come since the last call (ask :attr:`done` first: once it says so,
        this has every pattern)."""
        tables = []
        while self._tables:
            tables.append(self._tables.popleft())
        self._taken += len(tables)
        return tables


class PatternAside(_Arrivals):
    """:meth:`PatternTable.collection` for ``board`` from ``start``, asked of a child process
    at once: :meth:`arrived` hands over each pattern as the child writes it, :attr:`done`
    says once the child has written its last (or failed), :attr:`failed` whether it failed
    before any; :meth:`close` ends the child if it still runs."""

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
        super().__init__()
        PatternAside.asked = True
        self._ended = False  # the child wrote the end of its answer
        # The child started with the process where there is one (rhasp.early), else a new one.
        self._process = early.adopt() or early.start_child()
        question = pickle.dumps((board, start, choice))
        threading.Thread(target=self._talk, args=(question,), daemon=True).start()

    def _talk(self, question: bytes) -> None:
        """Ask, then read the answer as it comes (each wait lets go of the interpreter's
        lock): a pattern at a time, then the end. A child that ends before the end of its
        answer, or writes anything else, has failed; the whole patterns it wrote before
        stay, each a bound of its own. The answer is read to its end, which the child
        writes and then closes its output, not to the child's end: numba's teardown as a
        process ends takes a fifth of a second more."""
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        try:
            with process.stdin:
                process.stdin.write(question)
            with process.stdout:
                while not self._ended:
                    self._read_one(process.stdout)
        except (OSError, ValueError):  # the child ended early, or was closed
            pass
        self.done = True

    def _read_one(self, answer: Any) -> None:
        """One item of the answer: a pattern taken, the end noted; anything else (what does
        not unpickle, a child that ended early, another object) raises ValueError."""
        try:
            item = pickle.load(answer)
        except Exception:  # whatever unpickling raises: not an answer
            raise ValueError("not an answer") from None
        if item is _END:
            self._ended = True
        elif isinstance(item, PatternTable):
            self._arrive(item)
        else:
            raise ValueError("not an answer")

    @property
    def failed(self) -> bool:
        """Whether the child ended without a pattern or the end of its answer (killed, or
        no Python to run this module: a frozen application; or it wrote something else),
        once :attr:`done`."""
        return not self._ended and not self._taken and not self._tables

    def close(self) -> None:
        """End the child if it still runs (the search ended first): killed now, and reaped by
        a thread beside, not waited for here: the kernel takes some milliseconds to tear down
        a child that has loaded numba (10 ms, a solve's end in a process of its own)."""
        if self._process.poll() is None:
            self._process.kill()
            threading.Thread(target=self._process.wait, daemon=True).start()


class PatternThread(_Arrivals):
    """:meth:`PatternTable.collection` for ``board`` from ``start``, built in a thread of this
    process at once, with :class:`PatternAside`'s face: :meth:`arrived` hands over each
    pattern as it is built (and raises, in the search's thread, what the building raised, as
    if it had built them itself), :attr:`done` once it is over, :meth:`close` stops it at its
    next pattern tried."""

    @staticmethod
    def worth() -> bool:
        """Whether a thread gains: there is another core for it to run on."""
        return (os.cpu_count() or 1) > 1

    def __init__(self, board: Board, start: State, **choice: Any) -> None:
        super().__init__()
        self._error: BaseException | None = None
        self._stop = threading.Event()
        arguments = (board, start, choice)
        self._thread = threading.Thread(target=self._build, args=arguments, daemon=True)
        self._thread.start()

    def _build(self, board: Board, start: State, choice: dict[str, Any]) -> None:
        try:
            for table in PatternTable.collection(board, start, stop=self._stop.is_set, **choice):
                self._arrive(table)
        except BaseException as error:  # raised again by arrived(), in the search's thread
            self._error = error
        self.done = True

    def arrived(self) -> list[PatternTable]:
        if self._error is not None:
            raise self._error
        return super().arrived()

    #: A thread never fails as a child does: what it raises is raised by :meth:`arrived`.
    failed = False

    def close(self) -> None:
        """Stop the building, and wait for it to end (at its next pattern tried)."""
        self._stop.set()
        self._thread.join()


def _answer() -> None:
    """The child's part: the question from standard input, the answer to standard output,
    which nothing else writes to (what the choice prints goes to standard error): each
    pattern as it is built, then the end (:data:`_END`)."""
    answer, sys.stdout = sys.stdout.buffer, sys.stderr
    if str(HERE) != sys.argv[2]:
        sys.exit(f"another rhasp: {HERE}, not {sys.argv[2]}")
    # What every answer loads first, while a child started early waits for its question
    # (without numba, the choice runs uncompiled).
    with contextlib.suppress(ImportError):
        import numba  # noqa: F401
    board, start, choice = pickle.loads(sys.stdin.buffer.read())
    for table in PatternTable.collection(board, start, **choice):
        pickle.dump(table, answer)
        answer.flush()
    pickle.dump(_END, answer)
    answer.flush()
    # The parent reads to the end of the answer: end it now, not at the process's end.
    os.dup2(os.open(os.devnull, os.O_WRONLY), answer.fileno())
