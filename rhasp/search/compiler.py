"""The background process that compiles the code searches ask for:
``python -m rhasp.search.compiler VERSION DESCRIPTOR``, started by
:func:`rhasp.search.cache.start` for the cache folder ``VERSION``, holding the lock
``serving.lock`` it was handed as the open file ``DESCRIPTOR``.

It serves the folder's queue (:func:`rhasp.search.cache.requests`), oldest request first,
until the queue is empty: each request's call is made compiled, which compiles its code into
the cache under the folder's compile lock and marks it ready (:meth:`Runner.load
<rhasp.search.runner.Runner.load>`, the load every process makes). It runs at a lower
priority (:data:`NICENESS`), in a session of its own (docs/design.md, "No promise waits on a
compile"). A request that fails is not served again by this process; the searches that asked
for it go on uncompiled.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import sys
from pathlib import Path

from rhasp.search import cache

#: How nice the compiling process is to the command that started it.
NICENESS = 10


def serve(queue: Path, held: int) -> None:
    """Compile what ``queue`` asks for, oldest first, until it is empty, holding the lock
    it was handed (descriptor ``held``). A request written after the last look but before the
    lock is let go finds the lock held and starts no process: so the queue is looked at again
    after letting go, and served again if the lock can be had."""
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    from rhasp.search.runner import RUNNER

    with open(held, "a+", closefd=True) as lock:
        while True:
            while pending := cache.requests(queue):
                request = pending[0]
                asked = request.read_bytes()
                request.unlink(missing_ok=True)  # once: a request that fails is not retried
                with contextlib.suppress(Exception):  # the searches go on uncompiled
                    RUNNER.load(*pickle.loads(asked))
            fcntl.flock(lock, fcntl.LOCK_UN)
            if not cache.requests(queue):
                return
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # another process serves them


if __name__ == "__main__":
    serve(Path(sys.argv[1]) / "queue", int(sys.argv[2]))
