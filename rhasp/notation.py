"""Writing and reading moves in the three notations people use.

- ``card``: label, direction U/D/L/R, cells — ``XR3``, as on the back of the puzzle cards;
- ``arrow``: label, arrow, cells — ``X→3``;
- ``signed``: label, signed cells with up/left negative — ``A-1``, ``X+3``.

A plan may mix notations; numbering such as ``1.`` or ``12)`` between moves is skipped, so
the numbered plan that ``rhasp solve`` prints reads back as it is; :func:`extract_plan` takes
the plan out of the whole of what ``rhasp solve`` prints (text or JSON).

A plan may also be the ``move(T,V,D)`` atoms the encodings print (``encodings/*.lp``, the
clingo executable, ``move_atoms`` in ``rhasp solve --format json``): at step T vehicle V moves
D cells, right/down positive as in :class:`~rhasp.model.Move`. Atoms are read in any order
and played by their steps, which must be 1..n; each atom is one move (the slides encoding's
atoms are slides, one move each). A plan is atoms or moves, never both: moves have no step,
so no order between the two kinds would be more than a guess.

A plan may also be a PDDL planner's (Fast Downward's ``sas_plan``): one ``(action arguments)``
a line, ``;`` comments, the actions of the domain ``rhasp convert --to pddl`` writes
(:mod:`rhasp.formats.pddl`; the names both use are :mod:`rhasp.pddl_naming`'s).

What clingo prints reads as the plan of its last answer (:func:`clingo_plan`): the executable's
and ``python -m clingo``'s text, with ``--stats``, several answers or ``-V0``, and its JSON
(``--outf=2``); the answer's other atoms are not the plan's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any, Literal

from rhasp.errors import InputError, location
from rhasp.model import Board, Move, Plan, State
from rhasp.pddl_naming import (
    DIRECTIONS,
    TYPE_OF,
    action_cells,
    action_move,
    cell_object,
    object_cell,
    vehicle_label,
)

Notation = Literal["card", "arrow", "signed"]
NOTATIONS: tuple[Notation, ...] = ("card", "arrow", "signed")

_LETTER = {"h": ("L", "R"), "v": ("U", "D")}  # (negative, positive) per orientation
_ARROW = {"L": "←", "R": "→", "U": "↑", "D": "↓"}
_FROM_ARROW = {arrow: letter for letter, arrow in _ARROW.items()}
#: At most 18 digits of cells: Python will not read a number of thousands of digits.
_TOKEN = re.compile(
    r"(?P<label>[A-Za-z0-9])(?:(?P<dir>[UDLRudlr←→↑↓])|(?P<sign>[+-]))(?P<cells>\d{1,18})"
)
_NUMBERING = re.compile(r"\d+[.)]")
#: A token of a plan: an atom ``move(...)`` (commas and all, up to its closing bracket) or a
#: run of characters between separators.
_PLAN_TOKEN = re.compile(r"move\([^)]*\)?|[^\s,;]+", re.IGNORECASE)
#: ``move(T,V,D)`` as clingo prints it: V a string (``"X"``) or, unquoted, a constant or a
#: number; at most 18 digits a number, as for the cells of a move.
_ATOM = re.compile(
    r'move\(\s*(?P<step>[+-]?\d{1,18})\s*,\s*(?:"(?P<quoted>[^"]*)"|(?P<bare>\w+))\s*,'
    r"\s*(?P<delta>[+-]?\d{1,18})\s*\)"
)


def format_move(move: Move, board: Board, notation: Notation = "card") -> str:
    if notation == "signed":
        return f"{move.label}{move.delta:+d}"
    vehicle = board.vehicles[board.index(move.label)]
    letter = _LETTER[vehicle.orientation][move.delta > 0]
    mark = _ARROW[letter] if notation == "arrow" else letter
    return f"{move.label}{mark}{move.slides}"


def format_plan(plan: Sequence[Move], board: Board, notation: Notation = "card") -> list[str]:
    return [format_move(move, board, notation) for move in plan]


def parse_move(token: str, board: Board, where: str = "plan") -> Move:
    """One move in any notation; raises InputError naming the token and what is wrong."""
    match = _TOKEN.fullmatch(token)
    if match is None:
        raise InputError(f"{token!r} is not a move (write it as XR3, X→3 or X+3)", where)
    label = _resolve_label(match["label"], board, token, where)
    vehicle = board.vehicles[board.index(label)]
    cells = int(match["cells"])
    if cells == 0:
        raise InputError(f"{token!r} moves 0 cells", where)
    if match["sign"]:
        return Move(label, cells if match["sign"] == "+" else -cells)
    letter = _FROM_ARROW.get(match["dir"], match["dir"].upper())
    negative, positive = _LETTER[vehicle.orientation]
    if letter not in (negative, positive):
        kind = "horizontal" if vehicle.horizontal else "vertical"
        raise InputError(
            f"{token!r}: {label} is {kind} and moves {negative} or {positive} only", where
        )
    return Move(label, cells if letter == positive else -cells)


def parse_plan(text: str, board: Board, source: str = "plan", start: State | None = None) -> Plan:
    """A plan from text: moves separated by spaces, commas or new lines, ``move(T,V,D)``
    atoms (:func:`parse_atoms`) or a PDDL plan (:func:`parse_pddl_plan`, which checks the
    cells its actions name against ``start`` when given); the one reader of a plan, for
    ``rhasp check``, the API and the page."""
    actions = _pddl_lines(text)
    if actions and actions[0][1].startswith("("):
        return parse_pddl_plan(actions, board, source, start)
    tokens = [token for token in _PLAN_TOKEN.findall(text) if not _NUMBERING.fullmatch(token)]
    atoms = [token for token in tokens if _is_atom(token)]
    if atoms:
        return parse_atoms(atoms, tokens, board, source)
    return tuple(
        parse_move(token, board, f"{source}: move {number}")
        for number, token in enumerate(tokens, 1)
    )


def written_as_moves(text: str) -> bool:
    """Whether every token of ``text`` is written as a move, a ``move(T,V,D)`` atom or a
    move's numbering, whatever the board (whether each can be played is
    :func:`parse_plan`'s question): what tells a plan written out from a file's name."""
    tokens = _PLAN_TOKEN.findall(text)
    return bool(tokens) and all(
        _TOKEN.fullmatch(token) or _is_atom(token) or _NUMBERING.fullmatch(token)
        for token in tokens
    )


def _is_atom(token: str) -> bool:
    return token[:5].lower() == "move("


def parse_atoms(atoms: Sequence[str], tokens: Sequence[str], board: Board, source: str) -> Plan:
    """The plan of ``move(T,V,D)`` atoms, by step: as the encodings print it, so that what
    clingo answers can be checked as it is. ``tokens`` is the whole plan; anything in it
    besides the atoms is refused, naming it, as is an atom that is malformed, a step that is
    missing or given twice, a vehicle not on the board and a move of 0 cells."""
    other = next((token for token in tokens if not _is_atom(token)), None)
    if other is not None:
        raise InputError(
            f"{other!r} beside move(T,V,D) atoms: give the plan as atoms or as moves, not both",
            source,
        )
    steps: dict[int, tuple[str, Move]] = {}
    for atom in atoms:
        step, move = _read_atom(atom, board, source)
        if step in steps:
            raise InputError(f"{steps[step][0]!r} and {atom!r} are both step {step}", source)
        steps[step] = (atom, move)
    missing = next((step for step in range(1, len(steps) + 1) if step not in steps), None)
    if missing is not None:
        last = max(steps)
        raise InputError(f"no atom for step {missing} (steps go 1..{last} without gaps)", source)
    return tuple(steps[step][1] for step in sorted(steps))


def _read_atom(atom: str, board: Board, source: str) -> tuple[int, Move]:
    """One atom's step and move; raises InputError naming the atom and what is wrong."""
    match = _ATOM.fullmatch(atom)
    if match is None:
        raise InputError(f"{atom!r} is not an atom move(T,V,D) (as clingo prints them)", source)
    step, delta = int(match["step"]), int(match["delta"])
    if step < 1:
        raise InputError(f"{atom!r}: steps count from 1", source)
    label = match["bare"] if match["quoted"] is None else match["quoted"]
    if len(label) != 1:
        raise InputError(f"{atom!r}: there is no vehicle {label} on the board", source)
    label = _resolve_label(label, board, atom, source)
    if delta == 0:
        raise InputError(f"{atom!r} moves 0 cells", source)
    return step, Move(label, delta)


