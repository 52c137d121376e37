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

A second rule looks ahead to the horizon h being solved, rather than back at the memo:

    a board at step t whose lower bound on the steps left exceeds h - t is on no plan of h steps.

* The bound (:meth:`_Board.bound`) counts what each target still needs for itself and, for
  every vehicle standing across a target's way out, what it needs to clear that way. By
  moves (a step may take a vehicle any distance): one move for a target still on the board,
  and one for each vehicle across its way. By slides (a step moves one cell): the cells the
  target must still cover to reach its exit edge, and for each vehicle across its way the
  fewest cells it must slide, up or down, to leave the target's line (a direction is counted
  only if the vehicle's own line has room for it). Every step moves one vehicle, so steps of
  different vehicles are different steps and the parts add up; a vehicle across the ways of
  two targets counts once, with the larger of its two needs. Walls and other vehicles only
  make the true number larger. So no plan finishes in fewer steps than the bound.
* The nogood "not (this board at step t)" is true only for this horizon: at the next one the
  board may be on a plan. It is added *tagged* (clingo drops it when the solve call ends),
  and the board is not recorded (it could be, being reached at step t is a fact about the
  puzzle, but the search leaves it at once).
* The look-ahead applies the same test to the boards one step further.
* It is used by slides only, unless told otherwise: by moves its bound (one move per vehicle
  in the way) prunes too little to pay for its nogoods (measured in bench/README.md).

The propagator never reads the BFS or anything else outside the ASP search: everything it
knows comes from the ground program and the solver's assignments.

It runs inside rhasp's driver (``rhasp/engines/asp.py``) and, unchanged, inside the clingo
executable through ``encodings/memo.lp``; so it uses only the parts of clingo's Python API
that clingo 5.4 already had.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from clingo import Function, Number

#: Bits per vehicle in a state key: positions are 1..11 on a 12-wide line, 0 means gone.
BITS = 4
MASK = (1 << BITS) - 1

GoEntry = tuple[int, int, int]  # go(T,V,P): (step, vehicle index, position code after it)
GoAtom = tuple[int, int, int, int]  # go(T,V,P): (literal, vehicle index, key shift, code after)


class _Thread:
    """One solver thread's view of the current partial assignment, kept incrementally.

    It follows the ``go`` atoms only: one is true per step, so a step costs one callback,
    where following the state atoms cost one per vehicle. The state at step t is the state
    at step t-1 with the moved vehicle's field changed, so the keys of steps 0..prefix form
    a chain from the start, extended as the steps are decided (in time order, by the domain
    heuristic) and cut back when a step's ``go`` is undone.
    """

    def __init__(self, start: int) -> None:
        self.key = [start]  # the states of steps 0..prefix, prefix = len(key) - 1
        self.went: list[GoEntry | None] = [None]  # per step, its true go atom (none at 0)

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
        _, vehicle, code = self.went[step]  # type: ignore[misc]
        shift = BITS * vehicle
        before = self.key[-1]
        self.key.append(before + ((code - ((before >> shift) & MASK)) << shift))
        return step


