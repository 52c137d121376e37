"""Local worker processes, shared by the commands that spread work over the cores."""

from __future__ import annotations

import multiprocessing
import os
import signal
from multiprocessing.pool import Pool


def worker_pool(processes: int) -> Pool:
    """A pool of ``processes`` workers that leave Ctrl-C to the main process, which stops the
    pool (so an interrupt prints no worker tracebacks). Use it as a context manager."""
    context = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
    return context.Pool(processes, initializer=_ignore_interrupts)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
