"""The ASP engine: clingo plans with the encodings in ``encodings/``, one horizon at a time.

This driver does in Python what ``#include <incmode>.`` does for the clingo executable, on the
same files, but skips horizons: ground ``base``, then ``step(t)`` and ``check(t)`` as far as
the horizon asked, make ``query`` true at that horizon only, and solve. The encodings let a
plan end before the horizon, so a horizon without a plan has none of that many steps or
fewer: the driver asks 0, the stride, twice the stride, ... (:data:`STRIDE`: 3 moves, 4
slides) until one has a plan, then one step below each plan it finds, until one has none;
that plan is minimal, and that horizon is the proof (``encodings/README.md``, "One proof for
many horizons"). With the state memo, the horizon goes up at least to the start's bound, what
every plan takes (below it no horizon has a plan, so none is asked: a skipped horizon proves
nothing, a plan is still proven by the horizon below it, solved). Learned constraints carry
over from one call to the next, as multi-shot solving does. The driver reads exactly one
model a call, that horizon's plan: clingo's models are set to 1, and the options passed to
clingo are those of its search only (:mod:`rhasp.engines.clingo_options`).

By default the state memo (``rhasp/engines/memo.py``) rides along: a propagator that prunes
boards the search has already reached at an earlier step, with clingo's domain heuristic
deciding the steps in time order (the ``#heuristic`` rules in ``board.lp``), on one solver
thread (several, asked for with ``--parallel-mode``, share one memo). ``memo=False`` runs
exactly what ``clingo encodings/moves.lp instance.lp`` runs.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import clingo

from rhasp.engines import AspOptions
from rhasp.engines.clingo_options import checked_clingo_args, option_name
from rhasp.engines.memo import StateMemo
from rhasp.errors import InputError, about
from rhasp.formats.facts import write_facts
from rhasp.limits import Budget, Limit, address_space_left, wait_until_done
from rhasp.model import Move, Plan, Puzzle
from rhasp.shipped import shipped
from rhasp.solution import AspFigures, EngineDisagreement, Objective, Solution

ENCODING_FILES = {"moves": "moves.lp", "slides": "slides.lp"}
#: How far the driver raises the horizon after one without a plan, in the objective's steps:
#: the horizons between are proven with it (a plan may end early), and the last ones are the
#: costly ones (bench/README.md, "ASP at scale"; by moves 3 since "the stride by moves").
STRIDE: dict[Objective, int] = {"moves": 3, "slides": 4}

#: What each of clingo's solver threads maps when it first starts, besides its stack: glibc's
#: malloc arena for the thread, 64 MiB reserved on 64-bit Linux; later solves of the process
#: reuse it (the growth measured: bench/README.md, "Limits").
ARENA_BYTES = 64 << 20
#: The room a solve needs besides new threads' arenas and stacks: its threads' thread-local
#: data and the solver's growth while it runs. Without it clingo ends the process from C++
#: ("cannot allocate memory for thread-local data: ABORT", exit code 127), which no Python
#: code can catch. The margin is four times the largest growth of a horizon measured.
SOLVE_MARGIN = 16 << 20
#: The most solver threads a solve of this process has started: their arenas and stacks
#: stay reserved, and the next solve's threads reuse them.
_threads_started = 0


#: The messages clingo has given this process so far: each is printed once (:func:`say_once`).
_said: set[str] = set()
_said_lock = threading.Lock()


def say_once(code: clingo.MessageCode, message: str) -> None:
    """clingo's logger: ``message`` on standard error, ``clingo:`` before it, the first time
    this process is given it, never again. clingo says what it makes of an option each time
    a Control takes its options and again when a solve starts (``Oversubscription: #Threads=4
    exceeds logical CPUs=2.`` twice a puzzle; ``Heuristic 'Unit' implies lookahead.``), and
    a file of many puzzles makes a Control each: the same line would fill the screen. The
    encodings' own warnings are off (``--warn=none``); what is left is about the options."""
    text = message.rstrip()
    with _said_lock:
        if text in _said:
            return
        _said.add(text)
    print(f"clingo: {text}", file=sys.stderr, flush=True)


