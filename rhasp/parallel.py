"""The one way the commands spread work out (:func:`fan_out`): worker processes or Dask."""

from __future__ import annotations

import collections
import contextlib
import ctypes
import ctypes.util
import dataclasses
import functools
import itertools
import math
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from multiprocessing.connection import Connection, wait
from typing import Any

from rhasp.errors import ClusterLost, InputError, install_command

#: How workers start: forked where the platform can (they inherit the loaded compiled core).
CONTEXT = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")


#: What a worker leaves to the main process: blocked from its fork until it has set its own
#: handlers (:func:`forking`).
STOPPING = frozenset({signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def forking() -> Iterator[None]:
    """Workers forked inside this block start with Ctrl-C and SIGTERM blocked, and unblock
    them once their own handlers are set (:func:`_leave_signals_to_the_main_process`).

    Why: a fork copies the main process's Python handlers, which raise to unwind the
    command. A worker that got the signal before it had set its own (on a busy machine a new
    worker may not run at all before the workers are stopped) raised it in the middle of
    multiprocessing's fork, outside the code that ends a worker, and ran on as a copy of the
    main process: the command's code, its output, its exit. (A test run saw such a copy report
    tests to pytest's workers and hold a pool's shutdown for ever.) Blocked, the signal waits
    in the kernel until the worker's handler is the default or ignores it, and then does what
    the main process means it to. After the block the main thread's mask is as it was: a
    signal that came meanwhile is handled then."""
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
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # _end_with's signal ends a worker
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)  # blocked since the fork
    _end_with(parent)


PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _end_with(parent: int) -> None:
    """On Linux, ask for SIGTERM when the main process dies, however it dies: a main process
    killed with SIGKILL cannot stop its workers, and they would go on computing shards
    nobody reads (holding two cores for minutes). Linux sends it when the *thread* that
    started the workers ends, which is never before their work: every :class:`Workers` here
    lives inside the call that starts it. Elsewhere their own end (:meth:`Workers.close`)
    must do."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # it died before the request was made
        os._exit(1)


#: Batches each worker holds at once: it starts the next while its last answer waits to be
#: read, so it never waits for the main process, and no more than that is queued for it, so a
#: slow batch holds back few others and a deck of a million lines is never all in memory.
IN_FLIGHT = 2
#: How far, in batches per worker, results in input order may run ahead of the oldest batch
#: not yet answered: the others keep working past a slow one, and what waits for it in memory
#: stays bounded.
AHEAD = 16


def fan_out(
    work: Callable[[Any], Any],
    items: Iterable[Any],
    processes: int,
    *,
    ordered: bool,
    batch: int = 1,
    until: float = math.inf,
    scheduler: str | None = None,
) -> Iterator[Any]:
    """``work`` on each of ``items``, its results yielded in the items' order (``ordered``)
    or as they are done: on the Dask cluster at ``scheduler``, else on ``processes`` local
    worker processes (:class:`Workers`), ``batch`` items a task, else here when
    ``processes`` is one. An exception ``work`` raises is raised here. Past ``until`` (a
    ``time.perf_counter()`` value, the one clock of deadlines: :mod:`rhasp.limits`) it waits
    for no more: it ends, its workers killed. Closing the iterator kills the workers at once.
    The one way ``deck``, ``enumerate`` and ``generate`` spread their work out."""
    if scheduler:
        yield from _on_dask(work, items, scheduler, ordered, batch, until)
    elif processes <= 1:
        for item in items:
            if time.perf_counter() >= until:
                return
            yield work(item)
    else:
        with Workers(work, processes) as workers:
            yield from workers.map(items, ordered=ordered, batch=batch, until=until)


class Workers:
    """``processes`` worker processes running ``work``, forked at once, each with a pipe of
    its own; :meth:`map` hands them items. Use it as a context manager: its end kills them.

    Started apart from :meth:`map` so that a command can fork them before it opens its output
    (``enumerate``): a worker forked after would hold the output's lock, and one still busy
    after the run was killed would make ``--resume`` refuse.

    Not a :class:`~multiprocessing.pool.Pool`: its workers share one queue for results,
    under one lock, and a worker stopped while it writes a result (as ``terminate`` does,
    leaving a pool whose workers are busy) holds that lock for ever, so ``terminate`` hangs
    joining the thread that needs it. Here each worker has a pipe of its own, so killing one
    can block nobody. And each worker is handed the next batch as soon as it has room for it,
    whichever it is, since items differ widely in cost (an enumeration's shards do)."""

    def __init__(self, work: Callable[[Any], Any], processes: int) -> None:
        self.workers: list[_Worker] = []
        _settle()
        try:
            for _ in range(processes):
                mine, theirs = CONTEXT.Pipe()
                process = CONTEXT.Process(target=_serve, args=(work, theirs, os.getpid()))
                process.daemon = True
                with forking():
                    process.start()
                theirs.close()
                self.workers.append(_Worker(process, mine))
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Kill the workers, busy or not (see the class's note on why that cannot hang)."""
        workers, self.workers = self.workers, []
        for worker in workers:
            worker.process.kill()
        for worker in workers:
            worker.process.join()
            worker.pipe.close()

    def map(
        self, items: Iterable[Any], *, ordered: bool, batch: int = 1, until: float = math.inf
    ) -> Iterator[Any]:
        """``work`` on each of ``items``, as :func:`fan_out` says. The items are read only as
        workers have room for them. Ended early (closed, an exception, past ``until``) it
        kills the workers, whose answers no one would read; run to its end, it leaves them
        for the next ``map``."""
        if not self.workers:
            raise ValueError("these workers were stopped")
        batches = enumerate(iter(functools.partial(_take, iter(items), batch), []))
        workers: dict[Any, _Worker] = {worker.pipe: worker for worker in self.workers}
        answered: dict[int, tuple[bool, Any]] = {}  # ordered: answers after the oldest
        oldest = 0  # ordered: the first batch whose results are not yet yielded
        sent = 0  # batches handed out
        more = True
        ended = False  # every item's results yielded

        def feed() -> bool:
            """Hand batches to every worker with room, the emptiest first; False once the
            items run out."""
            nonlocal sent
            for depth in range(IN_FLIGHT):
                for worker in self.workers:
                    if len(worker.held) > depth:
                        continue
                    if ordered and sent >= oldest + AHEAD * len(self.workers):
                        return True
                    number, chunk = next(batches, (None, None))
                    if number is None:
                        return False
                    worker.pipe.send(chunk)
                    worker.held.append(number)
                    sent += 1
            return True

        try:
            while True:
                if more and time.perf_counter() < until:
                    more = feed()
                busy = [worker.pipe for worker in self.workers if worker.held]
                if not busy:
                    ended = not more
                    return
                left = None if until == math.inf else max(0.0, until - time.perf_counter())
                ready = wait(busy, left)
                if not ready:
                    return  # past until: the workers are killed below
                done = []
                for pipe in ready:
                    worker = workers[pipe]
                    try:
                        answer = worker.pipe.recv()
                    except EOFError:
                        process = worker.process
                        raise RuntimeError(
                            f"worker {process.pid} ended: {process.exitcode}"
                        ) from None
                    done.append((worker.held.popleft(), answer))
                if more and time.perf_counter() < until:
                    more = feed()  # before the caller takes its time over the results
                if ordered:
                    answered.update(done)
                    done = []
                    while oldest in answered:
                        done.append((oldest, answered.pop(oldest)))
                        oldest += 1
                for _, (worked, results) in done:
                    if not worked:
                        raise results
                    yield from results
        finally:
            if not ended:
                self.close()


@dataclasses.dataclass
class _Worker:
    process: Any
    pipe: Connection
    held: collections.deque[int] = dataclasses.field(default_factory=collections.deque)


def _take(items: Iterator[Any], count: int) -> list[Any]:
    return list(itertools.islice(items, count))


def _serve(work: Callable[[Any], Any], pipe: Connection, parent: int) -> None:
    """A worker of :class:`Workers`: ``work`` on each item of each batch it is sent, the
    results (or the exception one raised) sent back, until the main process is gone."""
    _leave_signals_to_the_main_process(parent)
    while True:
        try:
            batch = pipe.recv()
        except EOFError:
            return
        try:
            answer = (True, [work(item) for item in batch])
        except Exception as error:
            answer = (False, error)
        try:  # it never blocks for long: the main process reads answers while it waits, and
            # sends a worker its next batch (numbers, deck lines) only once it has room for it
            pipe.send(answer)
        except Exception as error:  # a result or an exception that cannot be pickled
            pipe.send((False, RuntimeError(f"a worker cannot send its answer back: {error!r}")))


def _on_dask(
    work: Callable[[Any], Any],
    items: Iterable[Any],
    scheduler: str,
    ordered: bool,
    batch: int,
    until: float,
) -> Iterator[Any]:
    """:func:`fan_out` on a running Dask cluster (``dask scheduler`` and workers): every batch
    submitted at once, each released once its results are taken. The scheduler lost on the
    way (its futures cancelled, its connection closed or timed out) is a :class:`ClusterLost`
    naming it, not Dask's exception: the caller says what it kept. An exception ``work``
    raised is raised as it is."""
    client = dask_client(scheduler)  # first: it says so if Dask is missing
    from dask.distributed import as_completed, wait

    def left() -> float | None:
        return None if until == math.inf else max(0.0, until - time.perf_counter())

    current = None  # the future whose results are asked for
    with _dask_quiet(), client:
        try:
            batches = list(iter(functools.partial(_take, iter(items), batch), []))
            futures = client.map(functools.partial(_each, work), batches, pure=False)
            del batches
            if ordered:
                waiting = collections.deque(futures)
                del futures
                while waiting:
                    current = waiting.popleft()
                    try:
                        wait(current, timeout=left())
                    except TimeoutError:
                        if time.perf_counter() >= until:
                            return
                        raise
                    yield from current.result()
            else:
                finished = as_completed(futures, timeout=left())
                del futures
                while True:
                    try:
                        current = next(finished)
                    except StopIteration:
                        return
                    except TimeoutError:
                        if time.perf_counter() >= until:
                            return  # past until
                        raise
                    yield from current.result()
        except (CancelledError, OSError, TimeoutError) as error:
            if current is not None and current.status == "error":
                raise  # the work's own exception, not the cluster's
            raise ClusterLost(LOST, scheduler) from error


#: What :class:`ClusterLost` says, whatever Dask's exception: they all mean that much.
LOST = "the connection to the Dask scheduler was lost before the run ended"


@contextlib.contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask's client logs only what is critical while rhasp runs on it. Why: a scheduler lost
    makes it log a traceback or two on standard error (its attempts to reconnect, cancelled
    as the client closes), where rhasp says what happened in one line (:class:`ClusterLost`).
    Its loggers' levels are as they were afterwards."""
    import logging

    names = ["distributed"] + [
        name for name in logging.root.manager.loggerDict if name.startswith("distributed.")
    ]
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _each(work: Callable[[Any], Any], batch: list[Any]) -> list[Any]:
    """A batch as one Dask task, so that a task's round trip is paid once per batch."""
    return [work(item) for item in batch]


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
