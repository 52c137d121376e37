"""New puzzles: a search over boards (simulated annealing), each board scored by the deepest
puzzle proven on it, the puzzle kept being the hardest state of its cluster where it fits.

Why over boards: a random board's hardest state is rarely deep, and on large boards the whole
cluster that the hardest state needs is out of reach. A run is a series of *chains*. Chain
``n`` starts from random board ``n`` (:func:`board_number`); each step changes the board a
little (:func:`changed_board`: a vehicle added, taken off, put elsewhere or slid; a wall moved
when the run asks for walls) and scores the new board (:func:`score`): the hardest state of
its cluster when the cluster is small enough to search whole (BFS), else the fewest moves
from the board as it stands (A*), each within a budget of states. A change to a board at
least as deep is kept, a shallower one with a probability that falls along the chain
(:func:`accepted`). A chain ends at its first puzzle of the depth asked for, which the run
keeps as the hardest state of its cluster when the cluster fits the state limit
(:func:`finished`), and minimal as the database defines it when asked; or after
:data:`CHAIN_STEPS` boards, and the next chain starts.

Every chain draws from its own seeded random source (``seed`` and the chain's number), so a
run is reproducible, whatever the number of workers. A cluster met twice is kept once:
clusters are told apart by their canonical state (:mod:`rhasp.canonical`).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from rhasp.arguments import max_states_for
from rhasp.canonical import (
    Budgets,
    Canonical,
    Hardest,
    cluster_graph,
    hardest_of,
    hardest_state,
    needless_piece,
    next_budget,
    state_name,
)
from rhasp.errors import SearchLimit, TimeLimit, counted
from rhasp.formats.line import puzzle_line
from rhasp.generation.boards import ANY_SHARE as ANY_SHARE
from rhasp.generation.boards import CROWDED as CROWDED
from rhasp.generation.boards import CROWDED_FROM as CROWDED_FROM
from rhasp.generation.boards import LABELS as LABELS
from rhasp.generation.boards import MOST_COVERED as MOST_COVERED
from rhasp.generation.boards import board_number, changed_board, crowded_number
from rhasp.generation.boards import covered as covered
from rhasp.generation.boards import covered_cells as covered_cells
from rhasp.generation.boards import default_covered as default_covered
from rhasp.generation.boards import default_covered_text as default_covered_text
from rhasp.generation.boards import most_vehicles as most_vehicles
from rhasp.generation.boards import random_board as random_board
from rhasp.limits import Budget, Limit
from rhasp.model import Puzzle
from rhasp.progress import Progress
from rhasp.search import best_first, prefer_compiled
from rhasp.static import blocked_exit


def without_needless_pieces(puzzle: Puzzle, budgets: Budgets) -> Hardest | None:
    """The puzzle's hardest state, made minimal as the puzzle database defines it
    (:func:`rhasp.canonical.needless_piece`): while a piece can go without changing the
    length, it goes, and the search moves to the new cluster's hardest state (never shorter:
    the state before lies in the new cluster at the same distance). None when no goal is
    reachable. Many searches: ``budgets`` may give each its own (:data:`Budgets`)."""
    while True:
        graph = cluster_graph(puzzle, next_budget(budgets))
        found = hardest_of(puzzle, graph)
        if found is None:
            return None
        smaller = needless_piece(found, graph, budgets)
        if smaller is None:
            return found
        puzzle = smaller


@dataclass(frozen=True)
class NewPuzzle:
    """A puzzle made, with its minimum in moves and what proved it: ``"bfs"`` when it is the
    hardest state of its whole cluster, searched (``cluster`` states), and ``"astar"`` when
    the cluster was too large to search and A* proved the minimum from this state alone
    (``cluster`` None). ``canonical`` tells puzzles apart: the cluster's canonical state, or
    this state's own when the cluster is unknown (:func:`rhasp.canonical.state_name`)."""

    puzzle: Puzzle
    moves: int
    cluster: int | None
    canonical: Canonical
    proven_by: str

    @classmethod
    def hardest(cls, found: Hardest) -> NewPuzzle:
        return cls(found.puzzle, found.moves, found.cluster, found.canonical, "bfs")

    def deck_line(self) -> str:
        """``MOVES BOARD CLUSTER``, or ``MOVES BOARD`` when the cluster was not counted."""
        return puzzle_line(self.puzzle, self.moves, self.cluster)


#: What one board gave: its deepest proven puzzle, the limit when neither search fitted its
#: budget, or None when no goal is reachable from it.
Outcome = NewPuzzle | SearchLimit | None

