"""docs/design.md's word on the search package, checked: its Layout row names every module of
rhasp/search/, and a module past 500 lines is one the design says earns it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "rhasp" / "search"
DESIGN = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
MOST_LINES = 500


def layout_row() -> str:
    rows = [line for line in DESIGN.splitlines() if line.startswith("| `rhasp/search/` |")]
    assert len(rows) == 1, rows
    return rows[0]


def test_the_layout_row_names_every_module_of_the_search_package():
    named = set(re.findall(r"`([a-z_]+\.py)`", layout_row()))
    modules = {path.name for path in PACKAGE.glob("*.py")}
    assert modules - named == set()
    assert named - modules == set()


def test_a_search_module_past_500_lines_is_argued_for_in_the_design():
    for path in sorted(PACKAGE.glob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MOST_LINES:
            said = f"`rhasp/search/{path.name}` is over {MOST_LINES} lines"
            assert said in DESIGN, f"{path.name}: {lines} lines"
