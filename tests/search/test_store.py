"""The states A* keeps (rhasp.search.store): its bound on their number. How the compiled
store agrees with the source, past its blocks and rebuilds, is tested with the other twins
(tests/search/test_jit.py)."""

from __future__ import annotations

import pytest

from rhasp.formats import read_path
from rhasp.search import core, store, uncompiled
from rhasp.search.geometry import Geometry
from tests.boards import PUZZLES


@pytest.mark.parametrize("search", ["best_first", "cheapest"])
def test_no_search_keeps_more_states_than_a_store_holds_whatever_its_budget(monkeypatch, search):
    # Compiled, places are int32: a budget past MOST_STATES stops there (here 1,000 against
    # 30,000, so that the source, which reads it at run time, shows it uncompiled).
    monkeypatch.setattr(store, "MOST_STATES", 1_000)
    puzzle = read_path(str(PUZZLES / "large" / "left12.txt"))[0]
    geometry = Geometry.of(puzzle.board)
    g, key = geometry.tables, geometry.key(puzzle.placement)
    flags = (True, False) if search == "best_first" else ()  # A* by slides unbounded
    run = getattr(uncompiled.CORE, search)
    goal, states, _ = run(g, key, 30_000, core.new_buffer(core.WATCH_FIELDS), *flags)
    assert goal == core.BUDGET and 1_000 < states < 1_100