def memo_options(clingo_args: Sequence[str]) -> list[str]:
    """The clingo options the memo runs with, each unless the user's options set it: the
    domain heuristic (time-ordered steps). The search runs on clingo's one solver thread:
    a second one, racing the first on the other core and sharing its memo, no longer pays
    since the memo's pattern database, and a new process's pattern is chosen on that core
    meanwhile (bench/README.md, "one solver thread"); ``--parallel-mode=2`` still asks for
    two."""
    wanted = {"heuristic": "--heuristic=Domain"}
    given = {option_name(arg) for arg in clingo_args}
    return [option for name, option in wanted.items() if name not in given]


def encodings_dir() -> Path:
    """``encodings/``: inside the installed package, or beside it in a source checkout."""
    return shipped("encodings")


def encoding_path(objective: Objective) -> Path:
    return encodings_dir() / ENCODING_FILES[objective]


def encoding_text(objective: Objective) -> str:
    """The encoding's text, its ``#include "board.lp".`` naming rhasp's own file by its full
    path: clingo looks for an included file in the working directory before the including
    file's, so a ``board.lp`` where rhasp was started (a student's copy, say) would otherwise
    be read instead, and rhasp would search another puzzle's rules without a word."""
    path = encoding_path(objective)
    text = path.read_text(encoding="utf-8")
    include = '#include "board.lp".'
    if text.count(include) != 1:
        raise RuntimeError(f"{path} does not include board.lp once, as rhasp reads it")
    board = (path.parent / "board.lp").as_posix().replace("\\", "\\\\").replace('"', '\\"')
    return text.replace(include, f'#include "{board}".')


@dataclass
class HorizonStats:
    """What the solver did, summed over all horizons."""

    horizon: int = 0
    choices: int = 0
    conflicts: int = 0
    restarts: int = 0
    atoms: int = 0  # of the whole ground program, after the last horizon
    seconds: float = 0.0
    memo: StateMemo | None = None
    #: Per horizon solved, in order: (horizon, the plan's steps or None, seconds grounding and
    #: solving).
    per_horizon: list[tuple[int, int | None, float]] = field(default_factory=list)

    def add(self, statistics: Any) -> None:
        solvers = statistics["solving"]["solvers"]
        self.choices += int(solvers["choices"])
        self.conflicts += int(solvers["conflicts"])
        self.restarts += int(solvers["restarts"])
        self.atoms = int(statistics["problem"]["lp"]["atoms"])

    def figures(
        self, objective: Objective, clingo_args: Sequence[str], move_atoms: Sequence[str]
    ) -> AspFigures:
        return AspFigures(
            horizon=self.horizon,
            seconds=round(self.seconds, 6),
            choices=self.choices,
            conflicts=self.conflicts,
            restarts=self.restarts,
            atoms=self.atoms,
            encoding=ENCODING_FILES[objective],
            clingo_args=tuple(clingo_args),
            memo=None if self.memo is None else self.memo.figures(),
            horizons=tuple((h, plan, round(seconds, 4)) for h, plan, seconds in self.per_horizon),
            move_atoms=tuple(move_atoms),
        )


