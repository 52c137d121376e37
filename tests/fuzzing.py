"""Fuzzing the readers (issue 13): real inputs, mutated, for every reader rhasp has.

A case is an input for one reader: a grid file, a one-line board, a deck (read whole, or
streamed from a file as ``rhasp deck`` reads it), a car list, a course CSV, JSON, a file of
any format as bytes, a plan for ``check``, a command line, or an HTTP request to a route of
``rhasp serve``'s app (issue 30), which must be answered with a 2xx or a JSON one-line ``error``,
never a 500. Every case must end either in puzzles that are
valid all the way (each written in every format that can hold it reads back the same, and a
BFS plan of a small one replays in the model) or in an InputError whose message is one line
and names its place; a command line must exit 0, 1, 2 or 4, with one line on standard error
when it exits 2. Anything else is a failure: a traceback, an error of several lines or of no
place, a puzzle that does not read back.

The Python API (``import rhasp``) is fuzzed too, by its arguments rather than its text: a call
of a public function with arguments of every type and value (most good, one or two not) must
return a correct result or raise an InputError of one line naming the argument, or a
SearchLimit; never another exception, and never a hang (every budget it is given is tiny).

The inputs are taken from the project's own puzzles, decks and plans, or made at random, and
then mutated: characters deleted, inserted and replaced, lines swapped and duplicated, text cut
short, huge numbers, odd unicode, NUL bytes, CRLF, JSON values of the wrong kind, deep nesting.
Every generator draws from a :class:`random.Random`, so that ``tests/test_fuzz.py`` drives them
with hypothesis (``st.randoms``) and ``bench/fuzz.py`` with seeded generators.
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import functools
import json
import os
import random
import re
import shutil
import string
import sys
import tempfile
import traceback
import urllib.parse
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rhasp
from rhasp.engines import AspOptions, get_engine
from rhasp.errors import InputError, PlanError, SearchLimit
from rhasp.formats import (
    FORMATS,
    DeckLine,
    read_path,
    read_path_numbered,
    read_text,
    read_text_numbered,
    stream_deck,
    write,
)
from rhasp.formats.carlist import read_carlist
from rhasp.formats.course_csv import read_course_csv
from rhasp.formats.grid import read_grid
from rhasp.formats.json_format import read_json
from rhasp.formats.line import read_line
from rhasp.limits import Budget
from rhasp.model import (
    MAX_SIDE,
    MIN_SIDE,
    SIDES_ALONG,
    Move,
    Piece,
    Puzzle,
    TargetSpec,
    build_puzzle,
    replay,
)
from rhasp.notation import NOTATIONS, format_plan, parse_plan
from rhasp.requests import StaticVerdict
from tests.boards import DATABASE10K, database_deck_file, place_if_free

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"

READERS = (
    "grid",
    "line",
    "deck",
    "stream",
    "carlist",
    "course-csv",
    "json",
    "file",
    "plan",
    "options",
    "api",
    "http",
)
OUTCOMES = ("valid", "error", "traceback", "other")
#: A puzzle is solved by BFS, and its plan replayed, when it cannot reach more states than
#: this (a bound from its vehicles' positions); and solved again on the model up to the other.
SOLVE_BOUND, CHECK_BOUND = 5_000, 300


@dataclass(frozen=True)
class Case:
    """One input for one reader: text, bytes, (plan puzzle, plan text) or a command line."""

    reader: str
    data: Any

    def __repr__(self) -> str:
        shown = repr(self.data)
        return f"Case({self.reader!r}, {shown[:2000]}{'...' if len(shown) > 2000 else ''})"


@dataclass(frozen=True)
class Outcome:
    kind: str  # one of OUTCOMES
    detail: str = ""


VALID, ERROR = Outcome("valid"), Outcome("error")


# --- the inputs people give: seeds ---------------------------------------------------------


@dataclass(frozen=True)
class Seeds:
    grids: tuple[str, ...]
    lines: tuple[str, ...]
    puzzles: tuple[Puzzle, ...]
    plans: tuple[tuple[int, str], ...]  # (index in puzzles, a plan for it)
    texts: tuple[str, ...]  # every seed text, for splicing


@functools.cache
def seeds() -> Seeds:
    files = sorted((PUZZLES / "original").glob("*.txt")) + sorted(
        (PUZZLES / "examples").glob("*.txt")
    )
    grids = tuple(file.read_text(encoding="utf-8") for file in files)
    puzzles = tuple(read_path(str(file))[0] for file in files)
    deck = PUZZLES / "original40.txt"
    database = DATABASE10K.read_text(encoding="utf-8").splitlines()[1::10]
    lines = tuple(deck.read_text(encoding="utf-8").splitlines()) + tuple(database)
    plans: list[tuple[int, str]] = []
    backs = (PUZZLES / "original40-cardbacks.txt").read_text(encoding="utf-8").splitlines()
    for line in backs:
        if line and not line.startswith(";"):
            number, plan = line.split(None, 1)
            plans.append((int(number) - 1, plan))
    for index, text in enumerate(grids):  # the examples' hand counts: "3 moves (BL1 AD2 XR2)"
        found = re.search(r"moves? \(([^)]*)\)", text)
        if found:
            plans.append((index, found[1]))
    for index, plan in list(plans):  # the same plans in the other notations, numbered
        board = puzzles[index].board
        moves = parse_plan(plan, board)
        for notation in NOTATIONS[1:]:
            written = format_plan(moves, board, notation)
            plans.append((index, " ".join(f"{n}. {move}" for n, move in enumerate(written, 1))))
    texts = grids + lines + tuple(plan for _, plan in plans)
    return Seeds(grids, lines, puzzles, tuple(plans), texts)


# --- random valid puzzles -------------------------------------------------------------------

LABELS = "ABCDEFGHIJKLMNPQRSTUVWXYZabcdefghijklmnpqrstuvwxyz0123456789"


def random_puzzle(rng: random.Random) -> Puzzle:
    """A valid board of any size the model allows, square or not, with vehicles of any
    allowed label (``x`` too), walls, and one to three targets leaving by any side."""
    width = rng.choice((MIN_SIDE, 4, 5, 6, 6, 6, 7, 8, MAX_SIDE))
    height = width if rng.random() < 0.6 else rng.randint(MIN_SIDE, MAX_SIDE)
    taken: set[tuple[int, int]] = set()
    pieces: list[Piece] = []
    for label in rng.sample(LABELS, rng.randint(1, 14)):
        horizontal = rng.random() < 0.5
        along, across = (width, height) if horizontal else (height, width)
        length = min(along, rng.choice((2, 2, 2, 3, 3, 4)))
        start, line = rng.randrange(along - length + 1), rng.randrange(across)
        row, col = (line, start) if horizontal else (start, line)
        place_if_free(Piece(label, "h" if horizontal else "v", row, col, length), pieces, taken)
    free = [(r, c) for r in range(height) for c in range(width) if (r, c) not in taken]
    walls = [(cell, "") for cell in rng.sample(free, min(len(free), rng.choice((0, 0, 1, 3))))]
    chosen = rng.sample(pieces, min(len(pieces), rng.choice((1, 1, 1, 2, 3))))
    targets = [
        TargetSpec(piece.label, rng.choice((None, *SIDES_ALONG[piece.orientation])))
        for piece in chosen
    ]
    return build_puzzle(width, height, pieces, walls, targets, where="random", name="random")


def random_text(rng: random.Random, fmt: str) -> str:
    """A random valid puzzle written in ``fmt``, or a seed when it cannot be written so."""
    try:
        return write(random_puzzle(rng), fmt)  # type: ignore[arg-type]
    except InputError:
        return write(rng.choice(seeds().puzzles[:40]), fmt)  # type: ignore[arg-type]


# --- mutations ------------------------------------------------------------------------------

PIECES = (
    *'.o#xXAaBb09 ;@%-,()[]{}:"',
    "\n",
    "\t",
    "car(",
    "car(x,h,2-3).",
    "@target X left",
    "@target",
    "@target A top",
    '"label": ',
    '"row": ',
    "1.",
    "12)",
    "X→3",
    "AL1",
    "B-2",
    "+",
)
ODD = (
    "\x00",
    "\r",
    "\r\n",
    "\ufeff",
    "\u2028",
    "\u2029",
    "\x85",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1e",
    "\u00a0",
    "\u3000",
    "é",
    "→",
    "←",
    "↑",
    "↓",
    "٣",
    "３",
    "\ud800",
    "\U0001d7d8",
    "ǅ",
    "\u200b",
    "\x7f",
    "\x1b[2J",
    "X" * 300,
    "\\",
    "'",
    "\u0301",
)
#: Labels that ``--target`` may name: good ones, and ones that cannot name a vehicle.
TARGETS = ("X", "A", "B", "Y", "x", "é", "", "XX", "#", ".", "o", "1", " ", "a\nb")
NUMBERS = (
    "0",
    "-1",
    "+2",
    "007",
    "3",
    "12",
    "13",
    "99",
    "2147483648",
    "9" * 25,
    "9" * 5000,
    "1e9",
    "1.5",
    "-0",
    "NaN",
    "Infinity",
    "true",
    "null",
    "٣",
    "",
)


def _spot(rng: random.Random, text: str) -> int:
    return rng.randint(0, len(text))


def _delete(rng: random.Random, text: str) -> str:
    at = _spot(rng, text)
    return text[:at] + text[at + rng.choice((1, 1, 2, 5, 40)) :]


def _insert(rng: random.Random, text: str) -> str:
    at = _spot(rng, text)
    return text[:at] + rng.choice(PIECES if rng.random() < 0.6 else ODD) + text[at:]


def _replace(rng: random.Random, text: str) -> str:
    at = _spot(rng, text)
    return text[:at] + rng.choice(PIECES if rng.random() < 0.6 else ODD) + text[at + 1 :]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _swap_lines(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _duplicate(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines[i:i] = [lines[i]] * rng.choice((1, 1, 2, 20))
    return "\n".join(lines)


def _truncate(rng: random.Random, text: str) -> str:
    return text[: _spot(rng, text)]


def _number(rng: random.Random, text: str) -> str:
    """A number of the text, or a digit anywhere, replaced by another (huge, negative, ...)."""
    numbers = list(re.finditer(r"\d+", text))
    if numbers and rng.random() < 0.7:
        found = rng.choice(numbers)
        start, end = found.span()
    else:
        start = end = _spot(rng, text)
    return text[:start] + rng.choice(NUMBERS) + text[end:]


def _newlines(rng: random.Random, text: str) -> str:
    return text.replace("\n", rng.choice(("\r\n", "\r", "\n\n", " \n", "\u2028", "\x85")))


def _case(rng: random.Random, text: str) -> str:
    at = _spot(rng, text)
    end = at + rng.choice((1, 3, 40))
    return text[:at] + text[at:end].swapcase() + text[end:]


def _splice(rng: random.Random, text: str) -> str:
    other = rng.choice(seeds().texts)
    at, start = _spot(rng, text), _spot(rng, other)
    return text[:at] + other[start : start + rng.choice((5, 40, 400))] + text[at:]


def _grow(rng: random.Random, text: str) -> str:
    """Longer lines or more of them: boards past the largest side."""
    if rng.random() < 0.5:
        return text * rng.choice((2, 3))
    return "\n".join(line + line[: rng.randint(0, 12)] for line in _lines(text))


MUTATIONS: tuple[Callable[[random.Random, str], str], ...] = (
    _delete,
    _delete,
    _insert,
    _insert,
    _replace,
    _replace,
    _swap_lines,
    _duplicate,
    _truncate,
    _number,
    _number,
    _newlines,
    _case,
    _splice,
    _grow,
)


def noise(rng: random.Random) -> str:
    """Text of any characters, some of them those the formats use."""
    pool = (*PIECES, *ODD, *string.printable, *(chr(rng.randrange(0x110000)) for _ in range(4)))
    return "".join(rng.choice(pool) for _ in range(rng.choice((0, 1, 5, 40, 200))))


def mutate(rng: random.Random, text: str) -> str:
    """``text`` unchanged one time in six, noise one time in thirty, else after one to four
    random mutations."""
    if rng.random() < 1 / 6:
        return text
    if rng.random() < 1 / 25:
        return noise(rng)
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
        text = rng.choice(MUTATIONS)(rng, text)
    return text


JSON_VALUES = (
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    3,
    12,
    13,
    10**30,
    1.5,
    "",
    "X",
    "x",
    "o",
    "é",
    "\n",
    "XY",
    "horizontal",
    "vertical",
    "h",
    "v",
    "right",
    "left",
    "top",
    "bottom",
    "diagonal",
    [],
    {},
    [{}],
    {"side": "right"},
    {"side": "top", "row": 2},
    "\ud800",
    "a\nb",
    [1, 2],
)


def mutate_json(rng: random.Random, text: str) -> str:
    """A value of the JSON document replaced by one of another kind, removed or nested."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return text
    for _ in range(rng.choice((1, 1, 2, 3))):
        spots: list[tuple[Any, Any]] = []
        stack = [doc]
        while stack:
            node = stack.pop()
            keys = node.keys() if isinstance(node, dict) else range(len(node))
            for key in keys:
                spots.append((node, key))
                if isinstance(node[key], dict | list):
                    stack.append(node[key])
        if not spots:
            break
        node, key = rng.choice(spots)
        action = rng.random()
        if action < 0.2 and isinstance(node, dict):
            del node[key]
        elif action < 0.3:
            node[key] = [node[key]]
        else:  # a copy: a later mutation of this document must not change JSON_VALUES
            node[key] = copy.deepcopy(rng.choice(JSON_VALUES))
    written = json.dumps(doc, ensure_ascii=rng.random() < 0.5, indent=rng.choice((None, 2)))
    if rng.random() < 0.05:  # nested too deep for a recursive parser
        depth = rng.choice((50, 5000, 100_000))
        written = '{"size": ' + "[" * depth + "]" * depth + "}"
    return written


