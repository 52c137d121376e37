import itertools
import operator
import os
import signal
import time
from collections.abc import Callable, Iterator

import pytest

import rhasp
from rhasp.parallel import AHEAD, IN_FLIGHT, Workers, fan_out
from rhasp.progress import Silent
from tests.boards import PUZZLES

#: The original cards as deck lines, for a deck on a cluster.
DECK = (PUZZLES / "original40.txt").read_text().splitlines()


def _busy(number: int) -> tuple[int, int]:
    """A result at once for the first numbers, then work that never ends in time."""
    if number >= 6:
        time.sleep(60)
    return number, os.getpid()


def _uneven(number: int) -> tuple[int, int]:
    """Work of very different lengths: every fifth number takes a while."""
    time.sleep(0.2 if number % 5 == 0 else 0.001 * (number % 3))
    return number, os.getpid()


def _first_for_ever(number: int) -> tuple[int, int]:
    """The first number never ends in time; the others at once."""
    if number == 0:
        time.sleep(60)
    return number, os.getpid()


def _fails(number: int) -> int:
    if number == 3:
        raise ValueError(f"no {number}")
    return number


def _gone(pids: set[int]) -> None:
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@pytest.mark.parametrize("batch", [1, 3])
def test_results_come_in_order_from_every_worker_however_uneven_the_work(batch):
    results = list(fan_out(_uneven, range(23), 2, ordered=True, batch=batch))
    assert [number for number, _ in results] == list(range(23))
    assert len({pid for _, pid in results}) == 2


def test_results_as_they_finish_and_each_worker_takes_what_comes_next():
    # Not number n to worker n % 2: the worker stuck on 0 holds only what it already had
    # in hand, and the other does all the rest, which comes out before 0.
    results = fan_out(_first_for_ever, range(40), 2, ordered=False)
    first = [next(results) for _ in range(40 - IN_FLIGHT)]
    results.close()
    in_hand = range(0, 2 * IN_FLIGHT, 2)  # handed out in turn at the start
    assert sorted(number for number, _ in first) == [n for n in range(40) if n not in in_hand]
    assert len({pid for _, pid in first}) == 1


def test_one_process_works_here_in_order():
    assert list(fan_out(_fails, range(3), 1, ordered=True)) == [0, 1, 2]
    with pytest.raises(ValueError, match="no 3"):
        list(fan_out(_fails, range(5), 1, ordered=False))


def test_closing_with_busy_workers_kills_them_at_once():
    # Each worker is writing a result or sleeping when the iterator closes: none may hang
    # the close (a Pool's terminate can, when a worker dies holding its result lock).
    for _ in range(5):
        results = fan_out(_busy, itertools.count(), 2, ordered=True)
        pids = {pid for _, pid in (next(results) for _ in range(6))}
        began = time.monotonic()
        results.close()
        assert time.monotonic() - began < 5
        _gone(pids)


@pytest.mark.parametrize("ordered", [True, False])
def test_a_workers_exception_is_raised_in_the_caller(ordered):
    results = fan_out(_fails, range(10), 2, ordered=ordered)
    if ordered:  # what came before it first
        assert [next(results) for _ in range(3)] == [0, 1, 2]
    with pytest.raises(ValueError, match="no 3"):
        list(results)


def test_past_its_time_it_waits_for_no_worker():
    # generate's seconds are a promise: a worker busy where nothing stops it (numba
    # compiling) once held the run, the main process waiting for its result.
    began = time.perf_counter()
    results = list(fan_out(_busy, itertools.count(), 2, ordered=True, until=began + 2))
    assert time.perf_counter() - began < 2 + 1.5
    assert [number for number, _ in results] == list(range(6))
    _gone({pid for _, pid in results})


def test_the_items_are_read_only_as_workers_have_room():
    # A million-line deck is never all queued: when the first results come back, each
    # worker holds a few batches and the one that answered one more.
    numbers = Taken(lambda number: number if number < 3 else number + 6)  # the first at once
    results = fan_out(_busy, iter(numbers), 2, ordered=False, batch=3)
    assert next(results)[0] == 0
    # In hand, and the next for each that answered.
    assert numbers.taken <= 2 * (IN_FLIGHT + 1) * 3
    results.close()


def test_in_order_it_runs_only_so_far_ahead_of_a_slow_item():
    # What waits for the oldest item is kept in memory: it stays bounded.
    numbers = Taken()
    results = list(
        fan_out(_first_for_ever, iter(numbers), 2, ordered=True, until=time.perf_counter() + 2)
    )
    assert results == []
    assert 2 * IN_FLIGHT < numbers.taken <= AHEAD * 2


