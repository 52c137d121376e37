"""The complete puzzle database of a board: every interesting puzzle, once per cluster.

``rhasp enumerate`` lists, line for line, what the best-known Rush Hour database lists: each
*interesting* puzzle as ``MOVES BOARD CLUSTER``. The definitions (layouts, interesting,
hardest, minimal, lettering, ties) are the README's ("rhasp enumerate"); the search that
applies them is :mod:`rhasp.search.shards`, compiled. This module builds what it reads (each
line's entries), cuts the work into *shards*, runs them in order or on workers (each through
the search core's face, :func:`rhasp.search.enumerate_shard`, which warms numba, watches and
stops them), and turns what they find into deck lines, reporting through
:class:`rhasp.progress.Progress`.

A shard is the layouts that begin with given entries on the first few lines. It is a pure
function of its number and the options, so shards may run anywhere (worker processes, a Dask
cluster) and in any order; their lines are written in shard order, so the output is the same
bytes however many workers made it.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import functools
import itertools
import math
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rhasp import search
from rhasp.errors import ClusterLost, InputError
from rhasp.formats.line import database_line, database_text
from rhasp.journal import JournaledOutput
from rhasp.progress import Progress, Silent
from rhasp.resume import kept_until_resumed

if TYPE_CHECKING:  # the workers' module loads with the first workers (a command's start)
    from rhasp.parallel import Workers

MIN_SIZE, MAX_SIZE = 4, 7
TARGET_LENGTH = 2
LENGTHS = (2, 3)
#: Shards enough to spread the work and show progress, by board side: the fewest first lines
#: whose entries make at least this many prefixes. A 6×6 shard takes a few seconds.
SHARDS_AT_LEAST = {4: 16, 5: 100, 6: 2000, 7: 20000}


@dataclass(frozen=True)
class Options:
    """What to enumerate: the board, and the filters that prune the enumeration itself."""

    size: int = 6
    exit_row: int = 2  # from 0 at the top (``rhasp enumerate --exit-row`` counts from 1)
    min_walls: int = 0
    max_walls: int = 0
    min_pieces: int = 1  # vehicles, the target included
    max_pieces: int = 36
    from_goals: bool = True  # start from goal layouts (rhasp.search.shards): half the work

    def __post_init__(self) -> None:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise InputError(f"the size must be {MIN_SIZE} to {MAX_SIZE}", "--size")
        if not 0 <= self.exit_row < self.size:
            raise InputError(f"the exit row must be 0 to {self.size - 1}", "exit_row")
        if not 0 <= self.min_walls <= self.max_walls:
            raise InputError("give a count or a range LOW..HIGH with 0 <= LOW <= HIGH", "--walls")
        if not 1 <= self.min_pieces <= self.max_pieces:
            raise InputError("give a count or a range LOW..HIGH with 1 <= LOW <= HIGH", "--pieces")


@dataclass
class Tally:
    """What a run has met so far: the summary's figures and the histogram's."""

    shards: int = 0
    layouts: int = 0
    least: int = 0  # layouts that are their cluster's least state: one per cluster
    solvable: int = 0
    by_moves: collections.Counter[int] = field(default_factory=collections.Counter)
    by_cluster: collections.Counter[int] = field(default_factory=collections.Counter)
    hardest: str | None = None  # the first line of the most moves

    @property
    def puzzles(self) -> int:
        return self.by_moves.total()

    def add(self, shard: Shard) -> None:
        self.shards += 1
        self.layouts += shard.layouts
        self.least += shard.least
        self.solvable += shard.solvable
        for line in shard.lines:
            self.add_line(line)

    def add_line(self, line: str) -> None:
        moves, _, cluster = line.split()
        self.by_moves[int(moves)] += 1
        self.by_cluster[int(cluster)] += 1
        if self.hardest is None or int(moves) > int(self.hardest.split()[0]):
            self.hardest = line


@dataclass(frozen=True)
class Shard:
    """What one shard found: its tallies and its deck lines, in enumeration order."""

    number: int
    layouts: int
    least: int
    solvable: int
    lines: list[str]

    def text(self) -> str:
        """The lines as the output holds them."""
        return "".join(line + "\n" for line in self.lines)


# The lines and their entries.

#: A piece standing in a line: first cell, length, kind (search.HORIZONTAL, VERTICAL, WALL).
LinePiece = tuple[int, int, int]


def lines_in_order(options: Options) -> list[tuple[str, int]]:
    """The board's lines in the order the enumeration fills them (the lettering's order)."""
    rows = [("row", r) for r in range(options.size) if r != options.exit_row]
    return [("row", options.exit_row), *rows, *(("column", c) for c in range(options.size))]


def entries(options: Options, kind: str, index: int) -> list[list[LinePiece]]:
    """Every way a line's own pieces can stand in it: in a row, horizontal vehicles and walls
    filling fewer than all its cells; in a column, vertical vehicles likewise; in the exit
    row, the target alone among vehicles, walls only to its left."""
    size = options.size
    across = kind == "row"
    cell_of = (lambda x: index * size + x) if across else (lambda y: y * size + index)
    sizes = [(n, search.HORIZONTAL if across else search.VERTICAL) for n in LENGTHS]
    if across and options.max_walls:
        sizes.append((1, search.WALL))
    found: list[list[LinePiece]] = []

    def place(x: int, used: int, pieces: list[LinePiece]) -> None:
        if x >= size:
            if used < size:
                found.append(list(pieces))
            return
        place(x + 1, used, pieces)
        for length, piece_kind in sizes:
            if x + length <= size:
                pieces.append((cell_of(x), length, piece_kind))
                place(x + length, used + length, pieces)
                pieces.pop()

    place(0, 0, [])
    fitting = [pieces for pieces in found if _walls(pieces) <= options.max_walls]
    if across and index == options.exit_row:
        return [exit_row for pieces in fitting if (exit_row := _exit_row(options, pieces))]
    return fitting


def _walls(pieces: list[LinePiece]) -> int:
    return sum(kind == search.WALL for _, _, kind in pieces)


def _exit_row(options: Options, pieces: list[LinePiece]) -> list[LinePiece] | None:
    """The pieces of an exit row, the target first, if they make one (see :func:`entries`)."""
    vehicles = [p for p in pieces if p[2] != search.WALL]
    if len(vehicles) != 1 or vehicles[0][1] != TARGET_LENGTH:
        return None
    target = vehicles[0]
    at_exit = target[0] % options.size == options.size - TARGET_LENGTH
    if options.from_goals and not at_exit:
        return None
    if any(p[0] > target[0] for p in pieces if p[2] == search.WALL):
        return None
    return [target, *(p for p in pieces if p is not target)]


def _require(options: Options, pieces: list[LinePiece], is_exit_row: bool) -> int:
    """The cells that must be covered by other lines' pieces for every vehicle of this entry
    to be packed (blocked on its left, or above): the cell just before each, if on the board
    and not the entry's own."""
    size = options.size
    own = _mask(options, pieces)
    needs = 0
    for k, (cell, _, kind) in enumerate(pieces):
        if kind == search.WALL or (is_exit_row and k == 0 and options.from_goals):
            continue
        step = 1 if kind == search.HORIZONTAL else size
        along = cell % size if kind == search.HORIZONTAL else cell // size
        if along > 0 and not (own >> (cell - step)) & 1:
            needs |= 1 << (cell - step)
    return needs