def _resolve_label(label: str, board: Board, token: str, where: str) -> str:
    """The label as written, or in the other case when that names exactly one vehicle."""
    labels = {vehicle.label for vehicle in board.vehicles}
    if label in labels:
        return label
    if label.swapcase() in labels:
        return label.swapcase()
    raise InputError(f"{token!r}: there is no vehicle {label} on the board", where)


#: What ``rhasp solve`` prints around a plan: its summary line, whose parts are joined by
#: `` · `` (never in a plan), and with ``--boards`` the frames and rows of each board.
_SUMMARY = " · "
#: What starts each line ``rhasp solve`` prints under the summary (``Solution.notes``):
#: what the reader inferred, why there is no solution, the engine and its work, each
#: search's states and seconds, why a search stopped.
READ, WHY, ENGINE, SEARCHES, STOPPED = "read: ", "why: ", "engine: ", "searched: ", "stopped: "
BESIDE_THE_PLAN = (READ, WHY, ENGINE, SEARCHES, STOPPED)
_BOARD_LINE = re.compile(r"[+|<]\S*")


def extract_plan(text: str, source: str = "plan") -> str:
    """The moves of a plan as written, or as ``rhasp solve`` prints it, ready for
    :func:`parse_plan`.

    ``rhasp solve`` prints a summary line (and, when two engines ran, the line of their
    searches) and the numbered moves, with ``--boards`` a board drawn before and after each
    move; with ``--format json`` an object whose ``plan`` lists
    the moves (one JSON line per puzzle for a deck). Output of several puzzles, or JSON
    without a plan, is an InputError; a puzzle without a solution has the empty plan.
    """
    if text.lstrip().startswith("{"):
        return _json_plan(text, source)
    lines = text.splitlines()
    if any(_is_clingo_line(line) for line in lines):
        return clingo_plan(lines, source)
    summaries = sum(_SUMMARY in line for line in lines)
    if summaries > 1:
        raise InputError(f"holds the plans of {summaries} puzzles; give the plan of one", source)
    return "\n".join(line for line in lines if not _printed_beside_the_plan(line))