def mutate_bytes(rng: random.Random, text: str) -> bytes:
    """The text as a file's bytes, sometimes with a BOM, bytes that are not UTF-8, or NULs."""
    data = text.encode("utf-8", "surrogatepass")
    choice = rng.random()
    if choice < 0.1:
        data = b"\xef\xbb\xbf" + data
    elif choice < 0.2:
        data = text.encode("utf-16", "surrogatepass")
    elif choice < 0.45:
        at = rng.randint(0, len(data))
        data = data[:at] + rng.choice((b"\xff", b"\xc3", b"\x00", b"\xe2\x86", b"\r")) + data[at:]
    return data


# --- the cases, reader by reader ----------------------------------------------------------


def _line_seed(rng: random.Random) -> str:
    if rng.random() < 0.25:
        return random_text(rng, "line").rstrip("\n")
    return rng.choice(seeds().lines)


def _deck_text(rng: random.Random) -> str:
    lines = [_line_seed(rng) for _ in range(rng.randint(2, 6))]
    for _ in range(rng.randint(0, 2)):
        lines.insert(rng.randint(0, len(lines)), rng.choice(("; a comment", "", "   ", ";")))
    return "\n".join(lines) + rng.choice(("\n", "", "\n\n"))


def _any_text(rng: random.Random) -> str:
    fmt = rng.choice(FORMATS)
    if fmt == "grid" and rng.random() < 0.5:
        return rng.choice(seeds().grids)
    if fmt == "line" and rng.random() < 0.5:
        return _deck_text(rng)
    return (
        random_text(rng, fmt)
        if rng.random() < 0.5
        else write(rng.choice(seeds().puzzles[:40]), fmt)
    )


