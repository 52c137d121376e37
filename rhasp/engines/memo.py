"""The state memo: a clingo propagator that remembers which boards the search has reached.

The encodings search over *sequences* of steps and cannot see that two sequences reach the
same board. This propagator can. It watches the state atoms ``at(V,P,T)`` and ``gone(V,T)``
and keeps, for every board it has seen on a legal prefix of steps, the least step at which
it was seen. It prunes with one rule:

    a board reached at step s is never on a minimal plan at a step t > s.

Why this loses nothing (the soundness argument, also in ``encodings/README.md``):

* A board B is *recorded* at step t only when the states of steps 0..t are all assigned and
  the solver has propagated them without conflict. At that point every step u <= t either
  changes one vehicle's position along a path the encoding checked (the step's ``go`` atom
  is forced by the frame axioms, and with it the move's constraints), or changes nothing;
  so B is reachable from the start in at most t moves. That is a fact about the puzzle, not
  about this branch of the search: it stays true after backtracking, at every later horizon
  and in every solver thread, which is why the memo persists and is shared.
* If a plan of h steps had board B at step t, and B is reachable in s < t steps, replacing
  the plan's first t steps by those s would give a plan of h - (t - s) < h steps. So no plan
  of the minimal length h* has B at a step t > s. Adding the nogood "not (state at step t is
  B)" therefore removes no plan of length h*: the first satisfiable horizon stays h*, and
  the horizons below it were unsatisfiable anyway. Any plan found still satisfies the whole
  encoding, so it is still legal and still minimal.
* The prune needs only the state at step t to be complete; the record needs the prefix.
* Look-ahead, the same rule one step early: once the state at step t is complete, every
  ``go(t+1,V,P)`` that would lead to a board held at step t or earlier is ruled out by the
  clause "not (the other vehicles where they are at step t, and go(t+1,V,P))". The solver
  then skips those moves by propagation instead of trying each and meeting a conflict.

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

Entry = tuple[int, int, int]  # a state atom: (step, vehicle index, its part of the state key)
GoAtom = tuple[int, int, int, int]  # go(T,V,P): (literal, vehicle index, key shift, code after)


class _Thread:
    """One solver thread's view of the current partial assignment, kept incrementally.

    For every step: how many state atoms are true, for how many vehicles, the sum of their
    keys, and the true literal of each vehicle (to phrase a nogood).
    """

    def __init__(self, vehicles: int) -> None:
        self.vehicles = vehicles
        self.key: list[int] = []
        self.true: list[int] = []  # true state atoms at the step
        self.filled: list[int] = []  # vehicles with at least one true state atom at the step
        self.count: list[list[int]] = []
        self.literal: list[list[int]] = []
        self.prefix = -1  # steps 0..prefix are complete (and so recorded)

    def grow(self, steps: int) -> None:
        while len(self.key) < steps:
            self.key.append(0)
            self.true.append(0)
            self.filled.append(0)
            self.count.append([0] * self.vehicles)
            self.literal.append([0] * self.vehicles)

    def complete(self, step: int) -> bool:
        return self.filled[step] == self.vehicles == self.true[step]

    def assign(self, entry: Entry, literal: int) -> bool:
        """Make one state atom true; whether its step became complete."""
        step, vehicle, delta = entry
        self.key[step] += delta
        self.true[step] += 1
        count = self.count[step]
        if count[vehicle] == 0:
            self.filled[step] += 1
        count[vehicle] += 1
        self.literal[step][vehicle] = literal
        return self.complete(step)

    def unassign(self, entry: Entry) -> None:
        step, vehicle, delta = entry
        self.key[step] -= delta
        self.true[step] -= 1
        count = self.count[step]
        count[vehicle] -= 1
        if count[vehicle] == 0:
            self.filled[step] -= 1
        if step <= self.prefix:
            self.prefix = step - 1


@dataclass
class StateMemo:
    """The propagator: register it with ``Control.register_propagator`` before solving.

    One instance serves every horizon of one puzzle and every solver thread: the memo
    (board key -> least step) is shared, each thread keeps its own view of the assignment.
    """

    memo: dict[int, int] = field(default_factory=dict)
    nogoods: int = 0  # added over all horizons and threads
    _board: _Board | None = None
    _watches: dict[int, list[Entry]] = field(default_factory=dict)
    _threads: list[_Thread] = field(default_factory=list)
    _steps: int = 0  # steps 0.._steps-1 are known
    _moves: list[list[GoAtom]] = field(default_factory=list)  # per step

    def figures(self) -> dict[str, int]:
        """For the solution's record: boards in the memo, nogoods added."""
        return {"states": len(self.memo), "nogoods": self.nogoods}

    # --- clingo's propagator interface ---------------------------------------------------

    def init(self, init: Any) -> None:
        """Watch the state atoms of the steps grounded since the last solve.

        Called before every solve. Only the new steps are looked up (by symbol, not by a scan
        of the whole program), so a horizon costs the same however many came before it. The
        threads' views carry over from the last solve, which ended with every assignment
        above the top level undone; a new literal that is already true (a fact, such as the
        start state) is applied here, since the solver reports only literals that become true
        during the search.
        """
        if self._board is None:
            self._board = _Board.read(init.symbolic_atoms)
            self._threads = [
                _Thread(len(self._board.labels)) for _ in range(init.number_of_threads)
            ]
        if len(self._threads) != init.number_of_threads:
            raise RuntimeError("the state memo needs the same number of threads every solve")
        while self._add_step(init, self._steps):
            self._steps += 1

    def _add_step(self, init: Any, step: int) -> bool:
        """Watch one step's state and go atoms; False if the step is not grounded yet (the
        encodings' ``#external query(t)`` marks a grounded step)."""
        board = self._board
        assert board is not None
        atoms = init.symbolic_atoms
        if Function("query", [Number(step)]) not in atoms:  # check(step) is not grounded
            return False
        for thread in self._threads:
            thread.grow(step + 1)
        for vehicle, code, symbol in board.state_symbols(step):
            atom = atoms[symbol]  # None: the encoding never derives it
            if atom is None:
                continue
            entry = (step, vehicle, code << (BITS * vehicle))
            literal = init.solver_literal(atom.literal)
            if init.assignment.is_false(literal):
                continue
            if init.assignment.is_true(literal):
                for thread in self._threads:
                    thread.assign(entry, literal)
                continue
            if literal not in self._watches:
                self._watches[literal] = []
                init.add_watch(literal)
            self._watches[literal].append(entry)
        moves: list[GoAtom] = []
        for vehicle, code, symbol in board.go_symbols(step):
            atom = atoms[symbol]
            if atom is not None:
                moves.append((init.solver_literal(atom.literal), vehicle, BITS * vehicle, code))
        self._moves.append(moves)
        return True

    def propagate(self, control: Any, changes: Iterable[int]) -> None:
        thread = self._threads[control.thread_id]
        completed = []
        for literal in changes:
            for entry in self._watches.get(literal, ()):
                if thread.assign(entry, literal):
                    completed.append(entry[0])
        for step in sorted(completed):
            if not self._complete(control, thread, step):
                return

    def undo(self, thread_id: int, assignment: Any, changes: Iterable[int]) -> None:
        thread = self._threads[thread_id]
        for literal in changes:
            for entry in self._watches.get(literal, ()):
                thread.unassign(entry)

    # --- the rule ------------------------------------------------------------------------

    def _complete(self, control: Any, thread: _Thread, step: int) -> bool:
        """A step's state just became complete: prune it, or extend the recorded prefix.

        Returns False when the solver must stop propagating (a nogood caused a conflict).
        """
        if not thread.complete(step):  # undone again within the same change set
            return True
        if self.memo.get(thread.key[step], step) < step:
            return self._forbid(control, thread, step)
        if step + 1 < self._steps and not self._look_ahead(control, thread, step):
            return False
        while thread.prefix + 1 < self._steps and thread.complete(thread.prefix + 1):
            step = thread.prefix + 1
            key = thread.key[step]
            seen = self.memo.get(key)
            if seen is not None and seen < step:
                return self._forbid(control, thread, step)
            if seen is None or step < seen:
                self.memo[key] = step
            thread.prefix = step
        return True

    def _look_ahead(self, control: Any, thread: _Thread, step: int) -> bool:
        """Rule out the next step's moves that lead to a board seen at this step or earlier."""
        key, literals, assignment = thread.key[step], thread.literal[step], control.assignment
        memo = self.memo
        for literal, vehicle, shift, code in self._moves[step + 1]:
            now = (key >> shift) & MASK
            if now == 0 or memo.get(key + ((code - now) << shift), step + 1) > step:
                continue
            if assignment.is_false(literal):
                continue
            clause = [-other for i, other in enumerate(literals) if i != vehicle]
            clause.append(-literal)
            self.nogoods += 1
            if not control.add_clause(clause):
                return False
        return True

    def _forbid(self, control: Any, thread: _Thread, step: int) -> bool:
        """Add the nogood: not every vehicle where it is now at this step."""
        self.nogoods += 1
        return bool(control.add_clause([-literal for literal in thread.literal[step]]))


@dataclass(frozen=True)
class _Board:
    """What the memo needs of the puzzle, read from the facts of the ground program."""

    labels: tuple[Any, ...]  # vehicle labels (clingo symbols) in key order
    positions: tuple[tuple[int, ...], ...]  # per vehicle, the positions on its line
    exits: frozenset[tuple[int, int]]  # (vehicle, position): a target there has left
    targets: tuple[int, ...]

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
        return cls(labels, tuple(tuple(sorted(p)) for p in positions), exits, targets)

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
