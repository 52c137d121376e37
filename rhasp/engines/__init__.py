"""Engines: each finds an optimal plan for a puzzle behind one small interface.

An engine's ``solve`` returns a :class:`Solution`: an optimal plan with the proofs behind it
(``proofs``), a proof that no plan exists, or, for a search that stopped at a limit, what the
limit was. :func:`confirmed` runs an engine with the BFS oracle beside it, and
:func:`confirmed_within_share` gives that oracle a bounded share when it runs after A*. The
API and the deck's solving talk only to this interface; what is not a plan (a deck's cluster
counts, the enumeration's layouts) calls the search core through its face, :mod:`rhasp.search`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from rhasp.errors import InputError, RhaspError
from rhasp.limits import Budget, confirmation_share
from rhasp.model import Plan, Puzzle, plan_slides, replay
from rhasp.progress import Progress

Objective = Literal["moves", "slides"]
OBJECTIVES: tuple[Objective, ...] = ("moves", "slides")
ENGINES = ("asp", "bfs", "astar")


@dataclass(frozen=True)
class AspOptions:
    """How an ASP search runs, passed whole from the CLI and the API down to the engine; how
    far it may go (atoms, horizon, seconds) is its :class:`~rhasp.limits.Budget`, as
    for every engine. ``progress`` follows the horizons being solved (its ``searching`` gets
    the horizon as the depth and the boards in the memo as the states)."""

    clingo_args: tuple[str, ...] = ()
    memo: bool = True  # the state memo propagator, with its heuristic and threads
    progress: Progress | None = None


@dataclass(frozen=True)
class Solution:
    puzzle: Puzzle
    objective: Objective
    plan: Plan | None  # None: no plan, proven (``proofs``) or not searched to the end (``limit``)
    engine: str
    proofs: tuple[str, ...]  # what proves the plan optimal (or the puzzle unsolvable)
    explored: int | None  # states a search reached; None for an engine that does not count them
    seconds: float
    stats: Mapping[str, Any] = field(default_factory=dict)
    limit: str | None = None  # e.g. "timed out at horizon 12": no answer either way
    #: Engines that stopped at a limit while another proved the answer: name -> the limit.
    stopped: Mapping[str, str] = field(default_factory=dict)
    reached: int | None = None  # with ``limit``: the states reached by then, when counted
    chosen: str | None = None  # why rhasp chose the engine, when the caller named none

    @property
    def has_plan(self) -> bool:
        """A plan was found (a puzzle is ``solved`` once its targets have left; a solution
        has a plan, or proves there is none, or stopped at a limit)."""
        return self.plan is not None

    @property
    def moves(self) -> int | None:
        return None if self.plan is None else len(self.plan)

    @property
    def slides(self) -> int | None:
        return None if self.plan is None else plan_slides(self.plan)

    @property
    def length(self) -> int | None:
        """The plan's length in the unit of the objective."""
        return self.moves if self.objective == "moves" else self.slides

    def __str__(self) -> str:
        """What was found and what proves it, then the plan in card notation: what
        ``print(solution)`` shows outside Jupyter."""
        from rhasp.notation import format_plan  # notation writes the model's moves

        name = self.puzzle.name
        if self.limit:
            return f"{name}: no answer, the search stopped ({self.limit})"
        proof = f"proven by {' and '.join(self.proofs)}" if self.proofs else "not proven"
        if self.plan is None:
            return f"{name}: unsolvable, {proof}"
        moves, slides = self.moves, self.slides
        plan = " ".join(format_plan(self.plan, self.puzzle.board))
        return (
            f"{name}: {moves} move{'s' * (moves != 1)}, {slides} slide{'s' * (slides != 1)}"
            f"; fewest {self.objective}, {proof}\n{plan}"
        )

    def _repr_svg_(self) -> str:
        """The plan as a strip of boards, as Jupyter shows a solution; the board alone when
        there is no plan."""
        from rhasp.pictures.boards import solution_svg  # pictures build on the engines' plans

        return solution_svg(self.puzzle, self.plan or ())


class Engine(Protocol):
    name: str

    def solve(self, puzzle: Puzzle, objective: Objective) -> Solution: ...


class EngineDisagreement(RhaspError):
    """Two engines, or an engine and the model, disagree: always a bug (exit code 3)."""


def get_engine(name: str, *, asp: AspOptions | None = None, budget: Budget | None = None) -> Engine:
    """The engine called ``name``: ``budget`` bounds it (default: by the machine's memory),
    ``asp`` says how the ASP engine runs."""
    from rhasp.engines.asp import AspEngine
    from rhasp.engines.astar import AstarEngine
    from rhasp.engines.bfs import BfsEngine

    if name == "bfs":
        return BfsEngine(budget=budget or Budget())
    if name == "astar":
        return AstarEngine(budget=budget or Budget())
    if name == "asp":
        return AspEngine(asp or AspOptions(), budget=budget or Budget())
    raise InputError(f"unknown engine {name!r} (expected one of {', '.join(ENGINES)})", "--engine")


