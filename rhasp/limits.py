"""How far a search may go, and what stopped it: every search rhasp runs is bounded (a
:class:`Budget`), by default by the memory the machine has, and a search that reaches its bound
says what ran out (a :class:`Limit`, carried by the error :class:`rhasp.errors.SearchLimit`,
exit code 4) rather than eating the machine or answering "no solution".

Deadlines, everywhere, are ``time.perf_counter()`` values: a budget's ``since``, a search's
start, a run's end, a worker's. On Linux it is ``CLOCK_MONOTONIC``, system-wide, so a deadline
set in one process holds in the worker processes it forks (as Python documents it, on every
platform since 3.10), and no change of the wall clock (NTP, a user) moves it; ``time.time()``
is for what a person reads (a seed from the clock, a date), never for a deadline.

One :class:`Budget` bounds every engine: the core's searches (BFS, A*, the cluster's) count
states, the ASP engine counts ground atoms and horizons, and any may be given seconds. What a
state and an atom cost at their peak is measured by ``bench/state_memory.py``; the defaults
let one search take half of the memory (the machine's, or its container's when that is less).
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from rhasp.errors import SearchLimit, TimeLimit
from rhasp.progress import Progress

if TYPE_CHECKING:
    from rhasp.search import Handle

#: What one state costs a search at its peak, uncompiled or compiled, as
#: ``bench/state_memory.py`` measures it (bench/README.md, "Limits"), rounded up for larger
#: keys and the tables' growth.
BYTES_PER_STATE = 200
#: What one state of the cluster costs ``rhasp analyze``, which keeps every state's moves as
#: Python lists of indices, its distances and the game graph (measured the same way), rounded up.
ANALYSIS_BYTES_PER_STATE = 2_500
#: What one ground atom costs clingo at its peak, with the solver's state and the memo:
#: 1,291 bytes (bench/state_memory.py), rounded up.
BYTES_PER_ATOM = 2_000
#: The share of the memory one search may take by default.
MEMORY_SHARE = 0.5
#: How often a running search's progress is shown (seconds).
PROGRESS_EVERY = 0.25
#: The steps an ASP search tries before it says "no plan up to horizon N".
DEFAULT_MAX_HORIZON = 500


def wait_until_done(
    wait: Callable[[float], bool], deadline: float, tick: Callable[[float], None] | None = None
) -> bool:
    """Wait for work running elsewhere (a search thread, a clingo solve) in slices of
    :data:`PROGRESS_EVERY` seconds: ``wait(seconds)`` waits at most that long and says whether
    the work is done; ``tick(now)`` shows progress between slices. False when ``deadline`` (a
    ``time.perf_counter()`` value, ``math.inf`` for none) comes first: the caller stops it."""
    while True:
        now = time.perf_counter()
        if now >= deadline:
            return False
        if tick is not None:
            tick(now)
        if wait(min(PROGRESS_EVERY, deadline - now)):
            return True


def machine_memory() -> int:
    """Bytes of memory this process may use: the machine's, or its container's if less."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not POSIX
        memory = 8 << 30
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
    except OSError:
        limit = "max"
    return min(memory, int(limit)) if limit.isdigit() else memory


def address_space_left() -> int | None:
    """Bytes this process may still map before its address-space limit (``ulimit -v``,
    RLIMIT_AS): the limit less the process's VmSize (``/proc/self/status``). None when there
    is no such limit, or it cannot be read (not Linux). Past the limit, Python raises
    MemoryError, but code in C++ may abort the process (clingo's new threads do): a search
    that starts such code checks its room first."""
    try:
        import resource  # POSIX only
    except ImportError:  # pragma: no cover - Windows
        return None
    limit, _ = resource.getrlimit(resource.RLIMIT_AS)
    if limit == resource.RLIM_INFINITY:
        return None
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            sizes = [line.split()[1] for line in status if line.startswith("VmSize:")]
    except OSError:
        return None
    if not sizes or not sizes[0].isdigit():
        return None
    return limit - int(sizes[0]) * 1024


