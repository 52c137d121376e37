"""Worker processes and Dask clusters, shared by the commands that spread work out."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import itertools
import math
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from multiprocessing.pool import Pool
from typing import Any

from rhasp.errors import InputError, install_command

#: How workers start: forked where the platform can (they inherit the loaded compiled core).
CONTEXT = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")


def worker_pool(processes: int) -> Pool:
    """A pool of ``processes`` workers that leave Ctrl-C and SIGTERM to the main process,
    which stops the pool (so an interrupt prints no worker tracebacks). Use it as a context
    manager."""
    _settle()
    with forking():  # the pool's own threads, which fork workers anew, keep the mask too
        return CONTEXT.Pool(
            processes, initializer=_leave_signals_to_the_main_process, initargs=(os.getpid(),)
        )


#: What a worker leaves to the main process: blocked from its fork until it has set its own
#: handlers (:func:`forking`).
STOPPING = frozenset({signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def forking() -> Iterator[None]:
    """Workers forked inside this block start with Ctrl-C and SIGTERM blocked, and unblock
    them once their own handlers are set (:func:`_leave_signals_to_the_main_process`).

    Why: a fork copies the main process's Python handlers, which raise to unwind the
    command. A worker that got the signal before it had set its own (on a busy machine a new
    worker may not run at all before the pool is stopped) raised it in the middle of
    multiprocessing's fork, outside the code that ends a worker, and ran on as a copy of the
    main process: the command's code, its output, its exit. (A test run saw such a copy report
    tests to pytest's workers and hold the pool's shutdown for ever.) Blocked, the signal waits
    in the kernel until the worker's handler is the default or ignores it, and then does what
    the pool means it to. After the block the main thread's mask is as it was: a signal that
    came meanwhile is handled then."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX: workers are spawned, not forked
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _settle() -> None:
    """Before workers are forked: wait for the compiled code this process is loading in a
    thread, so that no worker starts with numba's lock held (:meth:`Runner.settle`)."""
    from rhasp import search

    search.settle()


def _leave_signals_to_the_main_process(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool stops its workers with SIGTERM
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)  # blocked since the fork
    _end_with(parent)


PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _end_with(parent: int) -> None:
    """On Linux, ask for SIGTERM when the main process dies, however it dies: a main process
    killed with SIGKILL cannot stop its pool, and its workers would go on computing shards
    nobody reads (holding two cores for minutes). Linux sends it when the *thread* that
    started the pool ends, which is never before the pool's work: every pool here lives
    inside the call that starts it. Elsewhere the pool's own shutdown must do."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # it died before the request was made
        os._exit(1)


#: Numbers each worker of :func:`in_order` holds: it starts the next while its last result
#: waits to be read.
IN_HAND = 2


def in_order(work: Callable[[int], Any], processes: int, until: float = math.inf) -> Iterator[Any]:
    """``work`` on the numbers 0, 1, 2, ... without end, yielded in order, number ``n`` done
    by worker ``n % processes``. Closing the iterator kills the workers at once. Past
    ``until`` (a ``time.time()`` value) it waits for no worker: it ends, its workers killed,
    so that a caller's bound in seconds holds even while a worker is where nothing stops it
    (numba compiling, a search without a budget).

    Not a :class:`~multiprocessing.pool.Pool`: its workers share one queue for results,
    under one lock, and a worker stopped while it writes a result (as ``terminate`` does,
    leaving a pool whose workers are busy) holds that lock for ever, so ``terminate`` hangs
    joining the thread that needs it. Here each worker has a pipe of its own, so killing one
    can block nobody."""
    workers: list[tuple[Any, Connection]] = []
    _settle()
    try:
        for first in range(processes):
            mine, theirs = CONTEXT.Pipe()
            process = CONTEXT.Process(target=_serve, args=(work, theirs, os.getpid()))
            process.daemon = True
            with forking():
                process.start()
            theirs.close()
            workers.append((process, mine))
            for number in range(first, IN_HAND * processes, processes):
                mine.send(number)
        for number in itertools.count():
            process, pipe = workers[number % processes]
            if not pipe.poll(None if until == math.inf else max(0.0, until - time.time())):
                return  # past until: the workers are killed below
            try:
                done, result = pipe.recv()
            except EOFError:
                raise RuntimeError(f"worker {process.pid} ended: {process.exitcode}") from None
            if not done:
                raise result
            pipe.send(number + IN_HAND * processes)
            yield result
    finally:
        for process, pipe in workers:
            process.kill()
            process.join()
            pipe.close()


def _serve(work: Callable[[int], Any], pipe: Connection, parent: int) -> None:
    """A worker of :func:`in_order`: ``work`` on each number it is sent, its result (or the
    exception it raised) sent back."""
    _leave_signals_to_the_main_process(parent)
    while True:
        number = pipe.recv()
        try:
            answer = (True, work(number))
        except Exception as error:
            answer = (False, error)
        pipe.send(answer)


def dask_client(scheduler: str) -> Any:
    """A client of the Dask scheduler at ``scheduler`` (``tcp://HOST:PORT``); one line if it
    cannot be had. Use it as a context manager."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise InputError(
            "Dask is not installed: " + install_command("dask"), "--scheduler"
        ) from None
    try:
        return Client(scheduler, timeout=10)
    except (OSError, TimeoutError, ValueError) as error:  # ValueError: not an address
        raise InputError(f"cannot reach the Dask scheduler: {error}", scheduler) from None