def _printed_beside_the_plan(line: str) -> bool:
    """The summary, a line under it (``searched: ...``), or a line of a board."""
    text = line.strip()
    return _SUMMARY in line or text.startswith(BESIDE_THE_PLAN) or bool(_BOARD_LINE.fullmatch(text))


def _json_plan(text: str, source: str) -> str:
    """The ``plan`` of the one JSON object (or JSON line) in ``text``: a list of moves from
    ``rhasp solve``, one string from ``rhasp deck``."""
    decoder = json.JSONDecoder()
    records, at = [], 0
    while at < len(text):
        if text[at].isspace():
            at += 1
            continue
        try:
            record, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError as error:
            where = location(source, error.lineno, error.colno)
            raise InputError(f"not JSON: {error.msg}", where) from None
        except (ValueError, RecursionError):  # a number of thousands of digits, deep nesting
            raise InputError(
                "not JSON rhasp reads (too deep, or too long a number)", source
            ) from None
        records.append(record)
    if len(records) != 1:
        raise InputError(f"holds {len(records)} JSON records; give the plan of one", source)
    (record,) = records
    if isinstance(record, dict) and record.keys() >= _CLINGO_JSON:
        return _clingo_json_plan(record, source)
    if not isinstance(record, dict) or "plan" not in record:
        raise InputError("a JSON record without a plan field (rhasp solve --format json)", source)
    plan = record["plan"]
    if plan is None:
        return ""  # no solution: the empty plan, which check finds does not solve the puzzle
    if isinstance(plan, str):
        return plan
    if not isinstance(plan, list) or not all(isinstance(move, str) for move in plan):
        raise InputError("the plan field is not a list of moves", source)
    return " ".join(plan)


# --- what clingo prints ---------------------------------------------------------------------

