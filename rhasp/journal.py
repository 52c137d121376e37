"""A resumable output and the journal that vouches for it, checked before it is trusted again.

``rhasp enumerate --out FILE`` writes its output a shard's lines at a time, and beside it the
journal ``FILE.shards``: a header (the command, its options, how many shards make the whole),
then a JSON line per shard with its figures, where the output ends after it, and a CRC-32.
The CRCs are *chained*: each covers the header, every entry and every output byte before it,
then its own entry and bytes. So a shard verifies only if all before it do, and ``--resume``
goes on from the first shard that does not:

- A run killed at any moment leaves a journal whose entries vouch for a prefix of the output
  (the output is flushed before its entry is written); what follows is a torn shard.
- An output cut, edited, padded or appended to, and a journal entry edited, repeated,
  reordered or deleted, fail at the first shard they touch. A journal line that cannot be
  read ends the journal there: it is recovered to its last valid entry, and the run says so.
- Either way the output is cut after the last shard that verifies (never padded) and the
  rest is done again, so a resumed run ends with exactly an uninterrupted run's bytes.
- A journal whose header cannot be read, or was written for other options, is refused in
  one line before anything is changed; so is ``--resume`` on an output with no journal
  (the header's check and the refusals' words are :mod:`rhasp.resume`'s, as for a deck).

An output with a journal beside it holds a run of rhasp's own, finished or not, and a run
without ``--resume`` refuses to overwrite it. A finished run's journal is the checksum of
every shard, which ``--resume`` checks the file against. The output is locked while a run
writes it: the open file itself, so another name for it (a symbolic or hard link) meets the
same lock. Checking costs a read of the output and one ``zlib.crc32`` pass over it (about a
gigabyte a second).
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from rhasp import resume
from rhasp.errors import InputError
from rhasp.files import destination, lock_for_writing, naming_the_file, same_file, written_whole

JOURNAL_SUFFIX = ".shards"
VERSION = 2  # version 1 had no checksums: its journals are refused, not trusted
#: How a run of ``rhasp enumerate`` starts anew where an output and its journal are there.
_ANEW = "remove both files to start anew"


def journal_of(path: Path, suffix: str = JOURNAL_SUFFIX) -> Path:
    """The journal beside an output (``suffix`` names its kind): beside the file a symbolic
    link leads to, and for a file with hard links, the journal of whichever of its names in
    that folder has one, so that every name of one output has one journal, and a finished
    run is not overwritten through another name for it. (A hard link from another folder is
    not found: nothing names the folder its journal is in.)"""
    real = path.resolve()
    beside = real.with_name(real.name + suffix)
    if beside.exists() or not _has_other_names(real):
        return beside
    for journal in sorted(real.parent.glob("*" + suffix)):
        if same_file(journal.with_name(journal.name[: -len(suffix)]), real):
            return journal
    return beside


def _has_other_names(path: Path) -> bool:
    try:
        return os.stat(path).st_nlink > 1
    except OSError:
        return False


@dataclass
class Verified:
    """What ``--resume`` found the output and its journal to hold."""

    resumed: bool = False  # whether there was anything to verify
    entries: list[dict[str, int]] = field(default_factory=list)  # the shards that verify
    text: bytearray = field(default_factory=bytearray)  # the output they vouch for
    unreadable_line: int | None = None  # the journal's first unreadable line (not a torn last)
    changed: bool = False  # a shard's bytes or entry do not match its checksum
    cut: int = 0  # output bytes after the verified shards, cut off

    def notes(self, output: Path, journal: Path, total: int) -> list[str]:
        """What the user is told, a line each, before the run goes on."""
        if not self.resumed:
            return []
        done = len(self.entries)
        said = []
        if self.unreadable_line is not None:
            last = f"shard {done}" if done else "its header"
            said.append(
                f"{journal}: line {self.unreadable_line} cannot be read; recovered to its last "
                f"valid entry ({last})"
            )
        verified = f"shards 1–{done} verified" if done else "no shard verified"
        if self.changed:
            said.append(
                f"{output}: {verified}; shard {done + 1} does not match its journal entry "
                f"(the file or its journal was changed after shard {done}): redoing from there"
            )
        elif done == total:
            said.append(f"{output}: all {total:,} shards verified against {journal.name}")
        else:
            cut = f"; {self.cut:,} bytes after them that no entry vouches for cut off"
            said.append(f"{output}: {verified} against {journal.name}{cut * bool(self.cut)}")
        return said


class JournaledOutput:
    """An output written a shard at a time, each shard vouched for by its journal entry.

    The header says what the output is of: the ``command``, its ``options`` and how many
    ``shards`` make the whole; ``describe`` turns a header's options into the flags that make
    them, for the user, a flag (its text) by the option it gives, so that a refusal can name
    just the ones that differ. With ``resume``, :attr:`verified` is what the files already held."""

    def __init__(
        self,
        path: Path,
        command: str,
        options: Mapping[str, Any],
        shards: int,
        resume: bool,
        describe: Callable[[Mapping[str, Any]], dict[str, str]],
    ) -> None:
        self.path = destination(path)
        self.journal_path = journal_of(path)
        self.header = {"rhasp": command, "version": VERSION, "options": options, "shards": shards}
        self.command = command
        self.describe = describe
        self.written = 0
        created = not path.exists()
        self.output: IO[bytes] = path.open("ab")  # no truncation before the lock
        try:
            lock_for_writing(self.output, path, command)
            self.verified = self._check(resume)
            self._cut_to_verified()
        except BaseException:
            self.output.close()
            if created:
                path.unlink(missing_ok=True)  # refused: leave no file where there was none
            raise
        self.journal = self.journal_path.open("ab")

    # Before anything is changed: what the files hold, and whether this run may go on.

    def _check(self, resuming: bool) -> Verified:
        """What this run goes on from; refuses (InputError) where going on would lose what it
        should keep or trust what it cannot. Changes nothing."""
        if os.fstat(self.output.fileno()).st_size == 0:
            return Verified()  # nothing to lose: a fresh run
        journal = self._journal_lines()
        if journal is None:
            if resuming:
                raise resume.no_companion(self.path, self.journal_path)
            return Verified()  # someone else's file: overwritten, as --out says
        found = resume.header_of(journal[0])
        if not resuming:
            raise self._refusal(self._holds(found, len(journal) - 1))
        differs = self._difference(found)
        if differs is not None:
            raise self._refusal("; ".join(differs))
        return self._verify(journal[1:])

    def _journal_lines(self) -> list[bytes] | None:
        try:
            return self.journal_path.read_bytes().splitlines(keepends=True) or [b""]
        except FileNotFoundError:
            return None
        except OSError as error:
            raise resume.unreadable(self.path, self.journal_path, error) from None

    def _holds(self, found: dict[str, Any] | None, listed: int) -> str:
        """Why a run without --resume does not overwrite the output."""
        name, total = self.journal_path.name, self.header["shards"]
        differs = self._difference(found)
        if found is None and differs is not None:
            return "; ".join(differs)
        if differs is not None:
            return f"holds a run of rhasp {self.command} unlike this one: {differs[0]}; {_ANEW}"
        if listed >= total:
            return (
                f"holds a finished run of rhasp {self.command} ({name} vouches for its "
                f"{total:,} shards): --resume checks it; remove both files to make it anew"
            )
        return (
            f"holds a partial run of rhasp {self.command} ({listed:,} of {total:,} shards in "
            f"{name}): add --resume to finish it, or remove it and {name} to start anew"
        )

    def _difference(self, found: dict[str, Any] | None) -> resume.Difference | None:
        """What sets a journal's header apart from this run's, and what the user can do
        (:func:`rhasp.resume.header_difference`); a journal that differs only in its count of
        shards is of another rhasp, which cuts the work differently, and is said to be."""
        mine = self.header

        def shards(found: Mapping[str, Any]) -> resume.Difference | None:
            if found.get("shards") == mine["shards"]:
                return None
            return (
                f"{self.journal_path.name} beside it cuts the run into "
                f"{_count(found.get('shards'))} shards where this rhasp cuts it into "
                f"{mine['shards']:,}, so another version of rhasp began it",
                f"finish it with that version, or {_ANEW}",
            )

        return resume.header_difference(
            found, mine, self.journal_path, self.describe, _ANEW, shards
        )

    def notes(self) -> list[str]:
        """What ``--resume`` found, a line each, for the user before the run goes on."""
        return self.verified.notes(self.path, self.journal_path, self.header["shards"])

    def _refusal(self, what: str) -> InputError:
        return InputError(what, str(self.path))

    def _verify(self, lines: list[bytes]) -> Verified:
        """The shards whose entries and bytes match their chained checksums, in order, up to
        the first that does not."""
        found = Verified(resumed=True)
        size = os.fstat(self.output.fileno()).st_size
        chain, end = self._first_link(), 0
        with self.path.open("rb") as output:
            for number, raw in enumerate(lines):
                entry = _entry(raw, number, end)
                if entry is None:
                    torn = number == len(lines) - 1 and not raw.endswith(b"\n")
                    found.unreadable_line = None if torn else number + 2
                    break
                piece = output.read(entry["end"] - end) if entry["end"] <= size else b""
                checked = _chained(entry, piece, chain)
                if entry["end"] > size or checked != entry["crc"]:
                    found.changed = True
                    break
                found.entries.append(entry)
                found.text += piece
                chain, end = checked, entry["end"]
        found.cut = size - end
        return found

    def _first_link(self) -> int:
        """The chain's first checksum: the header's."""
        return zlib.crc32(resume.canonical(self.header))

    # Writing.

    def _cut_to_verified(self) -> None:
        """Cut the output after the shards that verified (a fresh run: to nothing), and the
        journal after their entries. The output first: a kill in between leaves entries for
        bytes that are gone, which the next ``--resume`` finds do not match."""
        verified = self.verified.entries
        self.end = verified[-1]["end"] if verified else 0
        self.chain = verified[-1]["crc"] if verified else self._first_link()
        with naming_the_file(self.path):
            self.output.truncate(self.end)  # never past the file's end: _verify saw to it
        text = b"".join(resume.canonical(record) + b"\n" for record in (self.header, *verified))
        with naming_the_file(self.journal_path):
            if _begins_with(self.journal_path, text):
                os.truncate(self.journal_path, len(text))
            else:  # a fresh run, or a recovered journal: replaced in one piece
                with written_whole(self.journal_path) as temporary:
                    temporary.write_bytes(text)

    @property
    def shards(self) -> int:
        """How many shards the output holds."""
        return len(self.verified.entries) + self.written

    def append(self, piece: bytes, figures: Mapping[str, int]) -> None:
        """Write a shard, then the entry that vouches for it: a kill between the two leaves
        bytes no entry vouches for, which ``--resume`` cuts off."""
        with naming_the_file(self.path):
            self.output.write(piece)
            self.output.flush()
        self.end += len(piece)
        entry = {"shard": self.shards, **figures, "end": self.end}
        self.chain = _chained(entry, piece, self.chain)
        with naming_the_file(self.journal_path):
            self.journal.write(resume.canonical({**entry, "crc": self.chain}) + b"\n")
            self.journal.flush()
        self.written += 1

    def close(self) -> None:
        # Closing writes what is still buffered (see :func:`naming_the_file`).
        try:
            with naming_the_file(self.path):
                self.output.close()
        finally:
            with naming_the_file(self.journal_path):
                self.journal.close()


def _count(value: Any) -> str:
    """A count as a header holds it, for the user: any value at all (a damaged header's)."""
    return f"{value:,}" if type(value) is int else json.dumps(value)


def _begins_with(path: Path, text: bytes) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(text)) == text
    except FileNotFoundError:
        return False


def _chained(entry: Mapping[str, int], piece: bytes, previous: int) -> int:
    """The checksum of an entry: the one before it, then its own fields, then its bytes."""
    fields = {name: value for name, value in entry.items() if name != "crc"}
    return zlib.crc32(piece, zlib.crc32(resume.canonical(fields), previous))


def _entry(raw: bytes, number: int, previous_end: int) -> dict[str, int] | None:
    """Entry ``number`` (from 0), if it reads as one: whole numbers only, the shard it names
    the next one, its end no earlier than the last one's."""
    entry = resume.line_object(raw)
    if not raw.endswith(b"\n") or entry is None:
        return None
    whole = all(type(value) is int and value >= 0 for value in entry.values())
    if not whole or not {"shard", "end", "crc"} <= entry.keys():
        return None
    if entry["shard"] != number or entry["end"] < previous_end:
        return None
    return entry
