"""Static analysis: cells occupied in every reachable state, and targets that never leave,
found from the board alone, without search.

**Lines.** A *line* is a row with its horizontal vehicles, or a column with its vertical
ones. The pieces of a line never pass each other, so they keep their order. Let B be a set of
cells, each held by one vehicle; a cell of B held by a vehicle of a crossing line, or a wall,
is *blocked* for a line. A *placement* of a line puts each of its pieces at a position, in
their order, without overlap, each inside the run of unblocked cells that holds its start
(it cannot pass a blocked cell); or takes a target *gone*, when its exit is an end of this
line, the run reaches that end and every piece between it and that end is gone too. A cell is
*always covered* by the line when a present piece covers it in every placement. (The same
piece then covers it in every placement: see :func:`_line_cover`.) F(B) is the set of cells
all lines always cover, each held by the piece that covers it.

**The argument.** Suppose every cell of B is covered at the start by the vehicle B names,
and B ⊆ F(B). Then every cell of B is occupied in every reachable state. Call a state *valid*
when every line's pieces stand in a placement. The start is valid: no piece stands on a cell
blocked for its own line, since a vehicle of the crossing line holds it. In a valid state
every cell of B is covered by its vehicle, because B ⊆ F(B). A move slides a piece along its
line through free cells, so it passes no blocked cell (each is occupied) and no piece of its
line, and it leaves the board only at its exit edge after every piece ahead of it has; so
the state after it is valid too. By induction every reachable state is valid, and every
cell of B is occupied in it.

**Two fixpoints.** F grows with B (more blocked cells, fewer placements, more cells always
covered). Michael Fogleman's ``static.go`` (github.com/fogleman/rush) starts from nothing and
applies F until nothing changes, the least fixpoint: rules ``"lines"``. rhasp starts from
every start cell and applies F, kept to the start cells, until nothing changes; every set it
passes through contains every set that proves itself (B ⊆ F(B)), so it ends at the largest,
which contains the least fixpoint and every *stuck set* (vehicles none of which can move
first, such as four vehicles in a pinwheel, each blocking the next): rules ``"greatest"``,
and ``"full"`` with the second rule below. Rules ``"stuck"`` keep only the largest stuck
set, rhasp's analysis before the line rule. All but ``"full"`` are there for the benchmark
to compare (``bench/static.py``) and the tests to check one by one.

**Unsolvable.** A target leaves only by moving to its exit edge. It never does when no
placement of its line takes it gone: a blocked cell stands between it and the edge (occupied
in every reachable state), or a piece that never leaves through that edge stands ahead of it
(pieces never pass). A puzzle is solved only when every target has left. Rules ``"full"``
add a second argument, in :mod:`rhasp.static.clear_way`: a target reaches a cell of its
way only from right behind it with that cell free, and narrowing the positions each piece
could hold then may show no such state exists.

It is a few passes over the lines: well under a millisecond a pass, at once on boards whose
clusters no search could finish (``puzzles/large/walled12.txt``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rhasp.model import Board, Cell, Puzzle, State, Vehicle, cell_name
from rhasp.static.clear_way import never_reached

#: How a solution names this proof (``proven_by``).
STATIC = "static analysis"
#: The analyses :func:`static_analysis` knows, weakest first (see the module's argument).
RULES = ("stuck", "lines", "greatest", "full")
WALL_INDEX = -1  # the holder of a wall cell in :class:`StaticAnalysis`


@dataclass(frozen=True)
class Line:
    """A row's horizontal vehicles or a column's vertical ones, in their order along it."""

    horizontal: bool
    index: int  # the row or the column
    length: int
    pieces: tuple[int, ...]

    def cell(self, place: int) -> Cell:
        return (self.index, place) if self.horizontal else (place, self.index)

    def name(self) -> str:
        return f"row {self.index + 1}" if self.horizontal else f"column {self.index + 1}"

    def place_name(self, place: int) -> str:
        return f"{'column' if self.horizontal else 'row'} {place + 1}"

    def places_name(self, places: range) -> str:
        if len(places) == 1:
            return self.place_name(places[0])
        return f"{'columns' if self.horizontal else 'rows'} {places[0] + 1}–{places[-1] + 1}"

    def edge_name(self, high: bool) -> str:
        if self.horizontal:
            return "the right edge" if high else "the left edge"
        return "the bottom edge" if high else "the top edge"


@dataclass(frozen=True)
class Cover:
    """Why piece ``piece`` always covers ``places`` of its line: the pieces ``packed``, in
    their order, only fit between ``low`` and ``high`` (a blocked place, or -1 and the
    line's length for its edges) in ways that leave it there."""

    piece: int
    places: range
    packed: tuple[int, ...]
    low: int
    high: int


@dataclass(frozen=True)
class Blocked:
    """Why a puzzle is unsolvable: ``target`` never leaves. By ``kind``:

    - ``"held"``: it can never pass ``cell``, held by ``holder`` (``"a wall"`` or
      ``"vehicle B"``) in every reachable state;
    - ``"ahead"``: ``holder``, a piece of its own line that never leaves through its exit,
      stands ahead of it at ``cell``;
    - ``"never reached"``: it never covers ``cell``, on its way out, since no state has it
      right behind that cell with the cell free (:mod:`rhasp.static.clear_way`).

    ``reasons`` say why, as people can check them cell by cell."""

    target: str
    cell: Cell
    holder: str
    kind: str = "held"
    reasons: tuple[str, ...] = field(default=(), compare=False)

    def proof(self) -> str:
        if self.kind == "held":
            head = f"{cell_name(self.cell)} is occupied in every reachable state, by {self.holder}"
        elif self.kind == "ahead":
            head = (
                f"{self.holder} stands at {cell_name(self.cell)}, between target {self.target} "
                "and its exit, and pieces of one line never pass each other"
            )
        else:
            head = f"target {self.target} never reaches {cell_name(self.cell)}"
        because = f" ({'; '.join(self.reasons)})" if self.reasons else ""
        return f"{head}: target {self.target} can never leave{because}"


@dataclass
class StaticAnalysis:
    """The cells occupied in every reachable state (``held``: cell → vehicle index, or
    :data:`WALL_INDEX`) and, for the line rules, why each is (``covers``, by vehicle)."""

    board: Board
    state: State
    rules: str
    held: dict[Cell, int]
    lines: dict[tuple[bool, int], Line]
    covers: dict[int, Cover] = field(default_factory=dict)
    #: For each line (``(horizontal, index)``), the places blocked for its pieces as a bit
    #: set: walls, and cells held by a vehicle of a crossing line.
    blocked: dict[tuple[bool, int], int] = field(default_factory=dict)

    def holders(self) -> dict[Cell, str]:
        """Each held cell with what holds it: ``"a wall"`` or ``"vehicle B"``."""
        return {cell: self.holder(cell) for cell in self.held}

    def holder(self, cell: Cell) -> str:
        i = self.held[cell]
        return "a wall" if i == WALL_INDEX else f"vehicle {self.board.vehicles[i].label}"

    def blocked_places(self, line: Line) -> dict[int, Cell]:
        """The places of ``line`` blocked for its pieces, with their cells."""
        mask = self.blocked.get((line.horizontal, line.index), 0)
        return {p: line.cell(p) for p in range(line.length) if mask >> p & 1}

    def hold(self, cell: Cell, i: int, held: bool) -> tuple[bool, int] | None:
        """Mark ``cell`` held by ``i`` (or no longer), keeping the crossing line's blocked
        places in step; the crossing line (its key), None for a wall."""
        row, col = cell
        if held:
            self.held[cell] = i
        else:
            del self.held[cell]
        keys = [(True, row), (False, col)]
        if i != WALL_INDEX:
            keys = [keys[1] if self.board.vehicles[i].horizontal else keys[0]]
        for key in keys:
            bit = 1 << (row if key[0] is False else col)
            self.blocked[key] = self.blocked.get(key, 0) | bit if held else self.blocked[key] & ~bit
        return None if i == WALL_INDEX else keys[0]

    def blocked_exit(self) -> Blocked | None:
        """The first target (in the board's exit order) proven never to leave, and why."""
        for label, side in self.board.exits:
            i = self.board.index(label)
            if self.state[i] is not None:
                found = self._never_leaves(i, side in ("right", "bottom"))
                if found is None and self.rules == "full":
                    found = self._never_reached(i)
                if found is not None:
                    return found
        return None

    def _never_leaves(self, i: int, high: bool) -> Blocked | None:
        """Why target ``i``, leaving at the ``high`` end of its line or the other, never
        leaves; None when nothing here proves it."""
        vehicle = self.board.vehicles[i]
        if self.rules == "stuck":
            for cell in _way_out(vehicle, self.state[i], high, self.board.line_length(vehicle)):
                if cell in self.held:
                    return self._blocked(vehicle.label, cell, self.held[cell])
            return None
        line = self.lines[vehicle.horizontal, vehicle.line]
        blocked = self.blocked_places(line)
        ahead = _ahead(line, line.pieces.index(i), high)
        for place in _places_out(self.state[i], vehicle.length, high, line.length):
            if place in blocked:
                return self._blocked(vehicle.label, blocked[place], self.held[blocked[place]])
            other = next((j for j in ahead if place in _span(self.board, j, self.state[j])), None)
            if other is None:
                continue
            label = self.board.vehicles[other].label
            if self.board.exit_side(label) in _high_sides(high):
                behind = self._never_leaves(other, high)  # the front one leaves first
                if behind is None:
                    return None
                reasons = (behind.proof(),)
                return Blocked(vehicle.label, line.cell(place), f"target {label}", "ahead", reasons)
            holder = self.held.get(line.cell(place))
            if holder is not None:  # a piece that never moves: occupied in every state
                return self._blocked(vehicle.label, line.cell(place), holder)
            return Blocked(vehicle.label, line.cell(place), f"vehicle {label}", "ahead")
        return None

    def _never_reached(self, i: int) -> Blocked | None:
        """A cell of target ``i``'s way out it never reaches, by the second rule."""
        runs, may_go = {}, {}
        for line in self.lines.values():
            blocked = self.blocked.get((line.horizontal, line.index), 0)
            line_runs = {j: _run(self.state[j], blocked, line.length) for j in line.pieces}
            runs |= line_runs
            may_go |= _may_go(self.board, line, line_runs)
        pieces = {key: line.pieces for key, line in self.lines.items()}
        found = never_reached(self.board, self.state, pieces, runs, may_go, i)
        if found is None:
            return None
        return Blocked(found.target, found.cell, "", "never reached", (found.explain(),))

    def _blocked(self, target: str, cell: Cell, holder: int) -> Blocked:
        held = "a wall" if holder == WALL_INDEX else f"vehicle {self.board.vehicles[holder].label}"
        reasons = tuple(self.reasons(holder)) if holder != WALL_INDEX else ()
        return Blocked(target, cell, held, "held", reasons)

    def reasons(self, first: int) -> Iterator[str]:
        """Why vehicle ``first`` holds its cells, then why each vehicle that reason leans on
        holds its own, each once: a chain people can follow cell by cell (it may close in a
        ring, where the vehicles hold each other)."""
        seen, queue = {first}, [first]
        while queue:
            cover = self.covers.get(queue.pop(0))
            if cover is None:
                continue
            yield self._reason(cover)
            for place in (cover.low, cover.high):
                i = self._bound_holder(cover, place)
                if i is not None and i != WALL_INDEX and i not in seen:
                    seen.add(i)
                    queue.append(i)

    def _bound_holder(self, cover: Cover, place: int) -> int | None:
        line = self._line_of(cover.piece)
        return self.held.get(line.cell(place)) if 0 <= place < line.length else None

    def _line_of(self, i: int) -> Line:
        vehicle = self.board.vehicles[i]
        return self.lines[vehicle.horizontal, vehicle.line]

    def _reason(self, cover: Cover) -> str:
        line, vehicles = self._line_of(cover.piece), self.board.vehicles
        where = line.places_name(cover.places)
        label = vehicles[cover.piece].label
        packed = ", ".join(vehicles[j].label for j in cover.packed)
        fit = f"{packed} (in that order)" if len(cover.packed) > 1 else packed
        return (
            f"{line.name()}, {where}: covered by {label} wherever {fit} can stand between "
            f"{self._bound_name(line, cover.low, False)} and "
            f"{self._bound_name(line, cover.high, True)}"
        )

    def _bound_name(self, line: Line, place: int, high: bool) -> str:
        if not 0 <= place < line.length:
            return line.edge_name(high)
        i = self.held[line.cell(place)]
        where = line.place_name(place)
        if i == WALL_INDEX:
            return f"the wall at {where}"
        return f"{where} (held by {self.board.vehicles[i].label})"


def static_analysis(board: Board, state: State, rules: str = "full") -> StaticAnalysis:
    """Static analysis of ``state`` on ``board`` by ``rules`` (one of :data:`RULES`)."""
    if rules not in RULES:
        raise ValueError(f"rules must be one of {', '.join(RULES)}, not {rules!r}")
    analysis = StaticAnalysis(board, state, rules, {}, _lines(board, state))
    for cell in board.walls:
        analysis.hold(cell, WALL_INDEX, True)
    if rules == "stuck":
        for i in _stuck(board, state):
            for cell in board.vehicles[i].cells(state[i]):
                analysis.hold(cell, i, True)
        return analysis
    greatest = rules in ("greatest", "full")
    if greatest:
        for i, position in enumerate(state):
            for cell in board.cells_at(i, position):
                analysis.hold(cell, i, True)
    _fixpoint(analysis, keep_to_start=greatest)
    return analysis


def _fixpoint(analysis: StaticAnalysis, keep_to_start: bool) -> None:
    """Apply F line by line until no line changes (see the module's argument); with
    ``keep_to_start``, from every start cell down, else from nothing up. A line is looked at
    again only when a cell held by a crossing line changes."""
    board, state, held, lines = analysis.board, analysis.state, analysis.held, analysis.lines
    start = dict(held)
    cells = {
        key: [cell for i in line.pieces for cell in board.cells_at(i, state[i])]
        for key, line in lines.items()
    }
    waiting = list(lines)
    queued = set(waiting)
    while waiting:
        key = waiting.pop(0)
        queued.discard(key)
        line = lines[key]
        covers = _line_cover(board, state, line, analysis.blocked.get(key, 0))
        new = {line.cell(p): c.piece for c in covers for p in c.places}
        if keep_to_start:
            new = {cell: i for cell, i in new.items() if start.get(cell) == i}
        old = {cell: held[cell] for cell in cells[key] if cell in held}
        for cell in old.keys() ^ new.keys():
            crossing = analysis.hold(cell, old.get(cell, new.get(cell)), cell in new)
            if crossing in lines and crossing not in queued:
                waiting.append(crossing)
                queued.add(crossing)
        for i in line.pieces:
            analysis.covers.pop(i, None)
        analysis.covers |= {c.piece: c for c in covers if c.places}


def _line_cover(board: Board, state: State, line: Line, blocked: int) -> list[Cover]:
    """The places each piece of ``line`` covers in every placement, with why.

    A piece that may be gone covers nothing for sure. The others pack (:func:`_packed`):
    every position from ``low[i]`` to ``high[i]`` is in some placement, so piece i covers
    exactly the places from ``high[i]`` to ``low[i] + length - 1`` in all of them. A place no
    single piece always covers is free in some placement: put the pieces that can end before
    it packed low, the rest packed high. So these are all the always-covered places."""
    packing = _packed(board, state, line, blocked)
    staying, runs = packing.staying, packing.runs
    covers = []
    for i in staying:
        places = range(packing.high[i], packing.low[i] + board.vehicles[i].length)
        low_from, high_from = packing.low_from[i], packing.high_from[i]
        first, last = staying.index(low_from), staying.index(high_from)
        packed = tuple(staying[first : last + 1])
        covers.append(Cover(i, places, packed, runs[low_from][0], runs[high_from][1]))
    return covers


@dataclass(frozen=True)
class _Packing:
    """Where the pieces of a line that never leave it (``staying``, in their order) may
    stand: piece i from ``low[i]`` to ``high[i]``, both reached by packing the pieces from
    ``low_from[i]`` (or to ``high_from[i]``) against the blocked place or edge before (or
    after) them; ``runs``: each piece's run of unblocked places (:func:`_run`)."""

    staying: list[int]
    runs: dict[int, tuple[int, int]]
    low: dict[int, int]
    low_from: dict[int, int]
    high: dict[int, int]
    high_from: dict[int, int]


def _packed(board: Board, state: State, line: Line, blocked: int) -> _Packing:
    """The packing of ``line``'s staying pieces. Piece i's lowest position ``low[i]`` is the
    highest of its run's start and the lowest end of the piece before it; ``high[i]``
    likewise from above. In every placement piece i stands from ``low[i]`` to ``high[i]``
    (it is inside its run, after the pieces before it, themselves no lower than their
    ``low``; and so from above), and every position between is in some placement (the
    pieces before it packed low, those after packed high)."""
    pieces = list(line.pieces)
    runs = {i: _run(state[i], blocked, line.length) for i in pieces}
    staying = [i for i in pieces if i not in _may_go(board, line, runs)]
    low: dict[int, int] = {}
    low_from: dict[int, int] = {}
    end, origin = -1, -1
    for i in staying:
        start = runs[i][0] + 1
        if start >= end:
            low[i], low_from[i] = start, i
        else:
            low[i], low_from[i] = end, origin
        end, origin = low[i] + board.vehicles[i].length, low_from[i]
    high: dict[int, int] = {}
    high_from: dict[int, int] = {}
    end, origin = line.length, -1
    for i in reversed(staying):
        length = board.vehicles[i].length
        last = runs[i][1] - length
        if last <= end - length:
            high[i], high_from[i] = last, i
        else:
            high[i], high_from[i] = end - length, origin
        end, origin = high[i], high_from[i]
    return _Packing(staying, runs, low, low_from, high, high_from)


def _run(position: int, blocked: int, length: int) -> tuple[int, int]:
    """The blocked places (a bit set) nearest below and above a piece starting at
    ``position``, or -1 and ``length`` for the edges: it stays strictly between them."""
    below = (blocked & ((1 << position) - 1)).bit_length() - 1
    ahead = blocked >> (position + 1)
    above = position + (ahead & -ahead).bit_length() if ahead else length
    return below, above


def _may_go(board: Board, line: Line, runs: dict[int, tuple[int, int]]) -> dict[int, bool]:
    """The targets of ``line`` that some placement takes gone, each with the end it leaves
    through (True: right or bottom): a chain from each end of targets leaving through that
    end, each with a run reaching it."""
    gone: dict[int, bool] = {}
    for high in (True, False):
        for i in reversed(line.pieces) if high else line.pieces:
            side = board.exit_side(board.vehicles[i].label)
            reaches = runs[i][1] == line.length if high else runs[i][0] == -1
            if side not in _high_sides(high) or not reaches:
                break
            gone[i] = high
    return gone


def _high_sides(high: bool) -> tuple[str, str]:
    return ("right", "bottom") if high else ("left", "top")


def _lines(board: Board, state: State) -> dict[tuple[bool, int], Line]:
    """Every row and column holding a present vehicle of its orientation."""
    found: dict[tuple[bool, int], list[int]] = {}
    for i, vehicle in enumerate(board.vehicles):
        if state[i] is not None:
            found.setdefault((vehicle.horizontal, vehicle.line), []).append(i)
    lines = {}
    for (horizontal, index), pieces in sorted(found.items()):
        length = board.width if horizontal else board.height
        ordered = tuple(sorted(pieces, key=lambda i: state[i]))
        lines[horizontal, index] = Line(horizontal, index, length, ordered)
    return lines


def _span(board: Board, i: int, position: int | None) -> range:
    """The places of its line vehicle ``i`` covers at ``position``."""
    if position is None:
        return range(0)
    return range(position, position + board.vehicles[i].length)


def _ahead(line: Line, k: int, high: bool) -> tuple[int, ...]:
    """The pieces of ``line`` between its ``k``-th piece and its ``high`` end (or the other)."""
    return line.pieces[k + 1 :] if high else line.pieces[:k][::-1]


def _places_out(position: int, length: int, high: bool, line_length: int) -> range:
    """The places a piece at ``position`` crosses to its exit end, nearest first."""
    return range(position + length, line_length) if high else range(position - 1, -1, -1)


def _way_out(vehicle: Vehicle, position: int, high: bool, line_length: int) -> list[Cell]:
    line = Line(vehicle.horizontal, vehicle.line, line_length, ())
    return [line.cell(p) for p in _places_out(position, vehicle.length, high, line_length)]


def _stuck(board: Board, state: State) -> set[int]:
    """The largest set of vehicles none of which can ever move: each has, just behind and
    just ahead of it on its line, the edge, a wall or a vehicle of the set. Until one of
    them moves, every move it could make first needs one of those cells free. Found by
    dropping, until none is left to drop, each vehicle with a free neighbour cell (empty at
    the start, or a dropped vehicle's, which may move away)."""
    stuck = {i for i, position in enumerate(state) if position is not None}
    owner = {cell: i for i in stuck for cell in board.vehicles[i].cells(state[i])}
    dropped = True
    while dropped:
        dropped = False
        for i in sorted(stuck):
            if any(_free(board, cell, owner, stuck) for cell in _ends(board, i, state[i])):
                stuck.discard(i)
                dropped = True
    return stuck


def _ends(board: Board, i: int, position: int) -> list[Cell]:
    vehicle = board.vehicles[i]
    line = Line(vehicle.horizontal, vehicle.line, board.line_length(vehicle), ())
    places = (position - 1, position + vehicle.length)
    return [line.cell(p) for p in places if 0 <= p < line.length]


def _free(board: Board, cell: Cell, owner: dict[Cell, int], stuck: set[int]) -> bool:
    if cell in board.walls:
        return False
    holder = owner.get(cell)
    return holder is None or holder not in stuck


def always_occupied(board: Board, state: State, rules: str = "full") -> dict[Cell, str]:
    """The cells occupied in every state reachable from ``state``, each with what holds it
    (``"a wall"`` or ``"vehicle B"``)."""
    return static_analysis(board, state, rules).holders()


def blocked_exit(puzzle: Puzzle, rules: str = "full") -> Blocked | None:
    """The first target proven never to leave, and why; None when static analysis proves
    nothing (the puzzle may still be unsolvable)."""
    return static_analysis(puzzle.board, puzzle.start, rules).blocked_exit()


def position_ranges(board: Board, state: State) -> tuple[range, ...]:
    """Per vehicle, the positions it may take in the states reachable from ``state``: every
    reachable state puts each vehicle at a position of its range. A target that may leave
    (or has left) gets its whole line, from 0 to its last position.

    Sound by the module's argument: every reachable state is valid for the greatest fixpoint,
    so each line's staying pieces stand in one of its placements, where piece i stands from
    ``low[i]`` to ``high[i]`` (:func:`_packed`). Pieces that never leave are all but the
    targets (:func:`_may_go` takes targets only), so every vehicle but a target gets the
    range its packing gives."""
    analysis = static_analysis(board, state)
    ranges = [range(board.line_length(v) - v.length + 1) for v in board.vehicles]
    for key, line in analysis.lines.items():
        packing = _packed(board, state, line, analysis.blocked.get(key, 0))
        for i in packing.staying:
            if board.exit_side(board.vehicles[i].label) is None:
                ranges[i] = range(packing.low[i], packing.high[i] + 1)
    return tuple(ranges)
