"""The exit codes' one rule: a run whose puzzles end differently exits with the most serious."""

from __future__ import annotations

from rhasp.exit_codes import most_serious


def test_the_most_serious_outcome_is_the_exit_code_in_the_documented_order():
    # docs/exit-codes.md: 3 (a disagreement), then 2 (a bad line), 4 (a limit), 1 (an
    # unsolvable puzzle), else 0.
    assert most_serious([]) == 0
    assert most_serious([0, 0]) == 0
    assert most_serious([0, 1, 0]) == 1
    assert most_serious([1, 4, 0]) == 4
    assert most_serious([4, 2, 1]) == 2
    assert most_serious([2, 3, 4, 1, 0]) == 3
    assert most_serious([3, 2]) == most_serious([2, 3]) == 3


def test_the_documented_exit_codes_are_the_modules_and_no_other_module_writes_one():
    import re

    from rhasp import exit_codes
    from tests.boards import ROOT

    defined = {value for name, value in vars(exit_codes).items() if name.startswith("EXIT_")}
    table = (ROOT / "docs" / "exit-codes.md").read_text(encoding="utf-8").split("\n## ")[0]
    documented = {
        int(code) for row in re.findall(r"^\| ([\d, ]+) \|", table, re.M) for code in row.split(",")
    }
    assert documented == defined == {0, 1, 2, 3, 4, 5, 130, 141, 143}
    # Every other module says a code by its name: no exit with a number written out.
    written = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in (ROOT / "rhasp").rglob("*.py")
        if path.name != "exit_codes.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\b(?:sys\.exit|Exit|exit_code\s*=)\(?\s*\d", line)
    ]
    assert written == []
