"""Grid text: characters, targets, walls, directives and writing back."""

from __future__ import annotations

import json

import pytest

from rhasp.errors import InputError
from rhasp.formats import read_text, write
from rhasp.model import Vehicle
from tests.boards import card, example, grid


def test_card_1_reads_as_on_the_card():
    puzzle = card(1)
    board = puzzle.board
    assert (board.width, board.height) == (6, 6)
    assert board.targets == ("X",)
    assert board.exit_side("X") == "right"
    by_label = {v.label: (v, p) for v, p in zip(board.vehicles, puzzle.placement, strict=True)}
    assert by_label["X"] == (Vehicle("X", "h", 2, 2), 1)
    assert by_label["O"] == (Vehicle("O", "v", 5, 3), 0)
    assert by_label["R"] == (Vehicle("R", "h", 5, 3), 2)
    assert len(board.vehicles) == 8 and not board.walls  # A B C O P Q R X


def test_database_style_target_walls_and_empties():
    puzzle = grid("""
        ooBooo
        xoBooo
        AAoooo
        oooooo
        oooooo
        oooooo
    """)
    assert puzzle.board.targets == ("A",)
    assert puzzle.board.walls == frozenset({(1, 0)})
    assert [v.label for v in puzzle.board.vehicles] == ["A", "B"]


def test_with_o_for_empty_cells_every_x_is_a_wall_even_side_by_side():
    puzzle = grid("""
        AAoo
        xxoo
        oooo
        oooo
    """)
    assert puzzle.board.targets == ("A",)
    assert puzzle.board.walls == frozenset({(1, 0), (1, 1)})
    assert "x cells read as walls" in puzzle.reading


def test_xx_beside_a_with_dots_is_refused_naming_both_readings():
    # Issue 39, item 2: xx is the target x (the card convention in lowercase) or two walls
    # beside the target A (database style); the text allows both, so neither is guessed.
    with pytest.raises(InputError) as caught:
        grid("""
            AA..
            xx..
            ....
            ....
        """)
    assert "A (database style) or x" in caught.value.what


def test_target_option_overrides_and_makes_lone_x_a_wall():
    puzzle = grid(
        """
        BB..
        ..x.
        XX..
        ....
    """,
        targets=["B"],
    )
    assert puzzle.board.targets == ("B",)
    assert puzzle.board.walls == frozenset({(1, 2)})


def test_comments_blank_lines_and_target_lines():
    puzzle = example("two-targets")
    assert puzzle.board.exits == (("X", "right"), ("Y", "right"))
    vertical = example("vertical-target")
    assert vertical.board.exits == (("X", "bottom"),)


def test_a_vertical_target_defaults_to_the_bottom_edge():
    puzzle = grid("""
        .X..
        .X..
        ....
        ....
    """)
    assert puzzle.board.exit_side("X") == "bottom"


def test_a_target_line_with_a_side_off_its_line_is_refused():
    with pytest.raises(InputError, match="moves along row 3 and cannot reach the top edge"):
        grid("""
            @target X top
            ....
            ....
            XX..
            ....
        """)


def test_writing_adds_target_lines_only_when_needed():
    assert "@target" not in write(card(1), "grid")
    text = write(example("two-targets"), "grid")
    assert "@target X right\n@target Y right" in text
    (again,) = read_text(text, "again.txt", name="again")
    assert again == example("two-targets")


def test_a_vehicle_x_beside_target_a_is_written_with_its_target_line():
    # With A the only target and a vehicle x, the rows alone are refused as allowing two
    # readings (issue 39), so grid text names the target; it reads back as the same puzzle.
    vehicles = [
        {"label": "A", "row": 2, "col": 0, "length": 2, "orientation": "h"},
        {"label": "x", "row": 3, "col": 1, "length": 3, "orientation": "v"},
    ]
    document = {
        "size": {"width": 6, "height": 6},
        "vehicles": vehicles,
        "targets": [{"label": "A"}],
    }
    (puzzle,) = read_text(json.dumps(document), "p.json", name="p")
    text = write(puzzle, "grid")
    assert "@target A right" in text
    assert read_text(text, "p.txt", name="p") == [puzzle]
    with pytest.raises(InputError, match="one line"):
        write(puzzle, "line")
