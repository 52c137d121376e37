"""What ``--resume`` reads first, for ``rhasp deck`` and ``rhasp enumerate`` alike: the file
beside a resumable output that says what run the output holds (a *companion*: the deck's
``FILE.run``, the enumeration's journal ``FILE.shards``), its lines, and its header checked
against this run's, every refusal worded here once; and, for a run stopped part way, what its
output keeps and how to go on.

A companion is JSON lines, written one way only (:func:`canonical`). Its first line, the
header, says what run it is of: ``rhasp`` (the command), ``version`` (of the companion's
format), ``options`` (those that change what the output says), then what the command adds (the
deck's checksum, the enumeration's count of shards). A header is compared in that order
(:func:`header_difference`): another version may mean other things by the rest, and only with
the same options does the rest say something of its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rhasp.errors import InputError
from rhasp.files import LONGEST_LINE, json_line

#: What sets a header apart, and what the user can do: each said in words for the user.
Difference = tuple[str, str]


def canonical(record: Mapping[str, Any]) -> bytes:
    """A line of a companion as written, and as its checksums and digests read it: one way
    only."""
    return json.dumps(record, sort_keys=True, separators=(",", ":")).encode()


def line_object(raw: bytes) -> dict[str, Any] | None:
    """The JSON object of a companion's line, None if the line is not one (too long, not
    UTF-8, not JSON, nested too deeply, a number too long, not an object)."""
    if len(raw) > LONGEST_LINE:
        return None
    try:
        found = json_line(raw)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def header_of(raw: bytes) -> dict[str, Any] | None:
    """The header a companion's first line ``raw`` holds, None where it holds none."""
    header = line_object(raw)
    if header is None or not isinstance(header.get("options"), dict):
        return None
    return header


def read_header(companion: Path) -> dict[str, Any] | None:
    """A companion's header (its first line), or None where it has none that reads as one;
    OSError (FileNotFoundError: no companion) as opening it raises. Reads one line, within
    bounds, whatever the file holds."""
    with companion.open("rb") as handle:
        return header_of(handle.readline(LONGEST_LINE + 1))


def no_companion(output: Path, companion: Path) -> InputError:
    """``--resume`` refused: nothing beside ``output`` says what run it holds."""
    return InputError(
        f"there is no {companion.name} beside it to say what run it holds, so nothing to "
        "resume; run without --resume to make it anew",
        str(output),
    )


def unreadable(output: Path, companion: Path, error: OSError) -> InputError:
    """``--resume`` refused: the companion is there but cannot be read."""
    return InputError(f"{companion.name} beside it cannot be read ({error.strerror})", str(output))


def header_difference(
    found: Mapping[str, Any] | None,
    ours: Mapping[str, Any],
    companion: Path,
    describe: Callable[[Mapping[str, Any]], dict[str, str]],
    anew: str,
    rest: Callable[[Mapping[str, Any]], Difference | None] | None = None,
) -> Difference | None:
    """What sets the header ``found`` in ``companion`` apart from this run's (``ours``), and
    what the user can do (ending in ``anew``: how this command starts anew); None where they
    are the same. Looked at in order: whether there is a header, its version, its command, its
    options (``describe`` turns a header's options into the flags that give them, a flag's
    text by the option it gives: every option that differs is named, with both values), then
    what the command adds (``rest``, given only a header of the same version, command and
    options), then anything else."""
    name = companion.name
    if found is None:
        return f"{name} beside it does not begin with a header this rhasp can read (damaged)", anew
    version = found.get("version")
    if version != ours["version"]:
        return (
            f"{name} beside it {other_version(version, ours['version'])}",
            f"finish the run with the rhasp that began it, or {anew}",
        )
    if found.get("rhasp") != ours["rhasp"]:
        return f"{name} beside it is of rhasp {found.get('rhasp')}, not rhasp {ours['rhasp']}", anew
    theirs, mine = describe(found["options"]), describe(ours["options"])
    differ = [key for key in mine if theirs.get(key) != mine[key]]
    if differ:
        was = " and ".join(theirs.get(key, "?") for key in differ)
        now = " and ".join(mine[key] for key in differ)
        return (
            f"it was begun with {was}, where this run has {now} ({name})",
            f"give the same options to resume, or {anew}",
        )
    said = rest(found) if rest is not None and found["options"] == ours["options"] else None
    if said is None and found != ours:
        said = f"{name} beside it has a header unlike this run's", anew
    return said


def other_version(found: Any, reads: int) -> str:
    """``is of version 1, this rhasp reads version 2 only``: what a header of another format's
    version is, said apart from damage, since the file is whole, only of a rhasp that writes
    another."""
    theirs = f"is of version {found}" if type(found) is int else "names no version"
    return f"{theirs}, this rhasp reads version {reads} only"


def kept_until_resumed(done: str, output: Path, call: bool = False) -> str:
    """What a run stopped part way keeps in its ``output`` (``done``: how much, in words),
    and how to go on from it: the same command with ``--resume``, or with ``call``, the same
    Python call with ``resume=True``."""
    again = "the same call with resume=True" if call else "the same command with --resume"
    return f"{done} kept in {output}; {again} goes on"