@dataclass
class StateMemo:
    """The propagator: register it with ``Control.register_propagator`` before solving.

    One instance serves every horizon of one puzzle and every solver thread: the memo
    (board key -> least step) is shared, each thread keeps its own view of the assignment.
    """

    memo: dict[int, int] = field(default_factory=dict)
    nogoods: int = 0  # added over all horizons and threads
    #: The second rule: None (the default) uses it by slides only; True or False forces it
    #: (bench/asp.py measures it both ways). By moves its bound is one move per vehicle in the
    #: way, too weak to pay for itself: 15 % slower on the 40 cards (bench/README.md).
    bound: bool | None = None
    _board: _Board | None = None
    _watches: dict[int, list[GoEntry]] = field(default_factory=dict)
    _threads: list[_Thread] = field(default_factory=list)
    _steps: int = 0  # steps 0.._steps-1 are known
    _moves: list[list[GoAtom]] = field(default_factory=list)  # per step
    #: Per step and vehicle, the solver literal of its state atom by position code (to phrase
    #: a nogood about a board); 0 where the encoding never derives that atom.
    _state_literals: list[list[list[int]]] = field(default_factory=list)
    _forced: list[GoEntry] = field(default_factory=list)  # go atoms of new steps true at once

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
            self._board = _Board.read(init.symbolic_atoms)
            if self.bound is None:
                self.bound = self._board.by_cells
        while self._add_step(init, self._steps):
            self._steps += 1
        if not self._threads:
            start = self._start_key(init)
            self.memo.setdefault(start, 0)
            self._threads = [_Thread(start) for _ in range(init.number_of_threads)]
        if len(self._threads) != init.number_of_threads:
            raise RuntimeError("the state memo needs the same number of threads every solve")
        for thread in self._threads:
            thread.grow(self._steps)
        for thread in self._threads:
            for entry in self._forced:
                thread.assign(entry)
        self._forced.clear()

    def _start_key(self, init: Any) -> int:
        """The board at step 0, from its state atoms (facts: true before any search)."""
        key = 0
        for vehicle, literals in enumerate(self._state_literals[0]):
            for code, literal in enumerate(literals):
                if literal and init.assignment.is_true(literal):
                    key += code << (BITS * vehicle)
        return key

    def _add_step(self, init: Any, step: int) -> bool:
        """Look up one step's state and go atoms, and watch the go atoms; False if the step
        is not grounded yet (the encodings' ``#external query(t)`` marks a grounded step)."""
        board = self._board
        assert board is not None
        atoms = init.symbolic_atoms
        if Function("query", [Number(step)]) not in atoms:  # check(step) is not grounded
            return False
        states = [[0] * (MASK + 1) for _ in board.labels]
        for vehicle, code, symbol in board.state_symbols(step):
            atom = atoms[symbol]  # None: the encoding never derives it
            if atom is not None:
                states[vehicle][code] = init.solver_literal(atom.literal)
        self._state_literals.append(states)
        moves: list[GoAtom] = []
        for vehicle, code, symbol in board.go_symbols(step):
            atom = atoms[symbol]
            if atom is None:
                continue
            literal = init.solver_literal(atom.literal)
            moves.append((literal, vehicle, BITS * vehicle, code))
            if init.assignment.is_false(literal):
                continue
            if init.assignment.is_true(literal):
                self._forced.append((step, vehicle, code))
            if literal not in self._watches:
                self._watches[literal] = []
                init.add_watch(literal)
            self._watches[literal].append((step, vehicle, code))
        self._moves.append(moves)
        return True

    def propagate(self, control: Any, changes: Iterable[int]) -> None:
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
        if self._bounding(step) and self._board.bound(key) > self._left(step):  # type: ignore[union-attr]
            return self._forbid(control, key, step, horizon_only=True)
        if seen is None or step < seen:
            self.memo[key] = step
        return step + 1 >= self._steps or self._look_ahead(control, key, step)

    def _board_literals(self, key: int, step: int) -> list[int]:
        """The state atoms, as solver literals, that say "the board ``key`` at ``step``"
        (each exists: a known board is reached by legal moves, so the encoding derives it)."""
        states = self._state_literals[step]
        literals = [states[v][(key >> (BITS * v)) & MASK] for v in range(len(states))]
        if not all(literals):
            raise RuntimeError(f"the state memo met a board the encoding cannot derive: {key:x}")
        return literals

    def _left(self, step: int) -> int:
        """Steps left after ``step`` at the horizon being solved (steps 0..horizon are known)."""
        return self._steps - 1 - step

    def _bounding(self, step: int) -> bool:
        """Whether the bound can prune at ``step``: only where fewer steps are left than the
        largest bound any board has (for most steps of a long plan it cannot)."""
        return self.bound and self._left(step) < self._board.most  # type: ignore[union-attr]

    def _look_ahead(self, control: Any, key: int, step: int) -> bool:
        """Rule out the next step's moves that lead to a board seen at this step or earlier,
        or to one farther from the goal (by its bound) than the steps left after it."""
        literals, assignment = self._board_literals(key, step), control.assignment
        memo, left, bound = self.memo, self._left(step + 1), self._board.bound  # type: ignore[union-attr]
        bounding = self._bounding(step + 1)
        for literal, vehicle, shift, code in self._moves[step + 1]:
            now = (key >> shift) & MASK
            if now == 0:
                continue
            after = key + ((code - now) << shift)
            seen = memo.get(after, step + 1) <= step
            if not seen and not (bounding and bound(after) > left):
                continue
            if assignment.is_false(literal):
                continue
            clause = [-other for i, other in enumerate(literals) if i != vehicle]
            clause.append(-literal)
            self.nogoods += 1
            if not control.add_clause(clause, tag=not seen):
                return False
        return True

    def _forbid(self, control: Any, key: int, step: int, horizon_only: bool = False) -> bool:
        """Add the nogood: not the board ``key`` at this step (for this horizon only, when
        the reason is the bound)."""
        self.nogoods += 1
        clause = [-literal for literal in self._board_literals(key, step)]
        return bool(control.add_clause(clause, tag=horizon_only))


#: A bound past any horizon: a vehicle across a target's way that can never leave it.
NEVER = 1 << 20

#: Per target and its position: (what the target needs itself, per vehicle across its way:
#: (vehicle index, its need per position code)).
Needs = dict[int, tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]]


