"""The processes a test starts, ended with the test whatever happens in it."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def started(command: list[str], **options: Any) -> Iterator[subprocess.Popen]:
    """``subprocess.Popen(command, **options)`` in a process group of its own; on leaving, the
    whole group is killed where any of it still runs (the process and whatever it started:
    workers, a Dask nanny's children), and its pipes are closed. So a test that fails before
    its process ends (an assertion, a ``communicate`` that timed out) leaves nothing running
    beside the tests after it: a failed 7×7 enumeration once took half a core for 23 minutes.

    A background compile that rhasp starts is left alone: it runs in a session of its own
    (:mod:`rhasp.search.cache`), meant to outlive its caller. Signals a test sends with
    ``process.send_signal`` reach the process alone, as they would without the group."""
    process = subprocess.Popen(command, start_new_session=True, **options)
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        with process:  # closes the pipes and reaps the process
            pass