def make_case(rng: random.Random, reader: str) -> Case:
    """A case for ``reader`` (one of READERS)."""
    chosen = seeds()
    if reader == "grid":
        seed = rng.choice(chosen.grids) if rng.random() < 0.6 else random_text(rng, "grid")
        return Case(reader, mutate(rng, seed))
    if reader == "line":
        return Case(reader, mutate(rng, _line_seed(rng)))
    if reader == "deck":
        return Case(reader, mutate(rng, _deck_text(rng)))
    if reader == "stream":
        return Case(reader, mutate_bytes(rng, mutate(rng, _deck_text(rng))))
    if reader == "carlist":
        seed = random_text(rng, "carlist") if rng.random() < 0.3 else None
        seed = seed or write(rng.choice(chosen.puzzles[:40]), "carlist")
        return Case(reader, mutate(rng, seed))
    if reader == "course-csv":
        return Case(reader, mutate(rng, random_text(rng, "course-csv")))
    if reader == "json":
        seed = random_text(rng, "json")
        if rng.random() < 0.7:
            seed = mutate_json(rng, seed)
        return Case(reader, mutate(rng, seed) if rng.random() < 0.5 else seed)
    if reader == "file":
        targets = tuple(rng.sample(TARGETS, rng.choice((0, 0, 0, 1, 2))))
        return Case(reader, (mutate_bytes(rng, mutate(rng, _any_text(rng))), targets))
    if reader == "plan":
        index, plan = rng.choice(chosen.plans)
        return Case(reader, (index, mutate(rng, plan)))
    if reader == "options":
        return Case(reader, command_line(rng))
    if reader == "api":
        return Case(reader, api_call(rng))
    if reader == "http":
        return Case(reader, http_request(rng))
    raise ValueError(f"unknown reader {reader!r}")


# --- command lines ----------------------------------------------------------------------

#: Each command's arguments (in order) and options: a tuple of the values an option takes,
#: or the kind of value; flags take none. Values are kept where a run stays cheap: small
#: boards, one process, a board or two for ``generate``. ``deck --scheduler`` is left out (a
#: Dask client waits for its scheduler).
LABEL, INT, FLOAT, OUT, PICTURE = "label", "int", "float", "out", "picture"
OUTPUT = ("text", "json")
OBJECTIVE, ENGINE = ("moves", "slides"), ("asp", "bfs")
SIZE, FEW, JOBS = ("3", "4", "5", "2", "13"), ("1", "2", "0"), ("1", "0")
COMMANDS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "solve": (
        ("puzzle",),
        {
            "--objective": OBJECTIVE,
            "--engine": ENGINE,
            "--max-horizon": INT,
            "--timeout": FLOAT,
            "--clingo-arg": ("--configuration=crafty", "--seed=3", "--garbage", "-t 2", "", "x"),
            "--notation": NOTATIONS,
            "--format": OUTPUT,
            "--target": LABEL,
            "--confirm": None,
            "--max-states": INT,
            "--max-atoms": INT,
            "--no-confirm": None,
            "--memo": None,
            "--no-memo": None,
            "--boards": None,
        },
    ),
    "check": (("puzzle", "plan"), {"--format": OUTPUT, "--target": LABEL, "--max-states": INT}),
    "convert": (("puzzle",), {"--to": FORMATS, "-o": OUT, "--output": OUT, "--target": LABEL}),
    "deck": (
        ("deck",),
        {
            "--objective": OBJECTIVE,
            "--engine": ENGINE,
            # Not --no-confirm: ASP alone would search a mutated board that has no plan to
            # horizon 500, deck having neither --max-horizon nor --timeout (the API's calls
            # of deck have confirm=False, with BFS and A*).
            "--confirm": None,
            "--jobs": JOBS,
            "--out": OUT,
            "--resume": None,
            "--cluster": None,
            "--verify": None,
            "--target": LABEL,
            "--max-states": INT,
            "--max-atoms": INT,
        },
    ),
    "analyze": (
        ("puzzle",),
        {
            "--format": OUTPUT,
            "--graph": PICTURE,
            "--profile": PICTURE,
            "--target": LABEL,
        },
    ),
    "hardest": (("puzzle",), {"--to": FORMATS, "--target": LABEL}),
    "generate": (
        (),
        {
            "--size": SIZE,
            "--min-moves": ("0", "1", "3", "60", "-1", "x"),
            "--walls": INT,
            "--count": FEW,
            "--seed": INT,
            "--minimal": None,
            "--max-boards": FEW,
            "--jobs": JOBS,
            "-o": OUT,
        },
    ),
    "render": (
        ("puzzle",),
        {
            "-o": PICTURE,
            "--solution": None,
            "--objective": OBJECTIVE,
            "--cell": INT,
            "--target": LABEL,
        },
    ),
    "facts": (("puzzle",), {"--target": LABEL}),
}
#: Options a command cannot run without (given nine times in ten), or must have to stay cheap.
REQUIRED = {"convert": ("--to",), "render": ("-o",), "generate": ("--max-boards",)}
KINDS: dict[str, tuple[str, ...]] = {
    LABEL: TARGETS,
    INT: (
        "0",
        "1",
        "2",
        "3",
        "8",
        "-1",
        "400",
        "401",
        "99999999999999999999",
        "1.5",
        "",
        "abc",
        "٣",
        "0x10",
        " 3",
        "1e3",
        "nan",
    ),
    FLOAT: ("0", "0.5", "2", "-1", "nan", "inf", "-inf", "1e999", "", "abc", "1,5", "٣"),
}
SUFFIXES = (".png", ".svg", ".gif", ".pdf", ".jsonl", ".csv", ".txt", ".json", ".pl", "", ".PNG")
GARBAGE = ("", "-", "--", "-x", "--help", "\udcff", "é", " ", "\n", "9" * 40, "None")