def _mask(options: Options, pieces: list[LinePiece]) -> int:
    size = options.size
    mask = 0
    for cell, length, kind in pieces:
        step = size if kind == search.VERTICAL else 1
        for c in range(length):
            mask |= 1 << (cell + c * step)
    return mask


def line_tables(options: Options) -> search.Lines:
    """The lines and entries as :func:`rhasp.search.enumerate_shard` reads them."""
    size = options.size
    line_first, column = [0], []
    masks, requires, vehicles, walls = [], [], [], []
    piece_first, cells, lengths, kinds = [0], [], [], []
    for kind, index in lines_in_order(options):
        is_exit_row = kind == "row" and index == options.exit_row
        for pieces in entries(options, kind, index):
            masks.append(_mask(options, pieces))
            requires.append(_require(options, pieces, is_exit_row))
            walls.append(_walls(pieces))
            vehicles.append(len(pieces) - walls[-1])
            for cell, length, piece_kind in pieces:
                cells.append(cell)
                lengths.append(length)
                kinds.append(piece_kind)
            piece_first.append(len(cells))
        line_first.append(len(masks))
        column.append(_mask(options, [(index, size, search.VERTICAL)]) if kind == "column" else 0)
    return search.Lines(
        size,
        tuple(line_first),
        tuple(column),
        tuple(masks),
        tuple(requires),
        tuple(vehicles),
        tuple(walls),
        tuple(piece_first),
        tuple(cells),
        tuple(lengths),
        tuple(kinds),
    )


# Shards.


def _entry_counts(lines: search.Lines) -> list[int]:
    """How many entries each line has."""
    return [end - first for first, end in itertools.pairwise(lines.line_first)]


