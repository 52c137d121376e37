import os
import time

import pytest

from rhasp.parallel import in_order


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
