"""Local worker processes, shared by the commands that spread work over the cores."""

from __future__ import annotations

import multiprocessing
import os
import signal
from multiprocessing.pool import Pool


def worker_pool(processes: int) -> Pool:
    """A pool of ``processes`` workers that leave Ctrl-C and SIGTERM to the main process,
    which stops the pool (so an interrupt prints no worker tracebacks). Use it as a context
    manager."""
    context = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
    return context.Pool(processes, initializer=_leave_signals_to_the_main_process)


def _leave_signals_to_the_main_process() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool stops its workers with SIGTERM
