"""A cluster's canonical hardest state: the same from any state of the cluster, any labels."""

from __future__ import annotations

from rhasp.cluster import hardest_state
from rhasp.formats import read_text
from rhasp.formats.line import database_board
from rhasp.model import Puzzle
from tests.boards import card


def test_a_cluster_is_named_the_same_from_any_of_its_states_and_labels():
    puzzle = card(1)
    found = hardest_state(puzzle)
    moved = Puzzle(puzzle.board, next(puzzle.board.successors(puzzle.placement))[1])
    (relabelled_puzzle,) = read_text(database_board(puzzle), "db", name="db")
    for other in (moved, relabelled_puzzle):
        again = hardest_state(other)
        assert again.canonical == found.canonical
        assert again.deck_line() == found.deck_line()
