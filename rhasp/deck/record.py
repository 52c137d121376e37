"""A deck record: one deck line's outcome (:class:`DeckRecord`), its fields in order
(:data:`FIELDS`), as a JSON line or a CSV row, and read back from a results file, every field
checked to be of its kind (:func:`read_results`).

A record holds what was found (``length``, ``plan``...), or ``limit`` (a search limit was
reached: no answer either way), or ``error`` (the line cannot be read). With ``--verify`` it
also holds the deck line's own figures (``expected_length``, and ``expected_cluster`` when
the cluster is counted) and ``mismatch`` naming those that differ.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rhasp.engines import ENGINES
from rhasp.errors import InputError, location
from rhasp.files import Damaged, bounded_lines, json_line
from rhasp.limits import Limit

#: The record's field of each engine's own seconds: ``asp_seconds``, ``bfs_seconds``,
#: ``astar_seconds``.
ENGINE_SECONDS = {engine: f"{engine}_seconds" for engine in ENGINES}

#: A record's fields, in the order of its JSON line and of a CSV file's columns (JSON adds
#: ``stopped`` after ``confirm``, where it applies).
FIELDS = (
    "line",
    "puzzle",
    "board",
    "length",
    "moves",
    "slides",
    "plan",
    "explored",
    "seconds",
    *ENGINE_SECONDS.values(),
    "proven_by",
    "confirm",
    "cluster",
    "expected_length",
    "expected_cluster",
    "mismatch",
    "limit",
    "error",
)


@dataclass(frozen=True)
class DeckRecord:
    """One deck line's outcome: what was found (``length`` None: proven unsolvable), or the
    ``limit`` a search met, or the ``error`` of a line that cannot be read; with verification,
    the line's own figures (``expected_*``) and the ``mismatch`` between them and what was
    found. :meth:`record` is its JSON line (or CSV row)."""

    line: int  # the entry's number in the deck, 1-based
    puzzle: str | None = None  # its name
    board: str | None = None  # its board, one line of cells
    length: int | None = None  # the plan's length in the objective's unit
    moves: int | None = None  # the plan's moves
    slides: int | None = None  # the plan's slides
    plan: str | None = None  # the plan in card notation, its moves apart by spaces
    explored: int | None = None  # states the search reached
    #: The searches' time together (static analysis's, when it answered before any search).
    seconds: float | None = None
    #: Each search's own seconds, by its engine (the confirming BFS's under ``bfs``): the
    #: record's ``asp_seconds``, ``bfs_seconds`` and ``astar_seconds``, None where that
    #: engine did not run (:meth:`~rhasp.solution.Solution.search_seconds`).
    engine_seconds: Mapping[str, float] = field(default_factory=dict)
    proven_by: tuple[str, ...] = ()  # what proves the length (or the puzzle unsolvable)
    #: Whether the run has a BFS confirm the answer of ASP or A* (``--no-confirm``: False,
    #: the engine alone; a BFS needs no confirming, and runs alone either way).
    confirm: bool = True
    stopped: Mapping[str, str] | None = None  # an engine that stopped short, and why
    cluster: int | None = None  # counted with --cluster
    expected_length: int | None = None  # with --verify: the length the deck line gives
    expected_cluster: int | None = None  # with --verify and --cluster: its cluster's size
    mismatch: str | None = None  # "length", "cluster" or both
    #: What stopped the search: a :class:`~rhasp.limits.Limit` from a solve here (the command
    #: line adds its advice), its text when read back from a results file.
    limit: Limit | str | None = None
    error: str | None = None  # why the line cannot be read

    def record(self) -> dict[str, Any]:
        """The JSON of this record: an error or a limit as the line and why; a result with
        every finding (None where there is none) and the optional fields it has."""
        if self.error is not None:
            return {"line": self.line, "error": self.error}
        if self.limit is not None:
            return {"line": self.line, "puzzle": self.puzzle, "limit": str(self.limit)}
        seconds = {name: self.engine_seconds.get(engine) for engine, name in ENGINE_SECONDS.items()}
        found = {
            name: seconds[name] if name in seconds else getattr(self, name)
            for name in RESULT_FIELDS
        }
        found["proven_by"] = list(self.proven_by)
        extra = {name: getattr(self, name) for name in OPTIONAL_FIELDS}
        return found | {name: value for name, value in extra.items() if value is not None}

    def json_line(self) -> str:
        """Its JSON line, as a results file holds it and as ``rhasp deck`` prints it."""
        return json.dumps(self.record(), ensure_ascii=False) + "\n"


#: The fields of every result record, and those it has only when they apply.
RESULT_FIELDS = (
    *("line", "puzzle", "board", "length", "moves", "slides"),
    *("plan", "explored", "seconds", *ENGINE_SECONDS.values(), "proven_by", "confirm"),
)
OPTIONAL_FIELDS = ("stopped", "cluster", "expected_length", "expected_cluster", "mismatch")


def csv_text(row: Mapping[str, Any]) -> str:
    """A record's CSV row, as the results file holds it: ``proven_by`` its names apart by
    ``, `` (as ``mismatch``), ``confirm`` ``true`` or ``false`` (as in JSON), no value empty."""
    text = io.StringIO()
    cells = {name: _cell(value) for name, value in row.items()}
    csv.DictWriter(text, FIELDS, extrasaction="ignore").writerow(cells)
    return text.getvalue()


def _cell(value: Any) -> Any:
    if isinstance(value, list):
        return ", ".join(value)
    return ("true" if value else "false") if isinstance(value, bool) else value


def read_results(path: Path) -> Iterable[dict[str, Any]]:
    """The records of a results file, as written (a torn last line is left out); InputError
    naming the file and line at the first line that is not a whole record."""
    return (record.record() for _, record, _, _ in read_spans(path))


def read_spans(path: Path) -> Iterator[tuple[int, DeckRecord, bytes, int]]:
    """Each whole record of a results file, the file's line it ends on, its bytes and where
    they end, read within bounds (:func:`rhasp.files.bounded_lines`,
    :func:`rhasp.files.json_line`); a torn last line is left out; damage is InputError naming
    the file and line."""
    try:
        with path.open("rb") as handle:
            lines = ((at, raw) for at, raw in bounded_lines(handle) if raw.endswith(b"\n"))
            if path.suffix.lower() == ".csv":
                yield from _csv_records(lines)
                return
            end = 0
            for at, raw in lines:
                end += len(raw)
                try:
                    record = _read_record(json_line(raw), from_csv=False)
                except ValueError as error:
                    raise Damaged(str(error), at) from None
                yield at, record, raw, end
    except Damaged as damage:
        where = location(str(path), damage.line)
        raise InputError(f"not a whole deck record: {damage}", where) from None
    except OSError as error:
        raise InputError(f"cannot be read ({error.strerror})", str(path)) from None


def _csv_records(
    lines: Iterable[tuple[int, bytes]],
) -> Iterator[tuple[int, DeckRecord, bytes, int]]:
    """The records of a CSV results file's lines: a header row of :data:`FIELDS`, then a row
    a record (a quoted field may span lines: a record is named by the line it ends on, and
    its bytes are those of its lines)."""
    at, end, raw = 0, 0, bytearray()

    def texts() -> Iterator[str]:
        nonlocal at, end
        for at, line in lines:
            end += len(line)
            raw.extend(line)
            try:
                yield line.decode("utf-8")
            except UnicodeDecodeError:
                raise Damaged("not UTF-8 text", at) from None

    rows = csv.reader(texts())
    try:
        header = next(rows, None)
        if header is not None and header != list(FIELDS):
            raise Damaged("the first row is not the header row of deck records", at)
        raw.clear()
        for row in rows:
            if len(row) != len(FIELDS):
                raise Damaged(f"a row of {len(row)} fields, not {len(FIELDS)}", at)
            try:
                record = _read_record(dict(zip(FIELDS, row, strict=True)), from_csv=True)
            except ValueError as error:
                raise Damaged(str(error), at) from None
            yield at, record, bytes(raw), end
            raw.clear()
    except csv.Error as error:  # a field over the csv module's limit, a stray quote
        raise Damaged(f"not CSV ({error})", at) from None


_WHOLE = ("line", "length", "moves", "slides", "explored", "cluster")
_WHOLE += ("expected_length", "expected_cluster")


def _read_record(raw: Any, from_csv: bool) -> DeckRecord:
    """A record read back, as a :class:`DeckRecord`; ValueError saying what is wrong where it
    is not one: a field no record has, a value of the wrong kind, fields missing."""
    if not isinstance(raw, dict):
        raise ValueError("not a JSON object")
    unknown = sorted(raw.keys() - {*FIELDS, "stopped"})
    if unknown:
        raise ValueError(f"a field no record has ({unknown[0][:40]!r})")
    values = {name: _value(name, value, from_csv) for name, value in raw.items()}
    given = {name for name, value in values.items() if value is not None}
    if "line" not in given or values["line"] < 1:
        raise ValueError("no deck line number")
    if "error" in given or "limit" in given:
        kind = "error" if "error" in given else "limit"
        allowed = {"line", "error"} if kind == "error" else {"line", "puzzle", "limit"}
        if given - allowed or (kind == "limit" and "puzzle" not in given):
            raise ValueError(
                f"a record of a {'bad line' if kind == 'error' else 'limit'} "
                f"holds {', '.join(sorted(allowed))} only"
            )
        return DeckRecord(values["line"], values.get("puzzle"), **{kind: values[kind]})
    absent = [name for name in RESULT_FIELDS if name not in raw]
    if absent:
        raise ValueError(f"no {absent[0]!r} field")
    for name in ("puzzle", "board", "seconds", "confirm"):
        if values[name] is None:
            raise ValueError(f"no value for {name!r}")
    if from_csv and values["plan"] is None and values["length"] is not None:
        values["plan"] = ""  # CSV writes a plan of no move, a puzzle solved as it stands, as ""
    found = [values.get(name) is None for name in ("length", "moves", "slides", "plan")]
    if any(found) and not all(found):
        raise ValueError("length, moves, slides and plan are all given or none (unsolvable)")
    return result_record(values)


#: The fields a record's JSON line holds as they are, besides its line number.
_AS_THEY_ARE = (
    *("puzzle", "board", "length", "moves", "slides", "plan", "explored", "seconds"),
    *("cluster", "expected_length", "expected_cluster", "mismatch"),
)


def result_record(fields: Mapping[str, Any]) -> DeckRecord:
    """The record of a puzzle solved, from its fields as its JSON line has them (a solve's
    findings, :meth:`~rhasp.solution.Solution.findings`, with the rest of a record's fields,
    or a record read back)."""
    return DeckRecord(
        fields["line"],
        **{name: fields.get(name) for name in _AS_THEY_ARE},
        engine_seconds={
            engine: fields[name]
            for engine, name in ENGINE_SECONDS.items()
            if fields.get(name) is not None
        },
        proven_by=tuple(fields.get("proven_by") or ()),
        confirm=fields["confirm"],
        stopped=fields.get("stopped"),
    )


def _value(name: str, value: Any, from_csv: bool) -> Any:
    """A field's value, of the kind its name says (CSV's text converted); ValueError if not."""
    if from_csv and value == "":
        return None
    if value is None:
        return None
    if name in _WHOLE:
        if from_csv and isinstance(value, str) and value.isascii() and value.isdigit():
            value = int(value) if len(value) <= 20 else value
        if type(value) is not int or value < 0:
            raise ValueError(f"{name!r} is not a whole number")
        return value
    if name == "seconds" or name in ENGINE_SECONDS.values():
        if from_csv and isinstance(value, str):
            with contextlib.suppress(ValueError):  # not a number: said below
                value = float(value) if len(value) <= 40 else value
        if type(value) not in (int, float) or not 0 <= value < float("inf"):
            raise ValueError(f"{name!r} is not a number of seconds")
        return value
    if name == "proven_by":
        if from_csv and isinstance(value, str):
            value = value.split(", ")
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ValueError("'proven_by' is not a list of engines")
        return value
    if name == "confirm":
        if from_csv and value in ("true", "false"):
            value = value == "true"
        if type(value) is not bool:
            raise ValueError("'confirm' is not true or false")
        return value
    if name == "stopped":
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise ValueError("'stopped' is not engines and why they stopped")
        return value
    if not isinstance(value, str):
        raise ValueError(f"{name!r} is not text")
    return value
