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


# Issue 13: documents that Python's JSON reader, or the model, could not take without a
# traceback (found by tests/test_fuzz.py). Each error is one line naming the place.
@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('{"size": ' + "7" * 5000 + "}", "p.json: invalid JSON: a number has too many digits"),
        (
            "[" * 100_000 + "]" * 100_000,
            "p.json: invalid JSON: arrays or objects nested too deeply",
        ),
    ],
)
def test_json_that_python_cannot_read_is_one_line(text, error):
    with pytest.raises(InputError) as caught:
        read_text(text, "p.json", name="p")
    assert str(caught.value) == error


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (
            lambda d: d["vehicles"][0].update(orientation={"side": "right"}),
            "p.json: vehicles[0].orientation: orientation must be horizontal or vertical",
        ),
        (
            lambda d: d["vehicles"][2].update(length=10**30),
            f"p.json: vehicles[2]: vehicle B ({10**30} cells from row 4, column 2) runs off "
            "the 4×4 board",
        ),
        (
            lambda d: d["vehicles"][2].update(label="é"),
            "p.json: vehicles[2]: vehicle label 'é' must be one letter or digit (not o, an "
            "empty cell)",
        ),
        (
            lambda d: d.update(meta={"moves": True}),
            "p.json: meta: meta must be an object of whole numbers, none negative",
        ),
        (
            lambda d: d.update(meta={"moves": -1}),
            "p.json: meta: meta must be an object of whole numbers, none negative",
        ),
        (
            lambda d: d.update(name="two\nlines"),
            "p.json: name: name must be printable text on one line, not empty",
        ),
        (
            lambda d: d.update(name=""),
            "p.json: name: name must be printable text on one line, not empty",
        ),
        (lambda d: d.update(name=None), "p.json: name: name must be text, not null"),
        (lambda d: d.update(name=7), "p.json: name: name must be text, not 7"),
        (
            lambda d: d["targets"][0].update(label="a\nb"),
            "p.json: targets[0]: target 'a\\nb' is not a vehicle on the board",
        ),
    ],
)
def test_values_that_could_not_be_written_back_are_refused(change, error):
    document = json.loads(json.dumps(FOUR))
    change(document)
    with pytest.raises(InputError) as caught:
        read(document)
    assert str(caught.value) == error
