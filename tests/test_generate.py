"""Random boards: valid, reproducible, and written database style."""

from __future__ import annotations

import random

from rhasp.engines.bitboard import cluster_size, fewest_moves
from rhasp.formats import read_text
from rhasp.formats.line import database_board
from rhasp.generate import random_board
from tests.boards import card


def test_the_same_seed_gives_the_same_board():
    first = random_board(random.Random(5), vehicles=10, walls=1)
    again = random_board(random.Random(5), vehicles=10, walls=1)
    assert first == again
    assert len(first.board.walls) == 1
    assert first.board.targets == ("A",)


def test_database_style_line_of_card_1_relabelled_by_hand():
    # X becomes A; the others B, C, ... in reading order: A->B, O->C, P->D, Q->E, B->F, ...
    assert database_board(card(1)) == "BBoooCDooEoCDAAEoCDooEooFoooGGFoHHHo"


def test_a_database_line_reads_back_as_the_same_puzzle_up_to_labels():
    for seed in range(10):
        puzzle = random_board(random.Random(seed), vehicles=9, walls=seed % 2)
        (again,) = read_text(database_board(puzzle), "db", name="db")
        assert again.board.walls == puzzle.board.walls
        assert cluster_size(again.board, again.placement) == cluster_size(
            puzzle.board, puzzle.placement
        )
        lengths = [len(plan) if plan else plan for plan, _ in
                   (fewest_moves(p.board, p.start) for p in (puzzle, again))]  # fmt: skip
        assert lengths[0] == lengths[1]
