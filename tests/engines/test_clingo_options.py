"""Which clingo options rhasp passes on (rhasp/engines/clingo_options.py): the search's,
never one that changes what an answer means (issue 39). The reasons are clingo's own
(``clingo --help=3``); each refusal names the argument."""

from __future__ import annotations

import pytest

from rhasp.engines.clingo_options import checked_clingo_args
from rhasp.errors import InputError

SEARCH_TUNING = [
    "--configuration=crafty",
    "--heuristic=Vsids",
    "--heuristic=Domain",
    "--parallel-mode=2,split",
    "-t1",
    "--seed=3",
    "--rand-freq=0.005",
    "--restarts=L,100",
    "--sat-prepro=2",
    "--no-backprop",
    "--no-lookback",
    "--dom-mod=level,show",
]


def test_options_of_the_search_pass_as_given():
    assert checked_clingo_args(SEARCH_TUNING) == tuple(SEARCH_TUNING)
    assert checked_clingo_args(()) == ()


@pytest.mark.parametrize(
    ("arg", "why"),
    [
        ("--models=2", "one model"),
        ("--models=0", "one model"),
        ("-n0", "one model"),
        ("--enum-mode=brave", "brave or cautious"),
        ("--enum-mode=cautious", "brave or cautious"),
        ("-e", "brave or cautious"),
        ("--opt-mode=optN", "optimise nothing"),
        ("--project", "projected"),
        ("--const=h=v", "redefine"),
        ("-c imax=3", "redefine"),
        ("--supp-models", "stable"),
        ("--no-ufs-check", "stable"),
        ("--solve-limit=10", "--timeout"),
        ("--model=0", "--models"),  # clingo takes it for --models
        ("--config=crafty", "--configuration"),
        ("0", "--models"),  # a bare number is --models to clingo
        ("", "not an option"),
        ("--configuration=/tmp/options.txt", "a file may set any option"),
        ("--garbage", "search options"),
        ("-x", "full names"),
    ],
)
def test_other_options_are_refused_naming_the_option_and_why(arg, why):
    with pytest.raises(InputError) as caught:
        checked_clingo_args(["--seed=3", arg], "clingo_args")
    said = str(caught.value)
    assert said.startswith(f"clingo_args: {arg!r}") and "\n" not in said
    assert why in said
