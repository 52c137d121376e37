"""Boards and solutions as pictures: the board in its frame, the exit marked, the target red.

Cars and trucks take colours from two separate palettes (cars light, trucks deep), so the
length of a vehicle shows at a glance; walls are dark blocks. A board is ``cell`` pixels a
cell plus half a cell of margin all round, where the exit arrow sits: 420 × 420 pixels for a
6×6 board at the default 60. A caption, when given, adds 0.6 of a cell below.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from rhasp.model import Board, Cell, Move, Puzzle, State, replay
from rhasp.notation import format_move
from rhasp.pictures.scene import (
    Box,
    Caption,
    Polygon,
    Scene,
    Shape,
    save,
    save_animation,
    svg,
    tiled,
)

TARGET = "#d62828"
CARS = ("#8ecae6", "#ffd166", "#95d5b2", "#f4a261", "#cdb4db", "#a8dadc", "#e9edc9", "#ffafcc")
TRUCKS = ("#3a0ca3", "#1d3557", "#6a4c93", "#2d6a4f", "#7f5539")
WALL = "#212529"
FRAME, FLOOR, SQUARE = "#6c584c", "#f5f0e6", "#e6dccb"
INK, LIGHT_INK = "#1b1b1b", "#ffffff"
#: The halo of the vehicle that has just moved, in a plan's boards (the page's colour too).
MOVED = "#fb5607"
#: The corner mark of a cell occupied in every reachable state (``render --fixed``).
FIXED = "#ff006e"

#: Vehicles across this many cells count as trucks (the cards' trucks and limousines).
TRUCK_LENGTH = 3


def board_scene(
    board: Board,
    state: State,
    *,
    cell: int = 60,
    caption: str = "",
    moved: int | None = None,
    fixed: Collection[Cell] = (),
) -> Scene:
    """The board with the vehicles at ``state``; vehicle ``moved`` (an index) ringed in the
    :data:`MOVED` colour, as a plan's boards show the move just played; each cell of
    ``fixed`` marked by a :data:`FIXED` triangle in its top left corner."""
    margin = cell // 2
    width, height = board.width * cell + 2 * margin, board.height * cell + 2 * margin
    shapes: list[Shape] = [*_frame(board, cell, margin)]
    for row, col in board.walls:
        shapes.append(_in_cell(row, col, cell, margin, 2, WALL, 0.08))
    for i, position in enumerate(state):
        if position is not None:
            body, label = vehicle_shapes(board, i, position, cell)
            if i == moved:
                ring = max(3, cell // 12)
                shapes.append(
                    Box(
                        body.x - ring,
                        body.y - ring,
                        body.width + 2 * ring,
                        body.height + 2 * ring,
                        MOVED,
                        body.radius + ring,
                    )
                )
            shapes.extend((body, label))
    corner = cell * 0.3
    for row, col in sorted(fixed):
        x, y = margin + col * cell + 2, margin + row * cell + 2
        shapes.append(Polygon(((x, y), (x + corner, y), (x, y + corner)), FIXED))
    if caption:
        band = round(cell * 0.6)
        shapes.append(Caption(width / 2, height + band / 2 - margin / 3, caption, cell * 0.34, INK))
        height += band
    return Scene(width, height, tuple(shapes))


def vehicle_shapes(board: Board, i: int, position: int, cell: int) -> tuple[Box, Caption]:
    """Vehicle ``i`` at ``position``: its body and its label (the web page moves these)."""
    vehicle, margin = board.vehicles[i], cell // 2
    (top, left), (bottom, right) = vehicle.cells(position)[0], vehicle.cells(position)[-1]
    fill, ink = _colours(board, i)
    inset = max(2, cell // 14)
    x, y = margin + left * cell + inset, margin + top * cell + inset
    w, h = (right - left + 1) * cell - 2 * inset, (bottom - top + 1) * cell - 2 * inset
    return (
        Box(x, y, w, h, fill, round(cell * 0.2, 1)),
        Caption(x + w / 2, y + h / 2, vehicle.label, cell * 0.42, ink),
    )


def _colours(board: Board, i: int) -> tuple[str, str]:
    """(fill, label ink) of vehicle ``i``: red for a target, else by kind and index."""
    vehicle = board.vehicles[i]
    if vehicle.label in board.targets:
        return TARGET, LIGHT_INK
    if vehicle.length >= TRUCK_LENGTH:
        return TRUCKS[i % len(TRUCKS)], LIGHT_INK
    return CARS[i % len(CARS)], INK


def _frame(board: Board, cell: int, margin: int) -> list[Shape]:
    """The frame, the floor's squares, and for every exit a gap in the frame with an arrow."""
    edge = max(3, cell // 10)
    inner_w, inner_h = board.width * cell, board.height * cell
    shapes: list[Shape] = [
        Box(margin - edge, margin - edge, inner_w + 2 * edge, inner_h + 2 * edge, FRAME, edge),
        Box(margin, margin, inner_w, inner_h, FLOOR),
    ]
    for row in range(board.height):
        for col in range(board.width):
            shapes.append(_in_cell(row, col, cell, margin, 1, SQUARE, 0.06))
    for label, side in board.exits:
        line = board.vehicles[board.index(label)].line
        shapes.extend(_exit(side, line, cell, margin, edge, inner_w, inner_h))
    return shapes


def _in_cell(
    row: int, col: int, cell: int, margin: int, inset: int, fill: str, rounding: float
) -> Box:
    """A square filling cell (row, col) but ``inset`` pixels all round, its corners rounded by
    ``rounding`` of a cell: a floor square, or a wall."""
    x, y, side = margin + col * cell + inset, margin + row * cell + inset, cell - 2 * inset
    return Box(x, y, side, side, fill, round(cell * rounding, 1))


def _exit(
    side: str, line: int, cell: int, margin: int, edge: int, inner_w: int, inner_h: int
) -> list[Shape]:
    """A gap in the frame at ``line`` on ``side`` and an arrow pointing out through it."""
    start = margin + line * cell
    tip, half = margin - edge - 2, cell * 0.22  # the arrow fills the margin outside the frame
    inset = min(4, cell // 4)  # the gap leaves a little frame at each end, even at 8 pixels
    if side in ("left", "right"):
        x = margin - edge if side == "left" else margin + inner_w
        gap = Box(x, start + inset, edge, cell - 2 * inset, FLOOR)
        base = x if side == "left" else x + edge
        point = base - tip if side == "left" else base + tip
        mid = start + cell / 2
        arrow = ((base, mid - half), (point, mid), (base, mid + half))
    else:
        y = margin - edge if side == "top" else margin + inner_h
        gap = Box(start + inset, y, cell - 2 * inset, edge, FLOOR)
        base = y if side == "top" else y + edge
        point = base - tip if side == "top" else base + tip
        mid = start + cell / 2
        arrow = ((mid - half, base), (mid, point), (mid + half, base))
    return [gap, Polygon(arrow, TARGET)]


def solution_scenes(puzzle: Puzzle, plan: tuple[Move, ...], *, cell: int) -> list[Scene]:
    """The start and the board after every move, each captioned with the move just played
    and its vehicle ringed."""
    played = replay(puzzle, plan)
    captions = ["start"] + [
        f"{n}. {format_move(move, puzzle.board)}"
        + (" out" if after.count(None) > before.count(None) else "")
        for n, (move, before, after) in enumerate(
            zip(played.moves, played.states, played.states[1:], strict=False), 1
        )
    ]
    movers = [None] + [puzzle.board.index(move.label) for move in played.moves]
    return [
        board_scene(puzzle.board, state, cell=cell, caption=caption, moved=mover)
        for state, caption, mover in zip(played.states, captions, movers, strict=True)
    ]


def render_board(
    puzzle: Puzzle, path: Path, *, cell: int = 60, fixed: Collection[Cell] = ()
) -> None:
    save(board_scene(puzzle.board, puzzle.placement, cell=cell, fixed=fixed), path)


def render_solution(
    puzzle: Puzzle, plan: tuple[Move, ...], path: Path, *, cell: int = 60, widest: int = 8
) -> None:
    """An animated GIF of the plan, or (PNG, SVG) a strip of boards (:func:`solution_strip`)."""
    if path.suffix.lower() == ".gif":
        save_animation(solution_scenes(puzzle, plan, cell=cell), path)
    else:
        save(solution_strip(puzzle, plan, cell=cell, widest=widest), path)


def solution_strip(puzzle: Puzzle, plan: tuple[Move, ...], *, cell: int, widest: int) -> Scene:
    """The start and the board after every move in rows of at most ``widest`` boards, as even
    as they can be."""
    scenes = solution_scenes(puzzle, plan, cell=cell)
    rows = -(-len(scenes) // widest)
    return tiled(scenes, -(-len(scenes) // rows))


#: Notebooks show boards smaller than picture files: 40 pixels a cell.
NOTEBOOK_CELL = 40


def board_svg(puzzle: Puzzle, *, cell: int = NOTEBOOK_CELL) -> str:
    """The puzzle's board as SVG text (what a notebook shows for a puzzle)."""
    return svg(board_scene(puzzle.board, puzzle.placement, cell=cell))


def solution_svg(
    puzzle: Puzzle, plan: tuple[Move, ...], *, cell: int = NOTEBOOK_CELL, widest: int = 6
) -> str:
    """The strip of boards of a plan as SVG text (what a notebook shows for a solution)."""
    return svg(solution_strip(puzzle, plan, cell=cell, widest=widest))