@dataclass
class AspEngine:
    name = "asp"
    options: AspOptions = field(default_factory=AspOptions)
    memo_bound: bool | None = None  # the memo's bound on the steps left: None, its default (on)
    memo_pattern: bool | None = None  # and its pattern database by moves: None, its default (on)
    #: How far the horizon goes up after one without a plan (1: the climb); None: the
    #: objective's own (:data:`STRIDE`).
    stride: int | None = None
    budget: Budget = field(kw_only=True)  # its atoms, horizon and seconds

    def solve(self, puzzle: Puzzle, objective: Objective) -> Solution:
        with about(puzzle.name):
            atoms, stats, limit = self.search(puzzle, objective)
        plan = None if limit else plan_from_atoms(atoms, group_slides=objective == "slides")
        proofs = () if limit else ("asp",)
        moves = (atom for atom in atoms if atom.match("move", 3))
        shown = sorted(moves, key=lambda atom: atom.arguments[0].number)
        figures = stats.figures(objective, self.arguments(), [str(atom) for atom in shown])
        return Solution(
            puzzle, objective, plan, self.name, proofs, None, stats.seconds, limit, asp=figures
        )

    def search(
        self, puzzle: Puzzle, objective: Objective
    ) -> tuple[list[clingo.Symbol], HorizonStats, Limit | None]:
        """The shown atoms of a minimal plan, the solver's work, and the limit that stopped the
        search first, if one did (then no atoms: a plan found may not be minimal)."""
        began = time.perf_counter()
        memo = None
        if self.options.memo:
            given = {"bound": self.memo_bound, "pattern": self.memo_pattern}
            chosen = {name: value for name, value in given.items() if value is not None}
            memo = StateMemo(**chosen, pattern_aside=True)
        control = self._control(puzzle, objective, self.arguments())
        if memo is not None:
            control.register_propagator(memo)
        stats = HorizonStats(memo=memo)
        try:
            atoms, limit = self._grow_horizon(control, stats, began, objective)
        finally:
            if memo is not None:
                memo.close()
        stats.seconds = time.perf_counter() - began
        return atoms, stats, limit

    def _grow_horizon(
        self, control: clingo.Control, stats: HorizonStats, began: float, unit: Objective
    ) -> tuple[list[clingo.Symbol], Limit | None]:
        """Solve horizons 0, the stride, twice the stride, ... (:attr:`stride`, or the
        objective's :data:`STRIDE`; with the memo, up to its bound of the start at once where
        that is more: :meth:`StateMemo.start_bound`) until one has a plan, of L steps; then
        L-1, and again below each shorter plan, until a horizon has none: the plan is minimal,
        proven by that horizon (the encodings let a plan end early, so a horizon without a
        plan has none of that many steps or fewer). Stops at the first limit."""
        best: list[clingo.Symbol] = []  # the shortest plan found so far (its shown atoms)
        length = None  # its steps
        proven = -1  # the largest horizon without a plan: none of that many steps or fewer
        horizon, grounded, ground = 0, -1, 0  # ground: atoms so far
        last = 0  # the steps the last grounding added
        asked = None  # the horizon the goal was asked at last
        max_atoms, max_horizon = self.budget.max_atoms, self.budget.horizon
        stride = STRIDE[unit] if self.stride is None else self.stride
        while True:
            stats.horizon = horizon
            started = time.perf_counter()
            while grounded < horizon:  # ground the steps missing, within the atoms allowed
                now = len(control.symbolic_atoms)
                growth = (now - ground) // last if grounded > 0 else 0  # a step, of late
                ground = now
                if now + growth > max_atoms:  # the next step would go beyond
                    text = f"ground program limit reached after {now:,} atoms at horizon {grounded}"
                    said = _proven(text, proven, length, unit)
                    return [], Limit(said, "atoms", max_atoms, at_least=_at_least(proven))
                # All at once where they fit, else one (the limit is then met at its step):
                # one call of the grounder costs about as much as a step of a 6×6 board.
                # They fit with room for twice the growth of late: a step's program grows over
                # the first steps (the order rules reach up to order_window steps back), so
                # the early steps' average undershoots the next ones'.
                fits = growth and now + 2 * (horizon - grounded) * growth <= max_atoms
                last = horizon - grounded if fits else 1
                ground_steps(control, grounded + 1, grounded + last)
                grounded += last
            ask(control, horizon, asked)
            asked = horizon
            short = memory_short(solver_threads(control), horizon)
            if short is not None:
                said = _proven(short.text, proven, length, unit)
                return [], replace(short, text=said, at_least=_at_least(proven))
            found = self._solve_horizon(control, began, stats)
            steps = None  # no plan (False), or no answer in time (None)
            if found is not None and found is not False:  # a plan, of no step at all if empty
                steps = sum(atom.match("move", 3) for atom in found)
            stats.per_horizon.append((horizon, steps, time.perf_counter() - started))
            if found is None:
                text = _proven(f"timed out at horizon {horizon}", proven, length, unit)
                return [], Limit(text, "time", self.budget.seconds, at_least=_at_least(proven))
            stats.add(control.statistics)
            # A display written before Progress had proved() shows the horizons as before.
            proved = getattr(self.options.progress, "proved", None)
            if proved is not None:
                proved(horizon, steps)
            if found is False:
                proven = horizon
                if length is not None:  # a plan of proven + 1 steps: minimal
                    stats.horizon = length
                    return best, None
                if horizon >= max_horizon:
                    text = f"no plan up to horizon {max_horizon}"
                    return [], Limit(text, "horizon", max_horizon, at_least=_at_least(proven))
                # Where the memo knows every plan takes more, the horizons between have no
                # plan: none is asked (each solve costs more the more steps are grounded).
                least = 0 if stats.memo is None else stats.memo.start_bound()
                horizon = min(max(horizon + stride, least), max_horizon)
            else:
                best, length = found, steps
                if length - 1 <= proven:
                    stats.horizon = length
                    return best, None
                horizon = length - 1

    def _solve_horizon(
        self, control: clingo.Control, began: float, stats: HorizonStats
    ) -> list[clingo.Symbol] | bool | None:
        """This horizon's plan (its shown atoms: one ``move`` a step), False when it has none,
        None when time is up.

        The solve runs in the background while this thread waits in short slices, reporting
        progress between them.
        """
        progress = self.options.progress
        deadline = self.budget.deadline(began)
        models: list[list[clingo.Symbol]] = []
        on_model = lambda model: models.append(model.symbols(shown=True))  # noqa: E731
        if stats.memo is not None:
            stats.memo.horizon = stats.horizon
            stats.memo.deadline = deadline

        def tick(now: float) -> None:
            if progress is not None:
                states = 0 if stats.memo is None else len(stats.memo.memo)
                progress.searching(states, stats.horizon, now - began, "horizon")

        with control.solve(on_model=on_model, async_=True) as handle:
            if not wait_until_done(handle.wait, deadline, tick):
                handle.cancel()
                return None
            satisfiable = handle.get().satisfiable
        if len(models) > 1:  # clingo's models are set to 1 (_control): never, short of a bug
            raise EngineDisagreement(
                f"clingo reported {len(models)} models at horizon {stats.horizon}, where rhasp "
                "reads one: a bug"
            )
        if not satisfiable:
            return False
        (shown,) = models
        return shown

    def arguments(self) -> list[str]:
        """clingo's options: the memo's, then the user's, which are checked here too, for an
        engine made without a request (:mod:`rhasp.engines.clingo_options`)."""
        given = checked_clingo_args(self.options.clingo_args, "clingo_args")
        memo = memo_options(given) if self.options.memo else []
        return [*memo, *given]

    def _control(
        self, puzzle: Puzzle, objective: Objective, arguments: Sequence[str]
    ) -> clingo.Control:
        try:
            control = clingo.Control(["--warn=none", *arguments], logger=say_once)
        except (RuntimeError, UnicodeError) as error:
            raise InputError(f"clingo refuses the options: {error}", "--clingo-arg") from None
        control.configuration.solve.models = "1"  # one answer, whatever else was set
        control.add("base", [], encoding_text(objective))
        control.add("base", [], write_facts(puzzle))
        return control