class Taken:
    """The numbers 0, 1, 2, ... without end (each shown by ``shown``), counting how many the
    workers' feeder has ``taken``."""

    def __init__(self, shown: Callable[[int], int] = lambda number: number) -> None:
        self.shown, self.taken = shown, 0

    def __iter__(self) -> Iterator[int]:
        for number in itertools.count():
            self.taken += 1
            yield self.shown(number)


def test_workers_serve_one_map_after_another_and_one_ended_early_kills_them():
    with Workers(_fails, 2) as workers:
        pids = {process.pid for process in (worker.process for worker in workers.workers)}
        assert sorted(workers.map(range(3), ordered=False)) == [0, 1, 2]
        assert list(workers.map(range(3), ordered=True, batch=2)) == [0, 1, 2]
        with pytest.raises(ValueError, match="no 3"):
            list(workers.map(range(10), ordered=True))
        _gone(pids)
        with pytest.raises(ValueError, match="stopped"):
            next(workers.map(range(3), ordered=True))


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
    for forked, working in fan_out(_masks, range(2), 2, ordered=False):
        assert stopping <= forked and not stopping & working
    assert not stopping & set(signal.pthread_sigmask(signal.SIG_BLOCK, []))  # here: as before


def _signals(_: int = 0) -> tuple[object, object]:
    return signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)


def test_workers_leave_ctrl_c_to_the_main_process_and_end_on_sigterm():
    assert next(fan_out(_signals, range(1), 2, ordered=True)) == (signal.SIG_IGN, signal.SIG_DFL)


def test_the_same_results_on_a_dask_cluster(dask_cluster):
    def on_dask(ordered):
        return fan_out(operator.neg, range(20), 2, ordered=ordered, batch=3, scheduler=dask_cluster)

    assert list(on_dask(ordered=True)) == [-number for number in range(20)]
    assert sorted(on_dask(ordered=False)) == [-number for number in range(19, -1, -1)]


def test_an_oserror_of_the_work_on_a_dask_cluster_is_raised_as_it_is(dask_cluster):
    # The cluster's own faults are ClusterLost (below); a task's exception is not one of them,
    # even an OSError, as a lost connection's is.
    for ordered in (True, False):
        found = fan_out(os.stat, ["/", "/nonexistent"], 2, ordered=ordered, scheduler=dask_cluster)
        with pytest.raises(FileNotFoundError):
            list(found)


def test_rhasp_enumerate_on_a_scheduler_lost_raises_cluster_lost_naming_it(
    dask_cluster_to_lose,
):
    # Issue 42 item 8: Dask's FutureCancelledError reached the caller.
    address, lose = dask_cluster_to_lose
    lines = rhasp.enumerate(5, scheduler=address)
    assert len([next(lines) for _ in range(10)]) == 10
    lose()
    with pytest.raises(rhasp.ClusterLost) as lost:
        list(lines)
    assert lost.value.where == address
    assert str(lost.value).startswith(f"{address}: ") and "\n" not in str(lost.value)
    assert "shards yielded" in str(lost.value)


@pytest.mark.parametrize("kept", [True, False], ids=["out", "no out"])
def test_rhasp_deck_on_a_scheduler_lost_says_what_it_kept(tmp_path, dask_cluster_to_lose, kept):
    address, lose = dask_cluster_to_lose
    deck = tmp_path / "deck.txt"
    deck.write_text("".join(f"{line}\n" for line in DECK * 10))
    out = tmp_path / "out.jsonl" if kept else None

    class Losing(Silent):
        """Loses the cluster once ten records are done."""

        def advance(self, tally):
            if tally.puzzles == 10:
                lose()

    with pytest.raises(rhasp.ClusterLost) as lost:
        rhasp.deck(deck, cluster=True, scheduler=address, out=out, progress=Losing())
    said, done = str(lost.value), lost.value.done
    assert said.startswith(f"{address}: ") and "\n" not in said
    assert 10 <= done.puzzles < 10 * len(DECK)
    assert f"{done.puzzles:,} of {10 * len(DECK):,} puzzles" in said
    if kept:
        assert f"kept in {out}" in said and "resume=True" in said
        assert len(out.read_text().splitlines()) == done.puzzles
        resumed = rhasp.deck(deck, cluster=True, jobs=1, out=out, resume=True)
        assert resumed.puzzles == 10 * len(DECK) and resumed.kept == done.puzzles
    else:
        assert len(done.records) == done.puzzles
