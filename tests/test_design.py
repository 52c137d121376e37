"""docs/design.md's claims about the layout, checked against the tree: every module is named
in the layout table, every path it names exists, and no module is past the size rule unless
the page says which one concept earns it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DESIGN = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
#: A module longer than this holds more than one concept, unless design.md argues otherwise.
MOST_LINES = 500


def section(title: str) -> str:
    """The text of design.md's section ``## title`` (up to the next heading of its level)."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", DESIGN, re.M | re.S)
    assert match, f"docs/design.md has no section {title!r}"
    return match.group(1)


def named_paths(text: str) -> set[str]:
    """The paths a text names in backticks (``rhasp/...``, ``encodings/...``)."""
    return set(re.findall(r"`((?:rhasp|encodings|tests|bench|puzzles)/[\w./-]*)`", text))


def modules() -> list[Path]:
    return sorted((ROOT / "rhasp").rglob("*.py"))


def long_modules(limit: int = MOST_LINES) -> dict[str, int]:
    """Each module of rhasp/ (and the page's scripts) past ``limit`` lines, by its path."""
    files = [*modules(), *(ROOT / "rhasp").rglob("*.js")]
    sizes = {str(path.relative_to(ROOT)): len(path.read_text().splitlines()) for path in files}
    return {path: size for path, size in sizes.items() if size > limit}


def test_every_path_the_design_names_exists():
    missing = sorted(path for path in named_paths(DESIGN) if not (ROOT / path).exists())
    assert not missing, f"docs/design.md names paths that are not there: {missing}"


def test_every_module_is_named_in_the_layout_table():
    """A module is named by its own path, or sits in a package the table names whole whose row
    names each of its files (``rhasp/cli/`` lists ``solve.py``, ``check.py``, ...)."""
    layout = section("Layout")
    names = named_paths(layout)
    unnamed = []
    for path in modules():
        relative = str(path.relative_to(ROOT))
        package = str(path.parent.relative_to(ROOT)) + "/"
        row = next(
            (line for line in layout.splitlines() if line.startswith(f"| `{package}` |")), ""
        )
        if relative in names or (package in names and f"`{path.name}`" in row):
            continue
        if path.name == "__init__.py" and package in names:
            continue
        unnamed.append(relative)
    assert not unnamed, f"modules docs/design.md's layout table does not name: {unnamed}"


def test_no_module_is_past_the_size_rule_unless_the_design_argues_it():
    """The argument is a paragraph of design.md that opens "`PATH` is over 500 lines"."""
    unargued = {
        path: size
        for path, size in long_modules().items()
        if f"`{path}` is over {MOST_LINES} lines" not in DESIGN
    }
    assert not unargued, f"past {MOST_LINES} lines, not argued in docs/design.md: {unargued}"


def test_every_file_a_package_row_names_is_in_the_package():
    layout = section("Layout")
    missing = []
    for row in layout.splitlines():
        package = re.match(r"\| `(rhasp/[\w/]+/)` \|", row)
        if package:
            files = set(re.findall(r"`([a-z_]+\.(?:py|js))`", row))
            missing += [package[1] + f for f in files if not list((ROOT / package[1]).rglob(f))]
    assert not missing, f"docs/design.md's layout names files that are not there: {missing}"


def test_the_size_rule_sees_a_long_module():
    assert long_modules(limit=50), "every module under 50 lines: the check reads nothing"