@functools.cache
def cli_files() -> dict[str, str]:
    """The files that command lines name: small puzzles, a deck of them, a directory."""
    folder = scratch() / "cli"
    (folder / "dir").mkdir(parents=True, exist_ok=True)
    examples = PUZZLES / "examples"
    small = {
        name: examples / f"{name}.txt"
        for name in ("4x4", "walls", "two-targets", "limousine", "unsolvable", "vertical-target")
    }
    files = {name: str(path) for name, path in small.items()}
    deck = [write(read_path(str(path))[0], "line") for path in list(small.values())[:2]]
    (folder / "deck.txt").write_text("; small deck\n" + "".join(deck) + deck[0], "utf-8")
    for name in ("4x4", "walls"):
        shutil.copy(small[name], folder / "dir" / f"{name}.txt")
    (folder / "not-a-dir").write_text("a file", "utf-8")
    (folder / "results.jsonl").write_text('{"line": 2}\nnot json\n', "utf-8")
    files |= {
        "deck": str(folder / "deck.txt"),
        "dir": str(folder / "dir"),
        "stdin": "-",
        "missing": str(folder / "missing.txt"),
        "mutated": str(folder / "mutated.txt"),
    }
    return files


def _argument(rng: random.Random, kind: str) -> str:
    files = cli_files()
    if kind == "plan":
        return rng.choice(("-", files["mutated"], mutate(rng, rng.choice(seeds().plans)[1])))
    if kind == "deck" and rng.random() < 0.6:
        return files["deck"]
    # The unsolvable board is not given to deck, which has no limit on an ASP search's horizon.
    names = [name for name in files if kind != "deck" or name != "unsolvable"]
    name = rng.choice(names)
    if name == "mutated":
        solvable = [name for name in list(files)[:6] if name != "unsolvable"]
        text = Path(files[rng.choice(solvable)]).read_text("utf-8")
        Path(files[name]).write_bytes(mutate_bytes(rng, mutate(rng, text)))
    return files[name]


def _option_value(rng: random.Random, values: Any) -> str:
    if rng.random() < 0.1:
        return rng.choice(GARBAGE)
    if isinstance(values, tuple):
        value = rng.choice(values)
        return mutate(rng, value) if rng.random() < 0.15 else value
    if values in KINDS:
        return rng.choice(KINDS[values])
    folder = scratch() / "cli"
    choice = rng.random()
    if choice < 0.7:
        suffixes = (".png", ".svg", ".gif") if values == PICTURE else SUFFIXES
        return str(folder / "out" / f"result{rng.choice(suffixes)}")
    return rng.choice(
        (
            str(folder),
            str(folder / "not-a-dir" / "x.png"),
            "/nonexistent/x.png",
            str(folder / "results.jsonl"),
            str(folder / "out"),
        )
    )


#: Options whose larger values make a run expensive (processes, boards, horizons, seconds):
#: a value the option takes is cut down to this; other values are left for the command to
#: refuse. A command line starts with the first four (a later value counts), so that an ASP
#: search on an unsolvable board stops soon, and all runs stay in one process.
CHEAP = {
    "--jobs": 1,
    "--max-horizon": 30,
    "--timeout": 5.0,
    "--count": 2,
    "--max-boards": 2,
    "--size": 5,
}


def _cheap(option: str, value: str) -> str:
    if option not in CHEAP:
        return value
    cap = CHEAP[option]
    try:
        return str(cap) if type(cap)(value) > cap else value
    except ValueError:
        return value


def command_line(rng: random.Random) -> tuple[str, ...]:
    """A random command line of rhasp, most of its words good, some not; arguments and
    option values as a shell gives them (no NUL, undecodable bytes as surrogate escapes)."""
    command = rng.choice(list(COMMANDS))
    arguments, options = COMMANDS[command]
    words = [command if rng.random() < 0.97 else mutate(rng, command)]
    for kind in arguments:
        if rng.random() < 0.95:
            words.append(_argument(rng, kind))
    required = REQUIRED.get(command, ())
    for option, values in options.items():
        if rng.random() < (0.9 if option in required else 0.3):
            words.append(option)
            if values is not None:
                words.append(_cheap(option, _option_value(rng, values)))
    if rng.random() < 0.05:
        words.insert(rng.randint(1, len(words)), rng.choice(GARBAGE))
    if command == "generate" and "--max-boards" not in words:
        words += ["--max-boards", "1"]
    for option in list(CHEAP)[:3]:
        if option in options:
            words[1:1] = [option, str(CHEAP[option])]
    return tuple(re.sub(r"[\ud800-\udc7f]", "\udcff", word.replace("\0", "")) for word in words)


def _several(argv: tuple[str, ...]) -> bool:
    """Whether the command line names a deck or a directory: a line for each bad entry."""
    for word in argv[1:]:
        with contextlib.suppress(InputError, OSError, ValueError):
            if word != "-" and Path(word).exists() and len(read_path(word)) > 1:
                return True
    return False