#: A board's cluster is searched whole, for its hardest state, when it has at most this many
#: states (a 6×6 cluster has a few thousand to a few hundred thousand; deep ones are small).
WHOLE_CLUSTER_STATES = 50_000
#: Else A* proves the fewest moves from the board as it stands, within this many states.
ASTAR_STATES = 200_000


@dataclass(frozen=True)
class Scoring:
    """The states each search of one board may reach (:func:`score`), and the wall-clock time
    (a ``time.perf_counter()`` value, the one clock of deadlines, which holds on the worker
    processes too: :mod:`rhasp.limits`) past which none goes on."""

    cluster_states: int = WHOLE_CLUSTER_STATES
    astar_states: int = ASTAR_STATES
    deadline: float = math.inf

    @classmethod
    def within(cls, states: int, deadline: float = math.inf) -> Scoring:
        """The default budgets, neither past ``states`` (the run's state limit)."""
        return cls(min(states, WHOLE_CLUSTER_STATES), min(states, ASTAR_STATES), deadline)

    def budget(self, states: int) -> Budget:
        """``states`` and the seconds left, if the run has a deadline."""
        if self.deadline == math.inf:
            return Budget(states)
        return Budget(states, seconds=max(0.001, self.deadline - time.perf_counter()))

    @property
    def past_deadline(self) -> bool:
        return time.perf_counter() > self.deadline


def score(puzzle: Puzzle, scoring: Scoring, whole: bool = True) -> Outcome:
    """The deepest puzzle proven on the board: its cluster's hardest state (BFS over the whole
    cluster) when ``whole`` and the cluster fits ``scoring.cluster_states``, else the board
    as it stands with its fewest moves by A*; the limit when that does not fit either, or
    time is up. None at once when static analysis proves the target never leaves: on a large
    board both searches would spend their whole budget to learn it."""
    if blocked_exit(puzzle) is not None:
        return None
    if whole:
        try:
            found = hardest_state(puzzle, scoring.budget(scoring.cluster_states))
        except TimeLimit as limit:
            return limit
        except SearchLimit:
            pass
        else:
            return None if found is None else NewPuzzle.hardest(found)
    return _from_the_start(puzzle, scoring.budget(scoring.astar_states))


def _from_the_start(puzzle: Puzzle, budget: Budget) -> Outcome:
    try:
        plan, _ = best_first(puzzle.board, puzzle.start, "moves", budget)
    except SearchLimit as limit:
        return limit
    if plan is None:
        return None
    return NewPuzzle(puzzle, len(plan), None, state_name(puzzle), "astar")


# --- the annealing: chains of changed boards --------------------------------------------------

#: A chain standing on a board whose cluster was past the budget searches the next boards
#: from their start only (A*), but every this many steps their whole cluster again.
WHOLE_EVERY = 10
#: Boards one chain scores before the next chain starts from a new random board.
CHAIN_STEPS = 1_000
#: The temperature at a chain's start, in moves: a change that loses one move is kept with
#: probability e^(-1/T), about 0.37 at first; the temperature falls to 0 along the chain.
#: Tried on 6×6, 4,000 boards, seeds 1 and 2: deepest 31 and 33 at T = 2; 33 and 48 at 1;
#: 30 and 35 at 0.5 (chains of 1,000; of 300 and 3,000 at T = 1: 31, 39 and 37, 31).
TEMPERATURE = 1.0
#: The temperature at a chain's start from :data:`CROWDED_FROM` (10×10) on. There a chain at
#: T = 1 wanders while the temperature is high and climbs only as it cools: on 10×10, seed
#: 2, none of 8 chains reached 25 moves (deepest 22, 20, 18; each still climbing at its
#: 1,000th board), against 2 of 4 at T = 0.3 (28 moves in 174 s, 25 in 151 s); seeds 1 and 5
#: at 0.3: 3 and 1 of 4 (bench/README.md, "10×10 generation, a colder chain").
LARGE_TEMPERATURE = 0.3


def start_temperature(size: int) -> float:
    """The temperature a chain starts at on a ``size``×``size`` board."""
    return TEMPERATURE if size < CROWDED_FROM else LARGE_TEMPERATURE


def accepted(current: int | None, candidate: int | None, temperature: float, draw: float) -> bool:
    """Whether a chain moves from a board whose deepest proven puzzle takes ``current`` moves
    to one whose takes ``candidate`` (None: nothing proven, no goal or past the budgets):
    always to one at least as deep, never to one with nothing proven unless the chain has
    nothing either, and to a shallower one with probability e^(-loss/temperature)
    (``draw`` uniform in [0, 1))."""
    if candidate is None:
        return current is None
    if current is None or candidate >= current:
        return True
    return temperature > 0 and draw < math.exp((candidate - current) / temperature)


