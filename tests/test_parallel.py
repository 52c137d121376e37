import os
import signal
import time

import pytest

from rhasp.parallel import in_order, worker_pool


def _busy(number: int) -> tuple[int, int]:
    """A result at once for the first numbers, then work that never ends in time."""
    if number >= 6:
        time.sleep(60)
    return number, os.getpid()


def _fails(number: int) -> int:
    if number == 3:
        raise ValueError(f"no {number}")
    return number


def test_results_come_in_order_from_every_worker():
    results = in_order(_busy, 2)
    first = [next(results) for _ in range(6)]
    results.close()
    assert [number for number, _ in first] == list(range(6))
    assert len({pid for _, pid in first}) == 2


def test_closing_with_busy_workers_kills_them_at_once():
    # Each worker is writing a result or sleeping when the iterator closes: none may hang
    # the close (a Pool's terminate can, when a worker dies holding its result lock).
    for _ in range(5):
        results = in_order(_busy, 2)
        pids = {pid for _, pid in (next(results) for _ in range(6))}
        began = time.monotonic()
        results.close()
        assert time.monotonic() - began < 5
        for pid in pids:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)


def test_a_workers_exception_is_raised_in_the_caller():
    results = in_order(_fails, 2)
    assert [next(results) for _ in range(3)] == [0, 1, 2]
    with pytest.raises(ValueError, match="no 3"):
        next(results)


def test_past_its_time_it_waits_for_no_worker():
    # generate's seconds are a promise: a worker busy where nothing stops it (numba
    # compiling) once held the run, the main process waiting for its result.
    began = time.time()
    results = list(in_order(_busy, 2, until=began + 2))
    assert time.time() - began < 2 + 1.5
    assert [number for number, _ in results] == list(range(6))
    for pid in {pid for _, pid in results}:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


#: The signal mask each forked process started with (set in the child by the hook below).
_MASK_AT_FORK: set[int] | None = None


def _record_the_mask() -> None:
    global _MASK_AT_FORK
    _MASK_AT_FORK = set(signal.pthread_sigmask(signal.SIG_BLOCK, []))


os.register_at_fork(after_in_child=_record_the_mask)


def _masks(_: int = 0) -> tuple[set[int] | None, set[int]]:
    """(the mask the worker was forked with, the mask it works with)."""
    return _MASK_AT_FORK, set(signal.pthread_sigmask(signal.SIG_BLOCK, []))


def test_workers_are_forked_deaf_to_ctrl_c_and_sigterm_until_their_handlers_are_set():
    # Forked with the main process's handlers (which raise to unwind a command), a worker
    # that got SIGTERM before its own were set ran on as a copy of the main process.
    stopping = {signal.SIGINT, signal.SIGTERM}
    with worker_pool(2) as pool:
        forked, working = pool.apply(_masks)
    assert stopping <= forked and not stopping & working
    forked, working = next(in_order(_masks, 1))
    assert stopping <= forked and not stopping & working
    assert not stopping & set(signal.pthread_sigmask(signal.SIG_BLOCK, []))  # here: as before