def run_command_line(argv: tuple[str, ...]) -> Outcome:
    """``rhasp ARGV`` in this process: exit code 0, 1, 2 or 4 and no traceback; on exit 2,
    one line on standard error (a line per bad entry for a deck, before its summary)."""
    from typer.testing import CliRunner

    from rhasp.cli import main

    code: object = None
    stdin = (PUZZLES / "examples" / "4x4.txt").read_bytes()
    here = scratch() / "cli" / "here"  # where relative file names (-o " ") are written
    here.mkdir(parents=True, exist_ok=True)
    with CliRunner().isolation(input=stdin) as (_, stderr, _), contextlib.chdir(here):
        saved, parent = sys.argv, os.getpid()
        sys.argv = ["rhasp", *argv]
        try:
            main()
        except SystemExit as done:
            code = done.code
        finally:
            if os.getpid() != parent:  # a forked worker must never go on with the fuzzing
                os._exit(0)
            sys.argv = saved
            sys.stdout.flush()
            sys.stderr.flush()
        said = stderr.getvalue().decode("utf-8", "replace")
    if code in (130, 143):  # interrupted or terminated (the CLI's handlers): stop, as it did
        raise KeyboardInterrupt
    if "Traceback" in said:
        return Outcome("traceback", said[-4000:])
    if code not in (0, 1, 2, 4):
        return Outcome("other", f"exit code {code!r}: {said[-2000:]}")
    if code != 2:
        return VALID
    lines = said.splitlines()
    if "deck summary" in lines:
        lines = lines[: lines.index("deck summary")]
    if not lines or not all(line.startswith("rhasp") for line in lines):
        return Outcome("other", f"exit 2, an error of several lines on stderr: {said[-2000:]!r}")
    if len(lines) > 1 and not _several(argv):
        return Outcome("other", f"exit 2 with {len(lines)} errors on stderr: {said[-2000:]!r}")
    return ERROR


# --- the Python API's arguments -------------------------------------------------------------

#: Values of every type that a caller may pass by mistake, for any argument.
ODD_VALUES: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    2**63,
    -(2**63) - 1,
    2**64,
    1.5,
    -0.0,
    float("nan"),
    float("inf"),
    "",
    "1",
    "moves",
    "move",
    "asp",
    "X",
    "\0",
    "é" * 50,
    b"X",
    [],
    [1, 2],
    (1, 2),
    ("X",),
    ["X", 3],
    {},
    {"timeout": 1},
    Move("X", 1),
    Move("X", "1"),
    Move(1, 1),
    [Move("X", True)],
    object(),
    print,
    Budget(1),
    Path("missing.txt"),
)
with contextlib.suppress(ImportError):
    import numpy

    ODD_VALUES += (numpy.int64(3), numpy.float64(0.5), numpy.bool_(True), numpy.array([1, 2]))

#: Stands for a small puzzle (a good value), or a plan of the call's puzzle.
PUZZLE, PLAN = "<puzzle>", "<plan>"
#: Good values of each argument of each public function, small enough that a good call ends
#: at once: tiny boards, tiny budgets, one process.
TINY_STATES = (1, 60, 5_000, 20_000)
API: dict[str, dict[str, tuple[Any, ...]]] = {
    "read": {
        "source": ("<file>", "<path>", "<text>", "<line>"),
        "targets": ((), ("X",), ["X"], ("A",)),
        "name": (None, "p"),
    },
    "parse": {
        "text": ("<text>", "<line>"),
        "targets": ((), ("X",)),
        "name": ("p",),
        "where": ("board",),
    },
    "solve": {
        "puzzle": (PUZZLE,),
        "objective": ("moves", "slides"),
        "engine": ("asp", "bfs", "astar"),
        "confirm": (True, False),
        "max_states": TINY_STATES,
        "budget": (None, Budget(50), Budget(2_000, seconds=2.0)),
        "asp": (None, AspOptions(memo=False)),
        "timeout": (0.5, 2, 0),
        "max_horizon": (0, 3, 30),
        "max_atoms": (1, 10_000, 1_000_000),
        "clingo_args": ((), ["--seed=3"]),
        "memo": (True, False),
        "progress": (None, lambda horizon, seconds, memo: None),
    },
    "check": {"puzzle": (PUZZLE,), "plan": (PLAN,), "max_states": TINY_STATES},
    "play": {"puzzle": (PUZZLE,), "plan": (PLAN,)},
    "analyze": {"puzzle": (PUZZLE,), "max_states": TINY_STATES},
    "hardest": {"puzzle": (PUZZLE,), "max_states": TINY_STATES},
    "hint": {"puzzle": (PUZZLE,), "max_states": TINY_STATES, "search": (True, False)},
    "generate": {
        "min_moves": (0, 1, 3),
        "seed": (0, 7, -5, 2**70),
        "seconds": (0, 0.05, 0.2),
        "max_states": (5, 500),
    },
    "enumerate": {
        "size": (4,),
        "walls": (0, 1, (0, 1), [1, 1]),
        "pieces": (None, 2, (1, 3)),
        "exit_row": (0, 1, 3),
        "jobs": (1,),
        "scheduler": (None,),
        "max_states": (1, 5, 50),
    },
    "deck": {
        "source": ("<file>", "<path>"),
        "objective": ("moves", "slides"),
        "engine": ("bfs", "astar"),
        "confirm": (True, False),
        "cluster": (False, True),
        "verify": (False, True),
        "jobs": (1,),
        "max_states": TINY_STATES,
    },
}
#: Arguments that a call must have, given good, else a call could run for ever (``generate``
#: without ``seconds``) or wait on a network (``enumerate`` with a scheduler's address).
ALWAYS_GOOD = {
    ("generate", "seconds"),
    ("enumerate", "scheduler"),
    ("enumerate", "size"),
    ("deck", "jobs"),  # a deck on a thousand processes would fork them
}
#: Arguments left out (their default) now and then: the default is a search's whole budget,
#: which tiny boards never reach.
OPTIONAL = {"max_states", "budget", "asp", "targets", "name", "where", "confirm", "objective"}
#: The small puzzles the calls are about: solvable ones, an unsolvable one (static analysis
#: proves it), and positions already solved.
API_PUZZLES = ("4x4", "walls", "two-targets", "limousine", "vertical-target", "unsolvable")


@dataclass(frozen=True)
class ApiCall:
    function: str
    arguments: dict[str, Any]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}"[:200] for name, value in self.arguments.items())
        return f"rhasp.{self.function}({shown})"


@functools.cache
def api_puzzles() -> tuple[Puzzle, ...]:
    small = [read_path(str(PUZZLES / "examples" / f"{name}.txt"))[0] for name in API_PUZZLES]
    card = read_path(str(PUZZLES / "original" / "card01.txt"))[0]
    gone = rhasp.play(card, "CL3 OD3 AR1 PU1 BU1 RL2 QD2 XR5")  # its back: every target left
    at_exit = read_text("....\n..XX\n....\n....", "at-exit.txt", name="at-exit")[0]
    return (*small, card, gone, at_exit)


