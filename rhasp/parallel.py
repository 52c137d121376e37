"""Worker processes and Dask clusters, shared by the commands that spread work out."""

from __future__ import annotations

import multiprocessing
import os
import signal
from multiprocessing.pool import Pool
from typing import Any

from rhasp.errors import InputError


def worker_pool(processes: int) -> Pool:
    """A pool of ``processes`` workers that leave Ctrl-C and SIGTERM to the main process,
    which stops the pool (so an interrupt prints no worker tracebacks). Use it as a context
    manager."""
    context = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
    return context.Pool(processes, initializer=_leave_signals_to_the_main_process)


def _leave_signals_to_the_main_process() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool stops its workers with SIGTERM


def dask_client(scheduler: str) -> Any:
    """A client of the Dask scheduler at ``scheduler`` (``tcp://HOST:PORT``); one line if it
    cannot be had. Use it as a context manager."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise InputError(
            "Dask is not installed: pip install 'rhasp[cluster]'", "--scheduler"
        ) from None
    try:
        return Client(scheduler, timeout=10)
    except (OSError, TimeoutError, ValueError) as error:  # ValueError: not an address
        raise InputError(f"cannot reach the Dask scheduler: {error}", scheduler) from None
