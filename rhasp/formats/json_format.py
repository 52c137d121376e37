"""JSON: the whole model spelled out, for programs.

Rows and columns are 0-based, row 0 at the top; a vehicle's ``row``/``col`` is its top-left cell.

.. code-block:: json

    {"name": "card01", "size": {"width": 6, "height": 6},
     "vehicles": [{"label": "X", "row": 2, "col": 1, "length": 2, "orientation": "horizontal"}],
     "walls": [{"row": 0, "col": 5}],
     "targets": [{"label": "X", "exit": {"side": "right", "row": 2}}],
     "meta": {"moves": 8}}

``orientation`` is ``horizontal``/``vertical`` (``h``/``v`` are read too); a target's ``exit`` is
an object as above or just a side (``"right"``), its row or column then being the target's own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rhasp.errors import InputError, location
from rhasp.model import SIDES, Piece, Puzzle, TargetSpec, build_puzzle

_ORIENTATION = {"horizontal": "h", "vertical": "v", "h": "h", "v": "v"}


def read_json(text: str, source: str, *, name: str, targets: Sequence[TargetSpec] = ()) -> Puzzle:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        where = location(source, error.lineno, error.colno)
        raise InputError(f"invalid JSON: {error.msg}", where) from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        raise InputError("invalid JSON: a number has too many digits", source) from None
    except RecursionError:
        raise InputError("invalid JSON: arrays or objects nested too deeply", source) from None
    doc = _Doc(data, source)
    size = doc.object("size", data)
    width, height = doc.integer(size, "width", "size"), doc.integer(size, "height", "size")
    pieces = [
        Piece(
            doc.label(item, f"vehicles[{i}]"),
            doc.orientation(item, f"vehicles[{i}]"),
            doc.integer(item, "row", f"vehicles[{i}]"),
            doc.integer(item, "col", f"vehicles[{i}]"),
            doc.integer(item, "length", f"vehicles[{i}]"),
            f"{source}: vehicles[{i}]",
        )
        for i, item in enumerate(doc.items(data, "vehicles"))
    ]
    walls = [
        (
            (doc.integer(item, "row", f"walls[{i}]"), doc.integer(item, "col", f"walls[{i}]")),
            f"{source}: walls[{i}]",
        )
        for i, item in enumerate(doc.items(data, "walls", required=False))
    ]
    specs = list(targets) or [
        doc.target(item, f"targets[{i}]") for i, item in enumerate(doc.items(data, "targets"))
    ]
    meta = data.get("meta", {})
    if not isinstance(meta, dict) or not all(doc.natural(v) for v in meta.values()):
        raise doc.fail("meta", "meta must be an object of whole numbers, none negative")
    title = data.get("name", name)
    if not isinstance(title, str):  # null, 7 or true would be named None, 7 or True
        raise doc.fail("name", f"name must be text, not {json.dumps(title)}")
    if "name" in data and not (title and title.isprintable()):  # printed in reports
        raise doc.fail("name", "name must be printable text on one line, not empty")
    return build_puzzle(width, height, pieces, walls, specs, where=source, name=title, meta=meta)


class _Doc:
    """Typed access to the parsed document; every complaint names the JSON path."""

    def __init__(self, data: Any, source: str) -> None:
        self.source = source
        if not isinstance(data, dict):
            raise InputError(
                "a puzzle in JSON is an object with size, vehicles and targets", source
            )

    def fail(self, path: str, what: str) -> InputError:
        return InputError(what, f"{self.source}: {path}")

    def object(self, key: str, parent: dict) -> dict:
        value = parent.get(key)
        if not isinstance(value, dict):
            raise self.fail(key, f"{key} must be an object")
        return value

    def items(self, parent: dict, key: str, required: bool = True) -> list[dict]:
        value = parent.get(key, None if required else [])
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise self.fail(key, f"{key} must be a list of objects")
        return value

    @staticmethod
    def whole(value: Any) -> bool:
        """An integer and not a boolean (JSON's true is Python's 1)."""
        return isinstance(value, int) and not isinstance(value, bool)

    def natural(self, value: Any) -> bool:
        return self.whole(value) and value >= 0

    def integer(self, item: dict, key: str, path: str) -> int:
        value = item.get(key)
        if not self.whole(value):
            raise self.fail(f"{path}.{key}", f"{key} must be a whole number")
        return value

    def label(self, item: dict, path: str) -> str:
        value = item.get("label")
        if not isinstance(value, str):
            raise self.fail(f"{path}.label", "label must be a string of one letter or digit")
        return value

    def orientation(self, item: dict, path: str) -> Any:
        value = item.get("orientation")
        if not isinstance(value, str) or value not in _ORIENTATION:
            raise self.fail(f"{path}.orientation", "orientation must be horizontal or vertical")
        return _ORIENTATION[value]

    def target(self, item: dict, path: str) -> TargetSpec:
        where = f"{self.source}: {path}"
        exit_ = item.get("exit")
        side, line = exit_, None
        if isinstance(exit_, dict):
            side = exit_.get("side")
            line = exit_.get("row", exit_.get("col"))
            if line is not None and not self.whole(line):
                raise self.fail(f"{path}.exit", "the exit's row or col must be a whole number")
        if side is not None and side not in SIDES:
            raise self.fail(f"{path}.exit", f"exit side must be one of {', '.join(SIDES)}")
        return TargetSpec(self.label(item, path), side, line, where)


def puzzle_to_dict(puzzle: Puzzle) -> dict[str, Any]:
    board = puzzle.board
    vehicles = []
    for vehicle, position in zip(board.vehicles, puzzle.placement, strict=True):
        row, col = vehicle.cells(position)[0]
        orientation = "horizontal" if vehicle.horizontal else "vertical"
        vehicles.append(
            {
                "label": vehicle.label,
                "row": row,
                "col": col,
                "length": vehicle.length,
                "orientation": orientation,
            }
        )
    targets = []
    for label, side in board.exits:
        vehicle = board.vehicles[board.index(label)]
        axis = "row" if vehicle.horizontal else "col"
        targets.append({"label": label, "exit": {"side": side, axis: vehicle.line}})
    return {
        "name": puzzle.name,
        "size": {"width": board.width, "height": board.height},
        "vehicles": vehicles,
        "walls": [{"row": row, "col": col} for row, col in sorted(board.walls)],
        "targets": targets,
        "meta": dict(puzzle.meta),
    }


def write_json(puzzle: Puzzle) -> str:
    return json.dumps(puzzle_to_dict(puzzle), indent=2, ensure_ascii=False) + "\n"
