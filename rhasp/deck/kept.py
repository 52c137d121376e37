"""The records ``--resume`` keeps from an earlier run, checked to be what this run would write
for their deck lines (:func:`check_kept`): each record's puzzle, board and fields the options
add, its plan replayed on its line's puzzle; and the deck's checksum, which a run's header
holds (:func:`deck_checksum`), taken in the same pass over the deck.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from rhasp.deck.job import BATCH, Settings, compare_figures
from rhasp.deck.record import DeckRecord
from rhasp.deck.results import option_flag
from rhasp.errors import InputError, location
from rhasp.formats import DeckLine
from rhasp.formats import write as write_puzzle
from rhasp.formats.grid import board_rows
from rhasp.model import Puzzle, plan_slides, replay
from rhasp.notation import parse_plan
from rhasp.parallel import fan_out
from rhasp.solution import Objective


def deck_checksum(numbered: Iterable[tuple[int, Any]]) -> str:
    """A checksum of a deck as read: each entry's number, name and text (a deck line's; a
    puzzle's as JSON, figures included; an unreadable entry's reason). Names come from the
    deck's file name, and records hold them, so a renamed deck is another deck."""
    digest = hashlib.sha256()
    for number, entry in numbered:
        _add_entry(digest, number, entry)
    return digest.hexdigest()


def _add_entry(digest: Any, number: int, entry: Any) -> None:
    if isinstance(entry, DeckLine):
        text = f"{entry.name}\t{entry.text}"
    elif isinstance(entry, Puzzle):
        meta = json.dumps(dict(entry.meta), sort_keys=True)
        text = f"{entry.name}\t{meta}\t{write_puzzle(entry, 'json')}"
    else:
        text = f"!{entry.what}"
    digest.update(f"{number}\t{text}\n".encode("utf-8", "surrogatepass"))


#: From this many records kept, a resumed run checks them on its worker processes: a record
#: takes about a millisecond to check (its line read, its plan replayed by the model).
CHECK_ON_WORKERS_FROM = 1_000


def check_kept(
    kept: Mapping[int, tuple[int, DeckRecord]],
    numbered: Iterable[tuple[int, Any]],
    settings: Settings,
    path: Path,
    processes: int = 1,
) -> tuple[str, InputError | None]:
    """The deck's checksum (:func:`deck_checksum`), and the first record of ``kept`` (from
    the results file ``path``, first by its line there) that is not what this run would
    write for its deck line, if one is not: one pass over the deck for both, the records
    checked on ``processes`` workers when there are many."""
    seen: set[int] = set()
    digest = hashlib.sha256()

    def checks() -> Iterator[tuple[int, int, Any, DeckRecord]]:
        for number, entry in numbered:
            _add_entry(digest, number, entry)
            if number in kept:
                seen.add(number)
                at, record = kept[number]
                yield at, number, entry, record

    check = functools.partial(kept_problem, settings)
    processes = processes if len(kept) >= CHECK_ON_WORKERS_FROM else 1
    found = fan_out(check, checks(), processes, ordered=False, batch=BATCH)
    problems = [problem for problem in found if problem is not None]
    stray = sorted((at, number) for number, (at, _) in kept.items() if number not in seen)
    problems += [(at, f"a record of deck line {n}, where the deck has none") for at, n in stray]
    if not problems:
        return digest.hexdigest(), None
    at, what = min(problems)
    return digest.hexdigest(), InputError(what, location(str(path), at))


def kept_problem(
    settings: Settings, check: tuple[int, int, Any, DeckRecord]
) -> tuple[int, str] | None:
    """What is wrong with a kept record, as ``(file line, what)``, or None: a worker's task
    (:func:`record_problem`)."""
    at, number, entry, record = check
    wrong = record_problem(record, entry, settings)
    return (at, f"deck line {number}: {wrong}") if wrong else None


def record_problem(record: DeckRecord, entry: Any, settings: Settings) -> str | None:
    """What is wrong with a kept record as the record of ``entry`` (a deck line, read or not)
    under ``settings``, or None: what it says of the board and its plan must be what the
    line's puzzle and the plan replayed on it say; the fields the options add must be there."""
    puzzle = entry.read() if isinstance(entry, DeckLine) else entry
    if isinstance(puzzle, InputError):
        return None if record.error is not None else "the line cannot be read, but its record "
        "is not an error"
    if record.error is not None:
        return "its record says the line cannot be read, but it reads as a puzzle"
    if record.puzzle != puzzle.name:
        return f"its record is of puzzle {record.puzzle!r}, the line's is {puzzle.name!r}"
    if record.limit is not None:
        return None
    if record.board != "".join(board_rows(puzzle)):
        return "its record's board is not the line's board"
    if record.plan is not None:
        wrong = _plan_problem(record, puzzle, settings.objective)
        if wrong:
            return wrong
    if record.confirm != settings.confirm:
        made, this = (option_flag("confirm", value) for value in (record.confirm, settings.confirm))
        return f"its record was made with {made}, this run has {this}"
    if settings.cluster != (record.cluster is not None):
        return f"its record {'lacks' if settings.cluster else 'has'} a cluster (--cluster)"
    expected = (record.expected_length, record.expected_cluster, record.mismatch)
    if not settings.compare_figures:
        return "its record has --verify's fields" if expected != (None,) * 3 else None
    bare = replace(record, expected_length=None, expected_cluster=None, mismatch=None)
    again = compare_figures(puzzle, bare)
    if (again.expected_length, again.expected_cluster, again.mismatch) != expected:
        return "its record's expected figures or mismatch are not what the line says"
    return None


def _plan_problem(record: DeckRecord, puzzle: Puzzle, objective: Objective) -> str | None:
    try:
        played = replay(puzzle, parse_plan(record.plan or "", puzzle.board, "its plan"))
    except InputError as error:  # a PlanError too
        return f"its plan does not replay: {error}"
    if not played.solved:
        return "its plan does not solve the puzzle"
    moves, slides = len(played.moves), plan_slides(played.moves)
    length = moves if objective == "moves" else slides
    found = (record.length, record.moves, record.slides)
    if found != (length, moves, slides):
        return (
            f"its record says length {record.length}, {record.moves} moves, {record.slides} "
            f"slides; its plan takes {moves} moves, {slides} slides"
        )
    return None
