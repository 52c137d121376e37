"""The public Python API, and the only way in: read a puzzle, solve it, check a plan, analyse
it, ask for a hint; generate puzzles, enumerate a database, solve a deck.

These are the entry points that ``import rhasp`` offers, and the command line and the web page
go through them and nothing else (tests/test_layers.py): they parse what they are given into
a request (:mod:`rhasp.requests`: one frozen dataclass per command that owns its defaults,
budget and fallbacks), run it here, and render what comes back. So a policy (the static
verdict before any search, BFS confirming ASP, the static proof when an analysis meets its
limit, the budget the memory allows) exists once, and a notebook gets exactly what they
print::

    import rhasp
    puzzle = rhasp.read("puzzles/original/card01.txt")
    solution = rhasp.solve(puzzle)                 # ASP horizon proof, confirmed by BFS
                                                   # (A* on a board larger than 6×6)
    print(solution.moves, solution.proofs)         # 8 ('asp', 'bfs')
    rhasp.check(puzzle, "CL3 OD3 AR1 PU1 BU1 RL2 QD2 XR5").moves_minimal  # True

In Jupyter a puzzle shows as its board and a solution as its strip of boards.

Every search is bounded: by ``max_states`` (default: what half the memory holds) or a
:class:`~rhasp.limits.Budget`, and for ASP by ``max_atoms``, ``max_horizon`` and
``timeout``. A search that reaches its bound raises :class:`~rhasp.errors.SearchLimit` (or,
for ``solve``, returns a solution whose ``limit`` says which bound it met); bad input raises
:class:`~rhasp.errors.InputError`, whose text is the one line the CLI prints. Bad input
includes a bad argument: each function checks its arguments first (:mod:`rhasp.arguments`),
and ``solve(puzzle, "move")`` is ``objective: give 'moves' or 'slides', not 'move'``.

The names follow one rule: each command ``X`` (``solve``, ``analyze``, ``generate``,
``enumerate``, ``deck``) has ``rhasp.X(...)``, a function for people, whose first arguments
are what the command works on (a puzzle, a deck) and whose bounds and options are keywords;
it builds an ``XRequest`` (:mod:`rhasp.requests`, which checks it) and runs it with
``run_X(request)``, the function the command line and the page call with a request of their
own. ``enumerate`` is ``enumerate_puzzles`` here (``rhasp.enumerate`` outside), not to hide
Python's own.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

from rhasp import arguments, enumeration, search
from rhasp.analysis import Analysis, analysis_of
from rhasp.canonical import cluster_graph, hardest_puzzle
from rhasp.engines import ENGINES, AspOptions
from rhasp.enumeration import MAX_SIZE, MIN_SIZE
from rhasp.enumeration import Tally as EnumerationTally
from rhasp.errors import ClusterLost, InputError, RhaspError, SearchLimit
from rhasp.files import is_file, names_a_file
from rhasp.formats import SUFFIX, Entry, read_path, read_text
from rhasp.generation import (
    ANY_SHARE,
    BOARDS_PER_PUZZLE,
    SECONDS_PER_PUZZLE,
    NewPuzzle,
    Tried,
    default_covered_text,
    distinct_puzzles,
    worth_playing_text,
)
from rhasp.hints import Hint, kept_hint, next_move
from rhasp.limits import (
    ANALYSIS_BYTES_PER_STATE,
    BYTES_PER_STATE,
    OUT_OF_MEMORY,
    Budget,
    Limit,
    RanOut,
    max_atoms_for,
)
from rhasp.model import Cell, Move, Puzzle, position_after
from rhasp.notation import extract_plan, parse_plan
from rhasp.plan_check import PlanCheck, check_plan
from rhasp.progress import Progress
from rhasp.requests import (
    GENERATE_SIDES,
    SOLVE_BOUNDS,
    AnalyzeRequest,
    DeckRequest,
    EnumerateRequest,
    GenerateRequest,
    SolveRequest,
    StaticVerdict,
    max_states_for,
    run_solve,
    search_budget,
)
from rhasp.resume import kept_until_resumed
from rhasp.shipped import CARDS, shipped_card
from rhasp.solution import OBJECTIVES, EngineDisagreement, Objective, Solution
from rhasp.solving import CONFIRM_FACTOR, CONFIRM_FLOOR
from rhasp.static import Blocked, blocked_exit, static_analysis

if TYPE_CHECKING:
    from rhasp.deck import DeckRecord, DeckTally, run_deck

#: The API, with the names the command line and the web page take from below it: they
#: import nothing else of the search (tests/test_layers.py).
__all__ = [
    "ANALYSIS_BYTES_PER_STATE",
    "ANY_SHARE",
    "BOARDS_PER_PUZZLE",
    "BYTES_PER_STATE",
    "CONFIRM_FACTOR",
    "CONFIRM_FLOOR",
    "ENGINES",
    "FILE_SUFFIXES",
    "GENERATE_SIDES",
    "MAX_SIZE",
    "MIN_SIZE",
    "OBJECTIVES",
    "OUT_OF_MEMORY",
    "SECONDS_PER_PUZZLE",
    "Analysis",
    "AnalyzeRequest",
    "AspOptions",
    "Blocked",
    "Budget",
    "DeckRequest",
    "DeckTally",
    "EngineDisagreement",
    "EnumerateRequest",
    "EnumerationTally",
    "GenerateRequest",
    "Hint",
    "Limit",
    "NewPuzzle",
    "PlanCheck",
    "RanOut",
    "Solution",
    "SolveRequest",
    "StaticVerdict",
    "Tried",
    "analyze",
    "check",
    "deck",
    "default_covered_text",
    "enumerate_puzzles",
    "fixed_cells",
    "generate",
    "hardest",
    "hint",
    "kept_until_resumed",
    "max_atoms_for",
    "max_states_for",
    "moves_of",
    "parse",
    "play",
    "print_record",
    "read",
    "run_analyze",
    "run_deck",
    "run_enumerate",
    "run_generate",
    "run_solve",
    "search_budget",
    "single",
    "solve",
    "stop_compiling",
    "warm_up",
    "when_compiling",
    "worth_playing_text",
]

#: Suffixes that make a string that is not an existing file read as a file name, not text:
#: those of the formats rhasp writes, and ASP facts'.
FILE_SUFFIXES = (*dict.fromkeys(SUFFIX.values()), ".lp")

#: Names of the API whose module loads on first use (PEP 562): a deck's, whose workers and
#: records ``rhasp solve`` and the page never need (``rhasp solve`` starts its search sooner).
_LOADED_ON_USE = {"DeckRecord": "rhasp.deck", "DeckTally": "rhasp.deck", "run_deck": "rhasp.deck"}


def __getattr__(name: str) -> Any:
    module = _LOADED_ON_USE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def read(
    source: str | os.PathLike[str], *, targets: Sequence[str] = (), name: str | None = None
) -> Puzzle:
    """One puzzle from a file, from ``-`` (standard input), or from text, in any format rhasp
    reads (grid, one-line board, car list, JSON, course CSV). A string is a file name when
    such a file exists, else a card of the original deck when it names one (``card26``,
    ``card26.txt``, ``26``), else it is read as the puzzle itself; a path object is always a
    file."""
    if not isinstance(source, (str, os.PathLike)):
        raise InputError(
            f"give a file name, a path or the board's text, not {arguments.shown(source)}", "source"
        )
    targets = arguments.texts(targets, "targets")
    name = arguments.optional(arguments.text, name, "name")
    if isinstance(source, os.PathLike) or source == "-" or is_file(source):
        return single(read_path(os.fspath(source), targets=targets), os.fspath(source))
    card = shipped_card(source)
    if card is not None:  # a card of the original deck, by name: not a file here
        return single(read_path(str(card), targets=targets), source.strip())
    one_line = "\n" not in source.strip()
    if one_line and names_a_file(source, FILE_SUFFIXES):
        raise InputError("no such file or directory", source)
    try:
        return parse(source, targets=targets, name=name or "puzzle")
    except InputError as error:
        if not one_line:
            raise
        # One word that is neither a file nor a board: most likely a mistyped file name.
        where = source if source.strip() else "source"  # nothing at all: name the argument
        raise InputError(
            f"no such file, nor a card (card01–card{CARDS}), nor a one-line board ({error.what})",
            where,
        ) from None


def parse(
    text: str, *, targets: Sequence[str] = (), name: str = "puzzle", where: str = "board"
) -> Puzzle:
    """One puzzle from its text, never from a file: what a server reads from its users.
    Errors name ``where`` (``board:3:2: ...``)."""
    text = arguments.text(text, "text")
    targets = arguments.texts(targets, "targets")
    name, where = arguments.text(name, "name"), arguments.text(where, "where")
    return single(read_text(text, where, name=name, targets=targets), where)


def single(entries: Sequence[Entry], where: str) -> Puzzle:
    """The one puzzle among ``entries``; a deck, or a bad board, is an InputError."""
    if len(entries) != 1:
        raise InputError(f"holds {len(entries)} puzzles; give one", where)
    if isinstance(entries[0], InputError):
        raise entries[0]
    return entries[0]


def when_compiling(tell: Callable[[], None] | None) -> None:
    """Have ``tell()`` called once, from another thread, when this process starts compiling
    the search core (its first large search on a machine, or on a board of a new shape: many
    seconds of CPU in a background process while the search goes on uncompiled, cached after),
    so that a busy machine need not be a silent surprise; None: no one is told."""
    search.when_compiling(tell)


def stop_compiling() -> bool:
    """End the background compile of the search core now, if this process group started it
    (this process, its workers, or an earlier command of the same job): for a process told to
    end (SIGTERM), so that a job that was killed leaves nothing running. No search waits on
    it; a later run asks for the code again. True if one was told to end."""
    return search.stop_serving()


def warm_up(sides: Iterable[int] = ()) -> bool:
    """Have the compiled search core ready for boards of up to 63 cells (6×6, 7×7) and the
    usual shapes of square boards of ``sides`` (a server warms those its page generates), for
    a process that will search a lot (a server, a notebook): loaded now if it is cached (a
    second or two), else compiled in the background while searches run uncompiled. No search
    ever waits for it. True when it is loaded."""
    return search.prefer_compiled(sides)


def play(puzzle: Puzzle, plan: str | Sequence[Move]) -> Puzzle:
    """The position after ``plan`` (moves, or text in any notation), as a puzzle of its own;
    targets that have left are off its board, and once all have, it is ``.solved``. A move
    that cannot be played raises :class:`~rhasp.errors.PlanError` naming it."""
    puzzle = arguments.puzzle(puzzle)
    return position_after(puzzle, moves_of(puzzle, arguments.plan(plan)))


def moves_of(puzzle: Puzzle, plan: str | Sequence[Move], where: str = "plan") -> Sequence[Move]:
    """``plan`` as moves: text is read in any notation, or as ``rhasp solve`` prints it."""
    if isinstance(plan, str):
        return parse_plan(extract_plan(plan, where), puzzle.board, where, puzzle.start)
    return plan


def solve(
    puzzle: Puzzle,
    objective: Objective = "moves",
    *,
    engine: str | None = None,
    confirm: bool = True,
    max_states: int | None = None,
    budget: Budget | None = None,
    asp: AspOptions | None = None,
    anytime: bool = True,
    **asp_options: Any,
) -> Solution:
    """An optimal plan (``.plan``, a tuple of moves) and what proves it optimal (``.proofs``).

    ``engine`` None is ``"asp"`` up to 6×6 and ``"astar"`` on a larger board (``.chosen``
    then says why). ``engine="asp"`` grows the horizon until a plan exists, and with
    ``confirm`` a BFS checks its length (a difference raises
    :class:`~rhasp.engines.EngineDisagreement`: a bug). ``engine="astar"`` is confirmed by a
    BFS within a share of A*'s own states (ten times as many, at least a million): a BFS
    stopped there leaves A*'s answer standing, proven by A*, with ``.stopped`` saying so
    (``{"bfs": Limit("stopped at 1,000,043 states, its share", ...)}``). ``.searches`` holds
    each search's figures (its length, ``explored`` states, ``seconds`` and limit) under its
    engine's name, ``.asp`` what clingo did, ``.static`` a static proof; ``.seconds`` is the
    searches' sum.
    ``asp`` (an :class:`~rhasp.engines.AspOptions`), or its fields as keywords
    (``clingo_args``, ``memo``, ``progress``), say how the ASP search runs; ``progress`` (a
    :class:`~rhasp.progress.Progress`, or a function ``(horizon, seconds, memo_states)``)
    follows the horizons solved. ``timeout=5`` bounds the whole solve, the confirming BFS
    included (with ``budget.seconds``, the fewer); ``max_horizon`` and ``max_atoms`` bound the
    ASP search alone (the fields ``horizon`` and ``atoms`` of its budget).
    A solution with no plan is proven unsolvable (``.proofs``) or stopped at ``.limit``.
    Where the searches stop at a limit, with ``anytime`` (the default) weighted A* looks for
    a plan within the budget left (a quarter of a ``timeout`` is kept for it): the solution
    then has ``.limit`` and a ``.plan`` not proven minimal (``.optimal`` False), and
    ``.lower_bound``, what every plan was proven to take (``between 18 and 31 moves``).
    A limit one engine meets never hides what the other proved: the answer is the proven one,
    and ``.stopped`` names the engine that stopped short (``{"asp": "timed out at horizon 35"}``).
    """
    budget = search_budget(max_states, budget)
    names = [option.name for option in fields(AspOptions)] + list(SOLVE_BOUNDS)
    unknown = set(asp_options) - set(names)
    if unknown:
        known = ", ".join(sorted(names))
        raise InputError(f"no ASP option {', '.join(sorted(unknown))} (there are {known})", "solve")
    bounds = {name: asp_options.pop(name, None) for name in SOLVE_BOUNDS}
    given = arguments.optional(arguments.instance, asp, "asp", AspOptions)
    options = replace(given or AspOptions(), **asp_options)
    request = SolveRequest(
        puzzle, objective, engine, confirm, budget, options, anytime=anytime, **bounds
    )
    return run_solve(request)


def check(
    puzzle: Puzzle,
    plan: str | Sequence[Move],
    *,
    max_states: int | None = None,
    budget: Budget | None = None,
) -> PlanCheck:
    """Replay ``plan`` (moves, or text in any notation, or what ``rhasp solve`` prints) and
    compare it with the proven minimal moves and slides: what ``rhasp check`` prints
    (``.solves``, ``.moves``, ``.slides``, ``.minimal_moves``, ``.moves_minimal``, ...)."""
    puzzle = arguments.puzzle(puzzle)
    moves = moves_of(puzzle, arguments.plan(plan))
    return check_plan(puzzle, moves, search_budget(max_states, budget))


def analyze(
    puzzle: Puzzle, *, max_states: int | None = None, budget: Budget | None = None
) -> Analysis | StaticVerdict:
    """Why the puzzle is hard: its cluster, game graph, all-moves graph and distance profile
    (``rhasp analyze``); ``.graph`` is the cluster, for drawing. A cluster too large for the
    budget is a SearchLimit, unless static analysis proves the puzzle unsolvable: then that
    verdict (a :class:`~rhasp.requests.StaticVerdict`, ``minimal_moves`` None) is the answer."""
    budget = search_budget(max_states, budget, bytes_each=ANALYSIS_BYTES_PER_STATE)
    return run_analyze(AnalyzeRequest(puzzle, budget))


def run_analyze(request: AnalyzeRequest) -> Analysis | StaticVerdict:
    """The analysis ``request`` asks for, or the static verdict when its cluster is too
    large (:func:`analyze`)."""
    puzzle, budget = request.puzzle, request.budget
    try:
        return analysis_of(puzzle, budget, cluster_graph(puzzle, budget))
    except SearchLimit as limit:
        blocked = blocked_exit(puzzle)
        if blocked is None:
            raise
        said = f"the cluster analysis stopped: {limit.what}"
        typed = said if limit.limit is None else replace(limit.limit, text=said)
        stopped = SearchLimit(typed, limit.where)
        return StaticVerdict(puzzle.name, blocked.proof(), stopped)


def hardest(
    puzzle: Puzzle, *, max_states: int | None = None, budget: Budget | None = None
) -> tuple[Puzzle, int] | None:
    """The hardest position of the puzzle's cluster (``rhasp hardest``) and its minimum in
    moves; None when no position of the cluster can be solved."""
    return hardest_puzzle(arguments.puzzle(puzzle), search_budget(max_states, budget))


def hint(
    puzzle: Puzzle,
    *,
    max_states: int | None = None,
    budget: Budget | None = None,
    search: bool = True,
) -> Hint | None:
    """The next move of an optimal plan from the puzzle's position, and how many moves the
    exit still is (proven by breadth-first search). With ``search=False``, only a hint that
    takes no search (the position solved, or in a cluster searched before), else None: a
    look-up of microseconds that a server can answer at once."""
    puzzle = arguments.puzzle(puzzle)
    budget = search_budget(max_states, budget)  # checked even where no search needs it
    if not arguments.flag(search, "search"):
        return kept_hint(puzzle)
    return next_move(puzzle, budget)


def generate(
    *,
    size: int = 6,
    min_moves: int | None = None,
    seed: int | None = None,
    seconds: float | None = None,
    max_states: int | None = None,
    max_boards: int | None = None,
    covered: tuple[float, float] | str | None = None,
) -> Puzzle:
    """A new ``size``×``size`` puzzle whose minimum is at least ``min_moves`` (by default, as
    many as make a puzzle worth playing on that size:
    :data:`~rhasp.generation.WORTH_PLAYING`), found by the
    search over boards of :mod:`rhasp.generation` (from ``seed``, else the clock). Its
    ``meta`` carries ``moves``, the proven minimum: by BFS over its whole cluster when
    ``meta`` also has ``cluster`` (its number of states; the puzzle is then the cluster's
    hardest state), else by A* from this state. Always ends: after ``max_boards`` boards or
    ``seconds`` (by default :data:`~rhasp.generation.BOARDS_PER_PUZZLE` and
    :data:`~rhasp.generation.SECONDS_PER_PUZZLE`) without one, a SearchLimit says what was
    found; no search goes past ``max_states`` states. ``covered``, a range of percentages
    ``(LOW, HIGH)`` or ``"LOW..HIGH"``, makes a crowded board: its vehicles, the target's
    included, cover that share of the cells; ``"any"``, any share; by default 75 to 80 % from
    10×10 on, any on smaller boards (:class:`~rhasp.requests.GenerateRequest`)."""
    chosen = time.time_ns() if seed is None else seed
    request = GenerateRequest(
        chosen,
        min_moves,
        size=size,
        max_boards=max_boards,
        seconds=seconds,
        max_states=max_states,
        covered=covered,
    )
    found = next(run_generate(request))
    meta = {"moves": found.moves}
    if found.cluster is not None:
        meta["cluster"] = found.cluster
    return Puzzle(found.puzzle.board, found.puzzle.placement, found.puzzle.name, meta)


def run_generate(
    request: GenerateRequest, tried: Tried | None = None, progress: Progress | None = None
) -> Iterator[NewPuzzle]:
    """The puzzles ``request`` asks for, one by one as they are found (``tried`` counts the
    boards scored, ``progress`` is shown it after each); a bound reached first is a
    SearchLimit saying what was found."""
    return distinct_puzzles(
        request.seed,
        count=request.count,
        min_moves=request.min_moves,
        tried=tried,
        max_boards=request.max_boards,
        seconds=request.seconds,
        size=request.size,
        walls=request.walls,
        minimal=request.minimal,
        jobs=request.jobs,
        max_states=request.states,
        progress=progress,
        covered=request.covered_cells,
    )


def enumerate_puzzles(
    size: int = 6,
    *,
    walls: int | tuple[int, int] | str = 0,
    pieces: int | tuple[int, int] | str | None = None,
    exit_row: int = 3,
    jobs: int | None = 1,
    scheduler: str | None = None,
    max_states: int | None = None,
) -> Iterator[str]:
    """Every interesting puzzle of a ``size`` board as a database line, ``MOVES BOARD
    CLUSTER``, in the order ``rhasp enumerate`` writes them (``import rhasp`` calls this
    ``rhasp.enumerate``). ``walls`` and ``pieces`` (vehicles, the target included) are a count,
    a range ``(low, high)`` or its text ``"low..high"``; ``exit_row`` is the target's row,
    from 1 at the top; work is spread over ``jobs``
    processes (None: one per core) or the Dask cluster at ``scheduler``. A cluster of more
    than ``max_states`` states is a SearchLimit. Its arguments are checked at the call,
    before the first line is asked for."""
    request = EnumerateRequest(size, walls, pieces, exit_row, jobs, scheduler, max_states)
    return _database_lines(request)


def _database_lines(request: EnumerateRequest) -> Iterator[str]:
    """The lines, a shard's at a time; the Dask cluster lost on the way is a ClusterLost that
    says how far they got (the caller has the lines yielded, nothing else to keep)."""
    options, jobs = request.options, request.jobs
    numbers = range(enumeration.shard_count(enumeration.prepared(options)))
    done = 0
    try:
        for shard in enumeration.shard_results(
            options, numbers, request.states, jobs, request.scheduler
        ):
            yield from shard.lines
            done += 1
    except ClusterLost as lost:
        raise lost.saying(f"the lines of {done:,} of {len(numbers):,} shards yielded") from None


def run_enumerate(request: EnumerateRequest, progress: Progress | None = None) -> EnumerationTally:
    """``rhasp enumerate``: the lines ``request`` asks for to its ``out`` (resumably), else
    to standard output, as each shard and those before it are done; what was found."""
    where = (request.options, request.states, request.jobs, request.scheduler)
    return enumeration.run_enumeration(
        *where, out=request.out, resume=request.resume, progress=progress
    )


def deck(
    source: str | os.PathLike[str],
    objective: Objective = "moves",
    *,
    engine: str | None = None,
    cluster: bool = False,
    verify: bool = False,
    jobs: int | None = None,
    scheduler: str | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    targets: Sequence[str] = (),
    max_states: int | None = None,
    max_atoms: int | None = None,
    confirm: bool = True,
    progress: Progress | None = None,
    report: Callable[[RhaspError], None] | None = None,
    echo: bool = False,
) -> DeckTally:
    """Solve every puzzle of a deck (``rhasp deck``) on ``jobs`` processes (default: all
    cores) or the Dask cluster at ``scheduler``, each as :func:`solve` would (``engine``
    None: BFS up to 6×6, A* on a larger board), one record per puzzle
    (:class:`~rhasp.deck.DeckRecord`, its JSON by ``.record()``): streamed to ``out``
    (``.jsonl`` or ``.csv``) as each is done; without ``out``, returned in the tally's
    ``records``, in the deck's order, and printed as JSON lines only with ``echo``, as
    ``rhasp deck`` prints them. With ``cluster`` each cluster is counted,
    with ``verify`` compared with the deck line's figures; ``confirm=False`` runs the engine
    alone, no BFS confirming ASP or A* (each record says ``confirm``, and every record has
    each engine's own seconds). A bad line or a limit is recorded,
    passed to ``report`` and the run goes on; the counts of what was found come back, those
    of the whole deck: with ``resume``, the records kept from ``out`` (``kept`` of them) are
    counted too, once checked to be of this deck and these options (else InputError, with
    ``out`` left as it was). An ``out`` that is the deck itself is refused (InputError).
    The tally's ``peak_memory`` is the run's peak memory in bytes, its worker processes'
    included (:func:`~rhasp.limits.peak_memory`)."""
    request = DeckRequest(
        os.fspath(source) if isinstance(source, os.PathLike) else source,
        objective,  # type: ignore[arg-type]
        engine,
        cluster,
        verify,
        jobs,
        scheduler,
        arguments.optional(arguments.path, out, "out"),
        resume,
        targets,  # type: ignore[arg-type]  (checked, made a tuple, by the request)
        max_states,
        max_atoms,
        confirm,
    )
    progress = arguments.progress(progress)
    printed = print_record if arguments.flag(echo, "echo") else None
    from rhasp.deck import run_deck

    return run_deck(request, progress, report, keep=True, echo=printed)


def print_record(record: DeckRecord) -> None:
    """A deck record's JSON line on standard output, flushed: ``deck``'s ``echo``, and the
    records of ``rhasp deck`` without ``--out``, as they come."""
    sys.stdout.write(record.json_line())
    sys.stdout.flush()


def fixed_cells(puzzle: Puzzle) -> tuple[dict[Cell, str], Blocked | None]:
    """The cells occupied in every reachable state (each with the label of the vehicle that
    holds it) and, when one of them blocks a target's way out, that proof of unsolvability:
    what ``rhasp render --fixed`` marks and says."""
    puzzle = arguments.puzzle(puzzle)
    analysis = static_analysis(puzzle.board, puzzle.start)
    return analysis.holders(), analysis.blocked_exit()