def _good(rng: random.Random, value: Any, puzzle: Puzzle) -> Any:
    """A good value as the call takes it: a puzzle, a plan of it, a file, a board's text."""
    examples = PUZZLES / "examples"
    if value == PUZZLE:
        return puzzle
    if value == PLAN:
        return _plan_of(rng, puzzle)
    if value in ("<file>", "<path>"):
        file = examples / f"{rng.choice(API_PUZZLES)}.txt"
        return str(file) if value == "<file>" else file
    if value == "<text>":
        return (examples / f"{rng.choice(API_PUZZLES)}.txt").read_text("utf-8")
    if value == "<line>":
        return rng.choice(seeds().lines[1:41])
    return value


def _plan_of(rng: random.Random, puzzle: Puzzle) -> Any:
    """A plan for ``puzzle``: its optimal one, part of it, with a wrong move, or as text."""
    plan = get_engine("bfs", budget=Budget()).solve(puzzle, "moves").plan or ()
    kind = rng.randrange(5)
    if kind == 0:
        return list(plan)
    if kind == 1:
        return tuple(plan[: rng.randint(0, len(plan))])
    if kind == 2:
        return " ".join(format_plan(plan, puzzle.board, rng.choice(NOTATIONS)))
    if kind == 3:
        return mutate(rng, " ".join(format_plan(plan, puzzle.board)))
    return [*plan, Move(rng.choice("XABQ"), rng.choice((-2, -1, 1, 3)))]


def api_call(rng: random.Random) -> ApiCall:
    """A call of a public function of ``rhasp``: every argument good but one or two (or none),
    which may be of any type at all."""
    function = rng.choice(list(API))
    names = list(API[function])
    odd = set(rng.sample(names, min(len(names), rng.choice((0, 0, 1, 2)))))
    puzzle = rng.choice(api_puzzles())
    arguments = {}
    for name in names:
        if name in odd and (function, name) not in ALWAYS_GOOD:
            arguments[name] = rng.choice(ODD_VALUES)
        elif (function, name) in ALWAYS_GOOD or name not in OPTIONAL or rng.random() < 0.7:
            arguments[name] = _good(rng, rng.choice(API[function][name]), puzzle)
    if function == "solve" and rng.random() < 0.05:
        arguments["timout"] = 1  # a misspelt ASP option
    return ApiCall(function, arguments)


def run_api_call(call: ApiCall) -> Outcome:
    """The call's outcome: valid when its result is right, an error when it raised an
    InputError of one line naming its place (judged by :func:`run_case`), a PlanError naming
    its move or a SearchLimit, of one line."""
    try:
        result = getattr(rhasp, call.function)(**call.arguments)
        if call.function == "enumerate":
            result = list(result)
    except (SearchLimit, PlanError) as error:  # a plan's error names its move, not a place
        one_line = len(str(error).splitlines()) == 1
        return ERROR if one_line else Outcome("other", f"an error of several lines: {error}")
    problem = API_RESULTS[call.function](call.arguments, result)
    return VALID if problem is None else Outcome("other", problem)


def _solved_right(arguments: dict[str, Any], solution: Any) -> str | None:
    puzzle = arguments["puzzle"]
    if solution.objective != arguments.get("objective", "moves"):
        return f"asked for {arguments.get('objective', 'moves')}, got {solution.objective}"
    if solution.limit:
        return None
    if solution.plan is None:
        return None if solve_small(puzzle) is None else "no plan for a solvable puzzle"
    if not replay(puzzle, solution.plan).solved:
        return "its plan does not solve the puzzle"
    fewest = solve_small(puzzle)
    if solution.objective == "moves" and solution.moves != fewest:
        return f"{solution.moves} moves where a BFS on the model finds {fewest}"
    return None


def _hint_right(arguments: dict[str, Any], hint: Any) -> str | None:
    if hint is None or hint.moves_left is None:
        return None if hint is None or solve_small(arguments["puzzle"]) is None else "no way out?"
    fewest = solve_small(arguments["puzzle"])
    return None if hint.moves_left == fewest else f"{hint.moves_left} moves left, not {fewest}"


def _is(kind: type) -> Callable[[dict[str, Any], Any], str | None]:
    return lambda arguments, result: None if isinstance(result, kind) else f"got {result!r}"


def _generated_right(arguments: dict[str, Any], puzzle: Any) -> str | None:
    wanted = arguments.get("min_moves", 1)
    moves = puzzle.meta["moves"]
    return None if moves >= wanted == int(wanted) else f"{moves} moves, asked for {wanted}"


def _analysed_right(puzzle: Puzzle, result: Any) -> str | None:
    """An analysis counts a cluster; past its limit, a static verdict is right only for a
    puzzle with no plan."""
    if isinstance(result, StaticVerdict):
        return None if solve_small(puzzle) is None else "unsolvable? it has a plan"
    return None if result.cluster_states >= 1 else "no cluster"


DATABASE_LINE = re.compile(r"\d+ [A-Za-z.x]+ \d+")
API_RESULTS: dict[str, Callable[[dict[str, Any], Any], str | None]] = {
    "read": _is(Puzzle),
    "parse": _is(Puzzle),
    "solve": _solved_right,
    "check": lambda arguments, result: None if isinstance(result.solves, bool) else "no verdict",
    "play": _is(Puzzle),
    "analyze": lambda arguments, result: _analysed_right(arguments["puzzle"], result),
    "hardest": lambda arguments, result: None if result is None or result[1] >= 0 else "?",
    "hint": _hint_right,
    "generate": _generated_right,
    "enumerate": lambda arguments, lines: next(
        (f"not a database line: {line!r}" for line in lines if not DATABASE_LINE.fullmatch(line)),
        None,
    ),
    "deck": lambda arguments, tally: None if tally.puzzles == 1 else f"{tally.puzzles} puzzles?",
}


# --- judging a case -------------------------------------------------------------------------


def error_problem(error: Exception) -> str | None:
    """What is wrong with an error a reader raised, or None for a good one: an InputError of
    one line that names its place."""
    if not isinstance(error, InputError):
        return f"{type(error).__name__}, not an InputError: {error}"
    text = str(error)
    if not error.where:
        return f"the error names no place: {text!r}"
    if len(text.splitlines()) != 1 or not error.what.strip():
        return f"the error is not one line: {text!r}"
    return None


def _judged(error: InputError) -> Outcome:
    problem = error_problem(error)
    return ERROR if problem is None else Outcome("other", problem)


def state_bound(puzzle: Puzzle) -> int:
    """More states than the puzzle can reach: the product of each vehicle's positions."""
    board, bound = puzzle.board, 1
    for vehicle in board.vehicles:
        bound *= board.line_length(vehicle) - vehicle.length + 1
    return bound