def shard_lines(lines: search.Lines) -> int:
    """How many first lines a shard fixes: the fewest whose entries make
    :data:`SHARDS_AT_LEAST` prefixes for the board's side, but never the last line."""
    counts = _entry_counts(lines)
    depth = 1
    while depth < len(counts) - 1 and math.prod(counts[:depth]) < SHARDS_AT_LEAST[lines.size]:
        depth += 1
    return depth


def shard_count(lines: search.Lines) -> int:
    return math.prod(_entry_counts(lines)[: shard_lines(lines)])


def shard_prefix(lines: search.Lines, number: int) -> list[int]:
    """The entries shard ``number`` fixes, one per first line (the last line varies fastest)."""
    depth = shard_lines(lines)
    prefix = []
    for level in reversed(range(depth)):
        first, end = lines.line_first[level], lines.line_first[level + 1]
        number, offset = divmod(number, end - first)
        prefix.append(first + offset)
    return prefix[::-1]


@functools.cache
def prepared(options: Options) -> search.Lines:
    """The lines of ``options``' board, the compiled core warmed up to run them (where it
    may be compiled): the enumeration is large work, worth numba from the start."""
    lines = line_tables(options)
    search.prepare_shards(lines)
    return lines


def run_shard(options: Options, max_states: int, number: int) -> Shard:
    """Shard ``number``: its tallies and deck lines. A cluster of more than ``max_states`` states
    is a :class:`rhasp.errors.SearchLimit`."""
    lines = prepared(options)
    limits = search.ShardLimits(
        options.min_pieces,
        options.max_pieces,
        options.min_walls,
        options.max_walls,
        int(options.from_goals),
        max_states,
    )
    where = f"shard {number + 1}"  # counted from 1, as the journal's notes count them
    tallies, found = search.enumerate_shard(lines, shard_prefix(lines, number), limits, where)
    return Shard(
        number,
        tallies[search.LAYOUTS],
        tallies[search.LEAST],
        tallies[search.SOLVABLE],
        _deck_lines(options.size, list(found)),
    )


def _deck_lines(size: int, found: list[int]) -> list[str]:
    """The puzzles of :func:`rhasp.search.shards.enumerate_shard` as ``MOVES BOARD CLUSTER``,
    lettered by the one definition (:func:`rhasp.formats.line.database_text`)."""
    width = 2 + size * size
    return [
        database_line(found[k], _lettered(size, found[k + 2 : k + width]), found[k + 1])
        for k in range(0, len(found), width)
    ]


def _lettered(size: int, board: list[int]) -> str:
    """A board written by the core (a character per piece, ``x`` walls) lettered anew."""
    cells_of: dict[int, list[tuple[int, int]]] = {}
    for index, char in enumerate(board):
        if char != search.EMPTY_CELL:
            cells_of.setdefault(char, []).append(divmod(index, size))
    walls = cells_of.pop(search.WALL_CELL, [])
    vehicles = [(chr(char), cells[0][0] == cells[1][0], cells) for char, cells in cells_of.items()]
    return database_text(size, vehicles, walls, chr(search.FIRST_LETTER))


# Running shards: here, on worker processes, or on a Dask cluster; always yielded in order.

#: Shards sent to a worker at once: enough to pay for the round trip of an empty shard.
CHUNK = 4


def shard_results(
    options: Options,
    numbers: Sequence[int],
    max_states: int,
    jobs: int,
    scheduler: str | None,
    workers: Workers | None = None,
) -> Iterator[Shard]:
    """The shards ``numbers``, in that order, worked out on ``jobs`` local processes or on the
    Dask cluster at ``scheduler`` (:func:`rhasp.parallel.fan_out`). Every worker takes the next
    shards as soon as it has room; shards done before an earlier, slower one wait in memory
    for it (a few lines each). ``workers`` already started (:func:`shard_workers`) are used
    rather than new ones."""
    if len(numbers) <= 1:
        jobs = 1
    if workers is not None and jobs > 1:
        yield from workers.map(numbers, ordered=True, batch=CHUNK)
        return
    if jobs > 1 and not scheduler:
        prepared(options)  # load the compiled core before the workers fork, so they inherit it
    # On a cluster a shard a task: its scheduler balances them, and a 6×6 shard's seconds
    # dwarf a task's round trip.
    batch = 1 if scheduler else CHUNK
    work = functools.partial(run_shard, options, max_states)
    from rhasp.parallel import fan_out

    yield from fan_out(work, numbers, jobs, ordered=True, batch=batch, scheduler=scheduler)


