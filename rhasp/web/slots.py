"""What a server's requests may spend, and its memory: the bounds of one request
(:class:`ServerLimits`), the searches that run at once (:class:`SearchSlots`), and large
blocks given back to the system as they are freed (:func:`unmap_large_blocks`).
``docs/design.md``, "The server's memory", says why."""

from __future__ import annotations

import ctypes
import os
import platform
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rhasp import api
from rhasp.api import BYTES_PER_STATE, Budget
from rhasp.errors import counted
from rhasp.web.failures import answer, busy


@dataclass(frozen=True)
class ServerLimits:
    """What one request may spend: states per search (of a BFS: a search that keeps more per
    state, as analysis does, gets fewer, for the same memory), seconds for all its searches
    (a solve and the BFS that confirms it count them on one clock), and how many ASP proofs
    and how many other searches may run at once (default: one per core each)."""

    states: int = 2_000_000
    seconds: float = 10.0
    asp_proofs: int = field(default_factory=lambda: os.cpu_count() or 1)
    searches: int = field(default_factory=lambda: os.cpu_count() or 1)

    def budget(self, bytes_each: int = BYTES_PER_STATE) -> Budget:
        """The budget of one search that keeps ``bytes_each`` a state: the memory of
        ``states`` BFS states, and the seconds."""
        states = max(1, self.states * BYTES_PER_STATE // bytes_each)
        return api.search_budget(states, seconds=self.seconds)


class SearchSlots:
    """The searches of a server that run at once, but ASP proofs (slots of their own): every
    request that may search (solve, hint, check, analyze, generate) takes one of
    ``limits.searches`` slots for its work, waiting for one to be free for the server's
    seconds at most; one that gets none by then is told ``busy`` (HTTP 429). Each search
    keeps at most ``limits.states`` states at :data:`BYTES_PER_STATE` (an analysis as many
    bytes in fewer states), so the searches together keep at most ``searches`` times that,
    where a burst of requests would otherwise run as many at once as the thread pool has
    threads (bench/README.md, "The server's memory"). They wait rather than being refused
    at once, as ASP proofs are: a search's seconds pass soon, and the cores are shared by
    all the searches either way."""

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self._free = threading.BoundedSemaphore(limits.searches)

    def answer(self, work: Callable[[], Any], advice: str = "") -> Any:
        """:func:`~rhasp.web.failures.answer` of ``work`` run in a slot, or ``busy`` when
        none was free in time."""
        if not self._free.acquire(timeout=self.limits.seconds):
            taken = f"all {counted(self.limits.searches, 'search slot')} taken"
            return busy(f"busy: {taken} for {self.limits.seconds:g} s; try again in a moment")
        try:
            return answer(work, advice)
        finally:
            self._free.release()


#: glibc's ``mallopt`` parameter for the size from which a block is mapped on its own.
M_MMAP_THRESHOLD = -3
#: glibc's starting value of it, 128 KiB, kept for the server's life (:func:`unmap_large_blocks`).
MMAP_THRESHOLD = 128 * 1024


def unmap_large_blocks() -> bool:
    """Have the C allocator map each block of :data:`MMAP_THRESHOLD` or more on its own, and
    give it back to the system when it is freed, for the rest of the process's life. glibc
    starts so, but raises the threshold whenever such a block is freed, up to 32 MiB: a
    search's tables (millions of states, grown by doubling) then come from the malloc arenas
    of the threads that ran it, one per thread, which keep them when freed, and a burst of
    large searches leaves the server holding what they took at the peak (bench/README.md,
    "The server's memory"). Setting the threshold stops it moving. True when set: glibc
    (Linux); elsewhere nothing is done."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
