"""What every way of solving answers: a :class:`Solution`, an optimal plan with the proofs
behind it (``proofs``), a proof that no plan exists, or, for a search that stopped at a
limit, what the limit was, with the lower bound it proved and, where an anytime search
found one after it, a plan not proven minimal. The engines (:mod:`rhasp.engines`) and
static analysis (:mod:`rhasp.static`) give one; the solve policy (:mod:`rhasp.solving`)
confirms it and :func:`verify_plan` replays its plan in the model before anyone sees it.
:meth:`Solution.findings` is what it says as a record, the one source of the fields that the
JSON of a solve, the page's answer and each deck record share; :meth:`Solution.lines` what it
says as text, the words of ``rhasp solve`` and of ``print(solution)`` (the command line adds
colour, boards and its advice on a limit).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from rhasp.errors import RhaspError, counted
from rhasp.limits import Limit
from rhasp.model import Plan, Puzzle, ShownAsText, plan_slides, replay
from rhasp.notation import ENGINE, READ, SEARCHES, STOPPED, WHY, Notation, format_plan

Objective = Literal["moves", "slides"]
OBJECTIVES: tuple[Objective, ...] = ("moves", "slides")
#: The search that looks for a plan where the optimal search stopped at a limit (weighted A*,
#: :func:`rhasp.solving.with_anytime_plan`): the name its figures go under.
ANYTIME = "anytime"


@dataclass(frozen=True)
class SearchFigures:
    """One search's work, kept under its engine's name when two searches answered a solve:
    the length it found (None: none), the states it reached (where it stopped, too; None for
    an engine that counts none), its seconds, and its limit if it stopped short."""

    length: int | None
    explored: int | None
    seconds: float
    stopped: Limit | None = None

    def record(self) -> dict[str, Any]:
        """The JSON form, as ``rhasp solve --format json`` prints it under the engine's name."""
        record = {"length": self.length, "explored": self.explored, "seconds": self.seconds}
        return record | ({"stopped": str(self.stopped)} if self.stopped else {})


@dataclass(frozen=True)
class AspFigures:
    """What clingo did for an ASP solve, summed over its horizons: the last horizon, the
    solver's choices, conflicts and restarts, the ground program's atoms after the last
    horizon, the encoding and clingo's options, the state memo's boards and nogoods (None
    without the memo), each horizon solved in order with its plan's steps (None: none of that
    many steps or fewer) and seconds (grounding and solving), and the plan's move atoms as
    clingo prints them."""

    horizon: int
    seconds: float
    choices: int
    conflicts: int
    restarts: int
    atoms: int
    encoding: str
    clingo_args: tuple[str, ...]
    memo: Mapping[str, int] | None
    horizons: tuple[tuple[int, int | None, float], ...]
    move_atoms: tuple[str, ...] = ()

    def record(self) -> dict[str, Any]:
        """The JSON form, as ``rhasp solve --format json`` prints it under ``asp``."""
        record = asdict(self)
        record["clingo_args"] = list(self.clingo_args)
        record["horizons"] = [
            {"horizon": horizon, "plan": plan, "seconds": seconds}
            for horizon, plan, seconds in self.horizons
        ]
        record["move_atoms"] = list(self.move_atoms)
        return record


