"""What every entry point's arguments may be, checked in one place.

The requests (:mod:`rhasp.requests`) pass every argument through these checks when they are
built, whoever builds them: the Python API is called with anything at all. A bad one is an
:class:`~rhasp.errors.InputError` naming the argument and what it may be, never a crash deep
inside a search, and never a different answer than the one asked for (``objective="move"``
is refused, not read as some objective). The bounds of the counts are declared once, here
(:data:`BOUNDS`); the command line's options are declared with them.

Whole numbers are Python or numpy integers (``operator.index``), never ``bool`` (``True`` is
not a count of states) and never text; numbers of seconds are reals, never NaN.
"""

from __future__ import annotations

import math
import numbers
import operator
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from rhasp.engines import AspOptions
from rhasp.engines.clingo_options import checked_clingo_args
from rhasp.errors import InputError
from rhasp.limits import BYTES_PER_STATE, Budget, default_max_states
from rhasp.model import Move, Puzzle
from rhasp.progress import HorizonCalls, Progress
from rhasp.search import MOST_STATES

#: The largest count an entry point takes (atoms, steps, counts; states stop sooner, at
#: MOST_STATES): the compiled core counts in 64-bit words, and a count past them is an
#: OverflowError deep in a worker.
LARGEST = 2**63 - 1
#: The most worker processes a command starts: each is a process of its own, forked at once,
#: and a count past the machine's few hundred processes is a hang, not a speed-up.
MAX_JOBS = 1024

#: The bounds (lowest, highest) of the counts that the entry points take, by argument name:
#: the requests check them (:func:`bounded`), the command line's options declare them.
BOUNDS = {
    "max_states": (1, MOST_STATES),  # the most a search's store holds: a limit no budget passes
    "max_atoms": (1, LARGEST),
    "max_horizon": (0, LARGEST),
    "jobs": (1, MAX_JOBS),
    "count": (1, LARGEST),
}

T = TypeVar("T")


def shown(value: Any) -> str:
    """The value as an error quotes it: its repr, cut to a length a line can hold."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def choice(value: Any, allowed: Sequence[str], name: str) -> str:
    """``value``, one of the texts ``allowed`` (``give 'moves' or 'slides', not 'move'``)."""
    if isinstance(value, str) and value in allowed:
        return value
    *most, last = [repr(option) for option in allowed]
    raise InputError(f"give {', '.join(most)} or {last}, not {shown(value)}", name)


def max_states_for(
    max_states: int | None, processes: int = 1, bytes_each: int = BYTES_PER_STATE
) -> int:
    """``max_states`` when given, else what half the memory holds at ``bytes_each`` a state,
    shared by ``processes`` searching at once, and at most :data:`BOUNDS`' highest (the
    ``MOST_STATES`` a search's store keeps: a larger default would stop there and advise
    raising a limit the bound refuses): the one place that default is reckoned, for the
    requests and for the generation's own callers."""
    if max_states is not None:
        return max_states
    return min(default_max_states(processes, bytes_each), BOUNDS["max_states"][1])


def whole(value: Any, name: str, low: int | None = 0, high: int | None = LARGEST) -> int:
    """``value`` as an int from ``low`` to ``high`` (None: no bound that side); a bool, a
    float or text is refused."""
    number = None
    if not isinstance(value, bool):
        try:
            number = operator.index(value)
        except TypeError:
            number = None
    above = low is None or (number is not None and number >= low)
    below = high is None or (number is not None and number <= high)
    if number is None or not above or not below:
        raise InputError(f"give a whole number{_bounds(low, high)}, not {shown(value)}", name)
    return number


def bounded(value: Any, name: str) -> int:
    """``value``, a whole number within the bounds of the count ``name`` (:data:`BOUNDS`)."""
    return whole(value, name, *BOUNDS[name])


def _bounds(low: int | None, high: int | None) -> str:
    if low is None:
        return "" if high is None else f" of at most {high:,}"
    return f" of at least {low:,}" if high is None else f" from {low:,} to {high:,}"


def optional(check: Callable[..., T], value: Any, name: str, *args: Any) -> T | None:
    """None, which means the default, or ``value`` passed by ``check``."""
    return None if value is None else check(value, name, *args)


def seconds(value: Any, name: str, low: float = 0.0) -> float:
    """``value`` as a number of seconds, at least ``low`` (infinity, no limit, is one; NaN,
    which no clock ever passes or fails to pass, is not)."""
    real = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if not real or math.isnan(value) or value < low:
        raise InputError(f"give a number of seconds of at least {low:g}, not {shown(value)}", name)
    return float(value)


def flag(value: Any, name: str) -> bool:
    """``value``, True or False (not a truthy word: ``"no"`` is not False)."""
    if not isinstance(value, bool):
        raise InputError(f"give True or False, not {shown(value)}", name)
    return value


def text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"give text (a str), not {shown(value)}", name)
    return value


def texts(value: Any, name: str) -> tuple[str, ...]:
    """``value``, a list or tuple of texts, as a tuple (one text alone is refused: its letters
    are not what was meant)."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        raise InputError(f"give a list or tuple of texts, not {shown(value)}", name)
    return tuple(value)


def path(value: Any, name: str) -> Path:
    """A file name: a text or a path object (bytes, as a name, are refused: their encoding is
    a guess)."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise InputError(f"give a file name (a str or a path), not {shown(value)}", name)
    return Path(value)


def progress(value: Any, name: str = "progress") -> Progress | None:
    """None, or what reports a run's progress (:class:`rhasp.progress.Progress`)."""
    if value is not None and not all(
        callable(getattr(value, method, None)) for method in ("start", "advance", "stop")
    ):
        raise InputError(
            f"give a Progress (rhasp.progress: start, advance, stop) or None, not {shown(value)}",
            name,
        )
    return value