def solver_threads(control: clingo.Control) -> int:
    """The threads clingo's solve will run: ``--parallel-mode``, as clingo read it
    (``2,compete``), whether the memo or the user set it."""
    mode = str(control.configuration.solve.parallel_mode)
    number = mode.split(",")[0]
    return int(number) if number.isdigit() else 1


def memory_short(threads: int, horizon: int) -> Limit | None:
    """Why clingo's solve of ``horizon`` may not start under the process's address-space
    limit, or None when there is room (or no limit). A solve's ``threads`` need an arena and
    a stack each the first time (:data:`ARENA_BYTES`) and :data:`SOLVE_MARGIN` every time;
    past the limit clingo aborts the process from C++, with no line of rhasp's and exit code
    127, so the search stops before, as at any other limit: exit code 4 when no other engine
    proves the answer."""
    global _threads_started
    left = address_space_left()
    if left is None:
        _threads_started = max(_threads_started, threads)
        return None
    stack = stack_bytes()
    needed = max(0, threads - _threads_started) * (ARENA_BYTES + stack) + SOLVE_MARGIN
    if left < needed:
        text = (
            f"out of memory for clingo's solver at horizon {horizon}: {left >> 20} MiB left "
            f"under the address-space limit, {needed >> 20} MiB needed"
        )
        return Limit(text, "address space")
    _threads_started = max(_threads_started, threads)
    return None