@dataclass(frozen=True)
class Solution(ShownAsText):
    """What :func:`rhasp.solve` answers: an optimal plan, or the proof that there is none, or
    the limit that stopped the search; what proves the answer, and the work behind it. A
    solution with a ``limit`` and a plan holds the best plan an anytime search found after
    the limit (:data:`ANYTIME`), not proven minimal (:attr:`optimal` False), and the
    ``lower_bound`` proven by then: the optimum lies between the two."""

    puzzle: Puzzle  # the puzzle solved
    objective: Objective  # "moves" or "slides": what the plan has fewest of
    #: The optimal plan, or with ``limit`` the anytime search's plan, not proven minimal;
    #: None: no plan, proven (``proofs``) or not searched to the end (``limit``).
    plan: Plan | None
    engine: str  # the engine that answered: "asp", "bfs", "astar", or "static analysis"
    proofs: tuple[str, ...]  # what proves the plan optimal (or the puzzle unsolvable)
    explored: int | None  # states a search reached; None for an engine that does not count them
    seconds: float  # the searches' time together (the solve's own where they ran side by side)
    limit: Limit | None = None  # what stopped the search, when nothing is proven either way
    #: Engines that stopped at a limit while another proved the answer: name -> the limit.
    stopped: Mapping[str, Limit] = field(default_factory=dict)
    chosen: str | None = None  # why rhasp chose the engine, when the caller named none
    #: Each search's work, by engine, when two searches answered: the engine's, then the
    #: confirming BFS's.
    searches: Mapping[str, SearchFigures] = field(default_factory=dict)
    asp: AspFigures | None = None  # what clingo did, when the ASP search ran
    static: str | None = None  # the static proof, when static analysis answered
    #: With ``limit``: every plan takes at least this many (in the objective's unit), as the
    #: searches proved before they stopped, or the start's bound; None when not reckoned.
    lower_bound: int | None = None

    @property
    def has_plan(self) -> bool:
        """A plan was found (a puzzle is ``solved`` once its targets have left; a solution
        has a plan, or proves there is none, or stopped at a limit, with or without a plan
        not proven minimal)."""
        return self.plan is not None

    @property
    def optimal(self) -> bool:
        """The plan is proven minimal: there is one, and no limit stopped the search short of
        the proof (a plan beside a limit is the anytime search's, :data:`ANYTIME`)."""
        return self.plan is not None and self.limit is None

    @property
    def moves(self) -> int | None:
        """The plan's moves (a vehicle's movement of any distance); None without a plan."""
        return None if self.plan is None else len(self.plan)

    @property
    def slides(self) -> int | None:
        """The plan's slides (cells moved, all moves together); None without a plan."""
        return None if self.plan is None else plan_slides(self.plan)

    @property
    def length(self) -> int | None:
        """The plan's length in the unit of the objective."""
        return self.moves if self.objective == "moves" else self.slides

    def search_seconds(self) -> dict[str, float]:
        """Each search's own seconds, by its engine, to the microsecond: both searches' when
        one confirmed the other (:attr:`searches`), else the engine's alone; none when static
        analysis answered before any search. ``seconds`` is their sum (static analysis's
        own time, when it answered)."""
        if self.searches:
            return {name: figures.seconds for name, figures in self.searches.items()}
        return {} if self.static is not None else {self.engine: round(self.seconds, 6)}

    def findings(self) -> dict[str, Any]:
        """What the solution says as a record, in JSON's terms: the fields that the JSON of
        ``rhasp solve`` (:func:`rhasp.output.solution_dict`, which the page answers too) and
        each result record of ``rhasp deck`` (:class:`rhasp.deck.DeckRecord`) share. The
        puzzle's name; the plan's ``length`` (in the objective's unit), ``moves`` and
        ``slides``, and the ``plan`` in card notation, a move a string (all None without a
        plan); the searches that prove it (``proven_by``), the states ``explored``, the
        ``seconds`` to the microsecond; then, only where they apply, the ``limit`` that
        stopped the search short of any answer and the engines ``stopped`` short of the
        answer another proved, each with why, and the ``lower_bound`` proven before a limit."""
        plan = self.plan
        found: dict[str, Any] = {
            "puzzle": self.puzzle.name,
            "length": self.length,
            "moves": self.moves,
            "slides": self.slides,
            "plan": None if plan is None else format_plan(plan, self.puzzle.board, "card"),
            "proven_by": list(self.proofs),
            "explored": self.explored,
            "seconds": round(self.seconds, 6),
        }
        if self.limit:
            found["limit"] = str(self.limit)
        if self.lower_bound is not None:
            found["lower_bound"] = self.lower_bound
        if self.stopped:
            found["stopped"] = {name: str(why) for name, why in self.stopped.items()}
        return found

    def summary(self, advised: Callable[[Limit], str] = str) -> str:
        """The answer in one line, its parts joined by `` · ``: the puzzle, the plan's length,
        what proves it optimal, and the seconds; or that there is no solution and what proves
        it; or the limit that stopped the search, in the words of ``advised`` (the command
        line's adds the option that raises it); or, past a limit, the anytime plan's length,
        never called optimal (:func:`gap_text`; the limit is in :meth:`notes`). At most
        about 100 columns: the engines' work is in :meth:`notes`."""
        parts = [self.puzzle.name]
        if self.limit and self.has_plan:
            parts += [self._length(), gap_text(self.lower_bound, self.length, self.objective)]
        elif self.limit:
            parts += [f"{self.objective}: {advised(self.limit)}", "nothing proven beyond that"]
            parts.append(f"engine {self.engine}")
        elif not self.has_plan:
            proof = f"proven by {' and '.join(self.proofs)}"
            if self.static is None:  # the static proof is a line of its own
                proof += f": all {self.explored:,} reachable states explored"
            parts += ["no solution", proof]
        else:
            stopped = f" ({self._stopped(False, advised)})" if self.stopped else ""
            parts += [self._length(), f"optimal: {proof_text(self.proofs)}{stopped}"]
        parts.append(f"{self.seconds:.2f} s")
        return " · ".join(parts)

    def _length(self) -> str:
        """``moves 8``, or ``slides 16 (in 12 moves)``."""
        length = f"{self.objective} {self.length}"
        if self.objective == "slides":
            length += f" (in {counted(self.moves, 'move')})"
        return length

    def notes(self, verbose: bool = False, advised: Callable[[Limit], str] = str) -> list[str]:
        """The lines under the summary, each beginning with a word and a colon
        (:data:`rhasp.notation.BESIDE_THE_PLAN`, so that a plan read back skips them): what
        the reader inferred (:func:`reading_text`), why there is no solution when static
        analysis proved it, the limit a plan not proven minimal was found after (in the words
        of ``advised``), and the engine when the board's size chose it, and why; with
        ``verbose``, the engine and its work, each search's states and seconds, and why a
        search stopped (its limit in the words of ``advised``)."""
        lines = [READ + reading] if (reading := reading_text(self.puzzle)) else []
        if self.static and not self.has_plan:
            lines.append(f"{WHY}{self.static}")
        if self.limit and self.has_plan:
            lines.append(f"{STOPPED}{self.engine} stopped: {advised(self.limit)}")
        engine = f"{ENGINE}{self.engine}" + (f" ({self.chosen})" if self.chosen else "")
        if not verbose:
            return lines + ([engine] if self.chosen else [])
        if self.asp:
            engine += (
                f"; horizon {self.asp.horizon}, {counted(self.asp.choices, 'choice')}, "
                f"{counted(self.asp.conflicts, 'conflict')}" + memo_text(self.asp.memo)
            )
        if self.engine not in self.proofs and not self.has_plan and not self.limit:
            engine += f"; the {self.engine} search was not started"
        lines.append(engine)
        if len(self.searches) >= 2:
            lines.append(
                SEARCHES + "; ".join(search_words(*item) for item in self.searches.items())
            )
        elif self.explored is not None:
            counter = self.proofs[-1] if self.proofs else self.engine  # the last search
            lines.append(f"{SEARCHES}{counter} {counted(self.explored, 'state')}")
        if self.stopped:
            lines.append(f"{STOPPED}{self._stopped(True, advised)}")
        return lines

    def _stopped(self, verbose: bool, advised: Callable[[Limit], str]) -> str:
        """Each search that stopped short of the answer another proved, so that no one reads
        the answer as its own: ``asp stopped``, ``bfs stopped at its share``; with
        ``verbose``, why (``asp stopped: timed out at horizon 76``, the limit in the words of
        ``advised``); joined by ``; ``."""
        said = []
        for name, why in self.stopped.items():
            if why.ran_out == "share":  # a confirming BFS's share of the work: no advice
                said.append(f"{name} {why}" if verbose else f"{name} stopped at its share")
            else:
                said.append(f"{name} stopped: {advised(why)}" if verbose else f"{name} stopped")
        return "; ".join(said)

    def plan_lines(self, notation: Notation = "card") -> list[str]:
        """The plan's moves in ``notation``, numbered from 1 (``   1. AR1``); none without a
        plan."""
        if self.plan is None:
            return []
        moves = format_plan(self.plan, self.puzzle.board, notation)
        return [f"{number:4d}. {move}" for number, move in enumerate(moves, 1)]

    def heading(self, verbose: bool = False, advised: Callable[[Limit], str] = str) -> list[str]:
        """What ``rhasp solve`` prints above the plan: the :meth:`summary`, then its
        :meth:`notes` indented by two spaces."""
        return [self.summary(advised), *(f"  {line}" for line in self.notes(verbose, advised))]

    def lines(
        self,
        notation: Notation = "card",
        verbose: bool = False,
        advised: Callable[[Limit], str] = str,
    ) -> list[str]:
        """The text of ``rhasp solve``: the :meth:`heading`, then the numbered plan
        (:meth:`plan_lines`)."""
        return [*self.heading(verbose, advised), *self.plan_lines(notation)]


