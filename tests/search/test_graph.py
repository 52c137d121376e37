"""A cluster as the core leaves it (:mod:`rhasp.search.graph`), read in the model's terms."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rhasp.limits import Budget
from rhasp.search import explore_cluster, graph
from rhasp.search.geometry import Geometry
from tests.boards import card


def _each_state(found: graph.ClusterGraph) -> list[list[int]]:
    """Every state's positions, read state by state through the model's view."""
    return [list(found.state(i)) for i in range(found.states)]


@pytest.mark.parametrize("number", [1, 26, 40])
def test_the_positions_of_one_word_keys_are_each_states_own(number):
    # Read in numpy's arrays where the key is one word; checked against the model's state.
    puzzle = card(number)
    found = explore_cluster(puzzle.board, puzzle.start, Budget())
    assert graph.key_words(found.geometry.tables) == 1
    positions = found.positions()
    assert positions.shape == (found.states, len(puzzle.board.vehicles))
    assert positions.tolist() == _each_state(found)


def test_the_positions_of_packed_keys_count_from_each_range():
    # Where keys are packed, a field counts from the first position of its vehicle's range
    # (Geometry.low): the cluster of card 26 read through packed keys of its own states.
    puzzle = card(26)
    found = explore_cluster(puzzle.board, puzzle.start, Budget())
    states = _each_state(found)
    ranges = [
        range(min(s[v] for s in states), max(s[v] for s in states) + 1)
        for v in range(len(states[0]))
    ]
    packed = Geometry.of(puzzle.board, targets_leave=False, ranges=ranges)
    assert any(packed.low)
    repacked = replace(found, geometry=packed, keys=[packed.key(tuple(s)) for s in states])
    assert repacked.positions().tolist() == states


def test_both_ways_of_reading_the_positions_agree(monkeypatch):
    puzzle = card(26)
    found = explore_cluster(puzzle.board, puzzle.start, Budget())
    in_arrays = found.positions()
    monkeypatch.setattr(graph, "key_words", lambda tables: 2)  # the way of several words
    assert found.positions().tolist() == in_arrays.tolist()
