"""The background process that compiles the code searches ask for:
``python -m rhasp.search.compiler VERSION DESCRIPTOR``, started by
:func:`rhasp.search.cache.start` for the cache folder ``VERSION``, holding the lock
``serving.lock`` it was handed as the open file ``DESCRIPTOR``.

It serves the folder's queue (:func:`rhasp.search.cache.requests`), oldest request first,
until the queue is empty: each request's call is made compiled, which compiles its code into
the cache under the folder's compile lock and marks it ready
(:func:`rhasp.search.compiled.load_code`, the load every process makes). It runs at a lower
priority (:data:`NICENESS`), in a session of its own (docs/design.md, "No promise waits on a
compile"). A request that fails is not served again until it is asked for again; the searches
that asked for it go on uncompiled.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from rhasp.search import cache, compiled

#: How nice the compiling process is to the command that started it.
NICENESS = 10


def serve_queue(queue: Path, held: int) -> None:
    """Compile what ``queue`` asks for, oldest first, until it is empty, holding the lock
    it was handed (descriptor ``held``). A request written after the last look but before the
    lock is let go finds the lock held and starts no process: so the queue is looked at again
    after letting go, and served again if the lock can be had."""
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    jit = compiled.compiled_core() if compiled.may_compile() else None
    with open(held, "a+", closefd=True) as lock:
        while True:
            while pending := cache.requests(queue):
                request = pending[0]
                asked = request.read_bytes()
                request.unlink(missing_ok=True)  # once: a request that fails is not retried
                with contextlib.suppress(Exception):  # the searches go on uncompiled
                    _compile(jit, *pickle.loads(asked))
            fcntl.flock(lock, fcntl.LOCK_UN)
            if not cache.requests(queue):
                return
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # another process serves them


def _compile(jit: ModuleType | None, function: str, shape: str, call: tuple[Any, ...]) -> None:
    """Have ``call``'s code for ``function`` and ``shape`` compiled into the cache (nothing
    where there is no compiled core). Code found damaged is set aside and asked for again: it
    is compiled afresh when this process comes to that request."""
    if jit is not None:
        compiled.load_code(jit, (function, shape), call, lambda: cache.start(function, shape, call))


if __name__ == "__main__":
    serve_queue(Path(sys.argv[1]) / "queue", int(sys.argv[2]))
