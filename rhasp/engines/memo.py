"""The state memo: a clingo propagator that remembers which boards the search has reached.

The encodings search over *sequences* of steps and cannot see that two sequences reach the
same board. This propagator can. It follows the ``go(T,V,P)`` atoms, one true per step, and
from them the board at every step: the start, with the moves of steps 1..t applied. It keeps,
for every board it has seen on a legal prefix of steps, the least step at which it was seen,
and prunes with one rule:

    a board reached at step s is never on a minimal plan at a step t > s.

Why this loses nothing (the soundness argument, also in ``encodings/README.md``):

* A board B is *known* at step t only when the ``go`` atoms of steps 1..t are all true and
  the solver has propagated them without conflict. At that point every step u <= t moves
  one vehicle along a path the encoding checked (the move's constraints hold), and the frame
  axioms keep every other vehicle where it was, so the state atoms of step t say B, and B is
  reachable from the start in at most t moves. That is a fact about the puzzle, not about
  this branch of the search: it stays true after backtracking, at every later horizon and in
  every solver thread, which is why the memo persists and is shared.
* If a plan of h steps had board B at step t, and B is reachable in s < t steps, replacing
  the plan's first t steps by those s would give a plan of h - (t - s) < h steps. So no plan
  of the minimal length h* has B at a step t > s. Adding the nogood "not (the state atoms of
  step t say B)" therefore removes no plan of length h*: the first satisfiable horizon stays
  h*, and the horizons below it were unsatisfiable anyway. Any plan found still satisfies
  the whole encoding, so it is still legal and still minimal. The nogood is phrased with the
  state atoms, not with the ``go`` atoms that led to B, so it cuts every way to B at step t.
* Look-ahead, the same rule one step early: once the board at step t is known, every
  ``go(t+1,V,P)`` that would lead to a board held at step t or earlier is ruled out by the
  clause "not (the other vehicles where they are at step t, and go(t+1,V,P))". The solver
  then skips those moves by propagation instead of trying each and meeting a conflict.
* Following the ``go`` atoms rather than the state atoms costs one callback per step rather
  than one per vehicle and step. Boards are known only along the decided prefix, which the
  domain heuristic (steps in time order) makes the common case.

A second rule looks ahead to the goal, rather than back at the memo:

    a board at step t whose lower bound on the steps left is b has every target gone at no
    step before t + b.

* The bound (:meth:`rhasp.search.BoundTable.bound`, argued there) counts by moves the
  vehicles that must move at least once (a target, what stands across its way, what stands
  in the way of every way those have off it, and so on), by slides the search core's cells
  (:func:`rhasp.search.core.lower_bound`, A*'s); or, where that is more, from the first
  horizon (beside the search; in its own thread from the first of
  :attr:`StateMemo.pattern_from` steps), the largest of the fewest moves (by
  slides: slides) of several puzzles, each the same with some vehicles lifted off or one a
  cell shorter (:meth:`rhasp.search.PatternTable.collection`, argued there), taken as each
  comes. No plan from the board finishes in fewer steps.
* The nogood is "not (this board at step t, and every target gone at step t + b - 1)",
  with the last step grounded in place of t + b - 1 when that lies beyond (gone persists,
  so gone there means gone by t + b - 1). It states a fact about the puzzle, true at every
  horizon, so it stays, with what clasp learns from it; at a horizon h <= t + b - 1 the goal
  makes those ``gone`` atoms true and the nogood cuts the board. The board is not recorded
  in the memo (the search leaves it at once).
* The look-ahead applies the same test to the boards one step further, after ruling out
  the moves the board blocks by its cells (those go atoms are false anyway; looking their
  boards up would cost more than the test).

Everything the propagator knows comes from the ground program and the solver's assignments:
its tables, the pattern's among them, are worked out from the facts (the pattern is a search
of a smaller puzzle, never of this one), and it never reads rhasp's BFS of the puzzle.

It runs inside rhasp's driver (``rhasp/engines/asp.py``) and, unchanged, inside the clingo
executable through ``encodings/memo.lp``; so it uses only the parts of clingo's Python API
that clingo 5.4 already had.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

from clingo import Function, Number

from rhasp.model import Board, Vehicle
from rhasp.search import BoundTable, PatternAside, PatternTable, PatternThread

#: The first horizon at which the memo chooses its pattern database (steps: moves or slides).
PATTERN_FROM = 12
#: The least time left to the deadline for the choice to start: it first loads the compiled
#: core, a few tenths of a second.
PATTERN_SECONDS_LEAST = 1.0
#: What the pattern's first choice in a process costs, about (numba's import and the compiled
#: cluster search's load, then the choice): the seconds a solve spends before it pays them.
PATTERN_RENT = 0.5

#: go(T,V,P): (step, vehicle index, its field after it: position P - 1, or gone)
GoEntry = tuple[int, int, int]
#: go(T,V,P) of one vehicle: its place (position P - 1) -> (literal, its field after it)
GoAtoms = dict[int, tuple[int, int]]


class _Thread:
    """One solver thread's view of the current partial assignment, kept incrementally.

    It follows the ``go`` atoms only: one is true per step, so a step costs one callback,
    where following the state atoms cost one per vehicle. The state at step t is the state
    at step t-1 with the moved vehicle's field changed, so the keys of steps 0..prefix form
    a chain from the start, extended as the steps are decided (in time order, by the domain
    heuristic) and cut back when a step's ``go`` is undone.
    """

    def __init__(self, start: int, table: BoundTable) -> None:
        self.key = [start]  # the states of steps 0..prefix, prefix = len(key) - 1
        self.went: list[GoEntry | None] = [None]  # per step, its true go atom (none at 0)
        self.with_field = table.with_field

    def grow(self, steps: int) -> None:
        self.went.extend([None] * (steps - len(self.went)))

    def assign(self, entry: GoEntry) -> None:
        self.went[entry[0]] = entry

    def unassign(self, entry: GoEntry) -> None:
        step = entry[0]
        if self.went[step] == entry:
            self.went[step] = None
            del self.key[step:]

    def extend(self) -> int | None:
        """The next step whose state just became known, or None."""
        step = len(self.key)
        if step >= len(self.went) or self.went[step] is None:
            return None
        _, vehicle, after = self.went[step]  # type: ignore[misc]
        self.key.append(self.with_field(self.key[-1], vehicle, after))
        return step


@dataclass
class StateMemo:
    """The propagator: register it with ``Control.register_propagator`` before solving.

    One instance serves every horizon of one puzzle and every solver thread: the memo
    (board key -> least step) is shared, each thread keeps its own view of the assignment.
    """

    memo: dict[int, int] = field(default_factory=dict)
    nogoods: int = 0  # added over all horizons and threads
    #: The second rule, on by default (bench/asp.py measures it both ways: bench/README.md,
    #: "ASP at scale").
    bound: bool = True
    _board: _Board | None = None
    _watches: dict[int, list[GoEntry]] = field(default_factory=dict)
    _threads: list[_Thread] = field(default_factory=list)
    _steps: int = 0  # steps 0.._steps-1 are known
    #: The horizon being solved, when the driver solves below the steps grounded (a plan may
    #: end early); None: the last step grounded.
    horizon: int | None = None
    _moves: list[list[GoAtoms]] = field(default_factory=list)  # per step and vehicle
    #: Per step and vehicle, the solver literal of its state atom by its field (to phrase
    #: a nogood about a board); 0 where the encoding never derives that atom.
    _state_literals: list[list[list[int]]] = field(default_factory=list)
    _forced: list[GoEntry] = field(default_factory=list)  # go atoms of new steps true at once
    #: The pattern database too (bench/asp.py measures it both ways), by moves or by slides
    #: as the steps are, chosen at the first horizon of ``pattern_from`` steps or more.
    pattern: bool = True
    pattern_from: int = PATTERN_FROM
    #: ... and once the solve has spent this many seconds, unless the pattern's code is
    #: loaded in this process already (:meth:`_pattern_due`).
    pattern_rent: float = PATTERN_RENT
    #: When the solve must end (``time.perf_counter()``; the driver sets it): the pattern's
    #: choice takes at most the time left, and none when too little is.
    deadline: float = math.inf
    #: Choose the pattern beside the search, and search on until it comes: where its code is
    #: not loaded in this process, in a child process (:class:`rhasp.search.PatternAside`)
    #: at once, rather than rent first and then wait for the load here; where it is, in a
    #: thread (:class:`rhasp.search.PatternThread`), on another core. rhasp's driver sets
    #: it; the clingo executable, whose interpreter is not one to start, keeps the default.
    pattern_aside: bool = False
    #: The child or thread choosing the pattern, until it answers.
    _aside: PatternAside | PatternThread | None = None
    _start: int = 0  # the board at step 0
    _patterned: bool = False  # the pattern database has been chosen (or found to be none)
    _since: float = math.inf  # when the memo first met the solve (``time.perf_counter()``)

    def figures(self) -> dict[str, int]:
        """For the solution's record: boards in the memo, nogoods added."""
        return {"states": len(self.memo), "nogoods": self.nogoods}

    # --- clingo's propagator interface ---------------------------------------------------

    def init(self, init: Any) -> None:
        """Watch the ``go`` atoms of the steps grounded since the last solve.

        Called before every solve. Only the new steps are looked up (by symbol, not by a scan
        of the whole program), so a horizon costs the same however many came before it. The
        threads' views carry over from the last solve, which ended with every assignment
        above the top level undone; a new ``go`` literal that is already true (a step forced
        at the top level) is applied here, since the solver reports only literals that become
        true during the search.
        """
        if self._board is None:
            self._since = time.perf_counter()
            self._board = _Board.read(init.symbolic_atoms)
        while self._add_step(init, self._steps):
            self._steps += 1
        if not self._threads:
            start = self._start = self._start_key(init)
            self.memo.setdefault(start, 0)
            table = self._board.table
            self._threads = [_Thread(start, table) for _ in range(init.number_of_threads)]
        where = self._pattern_due()
        if where is not None:
            self._add_pattern(where)
        self._came()
        if len(self._threads) != init.number_of_threads:
            raise RuntimeError("the state memo needs the same number of threads every solve")
        for thread in self._threads:
            thread.grow(self._steps)
        for thread in self._threads:
            for entry in self._forced:
                thread.assign(entry)
        self._forced.clear()

    def _pattern_due(self) -> Literal["here", "aside", "thread"] | None:
        """Where to choose the pattern database now ("here", "aside": a child process, or
        "thread"), None if not now: with the bound and the pattern on, once.

        Beside the search (:attr:`pattern_aside`), at the first horizon: a process's first
        pattern asked of a child process (:class:`rhasp.search.PatternAside`), or, where the
        code is loaded, chosen in a thread (:class:`rhasp.search.PatternThread`), on another
        core either way. The solve goes on meanwhile and takes each pattern when it comes, so
        the choice costs it nothing, and the sooner it comes the sooner the bound prunes and
        the horizon goes up to it (bench/README.md, "Issue 57: the order of independent steps
        three back, the patterns from the first horizon").

        In the search's own thread, at the first horizon of :attr:`pattern_from` steps or
        more (the horizons before it are cheap, and most of the cards end there; choosing
        takes up to a second), once the solve has spent :attr:`pattern_rent` seconds, what
        the first choice in a process costs, or at once where that cost is paid already (the
        pattern's code loaded). Renting until the rent adds up to the price: an easy card in
        a process of its own ends before it pays for a pattern it would not use, and a solve
        pays at most about twice what the better choice in hindsight costs.

        When the pattern comes changes only what is pruned, never the answer: its bound is a
        true lower bound whenever it is added (:class:`rhasp.search.PatternTable`)."""
        board = self._board
        assert board is not None
        if not (self.bound and self.pattern) or self._patterned:
            return None
        loaded = PatternTable.costs_no_load(board.model)
        if self.pattern_aside and PatternAside.worth(board.model):
            return "aside"
        if self.pattern_aside and loaded and PatternThread.worth():
            return "thread"
        if self._last() < self.pattern_from:
            return None
        if loaded:
            return "here"
        return "here" if time.perf_counter() - self._since >= self.pattern_rent else None

    def _add_pattern(self, where: Literal["here", "aside", "thread"]) -> None:
        """Bound also by the fewest moves (by slides: slides) of puzzles with some of its
        vehicles only, or one of them a cell shorter, the largest of them
        (:meth:`rhasp.search.PatternTable.collection`, argued there), built from the start
        ``where`` :meth:`_pattern_due` says (here if no child process can start), within half
        the time left."""
        self._patterned = True
        board = self._board
        assert board is not None
        left = self.deadline - time.perf_counter()
        if left < PATTERN_SECONDS_LEAST:
            return
        gone = board.table.gone
        start = tuple(None if f == gone else f for f in board.table.fields(self._start))
        choice = {"seconds": left / 2, "by_slides": board.by_cells, "seconds_left": left}
        if where == "thread":
            self._aside = PatternThread(board.model, start, **choice)
            return
        if where == "aside":
            try:
                self._aside = PatternAside(board.model, start, **choice)
                return
            except OSError:  # no process to start: choose here
                pass
        for pattern in PatternTable.collection(board.model, start, **choice):
            self._take(pattern)

    def _take(self, pattern: PatternTable) -> None:
        """Bound by ``pattern`` too from now on."""
        board = self._board
        assert board is not None
        self._board = replace(board, table=board.table.with_pattern(pattern))

    def _came(self) -> None:
        """Take the patterns of the child or thread come since the last call; once it is
        done, end it, and where the child failed before any came, choose again here
        (:meth:`_pattern_due`: no child is asked twice in a process)."""
        aside = self._aside
        if aside is None:
            return
        done = aside.done  # first: once done, arrived() has every pattern
        for pattern in aside.arrived():
            self._take(pattern)
        if done:
            self._aside = None
            aside.close()
            if aside.failed:
                self._patterned = False

    def start_bound(self) -> int:
        """What every plan takes from the start, as far as the bound knows by now (by moves
        or slides: the steps' unit): the bound of the start board, a lower bound (argued
        with :meth:`rhasp.search.BoundTable.bound` and :class:`rhasp.search.PatternTable`),
        so no horizon below it has a plan. 0 before the first solve, or with the bound off."""
        if self._board is None or not self._threads or not self.bound:
            return 0
        return self._board.table.bound(self._start)

    def close(self) -> None:
        """End the child or thread choosing the pattern, if it still runs: the search is
        over."""
        if self._aside is not None:
            self._aside.close()
            self._aside = None

    def _start_key(self, init: Any) -> int:
        """The board at step 0, from its state atoms (facts: true before any search)."""
        table = self._board.table  # type: ignore[union-attr]
        key = 0
        for vehicle, literals in enumerate(self._state_literals[0]):
            for value, literal in enumerate(literals):
                if literal and init.assignment.is_true(literal):
                    key = table.with_field(key, vehicle, value)
        return key

    def _add_step(self, init: Any, step: int) -> bool:
        """Look up one step's state and go atoms, and watch the go atoms; False if the step
        is not grounded yet (the encodings' ``#external query(t)`` marks a grounded step)."""
        board = self._board
        assert board is not None
        atoms = init.symbolic_atoms
        if Function("query", [Number(step)]) not in atoms:  # check(step) is not grounded
            return False
        # On the path of every step grounded: the clingo calls are most of its cost, so each
        # object is made once (the positions' numbers, the assignment) and methods are bound.
        solver_literal, assignment = init.solver_literal, init.assignment
        states = [[0] * (board.table.gone + 1) for _ in board.labels]
        for vehicle, value, symbol in board.state_symbols(step):
            atom = atoms[symbol]  # None: the encoding never derives it
            if atom is not None:
                states[vehicle][value] = solver_literal(atom.literal)
        self._state_literals.append(states)
        moves: list[GoAtoms] = [{} for _ in board.labels]
        for vehicle, place, value, symbol in board.go_symbols(step):
            atom = atoms[symbol]
            if atom is None:
                continue
            literal = solver_literal(atom.literal)
            moves[vehicle][place] = (literal, value)
            if assignment.is_false(literal):
                continue
            if assignment.is_true(literal):
                self._forced.append((step, vehicle, value))
            if literal not in self._watches:
                self._watches[literal] = []
                init.add_watch(literal)
            self._watches[literal].append((step, vehicle, value))
        self._moves.append(moves)
        return True

    def propagate(self, control: Any, changes: Iterable[int]) -> None:
        if self._aside is not None:
            self._came()
        thread = self._threads[control.thread_id]
        watches = self._watches
        for literal in changes:
            for entry in watches.get(literal, ()):
                thread.assign(entry)
        while (step := thread.extend()) is not None:
            if not self._known(control, thread, step):
                return

    def undo(self, thread_id: int, assignment: Any, changes: Iterable[int]) -> None:
        thread = self._threads[thread_id]
        watches = self._watches
        for literal in changes:
            for entry in watches.get(literal, ()):
                thread.unassign(entry)

    # --- the rule ------------------------------------------------------------------------

    def _known(self, control: Any, thread: _Thread, step: int) -> bool:
        """The board at ``step`` just became known (every step up to it is decided and
        propagated): prune it, or record it and look one step ahead.

        Returns False when the solver must stop propagating (a nogood caused a conflict).
        """
        key = thread.key[step]
        seen = self.memo.get(key)
        if seen is not None and seen < step:
            return self._forbid(control, key, step)
        if self._bounding(step):
            need = self._board.table.bound(key)  # type: ignore[union-attr]
            if need > self._left(step):
                return self._forbid(control, key, step, step + need - 1)
        if seen is None or step < seen:
            self.memo[key] = step
        return step + 1 > self._last() or self._look_ahead(control, key, step)

    def _literals(self, fields: list[int], step: int) -> list[int]:
        """The state atoms, as solver literals, that say "the board of these ``fields`` at
        ``step``" (each exists: a known board is reached by legal moves, so the encoding
        derives it)."""
        states = self._state_literals[step]
        literals = [by_field[value] for by_field, value in zip(states, fields, strict=True)]
        if not all(literals):
            raise RuntimeError(f"the state memo met a board the encoding cannot derive: {fields}")
        return literals

    def _left(self, step: int) -> int:
        """Steps left after ``step`` at the horizon being solved (steps 0..horizon are known)."""
        return self._last() - step

    def _last(self) -> int:
        """The horizon being solved: its last step."""
        return self._steps - 1 if self.horizon is None else self.horizon

    def _bounding(self, step: int) -> bool:
        """Whether the bound can prune at ``step``: only where fewer steps are left than the
        largest bound any board has (for most steps of a long plan it cannot)."""
        return self.bound and self._left(step) < self._board.table.most  # type: ignore[union-attr]

    def _look_ahead(self, control: Any, key: int, step: int) -> bool:
        """Rule out the next step's moves that lead to a board seen at this step or earlier,
        or to one farther from the goal (by its bound) than the steps left after it. Only the
        moves within one step's reach of where each vehicle stands (``reach/3``) are looked
        at: the encoding rules out every other ``go`` atom of the next step by itself."""
        # On the hot path (once a board the search reaches): each move's board is worked out in
        # place from the fields read once (BoundTable.with_field, without reading the field
        # again per move), and the board's literals are looked up only if a move is ruled out.
        board = self._board
        assert board is not None
        table = board.table
        fields, shift, gone = table.fields(key), table.shift, table.gone
        memo, left, bound, assignment = self.memo, self._left(step + 1), table.bound, None
        bounding = self._bounding(step + 1)
        crossed, occupied, reach = table.crossed, None, board.reach
        negated: list[int] | None = None  # "not this board at this step", vehicle by vehicle
        for vehicle, by_place in enumerate(self._moves[step + 1]):
            now = fields[vehicle]
            if now == gone:  # it has left
                continue
            for place in reach[vehicle][now]:
                move = by_place.get(place)
                if move is None:
                    continue
                literal, value = move
                after = key + ((value - now) << shift[vehicle])
                seen = memo.get(after, step + 1) <= step
                if not seen:
                    if not bounding:
                        continue
                    if occupied is None:
                        occupied = table.occupied(fields)
                    if crossed[vehicle][now][value] & occupied:  # the board blocks the move
                        continue
                    need = bound(after)
                    if need <= left:
                        continue
                if assignment is None:  # (not `or`: an assignment's truth is its length, a call)
                    assignment = control.assignment
                if assignment.is_false(literal):
                    continue
                if negated is None:
                    negated = [-state for state in self._literals(fields, step)]
                clause = negated[:vehicle] + negated[vehicle + 1 :]
                clause.append(-literal)
                if not seen:
                    on_board = self._not_gone_by(step + need)
                    if on_board is None:
                        continue
                    clause.extend(on_board)
                self.nogoods += 1
                if not control.add_clause(clause):
                    return False
        return True

    def _forbid(self, control: Any, key: int, step: int, gone_by: int | None = None) -> bool:
        """Add the nogood: not the board ``key`` at this step; or, when the reason is the
        bound, not with every target gone at step ``gone_by``."""
        fields = self._board.table.fields(key)  # type: ignore[union-attr]
        clause = [-literal for literal in self._literals(fields, step)]
        if gone_by is not None:
            on_board = self._not_gone_by(gone_by)
            if on_board is None:
                return True
            clause.extend(on_board)
        self.nogoods += 1
        return bool(control.add_clause(clause))

    def _not_gone_by(self, step: int) -> list[int] | None:
        """The literals "some target is on the board at ``step``", or at the last step grounded
        if that comes first (gone persists); None if the encoding derives no ``gone`` atom of
        some target there (every target gone is then impossible, and there is nothing to
        rule out)."""
        states = self._state_literals[min(step, self._steps - 1)]
        table = self._board.table  # type: ignore[union-attr]
        literals = [states[t][table.gone] for t in table.targets]
        return None if not all(literals) else [-literal for literal in literals]


