"""The Prolog-style car list."""

from __future__ import annotations

import pytest

from rhasp.errors import InputError
from rhasp.formats import read_text, write
from tests.boards import card, example, grid

# Card 1 spelled out by hand from the card: column-row of each top/left cell.
CARD1 = """
[car(a,h,1-1), car(o,v,6-1), car(p,v,1-2), car(q,v,4-2), car(x,h,2-3),
 car(b,v,1-5), car(c,h,5-5), car(r,h,3-6)].
"""


def test_hand_written_car_list_equals_the_grid_file():
    (puzzle,) = read_text(CARD1, "c.pl", name="c")
    assert puzzle == card(1)


def test_written_car_list_reads_back():
    text = write(card(26), "carlist")
    assert "car(x,h,2-3)." in text
    (again,) = read_text(text, "c.pl", name="c")
    assert again == card(26)


def test_boards_the_car_list_cannot_hold_are_refused():
    with pytest.raises(InputError, match="not 6×6"):
        write(example("4x4"), "carlist")
    with pytest.raises(InputError, match="it has walls"):
        write(example("walls"), "carlist")


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("car(x,h,2-3). car(a,v,2-2).", "c.pl:1:1: vehicle X overlaps vehicle A"),
        (
            "car(x,h,2-3). car(o,h,5-1).",
            "c.pl:1:15: vehicle O (3 cells from row 1, column 5) runs off",
        ),
        ("car(x,h,2-3). bus(a,v,1-1).", "c.pl:1:15: expected a term car(Name,h|v,X-Y)"),
        ("car(x,v,2-3).", "target X moves along column 2 and cannot reach the right edge"),
        ("car(x,h,2-2).", "target X moves along row 2 but its exit is on row 3"),
        ("car(a,h,2-2).", "target X is not a vehicle on the board"),
    ],
)
def test_bad_car_lists_are_refused(text, complaint):
    with pytest.raises(InputError) as caught:
        read_text(text, "c.pl", name="c")
    assert complaint in str(caught.value)


def test_a_coordinate_of_thousands_of_digits_is_an_error_not_a_traceback():
    with pytest.raises(InputError) as caught:
        read_text(f"car(x,h,2-3). car(a,h,{'9' * 5000}-1).", "c.pl", name="c")
    assert str(caught.value).startswith("c.pl:1:15: expected a term car(Name,h|v,X-Y)")


def test_lower_case_vehicles_are_not_written_since_names_read_back_upper_case():
    lower = grid(
        """
        ......
        ......
        .XX...
        ......
        bb....
        ......
        """
    )
    with pytest.raises(InputError) as caught:
        write(lower, "carlist")  # was car(b,h,1-5), read back as a vehicle B
    assert str(caught.value) == (
        "test: cannot be written as a car list: vehicle b is lower-case, and names mean upper-case"
    )


def test_the_refusal_counts_the_targets():
    # two-targets.txt: X and Y leave right of row 3; 4x4.txt: X alone, right of row 2.
    with pytest.raises(InputError) as several:
        write(example("two-targets"), "carlist")
    assert str(several.value) == (
        "two-targets: cannot be written as a car list: it has 2 targets, and a car list has one"
    )
    with pytest.raises(InputError) as one:
        write(example("4x4"), "carlist")
    assert str(one.value) == (
        "4x4: cannot be written as a car list: the board is not 6×6; "
        "its target is not X leaving right of row 3"
    )