def solve_small(puzzle: Puzzle) -> int | None:
    """Fewest moves by a plain BFS on the model (None: no plan), for the smallest puzzles."""
    board = puzzle.board
    seen = {puzzle.start: 0}
    queue = deque([puzzle.start])
    while queue:
        state = queue.popleft()
        if board.is_solved(state):
            return seen[state]
        for _, after in board.successors(state):
            if after not in seen:
                seen[after] = seen[state] + 1
                queue.append(after)
    return None


def puzzle_problem(puzzle: Puzzle) -> str | None:
    """What is wrong with a puzzle a reader returned, or None: it writes in every format that
    can hold it and reads back the same, and a small one's BFS plan replays to the goal."""
    for fmt in FORMATS:
        try:
            text = write(puzzle, fmt)
        except InputError as error:  # the format cannot hold it: fine, if said in one line
            problem = error_problem(error)
            if problem:
                return f"writing {fmt}: {problem}"
            continue
        try:
            back = read_text(text, f"back.{fmt}", name=puzzle.name)
        except InputError as error:
            return f"written as {fmt}, it does not read back: {error}\n{text}"
        if back != [puzzle]:
            return f"written as {fmt}, it reads back as {back!r}\n{text}"
        if fmt in ("json", "line") and any(
            back[0].meta.get(key) != puzzle.meta.get(key) for key in ("moves", "cluster")
        ):
            return f"written as {fmt}, its numbers read back as {back[0].meta}"
    bound = state_bound(puzzle)
    if bound <= SOLVE_BOUND:
        solution = get_engine("bfs", budget=Budget()).solve(puzzle, "moves")
        if solution.plan is not None and not replay(puzzle, solution.plan).solved:
            return "bfs's plan does not solve the puzzle in the model"
        if bound <= CHECK_BOUND and solution.moves != solve_small(puzzle):
            return f"bfs finds {solution.moves} moves, a BFS on the model {solve_small(puzzle)}"
    return None


def _entries_outcome(entries: list[Any]) -> Outcome:
    """The worst outcome of a deck's entries: a bad error or puzzle, else an error, else valid."""
    outcome = VALID
    for entry in entries:
        if isinstance(entry, Exception):
            judged = _judged(entry)
            if judged.kind == "other":
                return judged
            outcome = ERROR
        else:
            problem = puzzle_problem(entry)
            if problem:
                return Outcome("other", problem)
    return outcome


