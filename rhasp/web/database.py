"""A puzzle database for the page's picks (``rhasp serve --database FILE``): its lines read
by :mod:`rhasp.formats` as a deck, once, at start, and kept packed in memory."""

from __future__ import annotations

import random
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rhasp.errors import InputError, counted, location
from rhasp.formats import DeckLine, printable, stream_deck
from rhasp.formats.line import database_board
from rhasp.model import Puzzle

#: The most moves a database line may have, and so a pick may ask for: one limit for what
#: ``GET /api/database`` lists and what ``POST /api/database`` takes (random boards of any
#: size seldom need more than a hundred).
MOST_MOVES = 999_999


@dataclass
class Shelf:
    """The database's puzzles of one number of moves, packed: their boards end to end (a
    pick reads one), each one's start, cluster (-1: not given) and line in the file."""

    boards: bytearray = field(default_factory=bytearray)
    starts: array[int] = field(default_factory=lambda: array("q"))
    clusters: array[int] = field(default_factory=lambda: array("q"))
    lines: array[int] = field(default_factory=lambda: array("q"))

    def add(self, board: str, cluster: int | None, line: int) -> None:
        self.starts.append(len(self.boards))
        self.boards += board.encode()
        self.clusters.append(-1 if cluster is None else cluster)
        self.lines.append(line)

    def board(self, k: int) -> str:
        end = self.starts[k + 1] if k + 1 < len(self.starts) else len(self.boards)
        return self.boards[self.starts[k] : end].decode()


class Database:
    """A puzzle database file (``MOVES BOARD CLUSTER`` lines, as ``rhasp enumerate`` writes
    them), read whole at start as a deck (:func:`rhasp.formats.stream_deck`): every line is
    checked then (a bad one is an InputError naming it, so the server does not start), and its
    puzzles are kept in memory, packed by moves, each board as the database writes it
    (:func:`~rhasp.formats.line.database_board`), so that a pick never reads the file again
    (it may be moved or removed)."""

    def __init__(self, path: Path) -> None:
        self.name = path.name
        self.shelves: dict[int, Shelf] = {}
        _, entries = stream_deck(str(path))
        for number, pending in entries:
            entry = pending.read() if isinstance(pending, DeckLine) else pending
            if isinstance(entry, InputError):
                raise entry
            self._add(entry, location(printable(str(path)), number), number)
        if not self.shelves:
            raise InputError("holds no database lines (MOVES BOARD CLUSTER)", str(path))

    def _add(self, puzzle: Puzzle, where: str, number: int) -> None:
        """Shelve ``puzzle``, read from line ``number`` (``where``), by its moves."""
        moves = puzzle.meta.get("moves")
        if moves is None:
            raise InputError("not a database line (expected MOVES BOARD CLUSTER)", where)
        if moves > MOST_MOVES:
            raise InputError(f"{moves:,} moves: a pick asks for at most {MOST_MOVES:,}", where)
        try:
            board = database_board(puzzle)
        except InputError as error:
            raise InputError(error.what, where) from None
        self.shelves.setdefault(moves, Shelf()).add(board, puzzle.meta.get("cluster"), number)

    def counts(self) -> dict[int, int]:
        """How many puzzles the database holds of each number of moves, fewest first."""
        return {moves: len(shelf.lines) for moves, shelf in sorted(self.shelves.items())}

    def pick(self, moves: int, seed: int | None) -> dict[str, Any]:
        """A puzzle of ``moves`` moves, at random (from ``seed``, if given): its board, moves,
        cluster, line in the file, and its place among those of ``moves`` moves."""
        if moves not in self.shelves:
            raise InputError(f"no puzzle of {counted(moves, 'move')} in the database", "moves")
        shelf = self.shelves[moves]
        k = random.Random(seed).randrange(len(shelf.lines))
        cluster = shelf.clusters[k]
        return {
            "board": shelf.board(k),
            "moves": moves,
            "cluster": None if cluster < 0 else cluster,
            "line": shelf.lines[k],
            "number": k + 1,
            "of": len(shelf.lines),
        }