@dataclass(frozen=True)
class Chains:
    """What every chain of one run shares: the seed, the boards (``cells``: the counts of
    cells their vehicles may cover, None for any), the depth that ends a chain, its length,
    and the searches' budgets and deadline (a chain stops past it)."""

    seed: int
    size: int = 6
    walls: int = 0
    min_moves: int = 1
    steps: int = CHAIN_STEPS
    scoring: Scoring = field(default_factory=Scoring)
    cells: range | None = None

    def chain(self, number: int) -> Iterator[Outcome]:
        """Chain ``number``, board after board: it starts from random board ``number``
        (:func:`board_number`); each step changes the board the chain stands on
        (:func:`changed_board`) and moves there when :func:`accepted`, a board scored with
        its cluster standing as its hardest state. While it stands on a board whose cluster
        was too large, the next boards' clusters are tried only every :data:`WHOLE_EVERY`
        steps. It ends at its first puzzle of at least
        ``min_moves``, after ``steps`` boards, or past the deadline. A crowded run's boards
        (``cells``) all cover a count of cells in it: a chain whose first board jams short of
        it (:func:`~rhasp.generation.boards.crowded_board`) is that one board, with no goal."""
        rng = random.Random(f"rhasp-anneal-{self.seed}-{number}")
        if self.cells is None:
            board = board_number(self.seed, number, self.size, self.walls)
        else:
            board = crowded_number(self.seed, number, self.size, self.walls, self.cells)
            if board is None:
                yield None
                return
        found = score(board, self.scoring)
        yield found
        depth, standing = _depth(found), _standing(found, board)
        whole = _whole(found)
        for step in range(1, self.steps):
            if self.deep_enough(found) or self.scoring.past_deadline:
                return
            candidate = changed_board(standing, rng, self.cells)
            found = score(candidate, self.scoring, whole or step % WHOLE_EVERY == 0)
            yield found
            temperature = start_temperature(self.size) * (1 - step / self.steps)
            if accepted(depth, _depth(found), temperature, rng.random()):
                depth, standing = _depth(found), _standing(found, candidate)
                whole = _whole(found)

    def deep_enough(self, found: Outcome) -> bool:
        return isinstance(found, NewPuzzle) and found.moves >= self.min_moves

    def by_chain(self, jobs: int) -> Iterator[Iterable[Outcome]]:
        """Every chain's boards, chain after chain, for ever: on ``jobs`` worker processes
        each works out whole chains, yielded in order, so the boards do not depend on
        ``jobs`` (past the deadline, where a chain stops, they may). A run checks its seconds
        between chains: every board of a chain was scored before the deadline, even one a
        worker hands back after it. A worker's chain stops at the deadline by itself; past
        :data:`HAND_BACK` more seconds the chains end without it (the run's seconds are a
        promise)."""
        if jobs <= 1:
            return (self.chain(number) for number in itertools.count())
        until = self.scoring.deadline + HAND_BACK
        from rhasp.parallel import fan_out  # loaded with the first workers

        return fan_out(self.whole_chain, itertools.count(), jobs, ordered=True, until=until)

    def whole_chain(self, number: int) -> list[Outcome]:
        return list(self.chain(number))


#: Seconds a run waits past its deadline for a worker's chain, which stops at the deadline
#: too: time to hand its boards back, and, with the workers' ending and the process's (numba's
#: teardown), within the second a run may overrun by (figures: bench/README.md, "Figures
#: behind the code").
HAND_BACK = 0.25
#: Seconds of a run's bound kept for what follows its last search (a tenth of the bound at
#: most): stopping the search, freeing what it found (uncompiled, a million states), handing
#: back the workers' chains and the process's own end, so that the run ends within its seconds
#: plus the second it may overrun by, on the first run too (bench/README.md, "A fresh
#: install's first runs").
WRAP_UP = 0.5


def _whole(found: Outcome) -> bool:
    """Whether the boards next to ``found`` are worth a search of their whole cluster: not
    when its own cluster was past the budget (a change seldom shrinks it enough)."""
    return not isinstance(found, NewPuzzle) or found.proven_by == "bfs"


def _depth(found: Outcome) -> int | None:
    return found.moves if isinstance(found, NewPuzzle) else None


def _standing(found: Outcome, board: Puzzle) -> Puzzle:
    """The board a chain stands on after moving to ``board``: its hardest state when found."""
    return found.puzzle if isinstance(found, NewPuzzle) else board


