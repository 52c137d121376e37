"""A deck's results file (:class:`ResultFile`): records streamed to JSON lines or CSV as they
finish, flushed each, locked while a run writes it, and beside it ``FILE.run``, the digest of
every record as written, so that ``--resume`` goes on only from records rhasp wrote for this
deck and these options (:func:`run_options`).
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from rhasp.deck.record import FIELDS, DeckRecord, csv_text, read_spans
from rhasp.errors import InputError, location
from rhasp.files import (
    Damaged,
    bounded_lines,
    destination,
    lock_for_writing,
    naming_the_file,
    written_whole,
)
from rhasp.journal import journal_of
from rhasp.requests import DeckRequest
from rhasp.resume import (
    Difference,
    canonical,
    header_difference,
    header_of,
    line_object,
    no_companion,
    read_header,
    unreadable,
)


class ResultFile:
    """Records streamed to ``.jsonl`` (one JSON object a line) or ``.csv``, flushed each.

    Appending only, so an interrupted run loses no record written. The file is locked
    while a run writes it: a second run on the same file refuses rather than interleave its
    records.

    Beside it, ``FILE.run`` (:func:`rhasp.journal.journal_of`) vouches for the records: its
    first line says what run they are of (the deck, a checksum of its entries as read, and the
    options that change what a record says, :func:`run_options`), and after it a line per
    record written, its deck line and the digest of its bytes as written, keyed on that first
    line (:func:`record_digest`). A record is written, then its digest: a run killed between
    the two leaves a last record that nothing vouches for, a run killed within a record a
    torn last line. ``--resume`` keeps only the records whose digests hold (:meth:`_trusted`):
    records at the end of the file that nothing vouches for are cut off and solved again; a
    record whose digest does not hold, or an unvouched one before vouched ones, was changed by
    hand or comes from elsewhere, and the run is refused, naming it. So nothing a replay cannot
    check (a puzzle unsolvable, a length minimal, a cluster's size) is ever taken from a record
    rhasp did not write. Opening reads what is there and changes nothing; :meth:`begin` checks
    it against this run (with ``resume``) and only then cuts or truncates the file, so a
    refused run leaves the file as it was.
    """

    def __init__(self, path: Path, resume: bool) -> None:
        self.path = path
        self.csv = path.suffix.lower() == ".csv"
        if path.suffix.lower() not in (".csv", ".jsonl", ".json"):
            raise InputError("results go to a .jsonl or .csv file", str(path))
        self.run_path = journal_of(path, RUN_SUFFIX)
        self.resume = resume
        with naming_the_file(path):
            self.handle = path.open("ab")  # truncated after the lock
            lock_for_writing(self.handle, path, "deck")
        #: The digests' key: the first line of ``FILE.run`` as this run writes it.
        self.key = b""
        self.run_handle: IO[bytes] | None = None
        #: Why the records cannot be trusted, said by :meth:`begin` once the run is known.
        self.distrust: InputError | None = None
        #: Where the records this run keeps end: the file is cut there.
        self.end = 0
        #: The digest of each deck line's record, as ``FILE.run`` holds them.
        self.digests: dict[int, str] = {}
        #: Whether the file holds any record (kept or not): then it must be of this run.
        self.held = False
        try:
            #: What the file holds: each deck line's record, and the file's line it is on.
            self.kept: dict[int, tuple[int, DeckRecord]] = self._kept() if resume else {}
        except BaseException:
            self.handle.close()
            raise

    def _kept(self) -> dict[int, tuple[int, DeckRecord]]:
        """The records the file holds that ``FILE.run`` vouches for (all of them where it
        cannot be read: :meth:`begin` refuses them), each by its deck line."""
        found = list(read_spans(self.path))
        self.held = bool(found)
        seen: dict[int, int] = {}
        for at, record, _, _ in found:
            if record.line in seen:
                raise self._refusal(
                    at,
                    f"a second record of deck line {record.line} (the first: line "
                    f"{seen[record.line]})",
                )
            seen[record.line] = at
        digests = self._digests()
        if digests is None:  # no FILE.run to read: refused by the header's check
            return {record.line: (at, record) for at, record, _, _ in found}
        return self._trusted(found, digests)

    def _digests(self) -> dict[int, str] | None:
        """The digest ``FILE.run`` holds for each deck line's record, None where it has no
        header to key them on; a line that is not an entry is refused, naming it (a torn last
        line is what a killed run leaves, and vouches for nothing)."""
        digests: dict[int, str] = {}
        try:
            with self.run_path.open("rb") as handle:
                lines = bounded_lines(handle)
                _, self.key = next(lines, (0, b""))
                self.key = self.key.removesuffix(b"\n")
                if header_of(self.key) is None:
                    return None
                for at, raw in lines:
                    entry = _run_entry(raw)
                    if entry is None and raw.endswith(b"\n"):
                        raise InputError(
                            "not a line rhasp writes there (damaged); run without --resume "
                            "to solve the deck anew",
                            location(str(self.run_path), at),
                        )
                    if entry is not None and entry[0] in digests:
                        raise InputError(
                            f"a second digest of deck line {entry[0]}'s record (damaged); run "
                            "without --resume to solve the deck anew",
                            location(str(self.run_path), at),
                        )
                    if entry is not None:
                        digests[entry[0]] = entry[1]
            self.digests = digests
        except Damaged as damage:
            raise InputError(
                f"not a line rhasp writes there: {damage}",
                location(str(self.run_path), damage.line),
            ) from None
        except OSError:
            return None  # missing or unreadable: the header's check says which
        return digests

    def _trusted(
        self, found: list[tuple[int, DeckRecord, bytes, int]], digests: Mapping[int, str]
    ) -> dict[int, tuple[int, DeckRecord]]:
        """The records whose digests hold; those at the file's end that nothing vouches for
        are left out (solved again), and :attr:`end` is where the rest ends. Any other record
        whose digest does not hold is :attr:`distrust`."""
        kept: dict[int, tuple[int, DeckRecord]] = {}
        unvouched: tuple[int, DeckRecord] | None = None
        for at, record, raw, end in found:
            digest = digests.get(record.line)
            if digest is None:
                unvouched = unvouched or (at, record)  # a killed run's last, if none follows
                continue
            if digest != record_digest(self.key, raw):
                self.distrust = self._not_written(at, record, "holds another digest of it")
                return {}
            if unvouched is not None:
                self.distrust = self._not_written(*unvouched, "has no digest of it")
                return {}
            kept[record.line] = (at, record)
            self.end = end
        return kept

    def _not_written(self, at: int, record: DeckRecord, held: str) -> InputError:
        return self._refusal(
            at,
            f"the record of deck line {record.line} is not as rhasp wrote it "
            f"({self.run_path.name} {held}: changed since, or from another results file); "
            "restore it, or run without --resume to solve the deck anew",
        )

    def _refusal(self, at: int | None, what: str) -> InputError:
        return InputError(what, location(str(self.path), at))

    def begin(self, header: Mapping[str, Any], problem: InputError | None = None) -> None:
        """Start writing this run, whose ``header`` says what it is of: with ``resume``, after
        the records kept are found to be of this run (the same deck and options, their digests
        holding, and no ``problem`` found in checking them against the deck's lines), else
        refuse (InputError) leaving everything as it was; without, anew."""
        if self.held:
            self._check_header(header)
            if self.distrust is not None:
                raise self.distrust
            if problem is not None:
                raise problem
        if not self.kept:
            self.key = canonical(header)  # else the key the kept records' digests hold under
        regular = stat.S_ISREG(os.fstat(self.handle.fileno()).st_mode)
        if regular:  # a device or a pipe (/dev/stdout) is no run to resume
            destination(self.run_path)  # before the results are cut: a folder there refuses
        with naming_the_file(self.path):
            self.handle.truncate(self.end if self.kept else 0)
            self.handle.seek(0, 2)
        if regular:
            kept = sorted(self.kept.values(), key=lambda kept: kept[0])
            entries = [_run_line(record.line, self.digests[record.line]) for _, record in kept]
            with naming_the_file(self.run_path), written_whole(self.run_path) as temporary:
                temporary.write_bytes(self.key + b"\n" + b"".join(entries))
            with naming_the_file(self.run_path):
                self.run_handle = self.run_path.open("ab")
        if self.csv and self.handle.tell() == 0:
            self._write(csv_text(dict(zip(FIELDS, FIELDS, strict=True))))

    def _check_header(self, header: Mapping[str, Any]) -> None:
        """Refuse to add to records of another run: another deck, other options
        (:func:`rhasp.resume.header_difference`)."""
        try:
            found = read_header(self.run_path)
        except FileNotFoundError:
            raise no_companion(self.path, self.run_path) from None
        except OSError as error:
            raise unreadable(self.path, self.run_path, error) from None

        def deck(found: Mapping[str, Any]) -> Difference | None:
            if found.get("deck") == header["deck"]:
                return None
            return (
                f"its records are of another deck, or of this one before it changed "
                f"({self.run_path.name} has another checksum of its lines)",
                f"resume with the deck they are of, or {_ANEW}",
            )

        differs = header_difference(found, header, self.run_path, run_flags, _ANEW, deck)
        if differs is not None:
            raise self._refusal(None, "; ".join(differs))

    def write(self, record: DeckRecord) -> None:
        """Append a record, then the digest that vouches for it."""
        text = csv_text(record.record()) if self.csv else record.json_line()
        raw = self._write(text)
        if self.run_handle is not None:
            with naming_the_file(self.run_path):
                self.run_handle.write(_run_line(record.line, record_digest(self.key, raw)))
                self.run_handle.flush()

    def _write(self, text: str) -> bytes:
        raw = text.encode("utf-8", "surrogateescape")
        with naming_the_file(self.path):
            self.handle.write(raw)
            self.handle.flush()
        return raw

    def close(self) -> None:
        # Closing writes what is still buffered: on a full disk it fails too, and its error,
        # which replaces a write's, must name the file as well.
        try:
            with naming_the_file(self.path):
                self.handle.close()
        finally:
            if self.run_handle is not None:
                with naming_the_file(self.run_path):
                    self.run_handle.close()


def record_digest(key: bytes, raw: bytes) -> str:
    """The digest that vouches for a record's bytes ``raw`` as written by the run whose
    ``FILE.run`` begins with ``key``: a record copied from another run's file, or from
    another deck's, does not hold under this one's."""
    return hashlib.sha256(len(key).to_bytes(8, "big") + key + raw).hexdigest()[:32]


def _run_line(line: int, digest: str) -> bytes:
    return canonical({"line": line, "sha256": digest}) + b"\n"


def _run_entry(raw: bytes) -> tuple[int, str] | None:
    """A ``FILE.run`` entry, its deck line and digest, or None where ``raw`` is not one."""
    entry = line_object(raw) if raw.endswith(b"\n") else None
    if entry is None or entry.keys() != {"line", "sha256"}:
        return None
    line, digest = entry["line"], entry["sha256"]
    if type(line) is not int or line < 1 or not isinstance(digest, str):
        return None
    return line, digest


RUN_SUFFIX = ".run"
#: Version 1 held no digests: its records are refused, not trusted; version 2's records had
#: no engine's own seconds nor ``confirm`` (nor, in CSV, ``proven_by``).
RUN_VERSION = 3
#: How a deck run starts anew over a results file: its records are overwritten.
_ANEW = "run without --resume to start anew"
MISSING = object()  # an option a header does not hold
#: The options a run's header holds (:func:`run_options`), each a field of the request.
RUN_OPTIONS = ("objective", "engine", "confirm", "cluster", "verify", "targets")
RUN_OPTIONS += ("max_states", "max_atoms")
ON_BY_DEFAULT = ("confirm",)  # options given as --no-NAME


def run_options(request: DeckRequest) -> dict[str, Any]:
    """The options that change what a record says, as a run's header holds them: what a
    length counts (``objective``), which engine found it (``engine``: the records differ in
    ``proven_by`` and ``explored``), whether ``cluster`` and ``verify`` add their fields,
    which vehicles are ``targets``, and the limits as given (``None``: from the memory),
    which decide where a record says ``limit``; and ``confirm``, whether a BFS confirms
    each answer (the records say so, and their seconds and ``proven_by`` differ). ``--jobs`` and
    ``--scheduler`` change none."""
    options = {option: getattr(request, option) for option in RUN_OPTIONS}
    return options | {"targets": list(request.targets)}


def run_flags(options: Mapping[str, Any]) -> dict[str, str]:
    """How the user gives each option a header holds (any values at all), by the option."""
    return {option: option_flag(option, options.get(option, MISSING)) for option in RUN_OPTIONS}


def option_flag(option: str, value: Any) -> str:
    """How the user gives ``option`` its ``value`` (a header's: any value at all)."""
    flag = "--target" if option == "targets" else "--" + option.replace("_", "-")
    if value is MISSING:
        return f"no {flag} recorded"
    if option in ON_BY_DEFAULT and value is False:
        return f"--no-{flag.removeprefix('--')}"
    if value in (None, False, []):
        return f"no {flag}"
    if value is True:
        return flag
    if isinstance(value, list):
        return " ".join(f"{flag} {item}" for item in value)
    return f"{flag} {value}"
