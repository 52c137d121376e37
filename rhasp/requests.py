"""One request per command, and the policies the command line, the web server and the deck
share: each lives here once, so every way in gives the same answer.

A request is a frozen dataclass whose fields are checked when it is built
(:mod:`rhasp.arguments`), so a bad one never reaches a search. It owns its defaults and its
budget: a field left None is what the machine's memory allows, shared by the processes that
search at once (:func:`rhasp.arguments.max_states_for`). The policies:

- solving (:func:`run_solve`): the solve policy of :mod:`rhasp.solving`, the engine named
  or the one the board's size calls for (:data:`SMALL_ENGINE` up to 6×6, or
  :data:`DECK_SMALL_ENGINE` for a deck's puzzles and the page's positions);
- every count's bounds (:data:`rhasp.arguments.BOUNDS`), and ``resume`` only with ``out``;
- analysing (:class:`StaticVerdict`, given by :func:`rhasp.api.run_analyze`): when the cluster
  is too large to analyse but static analysis proves the puzzle unsolvable, that verdict is
  the answer, with the limit beside it, on the command line, in Python and on the web page
  alike;
- enumerating: the ranges of walls and pieces, as counts, pairs or ``LOW..HIGH`` text, are
  read by one function (:func:`rhasp.arguments.count_or_range`) and checked by the
  enumeration's own options.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rhasp import arguments, solving
from rhasp.arguments import max_states_for
from rhasp.engines import ENGINES, AspOptions, Engine
from rhasp.enumeration import MAX_SIZE, MIN_SIZE, Options
from rhasp.errors import InputError, SearchLimit, counted
from rhasp.generation import (
    ANY_SHARE,
    MOST_COVERED,
    covered_cells,
    default_covered,
    worth_playing,
)
from rhasp.limits import (
    ANALYSIS_BYTES_PER_STATE,
    BYTES_PER_STATE,
    Budget,
    max_atoms_for,
)
from rhasp.model import MAX_SIDE, Puzzle, ShownAsText
from rhasp.progress import Progress
from rhasp.solution import OBJECTIVES, Objective, Solution


def processes_for(jobs: int | None) -> int:
    """``jobs`` worker processes when given, else one per core."""
    return (os.cpu_count() or 1) if jobs is None else jobs


def search_budget(
    max_states: int | None = None,
    budget: Budget | None = None,
    *,
    bytes_each: int = BYTES_PER_STATE,
    seconds: float | None = None,
    progress: Progress | None = None,
) -> Budget:
    """``budget``, else one of ``max_states`` states (by default what the memory holds at
    ``bytes_each`` a state), ``seconds`` and ``progress``. Both are checked: a bad
    ``max_states`` is refused even beside a budget, so a typo never passes silently. Its
    seconds count from now: every search of the call that asks for it shares them, so that the
    call (a check's two searches, an analysis and its graphs) ends within them."""
    states = arguments.optional(arguments.bounded, max_states, "max_states")
    now = time.perf_counter()
    if budget is not None:
        return arguments.budget(budget).counted_from(now)
    states = max_states_for(states, bytes_each=bytes_each)
    return Budget(states, progress=progress, seconds=seconds).counted_from(now)


def _analysis_budget() -> Budget:
    """Analysis keeps each state's moves and the all-moves graph: fewer states fit."""
    return search_budget(bytes_each=ANALYSIS_BYTES_PER_STATE)


#: The solve request's fields that bound the ASP search alone (not the BFS that confirms it),
#: and the field of the ASP engine's budget each one sets.
ASP_BOUNDS = {"max_horizon": "horizon", "max_atoms": "atoms"}
#: The solve request's bounds besides its budget: ``timeout``, the seconds of the whole
#: request (every search in it, the confirming BFS included), and the ASP search's own.
SOLVE_BOUNDS = ("timeout", *ASP_BOUNDS)


def _checked(request: Any, name: str, check: Callable[..., Any], *bounds: Any) -> Any:
    """The request's field ``name`` passed by ``check`` (None, the default, is left) and kept
    as ``check`` gives it back: a numpy integer becomes Python's int, which every search
    below takes."""
    value = arguments.optional(check, getattr(request, name), name, *bounds)
    object.__setattr__(request, name, value)
    return value


#: The engine of a board up to 6×6 when none is named (a larger board gets A*,
#: :func:`rhasp.solving.engine_for`): for one puzzle (``rhasp solve``, :func:`rhasp.solve`),
#: ASP, whose horizons prove the plan and a BFS confirms; ...
SMALL_ENGINE = "asp"
#: ... for each puzzle of a deck and each position the page solves, BFS, which proves the
#: plan alone, in one search.
DECK_SMALL_ENGINE = "bfs"


@dataclass(frozen=True)
class SolveRequest:
    """One puzzle to solve: the objective, the engine (None: by the board's size,
    :func:`~rhasp.solving.engine_for`, with :data:`SMALL_ENGINE` up to 6×6, or with
    :data:`DECK_SMALL_ENGINE` ``in_deck``; ``chosen`` then says why), whether a
    BFS confirms the answer, the budget of the BFS and A* searches, how the ASP search runs,
    the seconds of the whole request (``timeout``, with the budget's own seconds, the fewer:
    every search in it counts them from one clock, so that a solve and the BFS that confirms
    it end within them together), and what bounds the ASP search alone: steps and ground atoms
    (None: no time limit, the default horizon, what the memory holds); ``anytime``: where
    the searches stop at a limit, the best plan an anytime search finds, not proven minimal,
    with the proven lower bound (:func:`rhasp.solving.with_anytime_plan`; the answer is
    still a limit)."""

    puzzle: Puzzle
    objective: Objective = "moves"
    engine: str | None = None
    confirm: bool = True
    budget: Budget = field(default_factory=search_budget)
    asp: AspOptions = field(default_factory=AspOptions)
    timeout: float | None = None
    max_horizon: int | None = None
    max_atoms: int | None = None
    in_deck: bool = False
    anytime: bool = True
    chosen: str | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        arguments.puzzle(self.puzzle)
        arguments.choice(self.objective, OBJECTIVES, "objective")
        small = DECK_SMALL_ENGINE if arguments.flag(self.in_deck, "in_deck") else SMALL_ENGINE
        if self.engine is None:
            engine, chosen = solving.engine_for(self.puzzle, small)
            object.__setattr__(self, "engine", engine)
            object.__setattr__(self, "chosen", chosen)
        arguments.choice(self.engine, ENGINES, "engine")
        arguments.flag(self.confirm, "confirm")
        arguments.flag(self.anytime, "anytime")
        arguments.budget(self.budget)
        object.__setattr__(self, "asp", arguments.asp_options(self.asp))
        arguments.optional(arguments.seconds, self.timeout, "timeout")
        _checked(self, "max_horizon", arguments.bounded)
        _checked(self, "max_atoms", arguments.bounded)
        given = self.budget.seconds
        if self.timeout is not None and (given is None or given > self.timeout):
            object.__setattr__(self, "budget", replace(self.budget, seconds=self.timeout))

    def engine_budget(self, budget: Budget) -> Budget:
        """The budget of the request's own engine, ``budget`` (the request's, on its clock)
        with, for ASP, the ASP bounds given."""
        if self.engine != "asp":
            return budget
        given = {ASP_BOUNDS[name]: getattr(self, name) for name in ASP_BOUNDS}
        return replace(budget, **{k: v for k, v in given.items() if v is not None})


def run_solve(request: SolveRequest, solver: Engine | None = None) -> Solution:
    """The request solved by the solve policy (:func:`rhasp.solving.solve`): by ``solver``
    when the caller has an engine of its own, else by the request's, every search on one
    clock that starts here; the solution says why the engine was chosen, when the board's size
    chose it (:func:`~rhasp.solving.engine_for`)."""
    budget = request.budget.counted_from(time.perf_counter())
    engine = solver or request.engine
    assert engine is not None  # set when the request was built
    found = solving.solve(
        request.puzzle,
        request.objective,
        engine,
        request.engine_budget(budget),
        confirm=request.confirm,
        asp=request.asp,
        race=request.chosen is not None,
        anytime=request.anytime,
    )
    if not request.chosen:
        return found
    chosen = request.chosen if found.chosen is None else f"{request.chosen}; {found.chosen}"
    return replace(found, chosen=chosen)


@dataclass(frozen=True)
class AnalyzeRequest:
    """One puzzle to analyse, within a budget reckoned at what analysis keeps per state."""

    puzzle: Puzzle
    budget: Budget = field(default_factory=_analysis_budget)

    def __post_init__(self) -> None:
        arguments.puzzle(self.puzzle)
        arguments.budget(self.budget)


@dataclass(frozen=True)
class StaticVerdict(ShownAsText):
    """The answer of an analysis whose cluster was too large to explore, for a puzzle that
    static analysis proves unsolvable: the verdict is proven, the figures are not known.
    ``minimal_moves`` is None, as an analysis of an unsolvable puzzle says. Shown as text
    (``print``, a notebook), as ``rhasp analyze`` says it (:meth:`lines`)."""

    name: str
    proof: str  # why no target can leave
    stopped: SearchLimit  # the limit the cluster analysis met

    minimal_moves = None

    @property
    def verdict(self) -> str:
        """The verdict and its proof, in one line."""
        return f"{self.name} · no solution · proven by static analysis: {self.proof}"

    def lines(self) -> list[str]:
        """The verdict (:attr:`verdict`), then where the cluster analysis stopped."""
        return [self.verdict, self.stopped.what]

    def record(self) -> dict[str, Any]:
        """The JSON form: the verdict, its proof, and where the analysis stopped."""
        return {
            "name": self.name,
            "minimal_moves": None,
            "minimal_slides": None,
            "proven_by": "static analysis",
            "proof": self.proof,
            "stopped": self.stopped.what,
        }


class OnWorkers:
    """What a request whose work is spread over processes shares: ``jobs`` of them (None:
    one per core) or the Dask cluster at ``scheduler``, and each search's states, by default
    the memory shared by the processes (:attr:`states`)."""

    jobs: int | None
    max_states: int | None
    scheduler: str | None = None

    def _check_workers(self) -> None:
        jobs = arguments.bounded(processes_for(self.jobs), "jobs")
        object.__setattr__(self, "jobs", jobs)
        arguments.optional(arguments.text, self.scheduler, "scheduler")
        _checked(self, "max_states", arguments.bounded)

    @property
    def states(self) -> int:
        """The states of one search: given, or the memory shared by the workers."""
        return max_states_for(self.max_states, self.jobs)


@dataclass(frozen=True)
class EnumerateRequest(OnWorkers):
    """What to enumerate, and on what: ``walls`` and ``pieces`` are a count, a pair
    ``(LOW, HIGH)`` or text ``N`` / ``LOW..HIGH``; ``pieces`` None is every count the board
    holds; ``exit_row`` the target's row, from 1 at the top, as people count rows. The lines
    go to ``out`` (resumably, ``resume`` keeping what it holds), else to standard output.
    ``options`` is the enumeration's own, built (and checked) once here."""

    size: int = 6
    walls: int | tuple[int, int] | str = 0
    pieces: int | tuple[int, int] | str | None = None
    exit_row: int = 3
    jobs: int | None = 1  # None: one per core
    scheduler: str | None = None
    max_states: int | None = None
    out: Path | None = None
    resume: bool = False
    options: Options = field(init=False, repr=False)

    def __post_init__(self) -> None:
        size = arguments.whole(self.size, "size", MIN_SIZE, MAX_SIZE)
        walls = arguments.count_or_range(self.walls, "walls", 0)
        everything = (1, size * size)
        pieces = everything if self.pieces is None else self.pieces
        pieces = arguments.count_or_range(pieces, "pieces", 1)
        exit_row = arguments.whole(self.exit_row, "exit_row", None, None)
        if not 1 <= exit_row <= size:
            raise InputError(
                f"give a row from 1 (the top) to {size} (the board's side)", "exit_row"
            )
        object.__setattr__(self, "options", Options(size, exit_row - 1, *walls, *pieces))
        _resumed_in_out(self)
        self._check_workers()


def _resumed_in_out(request: EnumerateRequest | DeckRequest) -> None:
    """A request that writes to ``out`` and may ``resume`` there: ``out`` a path, and
    ``resume`` only with one (an InputError naming both)."""
    arguments.optional(arguments.instance, request.out, "out", Path)
    if arguments.flag(request.resume, "resume") and request.out is None:
        raise InputError("needs out, the file whose work it keeps", "resume", ("out",))


#: The board sides ``rhasp generate`` makes: a 3×3 board holds no puzzle worth the name.
GENERATE_SIDES = (4, MAX_SIDE)

#: The most moves any puzzle takes on the boards ``rhasp generate`` makes (the target in row
#: ``(side - 1) // 2``, leaving right; other vehicles 2 or 3 long), by (side, walls), where
#: it is known; a run asking for more is refused at once instead of searching for its whole
#: time (docs/commands/generate.md, "The deepest puzzles"). Sources:
#:
#: - 4×4, every wall count: every board walked, each cluster whole, by the naive search of
#:   ``tests/reference.py`` (``python bench/deepest.py``:
#:   ``bench/results/deepest-4x4-2026-11-28.txt``); without walls, 7 is also the hardest
#:   line of ``rhasp enumerate --size 4 --exit-row 1``.
#: - 5×5 without walls: 20, the hardest of the published 5×5 database, which ``rhasp
#:   enumerate --size 5`` gives too (``tests/test_enumeration.py``).
#: - 6×6 without walls: 51, the hardest of the complete 6×6 database, ``rhasp enumerate
#:   --size 6`` (bench/README.md, "The puzzle database": the published hardest puzzle,
#:   ``GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo``).
#:
#: Any other side or wall count: nothing is known, nothing is refused.
_DEEPEST_4X4 = (7, 6, 6, 6, 5, 5, 5, 3, 3, 3, 2, 2, 1, 1, 0)  # by walls, 0 to 14
DEEPEST_PUZZLE = {(4, walls): most for walls, most in enumerate(_DEEPEST_4X4)} | {
    (5, 0): 20,
    (6, 0): 51,
}


def deepest_puzzle(size: int, walls: int) -> int | None:
    """The most moves any puzzle of a ``size``×``size`` board with ``walls`` walls takes, as
    ``rhasp generate`` draws its boards; None where that is not known (:data:`DEEPEST_PUZZLE`)."""
    return DEEPEST_PUZZLE.get((size, walls))


@dataclass(frozen=True)
class GenerateRequest(OnWorkers):
    """New puzzles to make: ``count`` of at least ``min_moves`` moves (by default, as many as
    make a puzzle worth playing on that size, :func:`rhasp.generation.worth_playing`, or as
    many as any puzzle of the board takes, the fewer) on boards of ``size``
    (:data:`GENERATE_SIDES`) with ``walls`` walls, from ``seed``; bounded by ``max_boards``
    boards and ``seconds`` (by default, per puzzle asked for), no search past ``max_states``
    states (by default, the memory shared by the ``jobs`` workers). More moves than any
    puzzle of the board takes, where that is known (:func:`deepest_puzzle`), is an
    InputError naming ``min_moves``: no search could end but at its bounds. ``covered``
    makes crowded boards: the share of the cells the vehicles cover, the target's included,
    a range of percentages ``(LOW, HIGH)`` or its text ``"LOW..HIGH"``
    (:func:`rhasp.arguments.percent_range`), kept as the pair; ``"any"`` (in any case),
    any share (kept as None); None, the default by the board's side
    (:func:`rhasp.generation.default_covered`: crowded from 10×10 on), unless ``minimal``. A
    range no board of the size can cover (no count of cells in it, or past
    :data:`rhasp.generation.MOST_COVERED`) is an InputError naming ``covered``, and so is a
    range given with ``minimal``, which takes vehicles off."""

    seed: int
    min_moves: int | None = None
    count: int = 1
    size: int = 6
    walls: int = 0
    minimal: bool = False
    max_boards: int | None = None
    seconds: float | None = None
    jobs: int | None = 1  # None: one per core
    max_states: int | None = None
    covered: tuple[float, float] | str | None = None

    def __post_init__(self) -> None:
        _checked(self, "seed", arguments.whole, None, None)
        _checked(self, "min_moves", arguments.whole)
        _checked(self, "count", arguments.bounded)
        size = _checked(self, "size", arguments.whole, *GENERATE_SIDES)
        if _checked(self, "walls", arguments.whole) > size * size - 2:
            raise InputError(f"{self.walls} walls leave no room on a {size}×{size} board", "walls")
        most = deepest_puzzle(size, self.walls)
        if self.min_moves is None:
            default = worth_playing(size)
            object.__setattr__(self, "min_moves", default if most is None else min(default, most))
        elif most is not None and self.min_moves > most:
            walls = f"with {counted(self.walls, 'wall')}" if self.walls else "without walls"
            raise InputError(
                f"{counted(self.min_moves, 'move')} asked for: no {size}×{size} puzzle {walls} "
                f"takes more than "
                f"{counted(most, 'move')} (the hardest there is); ask for {most} or fewer",
                "min_moves",
            )
        arguments.flag(self.minimal, "minimal")
        if self.covered is None and not self.minimal:
            object.__setattr__(self, "covered", default_covered(size, self.walls))
        elif isinstance(self.covered, str) and self.covered.strip().lower() == ANY_SHARE:
            object.__setattr__(self, "covered", None)
        self._check_covered()
        # Boards past 2**63 are no bound at all: generating caps them, as the CLI always let it.
        _checked(self, "max_boards", arguments.whole, 1, None)
        arguments.optional(arguments.seconds, self.seconds, "seconds")
        self._check_workers()

    def _check_covered(self) -> None:
        low, high = _checked(self, "covered", arguments.percent_range) or (None, None)
        if low is None:
            return
        if self.minimal:
            raise InputError(
                "minimal takes off the vehicles a puzzle does not need, and with them its "
                "covered share: give covered or minimal, not both",
                "covered",
                ("minimal",),
            )
        if not self.covered_cells:
            cells, most = self.size * self.size, MOST_COVERED * 100
            walls = f" beside {counted(self.walls, 'wall')}" if self.walls else ""
            raise InputError(
                f"{low:g}..{high:g} %: no {self.size}×{self.size} board's vehicles cover a "
                f"count of its {cells} cells in that range{walls} (2 cells, the target's, or "
                f"4 and more, up to {most:g} %, the most its boards are filled to)",
                "covered",
            )

    @property
    def covered_cells(self) -> range | None:
        """The counts of cells the vehicles of every board cover (None: any count)."""
        if self.covered is None:
            return None
        low, high = self.covered
        return covered_cells(self.size, low / 100, high / 100, self.walls)


@dataclass(frozen=True)
class DeckRequest(OnWorkers):
    """A deck to solve, a puzzle per worker: the deck's file (or directory, or ``-``), the
    objective and engine of every puzzle, whether to count each cluster and compare with the
    deck line's figures, where to stream the records (``out``, else standard output) and
    whether to resume there (``resume`` without ``out`` is an InputError naming both). Each
    puzzle's states and atoms are what the memory holds shared by the ``jobs`` workers,
    unless given. Each puzzle is solved as a :class:`SolveRequest` ``in_deck``, with this
    ``confirm`` (False: the engine alone, no BFS confirming ASP or A*)."""

    source: str
    objective: Objective = "moves"
    engine: str | None = None  # None: DECK_SMALL_ENGINE up to 6×6, A* on a larger board
    cluster: bool = False
    verify: bool = False
    jobs: int | None = None  # None: one per core
    scheduler: str | None = None
    out: Path | None = None
    resume: bool = False
    targets: tuple[str, ...] = ()
    max_states: int | None = None
    max_atoms: int | None = None
    confirm: bool = True

    def __post_init__(self) -> None:
        arguments.text(self.source, "source")
        arguments.choice(self.objective, OBJECTIVES, "objective")
        if self.engine is not None:
            arguments.choice(self.engine, ENGINES, "engine")
        arguments.flag(self.cluster, "cluster")
        arguments.flag(self.verify, "verify")
        arguments.flag(self.confirm, "confirm")
        _resumed_in_out(self)
        object.__setattr__(self, "targets", arguments.texts(self.targets, "targets"))
        _checked(self, "max_atoms", arguments.bounded)
        self._check_workers()

    @property
    def atoms(self) -> int:
        """The ground atoms of one ASP search: given, or the memory shared by the workers."""
        return max_atoms_for(self.max_atoms, self.jobs)
