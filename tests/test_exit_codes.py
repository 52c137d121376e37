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
