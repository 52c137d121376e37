"""The summary tables of long runs (a deck, an enumeration) and the words they share."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.table import Table


def seconds_row(working: float, in_all: float | None, doing: str) -> tuple[str, str]:
    """The seconds a summary table gives, saying what they cover: the work itself, and, when
    start-up (loading or compiling the search core) took a second or more, the whole run
    (``in_all``, when known)."""
    text = f"{working:,.1f} {doing}"
    if in_all is not None and in_all - working >= 1.0:
        text += f", {in_all:,.1f} in all (start-up and compiling the search core included)"
    return "seconds", text


def enumeration_table(
    tally: Any, seconds: float, journal: Path | None = None, in_all: float | None = None
) -> Table:
    """The summary of ``rhasp enumerate``: what was enumerated and found, the puzzles by
    moves, and what the journal beside the output is for."""
    table = Table(title="enumeration summary", show_header=False)
    rows = [
        ("layouts", f"{tally.layouts:,}"),
        ("least layouts (one a cluster)", f"{tally.least:,}"),
        ("solvable clusters", f"{tally.solvable:,}"),
        ("puzzles", f"{tally.puzzles:,}"),
        ("hardest", tally.hardest or "-"),
        seconds_row(seconds, in_all, "enumerating"),
    ]
    if journal is not None:
        output = journal.stem  # FILE of FILE.shards
        rows.append(
            (
                "journal",
                f"{journal.name}: a checksum a shard, kept so that --resume can check "
                f"{output} whole at any time; delete it when you no longer need that",
            )
        )
    for name, value in rows:
        table.add_row(name, value)
    if tally.by_moves:
        table.add_row("by moves", _bars(tally.by_moves))
    return table


def _bars(counts: Mapping[int, int]) -> str:
    """A text histogram, a line per value: the value, a bar, the count."""
    peak = max(counts.values())
    return "\n".join(
        f"{value:3d} {'█' * max(1, round(30 * n / peak))} {n:,}"
        for value, n in sorted(counts.items())
    )


def tally_table(tally: Any, seconds: float, verify: bool, in_all: float | None = None) -> Table:
    """The summary of a deck run: counts, rate, peak memory (when known), lengths, and every
    mismatch. A resumed run counts the whole deck, the records it kept from ``--out`` too (and
    says how many), as its exit code does; the rate and the memory are of what it did itself."""
    table = Table(title="deck summary", show_header=False)
    rate = (tally.puzzles - tally.kept) / seconds if seconds > 0 else 0.0
    rows = [
        *([("kept from --out", tally.kept)] if tally.kept else []),
        ("puzzles", tally.puzzles),
        ("solved", tally.solved),
        ("unsolvable", tally.unsolvable),
        ("limits reached", tally.limited),
        ("bad lines", tally.errors),
        ("mismatches", _mismatches(tally) if verify else "-"),
        ("puzzles/s", f"{rate:,.1f}"),
        seconds_row(seconds, in_all, "solving"),
        *([("peak memory", memory_text(tally.peak_memory))] if tally.peak_memory else []),
    ]
    for name, value in rows:
        table.add_row(name, f"{value:,}" if isinstance(value, int) else value)
    if tally.lengths:
        table.add_row("lengths", _bars(tally.lengths))
    for record in tally.mismatches:
        table.add_row(
            f"mismatch line {record.line}",
            "; ".join(
                f"{name}: found {getattr(record, name)}, deck says "
                f"{getattr(record, f'expected_{name}')}"
                for name in record.mismatch.split(", ")
            ),
        )
    return table


def memory_text(peak: int) -> str:
    """A run's peak memory (:func:`rhasp.limits.peak_memory`, bytes) as its summary says it:
    in MiB, and whose it is."""
    return f"{peak / (1 << 20):,.1f} MiB (the largest process: this one or a worker)"


def _mismatches(tally: Any) -> str:
    """Mismatches of a --verify run, and how many puzzles were compared at all: a deck whose
    lines give no figures is not a pass."""
    if not tally.verified:
        return "nothing verified: no line gives MOVES or CLUSTER figures"
    return f"{len(tally.mismatches):,} of {tally.verified:,} verified"