@dataclass(frozen=True)
class _Board:
    """What the memo needs of the puzzle, read from the facts of the ground program: the
    atoms of each vehicle, and the board as rhasp models it, whose keys and lower bound
    (:class:`~rhasp.search.BoundTable`) are the search core's."""

    labels: tuple[Any, ...]  # vehicle labels (clingo symbols) in key order
    positions: tuple[tuple[int, ...], ...]  # per vehicle, the positions on its line (1-based)
    exits: frozenset[tuple[int, int]]  # (vehicle, position): a target there has left
    table: BoundTable  # the keys' fields and the bound
    model: Board  # the puzzle's board, its vehicles in ``labels``' order
    #: Per vehicle and place (position - 1): the places one step may take it to (reach/3).
    reach: tuple[tuple[tuple[int, ...], ...], ...]
    by_cells: bool = False  # a step slides one cell (slides.lp), else it moves any distance

    @classmethod
    def read(cls, atoms: Any) -> _Board:
        labels = tuple(
            sorted(atom.symbol.arguments[0] for atom in atoms.by_signature("vehicle", 4))
        )
        index = {label: i for i, label in enumerate(labels)}
        positions: list[list[int]] = [[] for _ in labels]
        for atom in atoms.by_signature("pos", 2):
            label, position = atom.symbol.arguments
            positions[index[label]].append(position.number)
        exits = frozenset(
            (index[atom.symbol.arguments[0]], atom.symbol.arguments[1].number)
            for atom in atoms.by_signature("exit", 2)
        )
        reach: list[list[list[int]]] = [[[] for _ in range(max(p))] for p in positions]
        for atom in atoms.by_signature("reach", 3):
            label, start, end = atom.symbol.arguments
            reach[index[label]][start.number - 1].append(end.number - 1)
        by_cells = all(
            abs(end - start) == 1
            for places in reach
            for start, ends in enumerate(places)
            for end in ends
        )
        model = _model(atoms, labels)
        table = BoundTable.of(model, by_cells)
        sorted_positions = tuple(tuple(sorted(p)) for p in positions)
        reached = tuple(tuple(tuple(sorted(ends)) for ends in places) for places in reach)
        return cls(labels, sorted_positions, exits, table, model, reached, by_cells)

    def state_symbols(self, step: int) -> Iterator[tuple[int, int, Any]]:
        """Every possible ``at(V,P,step)`` and ``gone(V,step)``: (vehicle, field, symbol)."""
        t = Number(step)
        for vehicle, label, position, number, _ in self._places:
            yield vehicle, position - 1, Function("at", [label, number, t])
        for vehicle in self.table.targets:
            yield vehicle, self.table.gone, Function("gone", [self.labels[vehicle], t])

    def go_symbols(self, step: int) -> Iterator[tuple[int, int, int, Any]]:
        """Every possible ``go(step,V,P)``: (vehicle, its place P - 1, its field after the
        move: the place's, or gone, symbol)."""
        t = Number(step)
        for vehicle, label, position, number, after in self._places:
            yield vehicle, position - 1, after, Function("go", [t, label, number])

    @cached_property
    def _places(self) -> tuple[tuple[int, Any, int, Any, int], ...]:
        """Per vehicle and position on its line: (vehicle, label, position, the position as
        a clingo number, the vehicle's field once there: the position's, or gone at an
        exit), made once."""
        gone = self.table.gone
        return tuple(
            (vehicle, label, p, Number(p), gone if (vehicle, p) in self.exits else p - 1)
            for vehicle, label in enumerate(self.labels)
            for p in self.positions[vehicle]
        )


def _model(atoms: Any, labels: tuple[Any, ...]) -> Board:
    """The board of the facts (``encodings/README.md``), its vehicles in ``labels``' order."""
    shapes = {}
    for atom in atoms.by_signature("vehicle", 4):
        label, length, orientation, line = atom.symbol.arguments
        shapes[label] = Vehicle(str(label), orientation.name, line.number - 1, length.number)
    ((width, height),) = (
        (a.symbol.arguments[0].number, a.symbol.arguments[1].number)
        for a in atoms.by_signature("size", 2)
    )
    walls = frozenset(
        (a.symbol.arguments[0].number - 1, a.symbol.arguments[1].number - 1)
        for a in atoms.by_signature("wall", 2)
    )
    exits = tuple(
        (str(a.symbol.arguments[0]), a.symbol.arguments[1].name)
        for a in atoms.by_signature("target", 2)
    )
    return Board(width, height, tuple(shapes[label] for label in labels), walls, exits)  # type: ignore[arg-type]
