"""The requests (rhasp/requests.py) as the one home of each command's checks and defaults:
the API and the command line map their errors, never declare them again."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

import rhasp
from rhasp.engines import ENGINES
from rhasp.requests import (
    DECK_SMALL_ENGINE,
    SMALL_ENGINE,
    DeckRequest,
    EnumerateRequest,
    SolveRequest,
    search_budget,
)
from rhasp.search import MOST_STATES
from tests.boards import card
from tests.command import rhasp as command

PACKAGE = Path(__file__).resolve().parents[1] / "rhasp"


@pytest.mark.parametrize(
    "request_of",
    [lambda: DeckRequest("deck.txt", resume=True), lambda: EnumerateRequest(4, resume=True)],
)
def test_resume_without_out_is_refused_by_the_request_naming_both(request_of):
    with pytest.raises(rhasp.InputError) as refused:
        request_of()
    assert refused.value.where == "resume" and "out" in refused.value.what


@pytest.mark.parametrize("row", [0, 5])
def test_an_exit_row_counts_from_1_to_the_side(row):
    assert EnumerateRequest(4, exit_row=4).options.exit_row == 3  # the core counts from 0
    with pytest.raises(rhasp.InputError, match=r"^exit_row: give a row from 1 \(the top\) to 4"):
        EnumerateRequest(4, exit_row=row)


def test_resume_without_out_is_refused_by_the_api_naming_both():
    with pytest.raises(rhasp.InputError, match=r"^resume: .*\bout\b"):
        rhasp.deck(str(PACKAGE.parent / "puzzles" / "original40.txt"), resume=True)


def test_the_command_line_says_the_same_with_its_options():
    result = command("deck", "card01", "--resume")
    assert result.exit_code == 2
    assert result.stderr.startswith("rhasp: --resume: ") and "--out" in result.stderr


@pytest.mark.parametrize(
    ("option", "given", "request_of"),
    [
        ("--jobs", "0", lambda: DeckRequest("x.txt", jobs=0)),
        ("--jobs", "1025", lambda: DeckRequest("x.txt", jobs=1025)),
        ("--max-states", "0", lambda: DeckRequest("x.txt", max_states=0)),
        # past what a search's store holds: a budget it could not keep
        (
            "--max-states",
            str(MOST_STATES + 1),
            lambda: DeckRequest("x.txt", max_states=MOST_STATES + 1),
        ),
        ("--max-atoms", "0", lambda: DeckRequest("x.txt", max_atoms=0)),
    ],
)
def test_an_options_bounds_are_the_requests(option, given, request_of):
    with pytest.raises(rhasp.InputError) as refused:
        request_of()
    result = command("deck", "card01", option, given)
    assert result.exit_code == 2
    words = " ".join(result.stderr.replace("│", " ").split())  # the usage box, unwrapped
    assert refused.value.what in words, result.stderr


def test_the_default_engine_is_the_requests():
    assert {SMALL_ENGINE, DECK_SMALL_ENGINE} <= set(ENGINES)
    assert SolveRequest(card(1)).engine == SMALL_ENGINE
    assert SolveRequest(card(1), in_deck=True).engine == DECK_SMALL_ENGINE


def engines_named_by_solve_requests(source: str) -> list[int]:
    """The lines where ``source`` builds a SolveRequest naming an engine as text: a default
    chosen at the call, not by the request."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("SolveRequest"):
            given = [*node.args, *(keyword.value for keyword in node.keywords)]
            if any(isinstance(v, ast.Constant) and v.value in ENGINES for v in given):
                found.append(node.lineno)
    return found


def test_no_caller_chooses_the_default_engine():
    wrong = {
        str(path.relative_to(PACKAGE)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "requests.py"
        for lines in [engines_named_by_solve_requests(path.read_text(encoding="utf-8"))]
        if lines
    }
    assert not wrong, wrong
    source = 'SolveRequest(p, "moves", small_engine="bfs")\napi.SolveRequest(p, "moves", "asp")'
    assert engines_named_by_solve_requests(source) == [1, 2]


@pytest.mark.usefixtures("uncompiled")
def test_a_static_verdict_reads_as_the_command_line_says_it():
    # walled12.txt: its target's exit walled off, by hand; its cluster is far past 10,000.
    walled = rhasp.read(PACKAGE.parent / "puzzles" / "large" / "walled12.txt")
    verdict = rhasp.analyze(walled, max_states=10_000)
    assert verdict.minimal_moves is None
    shown: list[str] = []
    verdict._repr_pretty_(SimpleNamespace(text=shown.append), False)  # as IPython calls it
    first, stopped = "".join(shown).splitlines()
    assert first == f"walled12 · no solution · proven by static analysis: {verdict.proof}"
    assert stopped.startswith("the cluster analysis stopped: state limit reached")
    assert str(verdict) == "".join(shown)


def test_the_default_state_limit_stops_at_the_most_a_store_keeps(monkeypatch):
    """On a machine whose memory holds more states than a search's store keeps, a request's
    default budget is MOST_STATES (rhasp.arguments.max_states_for reckons it)."""
    monkeypatch.setattr("rhasp.limits.machine_memory", lambda: 1 << 50)  # a petabyte
    assert search_budget().states == MOST_STATES
    assert search_budget(1_000).states == 1_000