#: The lines by which clingo's text output is known (clingo 5.4 to 5.8, the executable and
#: ``python -m clingo``): its header, an answer's number, the result.
_CLINGO_HEADER = re.compile(r"(?:py)?clingo version \S+")
_CLINGO_ANSWER = re.compile(r"Answer: \d+(?: \(Time: [^)]*\))?")
_CLINGO_RESULTS = ("SATISFIABLE", "UNSATISFIABLE", "UNKNOWN", "OPTIMUM FOUND")
#: What else clingo prints between its answers with ``-V0`` left out: reading, solving,
#: an optimization's costs and its progress.
_CLINGO_MESSAGES = re.compile(r"Reading from .*|Solving\.\.\.|Optimization\s*:.*|Progression\s*:.*")
#: The keys of clingo's JSON output (``--outf=2``).
_CLINGO_JSON = {"Solver", "Call", "Result"}


def _is_clingo_line(line: str) -> bool:
    text = line.strip()
    return (
        text in _CLINGO_RESULTS
        or bool(_CLINGO_HEADER.match(text))
        or bool(_CLINGO_ANSWER.fullmatch(text))
    )


def clingo_plan(lines: Sequence[str], source: str = "plan") -> str:
    """The ``move(T,V,D)`` atoms of clingo's last answer, as clingo prints its answers in
    text: the line under each ``Answer: N`` (with ``-V0``, which prints no such line, each
    line of atoms before the result is an answer). Everything else clingo prints (header,
    progress, result, figures, ``--stats``) is skipped.

    Output without an answer (UNSATISFIABLE: clingo found no plan; UNKNOWN: it was stopped)
    and an answer with atoms but no move atoms (the encodings run without their incremental
    mode) are InputErrors saying so; an empty answer is the empty plan (a puzzle solved at
    the start has it)."""
    stripped = [line.strip() for line in lines]
    numbered = [n for n, line in enumerate(stripped) if _CLINGO_ANSWER.fullmatch(line)]
    if numbered:
        answers = [stripped[n + 1] if n + 1 < len(stripped) else "" for n in numbered]
    else:  # -V0: the answers alone, one a line, before the result
        end = next((n for n, line in enumerate(stripped) if line in _CLINGO_RESULTS), None)
        answers = [
            line
            for line in stripped[:end]
            if line and not _is_clingo_line(line) and not _CLINGO_MESSAGES.fullmatch(line)
        ]
    if not answers:
        result = next((line for line in stripped if line in _CLINGO_RESULTS), "no result")
        raise InputError(
            f"clingo's output holds no answer ({result}): clingo found no plan to check", source
        )
    return _answer_plan(_clingo_atoms(answers[-1]), f"clingo's answer {len(answers)}", source)


def _clingo_json_plan(record: dict[str, Any], source: str) -> str:
    """The plan of the last witness in clingo's JSON output (``--outf=2``)."""
    calls = record["Call"] if isinstance(record["Call"], list) else []
    found = [call.get("Witnesses") for call in calls if isinstance(call, dict)]
    witnesses = [
        witness
        for listed in found
        if isinstance(listed, list)
        for witness in listed
        if isinstance(witness, dict)
    ]
    if not witnesses:
        raise InputError(
            f"clingo's output holds no answer ({record['Result']}): clingo found no plan to check",
            source,
        )
    atoms = witnesses[-1].get("Value", [])
    if not isinstance(atoms, list) or not all(isinstance(atom, str) for atom in atoms):
        raise InputError("clingo's last witness has no list of atoms (Value)", source)
    return _answer_plan(atoms, f"clingo's answer {len(witnesses)}", source)


def _answer_plan(atoms: Sequence[str], answer: str, source: str) -> str:
    """The move/3 atoms of an answer, as a plan's text; the answer's other atoms are not
    the plan's, but an answer of other atoms only holds no plan."""
    moves = [atom for atom in atoms if _is_move3(atom)]
    if not moves and atoms:
        shown = ", ".join(atoms[:3]) + (", ..." if len(atoms) > 3 else "")
        raise InputError(
            f"{answer} holds no move(T,V,D) atoms, only {shown}: no plan to check", source
        )
    return " ".join(moves)


def _clingo_atoms(answer: str) -> list[str]:
    """The atoms of an answer line, split at the spaces between them (not those inside a
    string or a term's brackets)."""
    return [atom for atom in _split_top(answer, str.isspace) if atom]


def _is_move3(atom: str) -> bool:
    """Whether ``atom`` is ``move`` with three arguments (counted at the top level)."""
    if not (atom.startswith("move(") and atom.endswith(")")):
        return False
    return len(_split_top(atom[5:-1], lambda char: char == ",")) == 3


