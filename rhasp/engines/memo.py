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

The propagator never reads the BFS or anything else outside the ASP search: everything it
knows comes from the ground program and the solver's assignments.

It runs inside rhasp's driver (``rhasp/engines/asp.py``) and, unchanged, inside the clingo
executable through ``encodings/memo.lp``; so it uses only the parts of clingo's Python API
that clingo 5.4 already had.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

#: Bits per vehicle in a state key: positions are 1..11 on a 12-wide line, 0 means gone.
BITS = 4
MASK = (1 << BITS) - 1

Entry = tuple[int, int, int]  # (step, vehicle index, position code): one watched state atom
Move = tuple[int, int, int, int]  # a go/3 atom: (literal, vehicle index, key shift, code after)


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
        step, vehicle, code = entry
        self.key[step] += code << (BITS * vehicle)
        self.true[step] += 1
        count = self.count[step]
        if count[vehicle] == 0:
            self.filled[step] += 1
        count[vehicle] += 1
        self.literal[step][vehicle] = literal
        return self.complete(step)

    def unassign(self, entry: Entry) -> None:
        step, vehicle, code = entry
        self.key[step] -= code << (BITS * vehicle)
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
    _watches: dict[int, list[Entry]] = field(default_factory=dict)
    _fixed: list[tuple[Entry, int]] = field(default_factory=list)
    _threads: list[_Thread] = field(default_factory=list)
    _steps: int = 0
    _moves: list[list[Move]] = field(default_factory=list)

    def figures(self) -> dict[str, int]:
        """For the solution's record: boards in the memo, nogoods added."""
        return {"states": len(self.memo), "nogoods": self.nogoods}

    # --- clingo's propagator interface ---------------------------------------------------

    def init(self, init: Any) -> None:
        """Map the state atoms of the program grounded so far to solver literals.

        Called before every solve, so each horizon adds its new step. A literal that is
        already true (a fact, such as the start state) is applied to every thread here, since
        the solver reports only literals that become true during the search.
        """
        index = _vehicle_index(init.symbolic_atoms)
        watches: dict[int, list[Entry]] = {}
        fixed: list[tuple[Entry, int]] = []
        steps = 0
        for entry, program_literal in _state_atoms(init.symbolic_atoms, index):
            literal = init.solver_literal(program_literal)
            if init.assignment.is_false(literal):
                continue
            steps = max(steps, entry[0] + 1)
            if init.assignment.is_true(literal):
                fixed.append((entry, literal))
            else:
                watches.setdefault(literal, []).append(entry)
        for literal in watches.keys() - self._watches.keys():
            init.add_watch(literal)
        self._watches, self._fixed, self._steps = watches, fixed, steps
        self._moves = _step_moves(init, index, steps)
        self._threads = [_Thread(len(index)) for _ in range(init.number_of_threads)]
        for thread in self._threads:
            thread.grow(steps)
            for entry, literal in fixed:
                thread.assign(entry, literal)

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


def _vehicle_index(atoms: Any) -> dict[Any, int]:
    """Vehicle labels in a fixed order: the order of the ``vehicle/4`` facts' labels."""
    labels = sorted(atom.symbol.arguments[0] for atom in atoms.by_signature("vehicle", 4))
    return {label: i for i, label in enumerate(labels)}


def _state_atoms(atoms: Any, index: dict[Any, int]) -> Iterable[tuple[Entry, int]]:
    """Every ``at(V,P,T)`` and ``gone(V,T)`` atom as (step, vehicle, code) and its literal."""
    for atom in atoms.by_signature("at", 3):
        vehicle, position, step = atom.symbol.arguments
        yield (step.number, index[vehicle], position.number), atom.literal
    for atom in atoms.by_signature("gone", 2):
        vehicle, step = atom.symbol.arguments
        yield (step.number, index[vehicle], 0), atom.literal


def _step_moves(init: Any, index: dict[Any, int], steps: int) -> list[list[Move]]:
    """Per step, every ``go(T,V,P)`` as (literal, vehicle, key shift, position code after it)."""
    atoms = init.symbolic_atoms
    exits = {
        (index[atom.symbol.arguments[0]], atom.symbol.arguments[1].number)
        for atom in atoms.by_signature("exit", 2)
    }
    moves: list[list[Move]] = [[] for _ in range(steps + 1)]
    for atom in atoms.by_signature("go", 3):
        step, label, position = atom.symbol.arguments
        vehicle = index[label]
        code = 0 if (vehicle, position.number) in exits else position.number
        literal = init.solver_literal(atom.literal)
        if step.number <= steps:
            moves[step.number].append((literal, vehicle, BITS * vehicle, code))
    return moves
