"""The checks of every entry point's arguments (rhasp/arguments.py): what each lets through,
and the one line that names a bad one."""

from __future__ import annotations

import math

import pytest

from rhasp import arguments
from rhasp.errors import InputError


@pytest.mark.parametrize("value", [True, False, "3", 3.0, None, [3], 2**63, -1])
def test_a_count_is_a_whole_number_in_range_never_a_bool_or_text(value):
    with pytest.raises(InputError) as raised:
        arguments.whole(value, "max_states")
    assert str(raised.value) == (
        f"max_states: give a whole number from 0 to 9,223,372,036,854,775,807, not {value!r}"
    )


def test_numpy_integers_are_counts_and_come_back_as_python_ints():
    numpy = pytest.importorskip("numpy")
    counted = arguments.whole(numpy.int64(7), "jobs", 1, 8)
    assert counted == 7 and type(counted) is int
    with pytest.raises(InputError):
        arguments.whole(numpy.bool_(True), "jobs")


def test_a_seed_may_be_any_whole_number():
    assert arguments.whole(-(2**70), "seed", None, None) == -(2**70)
    with pytest.raises(InputError, match=r"^seed: give a whole number, not 1\.5$"):
        arguments.whole(1.5, "seed", None, None)


def test_seconds_are_reals_at_least_the_low_end_and_never_nan():
    assert arguments.seconds(2, "timeout") == 2.0
    assert arguments.seconds(math.inf, "timeout") == math.inf  # no limit
    for bad in (math.nan, -0.5, "5", True):
        with pytest.raises(InputError, match=r"^timeout: give a number of seconds of at least 0"):
            arguments.seconds(bad, "timeout")


def test_a_choice_lists_what_is_allowed_and_quotes_what_was_given():
    with pytest.raises(InputError) as raised:
        arguments.choice("move", ("moves", "slides"), "objective")
    assert str(raised.value) == "objective: give 'moves' or 'slides', not 'move'"
    with pytest.raises(InputError, match=r"^engine: give 'asp', 'bfs' or 'astar', not None$"):
        arguments.choice(None, ("asp", "bfs", "astar"), "engine")


def test_a_long_value_is_cut_in_the_message():
    with pytest.raises(InputError) as raised:
        arguments.flag("x" * 1000, "confirm")
    assert len(str(raised.value)) < 80 and str(raised.value).endswith("...")


def test_a_count_or_a_range():
    assert arguments.count_or_range(2, "walls", 0) == (2, 2)
    assert arguments.count_or_range((1, 3), "walls", 0) == (1, 3)
    assert arguments.count_or_range([1, 3], "walls", 0) == (1, 3)
    assert arguments.count_or_range(" 1..3 ", "walls", 0) == (1, 3)  # as --walls gives it
    for bad in ((1, 2, 3), "1..", "1-3", (0, "2"), -1):
        with pytest.raises(InputError, match=r"^walls: give "):
            arguments.count_or_range(bad, "walls", 0)


def test_a_range_of_percentages_as_text_or_a_pair():
    assert arguments.percent_range("67..74", "covered") == (67.0, 74.0)
    assert arguments.percent_range(" 67.5% .. 74% ", "covered") == (67.5, 74.0)
    assert arguments.percent_range((65, 75), "covered") == (65.0, 75.0)
    assert arguments.percent_range("0.5%..1%", "covered") == (0.5, 1.0)  # % says which
    for bad in ("70", "75..65", "60..101", (1, 2, 3), (True, 50), "a..b", (math.nan, 50)):
        with pytest.raises(InputError) as raised:
            arguments.percent_range(bad, "covered")
        assert raised.value.where == "covered"


@pytest.mark.parametrize(
    ("value", "percents", "shares"),
    [
        ("0.65..0.75", "0.65 % to 0.75 %", "65 % to 75 %"),
        ((0.65, 0.75), "0.65 %", "65 %"),
        ("0..1", "0 % to 1 %", "0 % to 100 %"),
    ],
)
def test_a_range_that_reads_as_shares_or_as_percentages_is_refused_naming_both(
    value, percents, shares
):
    with pytest.raises(InputError) as raised:
        arguments.percent_range(value, "covered")
    assert percents in raised.value.what and shares in raised.value.what


def test_the_default_state_limit_is_the_memorys_share_up_to_the_most_a_store_keeps(monkeypatch):
    """The default is what half the memory holds, but never past MOST_STATES, the bound of
    ``max_states``: a larger one would stop there and advise raising a limit the bound
    refuses. A number given is left as it is (the bound checks it)."""
    most = arguments.BOUNDS["max_states"][1]
    monkeypatch.setattr("rhasp.limits.machine_memory", lambda: 1 << 50)  # a petabyte
    assert arguments.max_states_for(None) == most
    assert arguments.max_states_for(1_000) == 1_000
    monkeypatch.setattr("rhasp.limits.machine_memory", lambda: 1 << 30)
    assert arguments.max_states_for(None) < most
    assert arguments.max_states_for(None, processes=2) < arguments.max_states_for(None)
