"""The names PDDL gives a board's cells, its vehicles and its moves, in the domain
:mod:`rhasp.formats.pddl` writes and in the plans planners answer, which :mod:`rhasp.notation`
reads: one naming for the writer and the reader, in a module of its own so that reading a
plan loads no puzzle format."""

from __future__ import annotations

import re

from rhasp.model import Cell, Vehicle

#: The directions of the actions: the static fact each steps along, whether it steps along it
#: backwards, and the orientation of the vehicles it moves.
DIRECTIONS: dict[str, tuple[str, bool, str]] = {
    "right": ("next-right", False, "horizontal"),
    "left": ("next-right", True, "horizontal"),
    "down": ("next-down", False, "vertical"),
    "up": ("next-down", True, "vertical"),
}
TYPE_OF = {"h": "horizontal", "v": "vertical"}
_ACTION = re.compile(r"(?P<direction>right|left|down|up)-(?P<distance>[1-9]\d{0,2})")
_CELL = re.compile(r"r(?P<row>[1-9]\d?)c(?P<col>[1-9]\d?)")
_VEHICLE = re.compile(r"(?P<upper>[a-z])|(?P<lower>[a-z])-lower|v(?P<digit>[0-9])")


def vehicle_object(label: str) -> str:
    """The PDDL object of a vehicle: PDDL names are read without case, so an uppercase label
    is its letter (``x``), a lowercase one ``x-lower``, a digit ``v1``."""
    if label.isdigit():
        return f"v{label}"
    return label.lower() if label.isupper() else f"{label}-lower"


def vehicle_label(name: str) -> str | None:
    """The label of the vehicle named ``name`` (:func:`vehicle_object` read back), or None."""
    match = _VEHICLE.fullmatch(name.lower())
    if match is None:
        return None
    if match["upper"]:
        return match["upper"].upper()
    return match["lower"] or match["digit"]


def cell_object(cell: Cell) -> str:
    """A cell as a PDDL object: ``r3c5`` is row 3, column 5, counted from 1."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def object_cell(name: str) -> Cell | None:
    """The cell named ``name`` (:func:`cell_object` read back), or None."""
    match = _CELL.fullmatch(name.lower())
    return None if match is None else (int(match["row"]) - 1, int(match["col"]) - 1)


def action_name(direction: str, distance: int) -> str:
    return f"{direction}-{distance}"


def action_move(name: str) -> tuple[str, int] | None:
    """The direction and distance of an action named ``name``, or None for another name."""
    match = _ACTION.fullmatch(name.lower())
    return None if match is None else (match["direction"], int(match["distance"]))


def action_cells(vehicle: Vehicle, position: int, delta: int) -> list[Cell]:
    """The cells an action names after the vehicle, for ``vehicle`` at ``position`` moving
    ``delta`` cells: the chain of the first cell, then the chain of the last, each of
    ``|delta| + 1`` cells, stepping in the move's direction."""
    step = 1 if delta > 0 else -1
    last = position + vehicle.length - 1
    along = [position + step * i for i in range(abs(delta) + 1)]
    along += [last + step * i for i in range(abs(delta) + 1)]
    if vehicle.horizontal:
        return [(vehicle.line, spot) for spot in along]
    return [(spot, vehicle.line) for spot in along]
