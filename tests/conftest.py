"""Fixtures shared across the test modules."""

from __future__ import annotations

import pytest

from rhasp.engines import get_engine
from tests.boards import card


@pytest.fixture(scope="session")
def card_solutions():
    """The oracle's solutions of the 40 original cards, by (card number, objective)."""
    engine = get_engine("bfs")
    return {
        (number, objective): engine.solve(card(number), objective)
        for number in range(1, 41)
        for objective in ("moves", "slides")
    }