def finished(found: NewPuzzle, minimal: bool, budgets: Budgets) -> NewPuzzle | None:
    """The puzzle a chain ended on as the run keeps it: the hardest state of its cluster, made
    minimal when asked (:func:`without_needless_pieces`), when the cluster fits the budget
    ``budgets`` gives each search (the seconds left of the run's, see
    :data:`rhasp.canonical.Budgets`); else as A* proved it, or None when minimal was asked:
    the definition needs the cluster."""
    if found.proven_by == "bfs" and not minimal:
        return found
    try:
        if minimal:
            searched = without_needless_pieces(found.puzzle, budgets)
        else:
            searched = hardest_state(found.puzzle, next_budget(budgets))
    except SearchLimit:
        return None if minimal else found
    return found if searched is None else NewPuzzle.hardest(searched)


#: The puzzle a chain ends on is moved to the hardest state of its cluster when the cluster
#: has at most this many states (and the run's state limit allows): a few seconds on the
#: compiled core, where a larger cluster would take the run's time to no end.
FINAL_CLUSTER_STATES = 2_000_000
#: Boards a run scores for each puzzle asked for before it gives up (exit code 4): enough that
#: the seconds bound comes first but for small boards, whose scores are cheapest (figures:
#: bench/README.md, "Figures behind the code").
BOARDS_PER_PUZZLE = 100_000
#: Seconds a run may take for each puzzle asked for before it gives up.
SECONDS_PER_PUZZLE = 600.0
#: The fewest moves a puzzle is kept at when the caller names none, by board side: deep
#: enough to be worth playing, shallow enough that a run finds one in its first seconds on
#: one core, several to the minute (the depths runs reach: bench/README.md, "Generate's
#: defaults"). Larger boards than the table: as its largest.
WORTH_PLAYING = {4: 5, 5: 10, 6: 15, 7: 15, 8: 6, 9: 5, 10: 5}


def worth_playing(size: int) -> int:
    """The default fewest moves of a generated ``size``×``size`` puzzle."""
    return WORTH_PLAYING.get(size, WORTH_PLAYING[max(WORTH_PLAYING)])


def worth_playing_text() -> str:
    """The defaults in words, for the command line's help and the docs."""
    sizes = ", ".join(f"{size}×{size} {moves}" for size, moves in WORTH_PLAYING.items())
    return f"by the board's side: {sizes}, larger as {max(WORTH_PLAYING)}×{max(WORTH_PLAYING)}"


@dataclass
class Tried:
    """How a run of :func:`distinct_puzzles` goes: the boards it scored, how many of them
    were past both searches' budgets, the deepest puzzle proven on any (kept or not), the
    puzzles kept and those too large to make minimal, the boards whose search the run's
    seconds stopped, which bound ended it (``"boards"`` or ``"seconds"``), if one did, and
    when it must end (``time.perf_counter()``)."""

    boards: int = 0
    skipped: int = 0
    deepest_found: NewPuzzle | None = None
    kept: int = 0
    not_minimal: int = 0
    timed_out: int = 0
    proven: dict[str, int] = field(default_factory=dict)  # boards proven by "bfs", "astar"
    stopped: str | None = None
    began: float = field(default_factory=time.perf_counter)
    ends: float = math.inf

    @property
    def deepest(self) -> int | None:
        return None if self.deepest_found is None else self.deepest_found.moves

    def count(self, found: Outcome) -> None:
        self.boards += 1
        if isinstance(found, NewPuzzle):
            self.proven[found.proven_by] = self.proven.get(found.proven_by, 0) + 1
        if isinstance(found, TimeLimit):  # the run's seconds are up: no fault of the board
            self.timed_out += 1
        elif isinstance(found, SearchLimit):
            self.skipped += 1
        elif found is not None and found.moves > (self.deepest or -1):
            self.deepest_found = found

    def seconds_left(self) -> float:
        return max(0.0, self.ends - time.perf_counter())

    def shortfall(self, count: int, min_moves: int, seconds: float) -> SearchLimit:
        """Why the run ended with ``kept`` of the ``count`` puzzles asked for, in one line:
        the bound that ended it, and what was found within it (the deepest board), or that
        every board was skipped at the state limit, since then no depth was seen at all."""
        boards = counted(self.boards, "board")
        if self.boards and self.skipped == self.boards:
            line = (
                f"all {boards} skipped at the state limit: each one's cluster has more states "
                "than the limit allows"
            )
            return SearchLimit(Limit(line, "states"), "generate")
        wanted = f"at least {counted(min_moves, 'move')}"
        kept = self.kept
        made = f"no puzzle of {wanted}" if kept == 0 else f"{kept} of {count} puzzles of {wanted}"
        within = boards if self.stopped == "boards" else f"{seconds:g} s ({boards})"
        line = f"{made} in {within}"
        if self.deepest is None and (self.timed_out or not self.boards):
            line += "; the time was up before any board was proven"
        elif self.deepest is None:
            line += "; no board had a reachable goal"
        else:
            line += f"; the deepest found took {counted(self.deepest, 'move')}"
        if self.skipped:
            line += f" ({counted(self.skipped, 'board')} skipped at the state limit)"
        if self.not_minimal:
            line += f" ({counted(self.not_minimal, 'puzzle')} too large to make minimal)"
        if self.stopped == "boards":
            return SearchLimit(Limit(line, "boards", self.boards), "generate")
        return SearchLimit(Limit(line, "time", seconds), "generate")


