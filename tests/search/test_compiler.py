"""The background process (rhasp.search.compiler), started by its command line as a search
process starts it: it serves the queue and marks the code ready."""

from __future__ import annotations

import time

from rhasp.search import cache, core
from rhasp.search.compiled import shape
from rhasp.search.geometry import Geometry
from tests.boards import card
from tests.search.conftest import ONE_WORD


def test_a_request_is_served_by_the_background_process_and_marked_ready(
    compiled_cache, monkeypatch, tmp_path
):
    # numba's files are in the folder, the marker is not (a compile whose marker was lost):
    # the process loads the code under the compile lock and writes the marker. It runs this
    # rhasp's code, whatever rhasp the caller's folder holds (python -m looks there first).
    decoy = tmp_path / "rhasp"
    decoy.mkdir()
    (decoy / "__init__.py").write_text('raise SystemExit("another rhasp")\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cache, "_folder", None)
    marker = compiled_cache / "ready" / f"breadth_first.{ONE_WORD}"
    marker.unlink()
    puzzle = card(1)
    plan = Geometry.of(puzzle.board)
    assert shape(plan.tables) == ONE_WORD
    flags = {"stop_at_goal": True, "with_links": True}
    call = (core.breadth_first, plan.tables, (plan.key(puzzle.start), 1), flags)
    assert cache.folder() == compiled_cache
    assert cache.start("breadth_first", ONE_WORD, call)
    ends = time.monotonic() + 120
    while not marker.exists() and time.monotonic() < ends:
        time.sleep(0.1)
    assert marker.exists(), "the background process never marked the code ready"
    assert cache.requests(compiled_cache / "queue") == []
