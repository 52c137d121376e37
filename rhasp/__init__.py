"""rhasp: optimal Rush Hour plans by answer set programming, confirmed by search.

The public API (see :mod:`rhasp.api`)::

    import rhasp
    puzzle = rhasp.read("puzzles/original/card01.txt")   # a file, or the board's text
    solution = rhasp.solve(puzzle)                        # .plan, .moves, .slides, .proofs
    rhasp.check(puzzle, solution.plan).moves_minimal      # what `rhasp check` finds
    rhasp.analyze(puzzle).profile                         # distance -> number of states
    rhasp.hint(puzzle).move                               # the next move of an optimal plan
    lines = list(rhasp.enumerate(size=4))                 # the complete 4×4 puzzle database
    rhasp.deck("deck.txt", out="results.jsonl").solved    # what `rhasp deck` does

The names are loaded when first used (PEP 562), not by ``import rhasp``: ``python -m rhasp``
and the ``rhasp`` command import this package before any of their own code runs, and the
imports behind the API (clingo, typer, rich, ...: most of a command's start) must happen
where the command can catch Ctrl-C or the memory running out (:mod:`rhasp.__main__`), not
here, where they would end in a traceback.
"""

import sys  # no `from __future__ import annotations`: it is a module to import, not free

__version__ = "0.1.0"

#: ``typing.TYPE_CHECKING`` without importing typing (not free either): this module imports nothing
#: that the interpreter has not loaded already (``sys``): importing it costs next to nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:  # what the names are, for type checkers and readers
    from typing import Any

    from rhasp.api import analyze, check, deck, generate, hardest, hint, parse, play, read, solve
    from rhasp.api import enumerate_puzzles as enumerate
    from rhasp.errors import ClusterLost, InputError, PlanError, RhaspError, SearchLimit
    from rhasp.limits import Limit
    from rhasp.model import Move, Puzzle
    from rhasp.solution import EngineDisagreement, Solution

__all__ = [
    "ClusterLost",
    "EngineDisagreement",
    "InputError",
    "Limit",
    "Move",
    "PlanError",
    "Puzzle",
    "RhaspError",
    "SearchLimit",
    "Solution",
    "__version__",
    "analyze",
    "check",
    "deck",
    "enumerate",
    "generate",
    "hardest",
    "hint",
    "parse",
    "play",
    "read",
    "solve",
]

#: Where each public name comes from: its module, and its name there (``enumerate`` is
#: ``rhasp.api.enumerate_puzzles``). The import above says the same to type checkers.
_PUBLIC = {
    **dict.fromkeys(["EngineDisagreement", "Solution"], "rhasp.solution"),
    **dict.fromkeys(
        ["ClusterLost", "InputError", "PlanError", "RhaspError", "SearchLimit"], "rhasp.errors"
    ),
    "Limit": "rhasp.limits",
    **dict.fromkeys(["Move", "Puzzle"], "rhasp.model"),
    **{name: "rhasp.api" for name in __all__ if name.islower() and not name.startswith("_")},
}
_RENAMED = {"enumerate": "enumerate_puzzles"}


def __getattr__(name: str) -> "Any":
    """A public name, loaded on first use (then kept: this is called once per name)."""
    if name not in _PUBLIC:
        raise AttributeError(f"module 'rhasp' has no attribute {name!r}")
    __import__(_PUBLIC[name])
    value = getattr(sys.modules[_PUBLIC[name]], _RENAMED.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public API alone: not the modules loaded, nor this module's own helpers."""
    return sorted(__all__)


def _puzzle_svg(puzzle: "Any") -> str:
    """The board, as Jupyter shows a puzzle (drawn as ``rhasp render`` draws it)."""
    from rhasp.pictures.boards import board_svg

    return board_svg(puzzle)


def _solution_svg(solution: "Any") -> str:
    """The plan as a strip of boards, as Jupyter shows a solution; the board alone when there
    is no plan."""
    from rhasp.pictures.boards import solution_svg

    return solution_svg(solution.puzzle, solution.plan or ())


def _show_pictures(shell: "Any") -> None:
    """Have IPython's ``shell`` show a Puzzle and a Solution as pictures (SVG), drawn by
    :mod:`rhasp.pictures` when one is shown: the model draws nothing itself. Registered by
    module and class name, so nothing is imported until then."""
    svg = shell.display_formatter.formatters["image/svg+xml"]
    svg.for_type_by_name("rhasp.model", "Puzzle", _puzzle_svg)
    svg.for_type_by_name("rhasp.solution", "Solution", _solution_svg)


def _in_ipython() -> None:
    """Register the pictures with the IPython shell running, if any (Jupyter, ``ipython``);
    outside IPython, a look-up in ``sys.modules`` and nothing more."""
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)()
    if shell is not None and hasattr(shell, "display_formatter"):
        _show_pictures(shell)


_in_ipython()


class _Package(type(sys)):  # types.ModuleType, without importing types
    """The package's module object. Loading the module ``rhasp.deck`` sets the package's
    attribute ``deck`` to that module, as Python does for every submodule; the public
    ``rhasp.deck`` is the function of :mod:`rhasp.api`, so that one attribute is never set to
    a module (the module is ``sys.modules["rhasp.deck"]``, and ``from rhasp.deck import``
    finds it there)."""

    def __setattr__(self, name: str, value: "Any") -> None:
        if name in _PUBLIC and isinstance(value, type(sys)):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