def confirmed(engine: Engine, oracle: Engine, puzzle: Puzzle, objective: Objective) -> Solution:
    """``engine``'s solution, confirmed by ``oracle``, which runs first: how the ASP engine,
    which proves no "no plan" beyond its horizon, is confirmed.

    A puzzle the oracle proves unsolvable is reported so before ``engine`` starts. The engine
    never sees the oracle's answer: the two are compared only afterwards (:func:`compared`).
    """
    check = oracle.solve(puzzle, objective)
    if not check.has_plan and not check.limit:
        return replace(check, engine=engine.name, stats={oracle.name: search_figures(check)})
    return compared(engine.solve(puzzle, objective), check)


def confirmed_within_share(
    engine: Engine,
    oracle: Callable[[Budget], Engine],
    budget: Budget,
    puzzle: Puzzle,
    objective: Objective,
) -> Solution:
    """``engine``'s solution (A*'s: it counts its states and proves a puzzle unsolvable
    itself), then confirmed by ``oracle(share)``, a search within its share of ``budget``
    (:func:`~rhasp.limits.confirmation_share`), since the oracle may need the whole
    cluster where the engine needs a corner of it. An oracle stopped at its share leaves the
    engine's answer standing, proven by the engine alone, and says where it stopped; an engine
    stopped at a limit gives the oracle the whole budget."""
    found = engine.solve(puzzle, objective)
    share = budget if found.explored is None else confirmation_share(budget, found.explored)
    check = oracle(share).solve(puzzle, objective)
    at_share = share.states < budget.states and (check.reached or 0) >= share.states
    if check.limit and at_share:
        check = replace(check, limit=f"stopped at {check.reached:,} states, its share")
    return compared(found, check)


def compared(found: Solution, check: Solution) -> Solution:
    """``found``, one engine's solution, against ``check``, the oracle's, on the same puzzle:
    a difference raises EngineDisagreement. A limit met by one of the two never hides what
    the other proved: the answer is the one proven, and ``stopped`` names the search that
    stopped short. Each search's states and seconds are kept under its name; the seconds are
    both searches' and ``explored`` the engine's own states (the oracle's, for an engine that
    counts none, and for a puzzle both prove unsolvable: the oracle walked every reachable
    state, where A*'s bound may spare some)."""
    stats = (
        {found.engine: search_figures(found)}
        | dict(found.stats)
        | {check.engine: search_figures(check)}
    )
    seconds = found.seconds + check.seconds
    explored = check.explored if found.explored is None else found.explored
    if found.limit and check.limit:
        limit = f"{found.limit}; {check.engine}: {check.limit}"
        return replace(found, stats=stats, limit=limit, seconds=seconds)
    if found.limit:
        stopped = {found.engine: found.limit}
        return replace(check, engine=found.engine, stats=stats, stopped=stopped, seconds=seconds)
    verify_plan(found)
    if check.limit:
        stopped = {check.engine: check.limit}
        return replace(found, stats=stats, stopped=stopped, seconds=seconds, explored=explored)
    if found.length != check.length:
        raise EngineDisagreement(
            f"{found.engine} found {found.objective} {found.length} but {check.engine} found "
            f"{check.length}: this is a bug, please report it",
            found.puzzle.name,
        )
    agreement = {f"{check.engine}_agrees": True}
    return replace(
        found,
        proofs=(*found.proofs, check.engine),
        explored=explored if found.has_plan else check.explored,  # no plan: the whole cluster
        seconds=seconds,
        stats=stats | agreement,
    )


def search_figures(solution: Solution) -> dict[str, Any]:
    """One search's figures, kept under its engine's name when two ran: the length found, the
    states reached (also where it stopped) and the seconds; ``stopped``, its limit."""
    states = solution.reached if solution.limit else solution.explored
    record = {"length": solution.length, "explored": states, "seconds": round(solution.seconds, 6)}
    return record | ({"stopped": solution.limit} if solution.limit else {})


def verify_plan(solution: Solution) -> None:
    """Replay an engine's plan in the model; one that does not solve the puzzle is a bug."""
    if solution.plan is None:
        return
    try:
        solved = replay(solution.puzzle, solution.plan).solved
    except RhaspError as error:
        raise EngineDisagreement(
            f"{solution.engine} returned a plan the model rejects ({error.what}): a bug",
            solution.puzzle.name,
        ) from None
    if not solved:
        raise EngineDisagreement(
            f"{solution.engine} returned a plan that does not solve the puzzle: a bug",
            solution.puzzle.name,
        )