def shard_workers(options: Options, max_states: int, jobs: int) -> Workers:
    """``jobs`` worker processes for :func:`shard_results` with these options."""
    prepared(options)  # load the compiled core before the workers fork, so they inherit it
    from rhasp.parallel import Workers

    return Workers(functools.partial(run_shard, options, max_states), jobs)


# The output: deck lines in shard order, each shard vouched for by its journal entry.


class DatabaseFile:
    """The deck lines of a run, written a shard at a time in shard order, with a journal
    beside them that ``--resume`` checks every shard against (:mod:`rhasp.journal`)."""

    def __init__(self, path: Path, options: Options, total: int, resume: bool) -> None:
        self.file = JournaledOutput(
            path, "enumerate", dataclasses.asdict(options), total, resume, option_flags
        )
        self.notes = self.file.notes()
        self.tally = Tally()
        for entry in self.file.verified.entries:
            self.tally.shards += 1
            self.tally.layouts += entry["layouts"]
            self.tally.least += entry["least"]
            self.tally.solvable += entry["solvable"]
        for line in self.file.verified.text.decode("ascii").splitlines():
            self.tally.add_line(line)

    def write(self, shard: Shard) -> None:
        figures = {
            "layouts": shard.layouts,
            "least": shard.least,
            "solvable": shard.solvable,
            "lines": len(shard.lines),
        }
        self.file.append(shard.text().encode("ascii"), figures)
        self.tally.add(shard)

    def close(self) -> None:
        self.file.close()


def option_flags(options: Mapping[str, Any]) -> dict[str, str]:
    """The flags of ``rhasp enumerate`` that ask for ``options`` (as a journal holds them,
    so any values at all: a damaged journal is described, never a traceback), by the option
    each gives, so that a journal's refusal can name those that differ. Starting from goal
    layouts has no flag (only the Python API can turn it off): it is named in words."""
    defaults = dataclasses.asdict(Options())

    def value(name: str) -> str:
        return str(options.get(name, defaults[name]))

    exit_row = options.get("exit_row", defaults["exit_row"])  # the flag counts from 1
    flags = {
        "size": f"--size {value('size')}",
        "walls": f"--walls {value('min_walls')}..{value('max_walls')}",
        "pieces": f"--pieces {value('min_pieces')}..{value('max_pieces')}",
        "exit_row": f"--exit-row {exit_row + 1 if type(exit_row) is int else exit_row}",
    }
    every = options.get("from_goals", True) is not True
    flags["from_goals"] = (
        "from every layout (the Python API's from_goals=False)" if every else "from goal layouts"
    )
    return flags


def run_enumeration(
    options: Options,
    max_states: int,
    jobs: int | None = 1,
    scheduler: str | None = None,
    *,
    out: Path | None = None,
    resume: bool = False,
    progress: Progress | None = None,
) -> Tally:
    """Enumerate: each shard's lines to ``out`` (or standard output) in shard order as soon as
    it and every shard before it are done. With ``resume``, the shards already in ``out`` that
    verify are kept and the rest appended. The Dask cluster lost on the way is a ClusterLost
    saying how many shards ``out`` keeps, and how to go on."""
    total = shard_count(prepared(options))
    with contextlib.ExitStack() as started:
        # Workers first: forked after the output was opened, they would hold its lock, and
        # one still busy after the run was killed would make --resume refuse.
        workers = None
        if jobs > 1 and not scheduler:
            workers = started.enter_context(shard_workers(options, max_states, jobs))
        return _run(options, max_states, jobs, scheduler, out, resume, progress, total, workers)


def _run(
    options: Options,
    max_states: int,
    jobs: int,
    scheduler: str | None,
    out: Path | None,
    resume: bool,
    progress: Progress | None,
    total: int,
    workers: Workers | None,
) -> Tally:
    database = DatabaseFile(out, options, total, resume) if out else None
    tally = database.tally if database else Tally()
    first = tally.shards
    shown = progress or Silent()
    for note in database.notes if database else ():
        shown.note(note)
    shown.start(total - first, first, tally)
    numbers = range(first, total)
    try:
        for shard in shard_results(options, numbers, max_states, jobs, scheduler, workers):
            if database:
                database.write(shard)
            else:
                tally.add(shard)
                sys.stdout.write(shard.text())
                sys.stdout.flush()
            shown.advance(tally)
    except ClusterLost as lost:  # the one line says what the user has
        done = f"{tally.shards:,} of {total:,} shards"
        if out:
            saved = kept_until_resumed(done, out)
        else:
            saved = f"the lines of {done} written; with --out FILE a run can be resumed"
        raise lost.saying(saved, tally) from None
    finally:
        shown.stop()
        if database:
            database.close()
    return tally
