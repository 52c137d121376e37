"""JSON: the same board as the grid, explicit exits, and every field checked."""

from __future__ import annotations

import json

import pytest

from rhasp.errors import InputError
from rhasp.formats import read_text, write
from tests.boards import card, example

FOUR = {
    "size": {"width": 4, "height": 4},
    "vehicles": [
        {"label": "A", "row": 0, "col": 2, "length": 2, "orientation": "vertical"},
        {"label": "X", "row": 1, "col": 0, "length": 2, "orientation": "h"},
        {"label": "B", "row": 3, "col": 1, "length": 2, "orientation": "horizontal"},
    ],
    "targets": [{"label": "X", "exit": "right"}],
}


def read(document) -> object:
    return read_text(json.dumps(document), "p.json", name="p")[0]


def test_hand_written_json_equals_the_grid_file():
    assert read(FOUR) == example("4x4")


def test_written_json_spells_out_exits_and_reads_back():
    data = json.loads(write(card(1), "json"))
    assert data["targets"] == [{"label": "X", "exit": {"side": "right", "row": 2}}]
    assert {"label": "O", "row": 0, "col": 5, "length": 3, "orientation": "vertical"} in data[
        "vehicles"
    ]
    assert read(data) == card(1)


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (lambda d: d["vehicles"][0].pop("row"), "vehicles[0].row: row must be a whole number"),
        (lambda d: d["vehicles"][1].update(col=1, row=0), "vehicle X overlaps vehicle A at row 1"),
        (lambda d: d["vehicles"][1].update(col=3), "runs off the 4×4 board"),
        (
            lambda d: d["targets"][0].update(exit={"side": "right", "row": 2}),
            "its exit is on row 3",
        ),
        (lambda d: d["targets"][0].update(exit="top"), "cannot reach the top edge"),
        (lambda d: d.update(targets=[]), "no target vehicle"),
        (lambda d: d["size"].update(width=13), "the board is 13×4"),
        (lambda d: d.update(walls=[{"row": 3, "col": 1}]), "vehicle B overlaps a wall"),
    ],
)
def test_bad_documents_are_refused_with_their_path(change, complaint):
    document = json.loads(json.dumps(FOUR))
    change(document)
    with pytest.raises(InputError) as caught:
        read(document)
    assert complaint in str(caught.value)
    assert str(caught.value).startswith("p.json")


def test_broken_json_names_line_and_column():
    with pytest.raises(InputError, match=r"^p.json:2:1: invalid JSON"):
        read_text('{"size":\n', "p.json", name="p")
