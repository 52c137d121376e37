"""The solve policy, in one place for ``rhasp solve``, ``rhasp.solve``, the web page, every
line of a deck, hints and plan checks: which engine (the one named, else by the board's
size), static analysis first (a board proven unsolvable at a glance needs no search), then
the engine, then, unless it is BFS, a BFS that confirms its length (after A*, within a share
of A*'s own states), where both stop at a limit and the caller asks for it, an anytime
search for a plan not proven minimal (:func:`with_anytime_plan`), and the plan replayed in
the model before anyone sees it.

A difference between two engines is a bug (:class:`~rhasp.solution.EngineDisagreement`); a
limit met by one never hides what the other proved (:func:`compared`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace

from rhasp import search
from rhasp.engines import AspOptions, Engine, get_engine
from rhasp.engines.astar import AstarEngine
from rhasp.limits import PROGRESS_EVERY, Budget, Limit
from rhasp.model import Puzzle
from rhasp.progress import UntilMuted
from rhasp.solution import (
    ANYTIME,
    EngineDisagreement,
    Objective,
    SearchFigures,
    Solution,
    verify_plan,
)
from rhasp.static import STATIC, blocked_exit

#: The largest side of a board whose default engine is the request's own
#: (:data:`rhasp.requests.SMALL_ENGINE`); a larger board gets A*.
SMALL_SIDE = 6


def engine_for(puzzle: Puzzle, small: str) -> tuple[str, str | None]:
    """The engine of ``puzzle`` when none is named, and why, when the board decides: ``small``
    up to 6×6; A* on a larger board, whose cluster a BFS (or ASP's BFS confirmation) seldom
    walks whole, while A*'s states grow with the plan (README: when to pick A*). A* chosen so
    runs after a short BFS, which answers alone where the board's states near the start are
    few (:func:`raced`)."""
    board = puzzle.board
    if board.width <= SMALL_SIDE and board.height <= SMALL_SIDE:
        return small, None
    return "astar", f"board larger than {SMALL_SIDE}×{SMALL_SIDE}"


def static_verdict(puzzle: Puzzle, objective: Objective, engine: str) -> Solution | None:
    """The puzzle proven unsolvable by static analysis, as the solution ``engine`` would have
    given, with the proof in its stats (``static``); None when static analysis proves
    nothing, and the search must answer."""
    began = time.perf_counter()
    blocked = blocked_exit(puzzle)
    if blocked is None:
        return None
    seconds = time.perf_counter() - began
    return Solution(
        puzzle, objective, None, engine, (STATIC,), None, seconds, static=blocked.proof()
    )


def solve(
    puzzle: Puzzle,
    objective: Objective,
    engine: str | Engine,
    budget: Budget,
    *,
    confirm: bool = True,
    asp: AspOptions | None = None,
    race: bool = False,
    anytime: bool = False,
) -> Solution:
    """``puzzle`` solved by ``engine`` (a name, made with ``budget`` and ``asp``, or an engine
    of the caller's own), as the module docstring says: static analysis first, then the
    engine, confirmed by a BFS within ``budget`` unless ``confirm`` is False, with
    ``anytime`` a plan not proven minimal where they stop at a limit
    (:func:`with_anytime_plan`, which :data:`ANYTIME_SHARE` of ``budget``'s seconds are
    kept for), and the plan replayed. ``budget``'s seconds bound all of it: give it counted
    from the request's start (:meth:`Budget.counted_from
    <rhasp.limits.Budget.counted_from>`); its horizon and atoms bound ASP alone. ``race``:
    A* chosen by the board, run after a short BFS (:func:`raced`) when it confirms."""
    optimal = budget
    if anytime and budget.seconds is not None:  # its deadline earlier, its seconds as said
        budget = budget.counted_from(time.perf_counter())  # one clock for all its searches
        began = budget.since or 0.0  # set just now, if not before
        optimal = replace(budget, since=began - budget.seconds * ANYTIME_SHARE)
    solver = get_engine(engine, asp=asp, budget=optimal) if isinstance(engine, str) else engine
    found = _solved(puzzle, objective, solver, optimal, confirm, race)
    if anytime and found.limit and not found.has_plan:
        found = with_anytime_plan(found, budget)
    verify_plan(found)
    return found


#: The weight of the anytime search's bound (weighted A*: its plan at most this many times
#: the fewest). Of the weights measured on crowded 12×12 boards, 2 gave the shortest plans
#: at much the same speed as 3 and 5 (bench/anytime.py; bench/README.md, "Issue 56:
#: anytime plans").
ANYTIME_WEIGHT = 2
#: The share of a solve's seconds, when it has a time limit, kept for the anytime search:
#: the optimal search and its confirmation stop that much earlier (their limit still says
#: the solve's seconds, the time limit the caller set).
ANYTIME_SHARE = 0.25


#: The share of the states the estimated search of the anytime plan may reach (at least
#: :data:`ESTIMATED_FLOOR` of them): a twentieth, since each costs about nine times one of
#: weighted A*'s, compiled (18 against 2 µs on crowded-4: the estimate walks a chain of
#: vehicles for every state reached), so that where it finds nothing it costs under half
#: what weighted A* alone then does. Where it finds a plan it does so early: crowded 12×12
#: boards in 203 to 49,602 states.
ESTIMATED_SHARE = 0.05
ESTIMATED_FLOOR = 10_000
#: Where the estimated search has a plan, weighted A* alone looks for a shorter one within
#: this many times its states, and at least :data:`BETTER_FLOOR` (a few seconds compiled),
#: not the whole budget: a solve without a time limit on crowded-1 (a plan in 498 states)
#: would otherwise go on for as long as A* had (63 million states, minutes) to find none.
#: On crowded-4 the shorter plan (14 moves, against 18) took it 637,000 states.
BETTER_FACTOR = 10
BETTER_FLOOR = 1_000_000


def with_anytime_plan(found: Solution, budget: Budget) -> Solution:
    """``found``, a solution stopped at a limit without a plan, with the best plan found
    within ``budget`` (its states, for each search; the seconds left) by two searches, not
    proven minimal (:func:`anytime_plan`), and the ``lower_bound`` proven: the most that the stopped
    searches proved every plan takes (A*'s f-value still queued, a BFS's depth found whole
    plus one), and never less than A*'s bound at the start. The limit stays: the answer is
    still a limit, now with a plan; unless the plan is no longer than the bound, which
    proves it minimal: then it is the answer, proven by the two (``proofs``: the engine,
    whose bound it is, then :data:`ANYTIME`), and the limit says which search ``stopped``;
    a plan shorter than the bound is a bug (:class:`EngineDisagreement`).
    Its figures go under :data:`ANYTIME` in ``searches``, also where it finds no plan
    either (``found`` then stays a limit without a plan, with the bound)."""
    assert found.limit is not None
    puzzle, objective = found.puzzle, found.objective
    start = search.start_bound(puzzle.board, puzzle.start, objective)
    proven = found.limit.proven_at_least()
    lower = max(start, 0 if proven is None else proven)
    best, figures = anytime_plan(puzzle, objective, budget, lower)
    searches = dict(found.searches) or {found.engine: search_figures(found)}
    searches[ANYTIME] = figures
    seconds = found.seconds + figures.seconds
    if not best.has_plan:
        return replace(found, lower_bound=lower, searches=searches, seconds=seconds)
    with_plan = replace(
        found, plan=best.plan, lower_bound=lower, searches=searches, seconds=seconds
    )
    if with_plan.length is not None and with_plan.length < lower:
        raise EngineDisagreement(
            f"the {ANYTIME} plan takes {with_plan.length} {objective} where the searches "
            f"proved at least {lower}: this is a bug, please report it",
            puzzle.name,
        )
    if with_plan.length == lower:  # the gap is closed
        stopped = {found.engine: found.limit}
        proofs = (found.engine, ANYTIME)
        return replace(with_plan, limit=None, stopped=stopped, proofs=proofs)
    return with_plan


def anytime_plan(
    puzzle: Puzzle, objective: Objective, budget: Budget, lower: int
) -> tuple[Solution, SearchFigures]:
    """The shorter plan of two searches within ``budget``, and their figures summed. First
    weighted A* with its bound raised to an estimate (:func:`rhasp.search.core.estimate`),
    which follows the chain of vehicles in the way and finds a plan on crowded boards in a
    few thousand states where weighted A* alone finds none within millions (bench/README.md,
    "Issue 56: anytime plans"). Then, unless that plan is already no longer than ``lower``,
    weighted A* alone (:data:`ANYTIME_WEIGHT`), whose plan is at most that many times the
    fewest and often shorter than the first. Either may stop at the limit: the first within
    its share of the states (:data:`ESTIMATED_SHARE`), the second within them all, or, where
    the first has a plan, within :data:`BETTER_FACTOR` times the first's states."""

    def solve(estimated: bool, within: Budget) -> Solution:
        engine = AstarEngine(budget=within, weight=ANYTIME_WEIGHT, estimated=estimated)
        return engine.solve(puzzle, objective)

    share = max(int(budget.states * ESTIMATED_SHARE), min(budget.states, ESTIMATED_FLOOR))
    best = quick = solve(True, replace(budget, states=share))
    ran = [quick]
    if not quick.has_plan or (quick.length or 0) > lower:
        within = budget
        if quick.has_plan:  # a plan in hand: a shorter one is looked for, not at any cost
            bettering = max(BETTER_FLOOR, BETTER_FACTOR * (quick.explored or 0))
            within = replace(budget, states=min(budget.states, bettering))
        bounded = solve(False, within)
        ran.append(bounded)
        if bounded.has_plan and (not best.has_plan or (bounded.length or 0) < (best.length or 0)):
            best = bounded
    each = [search_figures(s) for s in ran]
    figures = SearchFigures(
        best.length,
        sum(f.explored or 0 for f in each),
        round(sum(f.seconds for f in each), 6),
        None if best.has_plan else each[-1].stopped,
    )
    return best, figures


def _solved(
    puzzle: Puzzle, objective: Objective, solver: Engine, budget: Budget, confirm: bool, race: bool
) -> Solution:
    proven = static_verdict(puzzle, objective, solver.name)
    if proven is not None:
        return proven
    if not confirm or solver.name == "bfs":
        return solver.solve(puzzle, objective)
    if solver.name == "asp":
        return confirmed(solver, get_engine("bfs", budget=budget), puzzle, objective)
    oracle = lambda share: get_engine("bfs", budget=share)  # noqa: E731
    if race and solver.name == "astar":
        return raced(solver, oracle, budget, puzzle, objective)
    return confirmed_within_share(solver, oracle, budget, puzzle, objective)


def raced(
    engine: Engine,
    oracle: Callable[[Budget], Engine],
    budget: Budget,
    puzzle: Puzzle,
    objective: Objective,
) -> Solution:
    """A* chosen by the board, with the BFS that confirms it run beside it, in a thread of
    its own (the compiled core releases the GIL, so on two cores the two searches take the
    time of the longer): the BFS starts first, alone, and where it ends within
    :data:`CONFIRM_FLOOR` states (and half the seconds left, if ``budget`` has seconds) its
    answer stands alone (it is the very search that would have confirmed A*, whose share is
    never less: bench/README.md, "Issue 56: pattern database in A*"). Past them A* starts,
    the BFS going on beside it; when A* ends, the BFS is held to its share as
    :func:`confirmed_within_share` says (stopped at once where it is past it) and the two
    are compared; a BFS that ended before A* confirms whatever its share. The seconds are
    the solve's own, from the BFS's start. A BFS stopped by memory before A* starts stops
    the solve; where it stops at its states or seconds, A* answers, confirmed by a BFS run
    again within its share as :func:`confirmed_within_share` says, unless no larger."""
    began = time.perf_counter()
    search.switch_now()  # BFS and A* on a large board: their code loaded from their start
    handle, shown = search.Handle(), UntilMuted(budget.progress)
    beside = Beside(oracle(replace(budget, handle=handle, progress=shown)), puzzle, objective)
    try:
        halfway = began + (budget.deadline(began) - began) / 2  # math.inf without seconds
        first = beside.ended_within(handle, CONFIRM_FLOOR, halfway)
        if first is not None and first.limit is None and first.explored <= CONFIRM_FLOOR:
            return replace(first, chosen=f"BFS ended within {CONFIRM_FLOOR:,} states")
        if first is not None and first.limit is not None:
            if first.limit.ran_out not in ("states", "time"):
                return first  # memory: no room for A* either
            before = first if first.limit.ran_out == "states" else None
            return confirmed_within_share(engine, oracle, budget, puzzle, objective, before)
        shown.mute()  # the display is A*'s now
        found = engine.solve(puzzle, objective)
        share = confirmation_share(budget, found.explored)
        handle.stop_past(share.states)
        check = within_share(beside.result(), share, budget)
    finally:
        handle.stop()
        beside.join()
    return replace(compared(found, check), seconds=time.perf_counter() - began)


#: How often the thread that waits for a search beside it looks at its states (seconds).
LOOK_EVERY = 0.01


class Beside:
    """``engine``'s solve of ``puzzle``, run in a thread of its own from now on."""

    def __init__(self, engine: Engine, puzzle: Puzzle, objective: Objective) -> None:
        self._outcome: list[Solution | BaseException] = []
        self._thread = threading.Thread(
            target=self._run, args=(engine, puzzle, objective), name="rhasp-beside", daemon=True
        )
        self._thread.start()

    def _run(self, engine: Engine, puzzle: Puzzle, objective: Objective) -> None:
        try:
            self._outcome.append(engine.solve(puzzle, objective))
        except BaseException as error:  # handed to the thread that asks for the result
            self._outcome.append(error)

    def ended_within(self, handle: search.Handle, states: int, deadline: float) -> Solution | None:
        """The solve's solution if it ends before its search, followed by ``handle``, has
        found more than ``states`` states, or ``deadline`` (a ``time.perf_counter()`` value)
        comes; else None. Looked at every :data:`LOOK_EVERY` seconds: it may have ended a
        little past ``states``."""
        while self._thread.is_alive() and handle.states <= states:
            if time.perf_counter() >= deadline:
                return None
            self._thread.join(LOOK_EVERY)
        return None if self._thread.is_alive() else self.result()

    def result(self) -> Solution:
        """The solve's solution (waiting for it), or what it raised, raised here."""
        self.join()
        outcome = self._outcome[0]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    def join(self) -> None:
        while self._thread.is_alive():  # in slices, so that Ctrl-C is taken here
            self._thread.join(PROGRESS_EVERY)


def confirmed(engine: Engine, oracle: Engine, puzzle: Puzzle, objective: Objective) -> Solution:
    """``engine``'s solution, confirmed by ``oracle``, which runs first: how the ASP engine,
    which proves no "no plan" beyond its horizon, is confirmed.

    A puzzle the oracle proves unsolvable is reported so before ``engine`` starts. The engine
    never sees the oracle's answer: the two are compared only afterwards (:func:`compared`).
    """
    check = oracle.solve(puzzle, objective)
    if not check.has_plan and not check.limit:
        return replace(check, engine=engine.name, searches={oracle.name: search_figures(check)})
    return compared(engine.solve(puzzle, objective), check)


def confirmed_within_share(
    engine: Engine,
    oracle: Callable[[Budget], Engine],
    budget: Budget,
    puzzle: Puzzle,
    objective: Objective,
    before: Solution | None = None,
) -> Solution:
    """``engine``'s solution (A*'s: it counts its states and proves a puzzle unsolvable
    itself), then confirmed by ``oracle(share)``, a search within its share of ``budget``
    (:func:`~rhasp.limits.confirmation_share`), since the oracle may need the whole
    cluster where the engine needs a corner of it. An oracle stopped at its share leaves the
    engine's answer standing, proven by the engine alone, and says where it stopped; an engine
    stopped at a limit gives the oracle the whole budget. ``before``: the oracle's solution
    within fewer states, stopped at them, taken for the check where the share is no more."""
    found = engine.solve(puzzle, objective)
    share = confirmation_share(budget, found.explored)
    reran = before is None or before.limit is None or share.states > (before.limit.amount or 0)
    check = oracle(share).solve(puzzle, objective) if reran else before
    return compared(found, within_share(check, share, budget))


def within_share(check: Solution, share: Budget, budget: Budget) -> Solution:
    """``check``, the confirming search's solution, its limit said as its share where it
    stopped there (past it: stopped beside A*), not at the ``budget`` the caller set."""
    reached = (check.limit and check.limit.reached) or 0
    if check.limit and share.states < budget.states and reached >= share.states:
        text = f"stopped at {reached:,} states, its share"
        check = replace(check, limit=Limit(text, "share", share.states, reached))
    return check


def compared(found: Solution, check: Solution) -> Solution:
    """``found``, one engine's solution, against ``check``, the oracle's, on the same puzzle:
    a difference raises EngineDisagreement. A limit met by one of the two never hides what
    the other proved: the answer is the one proven, and ``stopped`` names the search that
    stopped short. Each search's states and seconds are kept under its name; the seconds are
    both searches' and ``explored`` the engine's own states (the oracle's, for an engine that
    counts none, and for a puzzle both prove unsolvable: the oracle walked every reachable
    state, where A*'s bound may spare some)."""
    searches = {found.engine: search_figures(found), check.engine: search_figures(check)}
    seconds = found.seconds + check.seconds
    explored = check.explored if found.explored is None else found.explored
    both = {"searches": searches, "seconds": seconds, "asp": found.asp}
    if found.limit and check.limit:
        limit = replace(found.limit, also=(check.engine, check.limit))
        return replace(found, limit=limit, **both)
    if found.limit:
        stopped = {found.engine: found.limit}
        return replace(check, engine=found.engine, stopped=stopped, **both)
    verify_plan(found)
    if check.limit:
        stopped = {check.engine: check.limit}
        return replace(found, stopped=stopped, explored=explored, **both)
    if found.length != check.length:
        raise EngineDisagreement(
            f"{found.engine} found {found.objective} {found.length} but {check.engine} found "
            f"{check.length}: this is a bug, please report it",
            found.puzzle.name,
        )
    return replace(
        found,
        proofs=(*found.proofs, check.engine),
        explored=explored if found.has_plan else check.explored,  # no plan: the whole cluster
        **both,
    )


def search_figures(solution: Solution) -> SearchFigures:
    """One search's figures, kept under its engine's name when two ran: the length found, the
    states reached (also where it stopped), the seconds, and its limit."""
    states = solution.limit.reached if solution.limit else solution.explored
    return SearchFigures(solution.length, states, round(solution.seconds, 6), solution.limit)


#: The states the BFS that confirms A* may reach: this many times A*'s own states ...
CONFIRM_FACTOR = 10
#: ... and never fewer than these (a few seconds at most, on any board), so that wherever BFS
#: is cheap it always finishes (bench/confirm.py measured the rule; bench/README.md).
CONFIRM_FLOOR = 1_000_000


def confirmation_share(budget: Budget, states: int | None) -> Budget:
    """The budget of the BFS that confirms an engine which reached ``states`` states: its
    share, :data:`CONFIRM_FACTOR` times as many and at least :data:`CONFIRM_FLOOR`, within
    ``budget`` (whose seconds bound it too); the whole ``budget`` where the engine counted
    none (it stopped at a limit). Counted in states, not seconds, so that whether the
    confirmation finishes is the same on every machine and under any load."""
    if states is None:
        return budget
    share = max(CONFIRM_FLOOR, CONFIRM_FACTOR * states)
    return replace(budget, states=min(budget.states, share))
