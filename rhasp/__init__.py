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
"""

__version__ = "0.1.0"

# ``rhasp.deck`` is the function (imported after the module of that name has loaded, it takes
# the name); the module is reached by its full name (``from rhasp.deck import ...``).
from rhasp.api import analyze, check, deck, generate, hardest, hint, parse, play, read, solve
from rhasp.api import enumerate_puzzles as enumerate
from rhasp.engines import EngineDisagreement, Solution
from rhasp.errors import InputError, PlanError, RhaspError, SearchLimit
from rhasp.model import Move, Puzzle

__all__ = [
    "EngineDisagreement",
    "InputError",
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