@functools.cache
def scratch() -> Path:
    """A folder for the files that cases are written to, removed when the process ends."""
    folder = Path(tempfile.mkdtemp(prefix="rhasp-fuzz-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _stream(data: bytes) -> Outcome:
    """A deck file as ``rhasp deck`` reads it: streamed, each line read where it is solved.
    The entries must be those of reading the file whole, under the same line numbers."""
    path = scratch() / "stream.txt"
    path.write_bytes(data)
    count, pending = stream_deck(str(path))
    entries = [(n, e.read() if isinstance(e, DeckLine) else e) for n, e in pending]
    if count != len(entries):
        return Outcome("other", f"stream_deck counts {count} entries but gives {len(entries)}")
    try:  # a line that is not text fails the whole file when it is read whole
        whole = read_path_numbered(str(path))
    except InputError:
        whole = None
    if whole is not None and [(n, _same(e)) for n, e in entries] != [
        (n, _same(e)) for n, e in whole
    ]:
        return Outcome("other", f"streamed {entries!r}\nbut read whole {whole!r}")
    return _entries_outcome([entry for _, entry in entries])


def _same(entry: Puzzle | InputError) -> object:
    return str(entry) if isinstance(entry, InputError) else entry


def _file(data: tuple[bytes, tuple[str, ...]]) -> Outcome:
    """A file of any format, and the targets that ``--target`` names."""
    path = scratch() / "file.txt"
    path.write_bytes(data[0])
    return _entries_outcome(read_path(str(path), targets=data[1]))


def _plan(data: tuple[int, str]) -> Outcome:
    index, text = data
    puzzle = seeds().puzzles[index]
    board = puzzle.board
    plan = parse_plan(text, board, "plan.txt")
    try:
        replay(puzzle, plan)
    except PlanError as error:
        if len(str(error).splitlines()) != 1:
            return Outcome("other", f"a replay error of several lines: {error!r}")
    for notation in NOTATIONS:
        written = " ".join(format_plan(plan, board, notation))
        if parse_plan(written, board) != plan:
            return Outcome("other", f"{plan} written as {written!r} reads back otherwise")
    return VALID


def _one(puzzle: Puzzle) -> Outcome:
    problem = puzzle_problem(puzzle)
    return VALID if problem is None else Outcome("other", problem)


# --- HTTP requests to rhasp serve's app (issue 30) ------------------------------------------

#: What one fuzzed request may spend: tiny, so that a case takes milliseconds.
HTTP_LIMITS = {"states": 2_000, "seconds": 0.2, "asp_proofs": 1}
#: Values a body field of that name may take that the server can do something with.
FIELD_VALUES: dict[str, tuple[Any, ...]] = {
    "objective": ("moves", "slides", "fewest", ""),
    "engine": ("bfs", "asp", "astar", "BFS"),
    "stream": (True, False, "yes", 1),
    "min_moves": (1, 3, 5, 40, 41, 0, -1),
    "moves": (0, 3, 5, 8, 999_999, 10**6, ""),
    "seed": (0, 1, 2**63 - 1, 2**63, -1),
    "size": (6, 8, 10, 5, 11, "7"),
}
#: After ``/assets``: files that are there, and names that are not or try to climb out.
STATIC_NAMES = (
    "main.js",
    "icon.svg",
    "index.html",
    "style.css",
    "nope.js",
    "",
    "../server.py",
    "..%2f..",
)
HTTP_METHODS = ("GET", "POST", "POST", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH")


@functools.cache
def http_app() -> Any:
    """The app ``rhasp serve`` runs, with tiny limits and a small database of 6×6 lines."""
    from rhasp.web.server import Database, ServerLimits, create_app

    database = database_deck_file(scratch() / "database.txt", 200)
    return create_app(ServerLimits(**HTTP_LIMITS), Database(database))


@functools.cache
def http_client() -> Any:
    import warnings

    with warnings.catch_warnings():  # starlette would rather have httpx2; FastAPI uses httpx
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    return TestClient(http_app(), raise_server_exceptions=False)


@functools.cache
def http_routes() -> tuple[tuple[str, tuple[str, ...], tuple[str, ...], bool], ...]:
    """(path, methods, body fields, whether a mount) of every route of the app, read from
    ``app.routes``, so that a route added later is fuzzed too."""
    app = http_app()
    schema = app.openapi()
    found = []
    for route in app.routes:
        methods = getattr(route, "methods", None)
        mount = methods is None  # static files: a name goes after its path
        methods = tuple(sorted(methods or ("GET",)))
        found.append((route.path, methods, _body_fields(schema, route.path, methods), mount))
    return tuple(found)


def _body_fields(schema: dict[str, Any], path: str, methods: tuple[str, ...]) -> tuple[str, ...]:
    """The fields of the JSON body the route's schema documents (none for a mount or GET)."""
    fields: list[str] = []
    for method in methods:
        body = schema["paths"].get(path, {}).get(method.lower(), {}).get("requestBody", {})
        reference = body.get("content", {}).get("application/json", {}).get("schema", {})
        name = reference.get("$ref", "").rsplit("/", 1)[-1]
        fields += schema["components"]["schemas"].get(name, {}).get("properties", {})
    return tuple(dict.fromkeys(fields))


def random_json(rng: random.Random, depth: int = 0) -> Any:
    """Any JSON value: scalars of every kind (huge numbers, odd strings), lists and objects
    nested a few deep."""
    choice = rng.random()
    if choice < 0.35 or depth > 3:
        return rng.choice(
            (
                None,
                True,
                False,
                rng.randint(-3, 60),
                rng.choice((-1, 1)) * 10 ** rng.randint(10, 400),
                rng.choice((0.5, -0.0, 1e308, 5e-324, 3.0, 1e19)),
                noise(rng),
                rng.choice(seeds().texts),
                *JSON_VALUES,
            )
        )
    if choice < 0.6:
        return [random_json(rng, depth + 1) for _ in range(rng.choice((0, 1, 2, 5)))]
    keys = [*FIELD_VALUES, "board", "plan", noise(rng)[:10]]
    return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.choice((0, 1, 3)))}


def _position(rng: random.Random) -> dict[str, Any]:
    """A board and moves a person might send: a seed puzzle in any format with a prefix of one
    of its plans played and the rest to check, or a mutated text."""
    index, plan = rng.choice(seeds().plans)
    played = rng.randint(0, len(plan.split()))
    words = plan.split()
    board = write(seeds().puzzles[index], rng.choice(("grid", "json")))  # any board holds
    if rng.random() < 0.3:
        board = mutate(rng, board)
    return {"board": board, "moves": " ".join(words[:played]), "plan": " ".join(words[played:])}


def _body(rng: random.Random, fields: tuple[str, ...]) -> Any:
    """A JSON body for a route with ``fields``: each field present or not, each value one the
    server can use or any JSON value; or, at times, any JSON value at all."""
    if rng.random() < 0.15:
        return random_json(rng)
    sensible = _position(rng)
    wild = rng.random() < 0.6  # else every field has a value the server can use
    body = {}
    for name in fields:
        if wild and rng.random() < 0.2:
            continue  # a field missing
        if not wild or rng.random() < 0.6:
            positional = name in sensible and "board" in fields  # moves: a plan, not a count
            body[name] = sensible[name] if positional else rng.choice(FIELD_VALUES[name])
        else:
            body[name] = random_json(rng)
    if rng.random() < 0.1:
        body[noise(rng)[:8]] = random_json(rng)  # a field the route does not know
    return body


def http_request(rng: random.Random) -> tuple[str, str, bytes | None, dict[str, str]]:
    """One request to a route of the app: its method (the route's own, mostly), path, body
    (JSON mostly, else bytes that are not JSON, nested too deep, over the size limit, or none)
    and headers."""
    path, methods, fields, mount = rng.choice(http_routes())
    method = rng.choice(methods) if rng.random() < 0.85 else rng.choice(HTTP_METHODS)
    if mount:
        path += "/" + urllib.parse.quote(rng.choice(STATIC_NAMES), safe="/%")
    if rng.random() < 0.03:
        path += rng.choice(("/", "x", "/../api/solve", "?board=1"))
    headers = {"content-type": rng.choice(("application/json",) * 18 + ("text/plain", ""))}
    choice = rng.random()
    if choice < 0.8:
        body: bytes | None = json.dumps(_body(rng, fields), ensure_ascii=rng.random() < 0.5)
        body = body.encode("utf-8", "surrogatepass")
    elif choice < 0.88:
        body = mutate_bytes(rng, mutate(rng, json.dumps(_position(rng))))
    elif choice < 0.92:
        depth = rng.choice((50, 5_000, 30_000))
        body = ("[" * depth + "]" * depth).encode()
    elif choice < 0.95:
        body = b'{"board": "' + b"o" * 70_000 + b'"}'
    else:
        body = None
    return method, path, body, headers


def _http(data: tuple[str, str, bytes | None, dict[str, str]]) -> Outcome:
    """A 2xx answer is valid; any other must be JSON with a one-line ``error``, and never a
    500 (a failure the server did not foresee)."""
    method, path, body, headers = data
    response = http_client().request(method, path, content=body, headers=headers)
    status = response.status_code
    if status < 300 or (method == "HEAD" and status < 500):
        return VALID
    try:
        error = response.json()["error"]
    except (ValueError, KeyError, TypeError):
        return Outcome("other", f"HTTP {status}, not a JSON error: {response.text[:300]!r}")
    if status >= 500 or not isinstance(error, str) or not error or "\n" in error:
        return Outcome("other", f"HTTP {status}: {error!r}")
    return ERROR


READ: dict[str, Callable[[Any], Outcome]] = {
    "grid": lambda text: _one(read_grid(text, "fuzz.txt", name="fuzz")),
    "line": lambda text: _one(read_line(text, "deck.txt", 7, name="fuzz")),
    "deck": lambda text: _entries_outcome(
        [entry for _, entry in read_text_numbered(text, "deck.txt", name="deck")]
    ),
    "stream": _stream,
    "carlist": lambda text: _one(read_carlist(text, "fuzz.pl", name="fuzz")),
    "course-csv": lambda text: _one(read_course_csv(text, "fuzz.csv", name="fuzz")),
    "json": lambda text: _one(read_json(text, "fuzz.json", name="fuzz")),
    "file": _file,
    "plan": _plan,
    "options": lambda argv: run_command_line(argv),
    "api": lambda call: run_api_call(call),
    "http": _http,
}


def run_case(case: Case) -> Outcome:
    """The outcome of one case: valid, a good error, a traceback, or other (a bad error or a
    puzzle that is not valid all the way)."""
    try:
        return READ[case.reader](case.data)
    except InputError as error:
        return _judged(error)
    except Exception:  # the failure the fuzzing looks for
        return Outcome("traceback", traceback.format_exc(limit=-8))


def cases(rng: random.Random, count: int, readers: tuple[str, ...] = READERS) -> list[Case]:
    """``count`` cases, the readers in turn."""
    return [make_case(rng, readers[i % len(readers)]) for i in range(count)]