@dataclass(frozen=True)
class _Board:
    """What the memo needs of the puzzle, read from the facts of the ground program."""

    labels: tuple[Any, ...]  # vehicle labels (clingo symbols) in key order
    positions: tuple[tuple[int, ...], ...]  # per vehicle, the positions on its line
    exits: frozenset[tuple[int, int]]  # (vehicle, position): a target there has left
    targets: tuple[int, ...]
    needs: tuple[Needs, ...] = ()  # per target: see :data:`Needs` and :meth:`bound`
    most: int = 0  # no board's bound is larger
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
        targets = tuple(
            sorted(index[atom.symbol.arguments[0]] for atom in atoms.by_signature("target", 2))
        )
        shapes = [(0, "", 0)] * len(labels)  # (length, orientation, line) per vehicle
        for atom in atoms.by_signature("vehicle", 4):
            label, length, orientation, line = atom.symbol.arguments
            shapes[index[label]] = (length.number, orientation.name, line.number)
        ((width, height),) = (
            (a.symbol.arguments[0].number, a.symbol.arguments[1].number)
            for a in atoms.by_signature("size", 2)
        )
        by_cells = all(
            abs(a.symbol.arguments[1].number - a.symbol.arguments[2].number) == 1
            for a in atoms.by_signature("reach", 3)
        )
        exit_of = {vehicle: position for vehicle, position in exits}
        needs = tuple(
            _target_needs(t, exit_of[t], shapes, (width, height), targets, by_cells)
            if t in exit_of
            else {}
            for t in targets
        )
        most = sum(
            max(
                (own + sum(max(need) for _, need in others) for own, others in by.values()),
                default=0,
            )
            for by in needs
        )
        sorted_positions = tuple(tuple(sorted(p)) for p in positions)
        return cls(labels, sorted_positions, exits, targets, needs, most, by_cells)

    def bound(self, key: int) -> int:
        """A lower bound on the steps from the board ``key`` to the goal (module docstring)."""
        total = 0
        across: dict[int, int] = {}
        for t, by_position in zip(self.targets, self.needs, strict=True):
            here = by_position.get((key >> (BITS * t)) & MASK)
            if here is None:  # gone
                continue
            own, others = here
            total += own
            for vehicle, need in others:
                cost = need[(key >> (BITS * vehicle)) & MASK]
                if cost > across.get(vehicle, 0):
                    across[vehicle] = cost
        return total + sum(across.values())

    def state_symbols(self, step: int) -> Iterator[tuple[int, int, Any]]:
        """Every possible ``at(V,P,step)`` and ``gone(V,step)``: (vehicle, code, symbol)."""
        t = Number(step)
        for vehicle, label in enumerate(self.labels):
            for position in self.positions[vehicle]:
                yield vehicle, position, Function("at", [label, Number(position), t])
        for vehicle in self.targets:
            yield vehicle, 0, Function("gone", [self.labels[vehicle], t])

    def go_symbols(self, step: int) -> Iterator[tuple[int, int, Any]]:
        """Every possible ``go(step,V,P)``: (vehicle, code of the position after it, symbol)."""
        t = Number(step)
        for vehicle, label in enumerate(self.labels):
            for position in self.positions[vehicle]:
                code = 0 if (vehicle, position) in self.exits else position
                yield vehicle, code, Function("go", [t, label, Number(position)])


def _target_needs(
    target: int,
    exit_at: int,
    shapes: list[tuple[int, str, int]],
    size: tuple[int, int],
    targets: tuple[int, ...],
    by_cells: bool,
) -> Needs:
    """For each position of ``target`` (1-based; its exit position excluded, where it has
    left): its own need, and the need of every vehicle across its line between it and the
    exit, by the position code of that vehicle. Steps are slides when ``by_cells``, else
    moves. Targets are not counted as blockers of each other."""
    length, orientation, line = shapes[target]
    span = size[0] if orientation == "h" else size[1]
    needs: Needs = {}
    for position in range(1, span - length + 2):
        if position == exit_at:
            continue
        ahead = range(position + length, span + 1) if exit_at > position else range(1, position)
        own = abs(exit_at - position) if by_cells else 1
        others = []
        for vehicle, (v_length, v_orientation, v_line) in enumerate(shapes):
            if v_orientation == orientation or v_line not in ahead or vehicle in targets:
                continue
            v_span = size[1] if v_orientation == "v" else size[0]
            need = [0] * (MASK + 1)
            for q in range(1, v_span - v_length + 2):
                if q <= line <= q + v_length - 1:  # across the target's line
                    need[q] = _clearing(q, v_length, v_span, line) if by_cells else 1
            others.append((vehicle, tuple(need)))
        needs[position] = (own, tuple(others))
    return needs


def _clearing(position: int, length: int, span: int, line: int) -> int:
    """The fewest cells a vehicle at ``position`` (covering ``line``) must slide to uncover
    ``line``: back to end before it, or on to start after it, where its own line has room."""
    back = position + length - line  # to end at line - 1
    on = line + 1 - position  # to start at line + 1
    fits_back = line - length >= 1
    fits_on = line + length <= span
    options = [cells for cells, fits in ((back, fits_back), (on, fits_on)) if fits]
    return min(options, default=NEVER)