def _split_top(text: str, separates: Callable[[str], bool]) -> list[str]:
    """``text`` split at the characters that ``separates``, outside strings and brackets."""
    parts, start, depth, quoted, escaped = [], 0, 0, False, False
    for at, char in enumerate(text):
        if quoted:
            quoted = escaped or char != '"'
            escaped = not escaped and char == "\\"
        elif char == '"':
            quoted = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif depth == 0 and separates(char):
            parts.append(text[start:at])
            start = at + 1
    parts.append(text[start:])
    return parts


# --- a PDDL planner's plan ------------------------------------------------------------------

_PDDL_ACTION = re.compile(r"\(\s*(?P<name>[^\s()]+)(?P<arguments>(?:\s+[^\s()]+)*)\s*\)")


def _pddl_lines(text: str) -> list[tuple[int, str]]:
    """The numbered lines of ``text`` that hold more than a ``;`` comment, comments cut."""
    lines = ((n, line.split(";", 1)[0].strip()) for n, line in enumerate(text.splitlines(), 1))
    return [(n, line) for n, line in lines if line]


def parse_pddl_plan(
    lines: Sequence[tuple[int, str]], board: Board, source: str, start: State | None = None
) -> Plan:
    """The moves of a PDDL plan's numbered lines, one ``(action vehicle cells...)`` a line,
    in the naming of :mod:`rhasp.formats.pddl`: ``right-3`` moves its vehicle 3 cells right.
    The cells an action names must be those its move crosses from where the first of them
    says the vehicle stands, and, given ``start``, where it does stand after the moves
    before it. Raises InputError naming the line and what is wrong."""
    positions = (
        None if start is None else dict(zip((v.label for v in board.vehicles), start, strict=True))
    )
    moves = []
    for number, line in lines:
        where = location(source, number)
        move, position = _pddl_move(line, board, where)
        if positions is not None and positions.get(move.label) not in (None, position):
            vehicle = board.vehicles[board.index(move.label)]
            stands, named = (
                cell_object(vehicle.cells(at)[0]) for at in (positions[move.label], position)
            )
            raise InputError(f"{line}: {move.label} stands at {stands} there, not {named}", where)
        if positions is not None and positions.get(move.label) is not None:
            positions[move.label] = position + move.delta
        moves.append(move)
    return tuple(moves)


def _pddl_move(line: str, board: Board, where: str) -> tuple[Move, int]:
    """One action's move, and the position its cells say the vehicle moves from."""
    match = _PDDL_ACTION.fullmatch(line)
    if match is None:
        raise InputError(f"{line!r} is not an action: write one (action arguments) a line", where)
    found = action_move(match["name"])
    if found is None:
        raise InputError(
            f"{match['name']!r} is not an action of rhasp's PDDL domain "
            "(right-D, left-D, down-D or up-D)",
            where,
        )
    direction, distance = found
    arguments = match["arguments"].split()
    if len(arguments) != 2 * distance + 3:
        raise InputError(
            f"{line}: {match['name']} takes {2 * distance + 3} arguments, not {len(arguments)}",
            where,
        )
    label = vehicle_label(arguments[0])
    labels = {vehicle.label for vehicle in board.vehicles}
    if label not in labels:
        raise InputError(f"{line}: there is no vehicle {arguments[0]} on the board", where)
    vehicle = board.vehicles[board.index(label)]
    _, backwards, orientation = DIRECTIONS[direction]
    if TYPE_OF[vehicle.orientation] != orientation:
        raise InputError(
            f"{line}: {label} is {TYPE_OF[vehicle.orientation]} and cannot move {direction}",
            where,
        )
    cells = [object_cell(name) for name in arguments[1:]]
    for name, cell in zip(arguments[1:], cells, strict=True):
        if cell is None or not (0 <= cell[0] < board.height and 0 <= cell[1] < board.width):
            size = f"{board.width}×{board.height}"
            raise InputError(f"{line}: {name} is not a cell of the {size} board", where)
    delta = -distance if backwards else distance
    first = cells[0]
    position = first[1] if vehicle.horizontal else first[0]
    if cells != action_cells(vehicle, position, delta):
        raise InputError(
            f"{line}: these are not the cells {label} crosses moving {distance} {direction} "
            f"from {arguments[1]}",
            where,
        )
    return Move(label, delta), position