def distinct_puzzles(
    seed: int,
    *,
    count: int | None = 1,
    min_moves: int = 1,
    tried: Tried | None = None,
    max_boards: int | None = None,
    seconds: float | None = None,
    size: int = 6,
    walls: int = 0,
    minimal: bool = False,
    jobs: int = 1,
    max_states: int | None = None,
    progress: Progress | None = None,
    covered: range | None = None,
) -> Iterator[NewPuzzle]:
    """The puzzles of at least ``min_moves`` moves, each of a cluster not met before, one by
    one, as the chains of :class:`Chains` find them: ``count`` of them, unless ``max_boards``
    boards are scored or ``seconds`` pass first (by default :data:`BOARDS_PER_PUZZLE` and
    :data:`SECONDS_PER_PUZZLE` for each puzzle asked for); then a SearchLimit saying what
    was found. With ``count`` None, as many as the bounds allow (at least one of them given),
    and no SearchLimit. ``max_states`` bounds every search (default: a share of the memory
    per job); ``tried`` counts the boards, and ``progress`` is shown it after each one.
    ``covered``: the counts of cells every board's vehicles cover (:func:`covered_cells`;
    None: any), so every puzzle's too (but ``minimal``'s, whose pieces go: the request
    refuses both). The one loop behind ``rhasp generate`` and ``rhasp.generate``."""
    tried = Tried() if tried is None else tried
    if count is not None:
        max_boards = min(
            BOARDS_PER_PUZZLE * count if max_boards is None else max_boards, sys.maxsize
        )
        seconds = SECONDS_PER_PUZZLE * count if seconds is None else seconds
    if max_boards is None and seconds is None:
        raise ValueError("distinct_puzzles needs a count or a bound: it would never end")
    states = max_states_for(max_states, jobs)
    searching = None if seconds is None else seconds - min(WRAP_UP, seconds / 10)
    if searching is not None:
        tried.ends = tried.began + searching
    deadline = time.perf_counter() + (math.inf if searching is None else searching)
    scoring = Scoring.within(states, deadline)
    chains = Chains(seed, size, walls, min_moves, scoring=scoring, cells=covered)
    prefer_compiled()  # endless work: load the compiled core before any worker starts
    seen: set[Canonical] = set()
    final = functools.partial(chains.scoring.budget, min(states, FINAL_CLUSTER_STATES))
    for outcomes in chains.by_chain(jobs):
        for found in outcomes:
            tried.count(found)
            if progress is not None:
                progress.advance(tried)
            made = _kept(found, chains, minimal, final, tried)
            if made is not None and made.canonical not in seen:
                seen.add(made.canonical)
                tried.kept += 1
                yield made
                if tried.kept == count:
                    return
            if max_boards is not None and tried.boards >= max_boards:
                tried.stopped = "boards"
                break
        if tried.stopped is None and seconds is not None and tried.seconds_left() <= 0:
            tried.stopped = "seconds"
        if tried.stopped is not None:
            break
    else:  # the workers' chains were past the deadline, and the run waited no longer
        tried.stopped = "seconds"
    if count is not None:
        raise tried.shortfall(count, min_moves, seconds)


def _kept(
    found: Outcome, chains: Chains, minimal: bool, budgets: Budgets, tried: Tried
) -> NewPuzzle | None:
    """The puzzle the run keeps from a board: :func:`finished` on one deep enough."""
    if not isinstance(found, NewPuzzle) or not chains.deep_enough(found):
        return None
    made = finished(found, minimal, budgets)
    tried.not_minimal += made is None
    return made