def instance(value: Any, name: str, kind: type[T], made_by: str = "") -> T:
    """``value``, a ``kind`` (``made_by`` says where one comes from)."""
    if not isinstance(value, kind):
        article = "an" if kind.__name__[0] in "AEIOU" else "a"
        hint = f" ({made_by})" if made_by else ""
        raise InputError(f"give {article} {kind.__name__}{hint}, not {shown(value)}", name)
    return value


def count_or_range(value: Any, name: str, low: int) -> tuple[int, int]:
    """A count ``N``, or a range ``(LOW, HIGH)``, as the range ``(LOW, HIGH)``; each at least
    ``low`` (whether LOW <= HIGH, and the board's own bounds, the caller checks). Text, as an
    option gives it, is ``N`` or ``LOW..HIGH``, read for its form only: its bounds are left to
    the caller, whose message says what a range may be."""
    if isinstance(value, str):
        return _range_text(value, name)
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return whole(value[0], name, low), whole(value[1], name, low)
    if isinstance(value, (tuple, list)):
        raise InputError(f"give a count or a range (LOW, HIGH), not {shown(value)}", name)
    number = whole(value, name, low)
    return number, number


def _range_text(text: str, name: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d{1,9})\s*(?:\.\.\s*(\d{1,9})\s*)?", text)
    if match is None:
        raise InputError(f"give a count or a range LOW..HIGH, not {text!r}", name)
    return int(match[1]), int(match[2] or match[1])


_PERCENT = r"\s*(\d{1,3}(?:\.\d{1,6})?)\s*(%?)\s*"


def percent_range(value: Any, name: str) -> tuple[float, float]:
    """A range of percentages from 0 to 100, ``(LOW, HIGH)`` with LOW <= HIGH, or its text
    ``LOW..HIGH`` (each may end in ``%``: ``65..75``, ``65%..75%``, ``67.5..74``). A range
    whose top is at most 1, written without ``%``, reads two ways (``0.65..0.75``: under
    1 %, or shares of 65 % to 75 %), and is refused naming both."""
    signed = False
    if isinstance(value, str):
        match = re.fullmatch(_PERCENT + r"\.\." + _PERCENT, value)
        if match is None:
            raise InputError(
                f"give a range of percentages LOW..HIGH (e.g. 65..75), not {shown(value)}", name
            )
        low, high, signed = float(match[1]), float(match[3]), bool(match[2] or match[4])
    elif (
        isinstance(value, (tuple, list))
        and len(value) == 2
        and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value)
    ):
        low, high = float(value[0]), float(value[1])
    else:
        raise InputError(f"give a range of percentages (LOW, HIGH), not {shown(value)}", name)
    if not 0 <= low <= high <= 100:  # NaN fails too
        raise InputError(
            f"give percentages from 0 to 100, the lower first, not {shown(value)}", name
        )
    if high <= 1 and not signed:
        raise InputError(
            f"{shown(value)} reads as {low:g} % to {high:g} %, or as shares of "
            f"{low * 100:g} % to {high * 100:g} %: give percentages "
            f"({low * 100:g}..{high * 100:g}), or write % ({low:g}%..{high:g}%)",
            name,
        )
    return low, high


def puzzle(value: Any, name: str = "puzzle") -> Puzzle:
    return instance(value, name, Puzzle, "rhasp.read or rhasp.parse makes one")


def plan(value: Any, name: str = "plan") -> str | tuple[Move, ...]:
    """A plan as text, or as moves (each a vehicle's label and a whole number of cells)."""
    if isinstance(value, str):
        return value
    moves = value if isinstance(value, (list, tuple)) else None
    if moves is None or not all(_is_move(move) for move in moves):
        raise InputError(f"give text or a list of Move, not {shown(value)}", name)
    return tuple(moves)


def _is_move(move: Any) -> bool:
    if not isinstance(move, Move) or not isinstance(move.label, str):
        return False
    return not isinstance(move.delta, bool) and isinstance(move.delta, numbers.Integral)


def budget(value: Any, name: str = "budget") -> Budget:
    """A :class:`Budget` whose states, seconds, atoms and horizon are what ``max_states``, a
    time limit, ``max_atoms`` and ``max_horizon`` may be."""
    checked = instance(value, name, Budget)
    whole(checked.states, f"{name}.states", *BOUNDS["max_states"])
    optional(seconds, checked.seconds, f"{name}.seconds")
    optional(seconds, checked.since, f"{name}.since")
    optional(whole, checked.atoms, f"{name}.atoms", *BOUNDS["max_atoms"])
    whole(checked.horizon, f"{name}.horizon", *BOUNDS["max_horizon"])
    return checked


def asp_options(value: Any, name: str = "asp") -> AspOptions:
    """An :class:`AspOptions` whose every field is what ``rhasp.solve``'s keyword of that name
    may be (and what the CLI's option of that name allows): clingo's options are those that
    tune its search, never what its answer means (:mod:`rhasp.engines.clingo_options`)."""
    options = instance(value, name, AspOptions)
    given = texts(options.clingo_args, "clingo_args")
    options = replace(options, clingo_args=checked_clingo_args(given, "clingo_args"))
    flag(options.memo, "memo")
    progress = options.progress
    if progress is None or hasattr(progress, "searching"):
        return options
    if not callable(progress):
        raise InputError(f"give a function or None, not {shown(progress)}", "progress")
    return replace(options, progress=HorizonCalls(progress))
