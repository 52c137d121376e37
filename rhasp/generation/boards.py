"""The boards of a generate run: random boards, remade from their seed and number
(:func:`board_number`), and one small change to a board (:func:`changed_board`), the
annealing's neighbourhood. A crowded run keeps every board's covered cells (the cells its
vehicles hold, the target's included; walls are not vehicles) within a range of counts
(:func:`covered_cells`): its random boards are filled to a count in the range, and a change
that leaves it is drawn again."""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass

from rhasp.model import Cell, Piece, Puzzle, TargetSpec, build_puzzle

LABELS = "BCDEFGHIJKLMNOPQRSTUVWYZ"


#: The labels a change may add past the 24 of a random board: a large board needs more
#: vehicles to be crowded (its clusters small and deep). Not ``a`` (beside the target ``A``),
#: ``o`` (an empty cell in database lines) nor ``x`` (a wall there).
MORE_LABELS = "bcdefghijklmnpqrstuvwyz"


def most_vehicles(size: int) -> int:
    """The most vehicles besides the target a board of ``size`` gets: five twelfths of the
    cells, as many as a vehicle's first cells take on a crowded board."""
    return min(size * size * 5 // 12, len(LABELS + MORE_LABELS))


#: The largest share of a board's cells a crowded run may ask its vehicles to cover: random
#: filling (:func:`crowded_board`) reaches it on every side from 4×4 to 12×12 within a few
#: tries, where a larger share would jam board after board (figures: bench/README.md,
#: "Issue 56: crowded boards").
MOST_COVERED = 0.80


def covered(puzzle: Puzzle) -> int:
    """The cells the puzzle's vehicles cover at its start, the target's included."""
    board = puzzle.board
    return sum(
        v.length for v, p in zip(board.vehicles, puzzle.placement, strict=True) if p is not None
    )


def covered_cells(size: int, low: float, high: float, walls: int = 0) -> range:
    """The counts of cells whose share of a ``size``×``size`` board's cells lies from ``low``
    to ``high`` (shares from 0 to 1) and that vehicles of 2 and 3 cells, the target among them,
    can cover beside ``walls`` walls: 2 (the target alone) or 4 and more, up to
    :data:`MOST_COVERED` of the cells. Empty when no count fits."""
    cells = size * size
    fewest = max(2, math.ceil(low * cells - 1e-9))
    most = min(math.floor(high * cells + 1e-9), math.floor(MOST_COVERED * cells + 1e-9))
    most = min(most, cells - walls)
    counts = range(fewest, most + 1)
    return range(0) if counts == range(3, 4) else counts


#: The share of the cells, in percent, that the vehicles of every board cover where a run
#: names none, on boards from :data:`CROWDED_FROM` on: a random 10×10 board's cluster is so
#: large and its start so shallow that the annealing stalls below 10 moves, where boards
#: filled to this share reach 25 moves and more within minutes (bench/README.md, "Issue 56:
#: 10×10 generation, crowded by default"). Smaller boards keep any share: they reach their
#: deep puzzles as they are.
CROWDED = (75.0, 80.0)
CROWDED_FROM = 10
#: What a run names to have boards of any share, the default below :data:`CROWDED_FROM`
#: (read in any case).
ANY_SHARE = "any"


def default_covered(size: int, walls: int = 0) -> tuple[float, float] | None:
    """The share of the cells a run on ``size``×``size`` boards with ``walls`` walls has its
    vehicles cover when it names none: :data:`CROWDED` from :data:`CROWDED_FROM` on, where
    some count of cells fits it beside the walls; else None (any)."""
    low, high = CROWDED
    if size < CROWDED_FROM or not covered_cells(size, low / 100, high / 100, walls):
        return None
    return CROWDED


def default_covered_text() -> str:
    """The default share in words, for the command line's help and the docs."""
    low, high = CROWDED
    side = f"{CROWDED_FROM}×{CROWDED_FROM}"
    return f"{low:g}..{high:g} on boards of {side} and larger, any on smaller ones"


#: Fillings of a crowded board tried before its drawing gives up (each usually fits).
FILLS = 50


def crowded_board(
    rng: random.Random, size: int, walls: int, cells: range, name: str
) -> Puzzle | None:
    """A board with target ``A`` as :func:`random_board` puts it and other cars and trucks
    where they fit, filled until its vehicles cover a count of cells drawn from ``cells``
    (then ``walls`` walls in cells left free); None when :data:`FILLS` fillings all jam
    short of it."""
    row = (size - 1) // 2
    for _ in range(FILLS):
        goal = rng.choice(cells)
        layout = Layout(size, [Piece("A", "h", row, rng.randrange(size - 2), 2)], set())
        taken = layout.taken()
        labels = list(LABELS + MORE_LABELS)[: most_vehicles(size)]
        for _ in range(40 * size * size):
            if len(taken) >= goal or not labels:
                break
            # Trucks only once the labels left could not reach the goal as cars.
            length = 3 if goal - len(taken) > 2 * len(labels) else None
            piece = _random_piece(rng, labels[0], size, row, length)
            spots = set(piece.vehicle().cells(piece.position))
            if spots & taken or len(taken) + len(spots) > cells[-1]:
                continue
            layout.pieces.append(piece)
            taken |= spots
            del labels[0]
        free = [(r, c) for r in range(size) for c in range(size) if (r, c) not in taken]
        if len(taken) in cells and len(free) >= walls:
            layout.walls = set(rng.sample(free, walls))
            return layout.puzzle(name)
    return None


def random_board(
    rng: random.Random, *, size: int = 6, vehicles: int = 12, walls: int = 0, name: str = "random"
) -> Puzzle:
    """A board with target ``A`` in the exit row (the third, as on the cards), up to
    ``vehicles`` other cars and trucks where they fit, and ``walls`` walls."""
    row = (size - 1) // 2
    taken: set[tuple[int, int]] = set()
    pieces = [Piece("A", "h", row, rng.randrange(size - 2), 2)]
    taken.update(pieces[0].vehicle().cells(pieces[0].position))
    for label in LABELS[:vehicles]:
        for _ in range(20):  # a few tries to find room for this vehicle
            piece = _random_piece(rng, label, size, row)
            cells = set(piece.vehicle().cells(piece.position))
            if not cells & taken:
                taken |= cells
                pieces.append(piece)
                break
    free = [(r, c) for r in range(size) for c in range(size) if (r, c) not in taken]
    wall_cells = [(cell, "") for cell in rng.sample(free, min(walls, len(free)))]
    return build_puzzle(size, size, pieces, wall_cells, [TargetSpec("A")], where=name, name=name)


def _random_piece(
    rng: random.Random, label: str, size: int, exit_row: int, length: int | None = None
) -> Piece:
    """A vehicle ``label`` anywhere on the board but across the target's row: a truck one
    time in four unless ``length`` is given."""
    drawn = 3 if rng.random() < 0.25 else 2
    length = drawn if length is None else length
    if rng.random() < 0.5:
        line = rng.choice([r for r in range(size) if r != exit_row])  # no car behind the target
        return Piece(label, "h", line, rng.randrange(size - length + 1), length)
    return Piece(label, "v", rng.randrange(size - length + 1), rng.randrange(size), length)


@dataclass
class Layout:
    """A board as the changes see it: the pieces (the target first) and the walls."""

    size: int
    pieces: list[Piece]
    walls: set[Cell]

    @classmethod
    def of(cls, puzzle: Puzzle) -> Layout:
        board = puzzle.board
        pieces = [
            Piece(v.label, v.orientation, *((v.line, p) if v.horizontal else (p, v.line)), v.length)
            for v, p in zip(board.vehicles, puzzle.placement, strict=True)
            if p is not None
        ]
        pieces.sort(key=lambda piece: piece.label not in board.targets)
        return cls(board.width, pieces, set(board.walls))

    def puzzle(self, name: str) -> Puzzle:
        walls = [(cell, "") for cell in sorted(self.walls)]
        target = [TargetSpec(self.pieces[0].label)]
        return build_puzzle(self.size, self.size, self.pieces, walls, target, where=name, name=name)

    def taken(self, leaving: Piece | None = None) -> set[Cell]:
        """The cells walls and pieces hold, but ``leaving``'s."""
        cells = set(self.walls)
        for piece in self.pieces:
            if piece is not leaving:
                cells.update(piece.vehicle().cells(piece.position))
        return cells

    @property
    def exit_row(self) -> int:
        return self.pieces[0].row


def _add(layout: Layout, rng: random.Random) -> bool:
    if len(layout.pieces) > most_vehicles(layout.size):
        return False
    used = {piece.label for piece in layout.pieces}
    free = [label for label in LABELS + MORE_LABELS if label not in used]
    return _put(layout, _random_piece(rng, free[0], layout.size, layout.exit_row), None)


def _remove(layout: Layout, rng: random.Random) -> bool:
    if len(layout.pieces) < 2:
        return False
    del layout.pieces[rng.randrange(1, len(layout.pieces))]
    return True


def _move(layout: Layout, rng: random.Random) -> bool:
    if len(layout.pieces) < 2:
        return False
    old = layout.pieces[rng.randrange(1, len(layout.pieces))]
    return _put(layout, _random_piece(rng, old.label, layout.size, layout.exit_row), old)


def _slide(layout: Layout, rng: random.Random) -> bool:
    piece = rng.choice(layout.pieces)
    taken = layout.taken(leaving=piece)
    places = [
        p
        for p in range(layout.size - piece.length + 1)
        if p != piece.position and not taken & set(_at(piece, p).vehicle().cells(p))
    ]
    return bool(places) and _put(layout, _at(piece, rng.choice(places)), piece)


def _move_wall(layout: Layout, rng: random.Random) -> bool:
    if not layout.walls:
        return False
    wall = rng.choice(sorted(layout.walls))
    taken = layout.taken()
    cell = (rng.randrange(layout.size), rng.randrange(layout.size))
    if cell in taken:
        return False
    layout.walls = (layout.walls - {wall}) | {cell}
    return True


def _at(piece: Piece, position: int) -> Piece:
    """The piece at ``position`` along its line."""
    if piece.orientation == "h":
        return dataclasses.replace(piece, col=position)
    return dataclasses.replace(piece, row=position)


def _put(layout: Layout, piece: Piece, instead: Piece | None) -> bool:
    """Put ``piece`` on the board in place of ``instead`` (None: as a new one), if it fits."""
    if layout.taken(leaving=instead) & set(piece.vehicle().cells(piece.position)):
        return False
    if instead is None:
        layout.pieces.append(piece)
    else:
        layout.pieces[layout.pieces.index(instead)] = piece
    return True


#: The changes one step may make, as often as each other; a wall moves only where walls are.
CHANGES = (_add, _remove, _move, _slide)


def changed_board(puzzle: Puzzle, rng: random.Random, cells: range | None = None) -> Puzzle:
    """The board with one change drawn from ``rng``: a vehicle added, taken off, put on a
    random line elsewhere, or slid along its line (the target only slides, and stays in its
    row); or, on a board with walls, a wall moved. The count of walls never changes: it is
    what the run was asked for. A change that does not fit, or leaves the vehicles' covered
    cells outside ``cells`` (None: any count), is drawn again (a few times; then the board
    is left as it is)."""
    changes = CHANGES + ((_move_wall,) if puzzle.board.walls else ())
    for _ in range(100):
        layout = Layout.of(puzzle)
        if rng.choice(changes)(layout, rng):
            changed = layout.puzzle(puzzle.name)
            if cells is None or covered(changed) in cells:
                return changed
    return puzzle


def board_number(seed: int, number: int, size: int, walls: int) -> Puzzle:
    """Board ``number`` of the run with ``seed``: its own random source, so it can be remade.
    Between a quarter and five twelfths of the cells hold other vehicles' first cells: fewer
    rarely make a hard puzzle, more rarely leave room for any. A random board has no more
    vehicles than capital letters to name them (24 besides the target), so from 10×10 on
    every board tries 24; changes may add more (:func:`most_vehicles`)."""
    rng = random.Random(f"rhasp-{seed}-{number}")
    most = min(most_vehicles(size), len(LABELS))
    others = rng.randint(min(size * size // 4, most), most)
    return random_board(rng, size=size, vehicles=others, walls=walls, name=f"gen-{seed}-{number}")


def crowded_number(seed: int, number: int, size: int, walls: int, cells: range) -> Puzzle | None:
    """Board ``number`` of a crowded run with ``seed`` (its own random source, as
    :func:`board_number`'s): its vehicles cover a count of cells in ``cells``
    (:func:`crowded_board`; None when it jams, which :data:`MOST_COVERED` makes rare)."""
    rng = random.Random(f"rhasp-{seed}-{number}")
    return crowded_board(rng, size, walls, cells, f"gen-{seed}-{number}")