def reading_text(puzzle: Puzzle) -> str:
    """``target X, leaving right of row 3``: what the reader inferred, or the empty string."""
    return "; ".join(puzzle.reading)


def gap_text(lower: int | None, length: int | None, objective: Objective) -> str:
    """``not proven minimal: between 18 and 31 moves``: what a plan found past a limit is,
    between the proven lower bound and its own length (``at most 31 moves`` with no bound),
    never called optimal; the anytime search that found it named."""
    most = counted(length or 0, objective[:-1])
    known = f"between {lower} and {most}" if lower is not None else f"at most {most}"
    return f"not proven minimal: {known}, a weighted A* plan"


def proof_text(proofs: tuple[str, ...]) -> str:
    """``asp horizon proof, bfs agrees``: the first proof, then the engines that confirm it;
    or ``proven by astar's lower bound, met by the anytime plan``: a plan found past a limit
    no longer than the lower bound the searches proved before it."""
    first, *others = proofs
    if others == [ANYTIME]:
        return f"proven by {first}'s lower bound, met by the {ANYTIME} plan"
    text = "asp horizon proof" if first == "asp" else f"proven by {first}"
    return ", ".join([text, *(f"{other} agrees" for other in others)])


def search_words(name: str, figures: SearchFigures) -> str:
    """``astar 7,925 states 0.08 s`` or ``bfs stopped at 1,000,043 states 2.43 s``: one
    search's states and seconds."""
    states = figures.explored
    stopped = "stopped at " if figures.stopped else ""
    counted_states = "" if states is None else f"{stopped}{counted(states, 'state')} "
    return f"{name} {counted_states}{figures.seconds:.2f} s"


def memo_text(memo: Mapping[str, int] | None) -> str:
    """``, memo 2,933 states, 13,108 nogoods``: what the state memo did, if it ran."""
    if not memo:
        return ""
    return f", memo {counted(memo['states'], 'state')}, {counted(memo['nogoods'], 'nogood')}"


class EngineDisagreement(RhaspError):
    """Two engines, or an engine and the model, disagree: always a bug (exit code 3)."""


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