def stack_bytes() -> int:
    """A new thread's stack: the soft stack limit, which glibc takes for its threads (8 MiB
    on most systems); 8 MiB too when there is none (glibc then takes less)."""
    try:
        import resource  # POSIX only
    except ImportError:  # pragma: no cover - Windows
        return 8 << 20
    soft, _ = resource.getrlimit(resource.RLIMIT_STACK)
    return 8 << 20 if soft == resource.RLIM_INFINITY else soft


def ground_horizon(control: clingo.Control, horizon: int) -> None:
    """Ground one more horizon and ask for a goal there, as ``#include <incmode>.`` does:
    the climb of ``encodings/memo.lp``, which runs it inside the clingo executable."""
    ground_step(control, horizon)
    ask(control, horizon, horizon - 1 if horizon else None)


def ground_step(control: clingo.Control, step: int) -> None:
    """Ground step ``step`` (``base`` with step 0) and its goal, asked for by ``query(step)``."""
    ground_steps(control, step, step)


def ground_steps(control: clingo.Control, first: int, last: int) -> None:
    """Ground steps ``first`` to ``last`` (:func:`ground_step`'s each) in one call of the
    grounder."""
    parts = []
    for step in range(first, last + 1):
        t = clingo.Number(step)
        parts += [("base" if step == 0 else "step", [] if step == 0 else [t]), ("check", [t])]
    control.ground(parts)


def ask(control: clingo.Control, horizon: int, before: int | None = None) -> None:
    """Ask for every target gone at step ``horizon`` instead of at ``before``, the horizon
    asked last (None: none yet): the horizon may go down as well as up. Every other step's
    ``query`` stays false, as clingo leaves an external it has not been told (two calls a
    horizon, where one a step grounded cost most of a millisecond at 80 steps)."""
    if before is not None and before != horizon:
        control.assign_external(clingo.Function("query", [clingo.Number(before)]), False)
    control.assign_external(clingo.Function("query", [clingo.Number(horizon)]), True)


def _at_least(proven: int) -> int | None:
    """What every plan takes when the largest horizon without a plan is ``proven`` (-1: none
    solved yet): one step more (a step is a move, or a slide by slides)."""
    return proven + 1 if proven >= 0 else None


def _proven(text: str, proven: int, length: int | None, unit: Objective) -> str:
    """A limit's ``text`` with what the horizons solved had proven by then: the most ``unit``
    of which there is no plan, and a plan found (not yet proven minimal)."""
    known = []
    if proven >= 0:
        known.append(f"no plan of {proven} {unit} or fewer")
    if length is not None:
        known.append(f"a plan of {length} found")
    return f"{text}, with {' and '.join(known)}" if known else text


def plan_from_atoms(atoms: Sequence[clingo.Symbol], *, group_slides: bool) -> Plan:
    """The plan from ``move(T,V,D)`` atoms, in step order.

    With ``group_slides`` (the slides encoding, which plans one cell per step), consecutive
    slides of one vehicle in one direction make up one move of the plan, as the encoding's
    documentation says. Steps of the moves encoding are moves and are kept as they are.
    """
    steps = sorted(
        (atom.arguments[0].number, atom.arguments[1].string, atom.arguments[2].number)
        for atom in atoms
        if atom.match("move", 3)
    )
    moves: list[Move] = []
    for _, label, delta in steps:
        last = moves[-1] if moves else None
        same_run = last is not None and last.label == label and (last.delta > 0) == (delta > 0)
        if group_slides and same_run:
            moves[-1] = Move(label, last.delta + delta)
        else:
            moves.append(Move(label, delta))
    return tuple(moves)