def peak_memory() -> int:
    """The most memory, in bytes, that this process or any process it started and waited for
    (a worker) held at once: the larger of the two peak resident set sizes the kernel keeps
    (``getrusage``'s ``ru_maxrss`` of the process, and of its children: the largest of them).
    0 where the platform keeps neither (Windows)."""
    try:
        import resource  # POSIX only
    except ImportError:  # pragma: no cover - Windows
        return 0
    largest = max(
        resource.getrusage(who).ru_maxrss
        for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return largest if sys.platform == "darwin" else largest * 1024  # bytes there, else KiB


def default_max_states(processes: int = 1, bytes_each: int = BYTES_PER_STATE) -> int:
    """What half the memory holds at ``bytes_each`` a state, shared by ``processes``
    searching at once. The states a search may reach unless told otherwise are this, at most
    the store's ``MOST_STATES`` (:func:`rhasp.arguments.max_states_for`: this module sits
    below the search and cannot name it; a search stops at ``MOST_STATES`` whatever its
    budget)."""
    return max(1_000, int(machine_memory() * MEMORY_SHARE) // processes // bytes_each)


def max_atoms_for(max_atoms: int | None, processes: int = 1) -> int:
    """``max_atoms`` when given, else what the memory holds, shared by ``processes`` searching
    at once, at :data:`BYTES_PER_ATOM` an atom."""
    return default_max_atoms(processes) if max_atoms is None else max_atoms


def default_max_atoms(processes: int = 1) -> int:
    """The ground atoms one ASP search may reach unless told otherwise, reckoned the same way
    at :data:`BYTES_PER_ATOM` an atom."""
    return max(10_000, int(machine_memory() * MEMORY_SHARE) // processes // BYTES_PER_ATOM)


#: What a search ran out of: the states, ground atoms or ASP horizon its budget allows, the
#: memory (the machine's, or the process's address space, ``ulimit -v``), its seconds, the
#: share of the states a confirming search is given (``rhasp.solving``), which no option
#: raises, or the boards a generator may score.
RanOut = Literal["states", "atoms", "horizon", "memory", "address space", "time", "share", "boards"]


@dataclass(frozen=True)
class Limit:
    """What stopped a search short, in no surface's words: ``text``, one line ("state limit
    reached after 1,000 states at depth 7"); what it ``ran_out`` of, and the ``amount`` the
    budget allowed of it (states, atoms, seconds; None where no budget set it, as memory);
    the states ``reached`` by then, when counted. Each surface words its own advice from
    ``ran_out``: the command line names the option to raise, the page what the position
    needs. ``also``: a second search's limit, when both searches of a solve stopped.
    ``at_least``: what the search had proven by then, that every plan takes at least this
    many moves (or slides, by the objective); None where it proved nothing of the kind."""

    text: str  # one line: what stopped, and how far it got
    ran_out: RanOut | None = None  # states, atoms, horizon, memory, address space, time, ...
    amount: float | None = None  # what the budget allowed of it; None where none was set
    reached: int | None = None  # the states reached by then, when counted
    also: tuple[str, Limit] | None = None  # (the other engine, its limit)
    at_least: int | None = None  # every plan takes at least this many, as proven by then
    where: str | None = None  # where the line says it stopped ("at depth 7"), when it says

    def __str__(self) -> str:
        if self.also is None:
            return self.text
        engine, limit = self.also
        return f"{self.text}; {engine}: {limit}"

    def proven_at_least(self) -> int | None:
        """The most that this search or the other proved every plan takes (``at_least``);
        None when neither proved any."""
        other = None if self.also is None else self.also[1].proven_at_least()
        return max((n for n in (self.at_least, other) if n is not None), default=None)

    def kinds(self) -> list[RanOut]:
        """What ran out, this search's first, then the other's (each once)."""
        kinds = [] if self.ran_out is None else [self.ran_out]
        more = [] if self.also is None else self.also[1].kinds()
        return kinds + [kind for kind in more if kind not in kinds]


#: What a search that ran out of memory before its budget says (exit code 4, as a limit).
OUT_OF_MEMORY = Limit("out of memory before the search ended", "memory")


def state_limit(
    states: int, reached: str, amount: int | None = None, at_least: int | None = None
) -> SearchLimit:
    """The limit of a search that found ``states`` states, ``reached`` saying where it
    stopped (``at depth 7``), past a budget of ``amount`` states (``states`` when not said),
    having proven that every plan takes ``at_least`` moves or slides (None: not known)."""
    text = f"state limit reached after {states:,} states {reached}"
    amount = states if amount is None else amount
    return SearchLimit(Limit(text, "states", amount, states, at_least=at_least, where=reached))


def time_limit(seconds: float, states: int, reached: str, at_least: int | None = None) -> TimeLimit:
    """The limit of a search stopped after ``seconds`` (see :func:`state_limit`)."""
    text = f"time limit of {seconds:g} s reached after {states:,} states {reached}"
    return TimeLimit(Limit(text, "time", seconds, states, at_least=at_least, where=reached))


def after_earlier(stopped: SearchLimit, earlier: int) -> SearchLimit:
    """The state or time limit ``stopped`` of a search that went on from ``earlier`` states
    of a run before it (A* again with patterns after its probe), said as one search's: its
    states, its state budget and its line count both runs. Any other limit as it is."""
    limit = stopped.limit
    if limit is None or limit.reached is None or limit.where is None:
        return stopped
    states = limit.reached + earlier
    if limit.ran_out == "states" and limit.amount is not None:
        return state_limit(states, limit.where, int(limit.amount) + earlier, limit.at_least)
    if limit.ran_out == "time" and limit.amount is not None:
        return time_limit(limit.amount, states, limit.where, limit.at_least)
    return stopped


@dataclass(frozen=True)
class Budget:
    """How far one search may go, whichever engine runs it: ``states`` at most for the core's
    searches (beyond, a SearchLimit); for ASP, ``atoms`` in the ground program (None: what
    the machine's memory holds, :func:`default_max_atoms`, reckoned only when an ASP search
    runs) and ``horizon`` steps; ``seconds`` at most when given (a server answering many
    people bounds time too); and where to show its progress while it runs, if anywhere."""

    states: int = field(default_factory=default_max_states)
    progress: Progress | None = field(default=None, compare=False)
    seconds: float | None = None
    atoms: int | None = None
    horizon: int = DEFAULT_MAX_HORIZON
    #: The ``time.perf_counter()`` value the ``seconds`` count from: set, every search given
    #: this budget shares one clock (a solve and the BFS that confirms it, a search restarted
    #: compiled); None, each search counts from its own start.
    since: float | None = field(default=None, compare=False)
    #: Set, another thread may stop the core's searches run with this budget, or lower their
    #: state limit while they run (:class:`rhasp.search.watched.Handle`).
    handle: Handle | None = field(default=None, compare=False)

    def deadline(self, began: float) -> float:
        """When a search that began at ``began`` must stop: ``math.inf`` without seconds."""
        if self.seconds is None:
            return math.inf
        return (began if self.since is None else self.since) + self.seconds

    def counted_from(self, began: float) -> Budget:
        """This budget with its seconds counted from ``began``, unless they already have a
        start (the first search of a request sets the clock for all of them)."""
        if self.seconds is None or self.since is not None:
            return self
        return replace(self, since=began)

    @property
    def max_atoms(self) -> int:
        """``atoms``, or the machine's default when not given."""
        return default_max_atoms() if self.atoms is None else self.atoms
