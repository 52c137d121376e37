"""The web page's server: the static front end and a small JSON API over :mod:`rhasp.api`.

Every endpoint takes a position as text in a ``board`` field (any format rhasp reads, never a
file name: the server reads no file a request names), optionally with ``moves`` played from
it, and answers moves in card notation. Safe by default for a page on one's own machine:

- request bodies of at most :data:`MAX_BODY` bytes (HTTP 413 beyond);
- every search bounded by :class:`ServerLimits` (states and seconds): a limit is HTTP 422 with
  ``"limit": true``, never "no solution", said in the page's words (``this position needs
  more states than the server allows: ...``, no command-line option);
- at most one ASP proof per core at a time; the next is told ``busy`` (HTTP 429) at once
  rather than queued behind minutes of work;
- at most one other search per core at a time (:class:`SearchSlots`): the next waits its
  turn, for the server's seconds at most (then ``busy``), so that the memory searches take
  together is bounded (``docs/commands/serve.md``, "Memory");
- bad input is HTTP 400 with the one line the CLI prints, in ``error``.
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import platform
import queue
import random
import socket
import threading
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Literal

import uvicorn
from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

import rhasp
from rhasp import api
from rhasp.api import (
    ANALYSIS_BYTES_PER_STATE,
    BYTES_PER_STATE,
    OUT_OF_MEMORY,
    AnalyzeRequest,
    AspOptions,
    Budget,
    EngineDisagreement,
    Solution,
    SolveRequest,
    moves_of,
)
from rhasp.errors import InputError, RanOut, RhaspError, SearchLimit, counted
from rhasp.formats import read_path, write
from rhasp.formats.line import DECK_LINE, read_line
from rhasp.model import Puzzle
from rhasp.notation import format_move
from rhasp.output import reading_text, solution_dict
from rhasp.pictures.boards import board_scene, vehicle_shapes
from rhasp.pictures.scene import svg
from rhasp.progress import Progress, Silent
from rhasp.shipped import shipped

STATIC_FILES = Path(__file__).parent / "static"
LOG = logging.getLogger(__name__)
MAX_BODY = 64 * 1024
#: A hint on a board and moves of at most this many characters (a 6×6 board and 240 moves,
#: read and replayed in a few milliseconds: bench/README.md, "Figures behind the code") is
#: answered on the event loop when its cluster is kept, as a look-up, without the hand-over
#: to a worker thread that costs more than the look-up;
#: any other hint, and every search, runs in a worker thread.
QUICK_TEXT = 1_000
#: The pixels of a board cell on the page, as ``rhasp render`` draws at its default.
CELL = 60


@dataclass(frozen=True)
class ServerLimits:
    """What one request may spend: states per search (of a BFS: a search that keeps more per
    state, as analysis does, gets fewer, for the same memory), seconds for all its searches
    (a solve and the BFS that confirms it count them on one clock), and how many ASP proofs
    and how many other searches may run at once (default: one per core each)."""

    states: int = 2_000_000
    seconds: float = 10.0
    asp_proofs: int = field(default_factory=lambda: os.cpu_count() or 1)
    searches: int = field(default_factory=lambda: os.cpu_count() or 1)

    def budget(self, bytes_each: int = BYTES_PER_STATE) -> Budget:
        """The budget of one search that keeps ``bytes_each`` a state: the memory of
        ``states`` BFS states, and the seconds."""
        states = max(1, self.states * BYTES_PER_STATE // bytes_each)
        return api.search_budget(states, seconds=self.seconds)


class SearchSlots:
    """The searches of a server that run at once, but ASP proofs (slots of their own): every
    request that may search (solve, hint, check, analyze, generate) takes one of
    ``limits.searches`` slots for its work, waiting for one to be free for the server's
    seconds at most; one that gets none by then is told ``busy`` (HTTP 429). Each search
    keeps at most ``limits.states`` states at :data:`BYTES_PER_STATE` (an analysis as many
    bytes in fewer states), so the searches together keep at most ``searches`` times that,
    where a burst of requests would otherwise run as many at once as the thread pool has
    threads (bench/README.md, "The server's memory"). They wait rather than being refused
    at once, as ASP proofs are: a search's seconds pass soon, and the cores are shared by
    all the searches either way."""

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self._free = threading.BoundedSemaphore(limits.searches)

    def answer(self, work: Callable[[], Any], advice: str = "") -> Any:
        """:func:`answer` of ``work`` run in a slot, or ``busy`` when none was free in time."""
        if not self._free.acquire(timeout=self.limits.seconds):
            taken = f"all {counted(self.limits.searches, 'search slot')} taken"
            return busy(f"busy: {taken} for {self.limits.seconds:g} s; try again in a moment")
        try:
            return answer(work, advice)
        finally:
            self._free.release()


#: glibc's ``mallopt`` parameter for the size from which a block is mapped on its own.
M_MMAP_THRESHOLD = -3
#: glibc's starting value of it, 128 KiB, kept for the server's life (:func:`unmap_large_blocks`).
MMAP_THRESHOLD = 128 * 1024


def unmap_large_blocks() -> bool:
    """Have the C allocator map each block of :data:`MMAP_THRESHOLD` or more on its own, and
    give it back to the system when it is freed, for the rest of the process's life. glibc
    starts so, but raises the threshold whenever such a block is freed, up to 32 MiB: a
    search's tables (millions of states, grown by doubling) then come from the malloc arenas
    of the threads that ran it, one per thread, which keep them when freed, and a burst of
    large searches leaves the server holding what they took at the peak (bench/README.md,
    "The server's memory"). Setting the threshold stops it moving. True when set: glibc
    (Linux); elsewhere nothing is done."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))


class Body(BaseModel):
    """A request's body: its fields, and no other. A field the API does not have (a typo, or
    ``clingo_args``: the server runs clingo with rhasp's own options) is refused, never
    ignored, so that no answer is taken for one to a question that was not asked."""

    model_config = ConfigDict(extra="forbid", strict=True)  # JSON true or "5" is no number


class Position(Body):
    board: str = Field(
        description="The board as text in any format rhasp reads: grid, one-line board, car "
        "list or JSON.",
        examples=["AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR."],
    )
    moves: str = Field(
        "", description='Moves played from that board, in any notation (e.g. "AR1 PU1").'
    )


class SolveBody(Position):
    objective: Literal["moves", "slides"] = "moves"
    engine: Literal["bfs", "astar", "asp"] | None = Field(
        None,
        description="bfs (many answers, each fast), astar (A*, confirmed by BFS within a share "
        "of its states: for boards larger than 6×6) or asp (the horizon proof, confirmed by "
        "BFS). Default, as for `rhasp deck`: bfs up to 6×6, astar on a larger board.",
    )
    stream: bool = Field(
        False,
        description="ASP: answer with server-sent events, one `horizon` event as each horizon "
        "starts (so every earlier one is proven to have no plan), then `solution` or `error`.",
    )


class CheckBody(Position):
    plan: str = Field(
        description="The plan to check, in any notation, or as the move(T,V,D) atoms clingo prints."
    )


#: The most moves a database line may have, and so a pick may ask for: one limit for what
#: ``GET /api/database`` lists and what ``POST /api/database`` takes (random boards of any
#: size seldom need more than a hundred).
MOST_MOVES = 999_999


class DatabaseBody(Body):
    moves: int = Field(
        ge=0, le=MOST_MOVES, description="The number of moves of the puzzle to pick."
    )
    seed: int | None = Field(None, ge=0, le=2**63 - 1, description="For the same pick again.")


@dataclass
class Shelf:
    """The database's puzzles of one number of moves, packed: their boards end to end (a
    pick reads one), each one's start, cluster (-1: not given) and line in the file."""

    boards: bytearray = field(default_factory=bytearray)
    starts: array[int] = field(default_factory=lambda: array("q"))
    clusters: array[int] = field(default_factory=lambda: array("q"))
    lines: array[int] = field(default_factory=lambda: array("q"))

    def add(self, board: str, cluster: int | None, line: int) -> None:
        self.starts.append(len(self.boards))
        self.boards += board.encode()
        self.clusters.append(-1 if cluster is None else cluster)
        self.lines.append(line)

    def board(self, k: int) -> str:
        end = self.starts[k + 1] if k + 1 < len(self.starts) else len(self.boards)
        return self.boards[self.starts[k] : end].decode()


class Database:
    """A puzzle database file (``MOVES BOARD CLUSTER`` lines, as ``rhasp enumerate`` writes
    them), read whole at start: every line is checked then (a bad one is an InputError naming
    it, so the server does not start), and its puzzles are kept in memory, packed by moves, so
    that a pick never reads the file again (it may be moved or removed)."""

    def __init__(self, path: Path) -> None:
        self.name = path.name
        self.shelves: dict[int, Shelf] = {}
        with path.open(encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(handle, 1):
                text = line.strip()
                if text and not text.startswith(";"):
                    self._add(text, str(path), number)
        if not self.shelves:
            raise InputError("holds no database lines (MOVES BOARD CLUSTER)", str(path))

    def _add(self, text: str, source: str, number: int) -> None:
        """Check line ``number`` of ``source``, ``text``, and shelve its puzzle by moves."""
        where = f"{source}:{number}"
        match = DECK_LINE.fullmatch(text)
        if match is None or match["moves"] is None:
            raise InputError("not a database line (expected MOVES BOARD CLUSTER)", where)
        puzzle = read_line(text, source, number, name=self.name)  # a bad board: its column
        moves = puzzle.meta["moves"]
        if moves > MOST_MOVES:
            raise InputError(f"{moves:,} moves: a pick asks for at most {MOST_MOVES:,}", where)
        shelf = self.shelves.setdefault(moves, Shelf())
        shelf.add(match["board"], puzzle.meta.get("cluster"), number)  # the board as written

    def counts(self) -> dict[int, int]:
        return {moves: len(shelf.lines) for moves, shelf in sorted(self.shelves.items())}

    def pick(self, moves: int, seed: int | None) -> dict[str, Any]:
        """A puzzle of ``moves`` moves, at random (from ``seed``, if given)."""
        if moves not in self.shelves:
            raise InputError(f"no puzzle of {counted(moves, 'move')} in the database", "moves")
        shelf = self.shelves[moves]
        k = random.Random(seed).randrange(len(shelf.lines))
        cluster = shelf.clusters[k]
        return {
            "board": shelf.board(k),
            "moves": moves,
            "cluster": None if cluster < 0 else cluster,
            "line": shelf.lines[k],
            "number": k + 1,
            "of": len(shelf.lines),
        }


#: The board sides the page's Generate offers: larger boards take the server's seconds for
#: shallow puzzles (bench/README.md, "Generated puzzles by size and minute").
GENERATE_PAGE_SIDES = range(6, 11)


class GenerateBody(Body):
    min_moves: int = Field(10, ge=1, le=40, description="The fewest moves the puzzle takes.")
    size: int = Field(
        6, ge=GENERATE_PAGE_SIDES[0], le=GENERATE_PAGE_SIDES[-1], description="The board's side."
    )
    seed: int | None = Field(None, ge=0, le=2**63 - 1, description="For the same puzzle again.")


def create_app(limits: ServerLimits | None = None, database: Database | None = None) -> FastAPI:
    """The ASGI app: the page at ``/``, its files under ``/static``, the API under ``/api``
    (documented at ``/docs``); with a ``database``, picks from it."""
    limits = limits or ServerLimits()
    asp_slots = threading.BoundedSemaphore(limits.asp_proofs)
    slots = SearchSlots(limits)
    app = FastAPIOffline(  # /docs from the package's own copy of Swagger UI: no internet needed
        title="rhasp",
        version=rhasp.__version__,
        summary="Optimal Rush Hour plans, proven minimal: the API behind rhasp serve's page.",
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.mount("/static", StaticFiles(directory=STATIC_FILES), name="static")

    @app.exception_handler(RequestValidationError)
    def bad_request(_: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0]
        if first["type"] == "json_invalid":  # its place is a character offset, not a field
            reason = first.get("ctx", {}).get("error", first["msg"])
            line = f"request: not JSON ({reason} at character {first['loc'][-1]})"
        else:
            where = ".".join(str(part) for part in first["loc"] if part != "body") or "request"
            what = "not a field of this request (/docs lists them)"
            line = f"{where}: {what if first['type'] == 'extra_forbidden' else first['msg']}"
        return JSONResponse({"error": line}, status_code=400)

    @app.exception_handler(HTTPException)
    def http_error(request: Request, error: HTTPException) -> JSONResponse:
        """404, 405 and the like in the shape of every other error: one line in ``error``."""
        line = f"{request.method} {request.url.path}: {str(error.detail).lower()}"
        return JSONResponse({"error": line}, status_code=error.status_code, headers=error.headers)

    @app.exception_handler(Exception)
    def internal_error(request: Request, error: Exception) -> JSONResponse:
        """Any other failure (a bug) in the shape of every error too, never a plain-text page:
        HTTP 500, the details in the server's log."""
        return JSONResponse({"error": internal_error_line(request, error)}, status_code=500)

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC_FILES / "index.html")

    @app.get("/api/puzzles")
    def puzzles() -> list[dict[str, Any]]:
        """The 40 cards of the original deck: name, board (one-line form), the level printed
        on the card and the fewest moves (proven by BFS)."""
        return card_list()

    @app.get("/api/database")
    def database_counts() -> Any:
        """The puzzle database the server was started with (``--database``): its file name
        and how many puzzles it holds of each number of moves; 404 without one."""
        if database is None:
            return JSONResponse(
                {"error": "no database: start rhasp serve --database FILE"}, status_code=404
            )
        return {"name": database.name, "counts": database.counts()}

    @app.post("/api/database")
    def database_pick(request: DatabaseBody) -> Any:
        """A puzzle of the database with the number of moves asked for, picked at random (the
        same ``seed``, the same puzzle): its board, moves, cluster and line in the file."""
        if database is None:
            return JSONResponse(
                {"error": "no database: start rhasp serve --database FILE"}, status_code=404
            )
        return answer(lambda: database.pick(request.moves, request.seed))

    @app.post("/api/board")
    def board(request: Position) -> Any:
        """The position as the page draws it: the board's picture without vehicles (frame,
        walls, exits), each vehicle's line, position and box in the picture's units, the
        text a link carries (the one-line form, else JSON), and the moves played to reach it,
        checked (``played``: label and cells, + right or down)."""
        return answer(lambda: view(position(request)) | {"played": played(request)})

    @app.post("/api/generate")
    def generated(request: GenerateBody) -> Any:
        """A new ``size``×``size`` puzzle of at least ``min_moves`` moves, made within the
        server's seconds: its minimum is proven by BFS over its whole cluster, of which it is
        the hardest state (``proven_by`` ``bfs``, ``cluster`` its states), or by A* from it
        (``astar``, ``cluster`` null) when the cluster is too large."""
        return slots.answer(lambda: new_puzzle(request, limits))

    @app.post("/api/solve")
    def solve(request: SolveBody) -> Any:
        """An optimal plan from the position, by BFS, by A* or by the ASP horizon proof (each
        confirmed by BFS); by default BFS up to 6×6 and A* on a larger board. With
        ``stream``, server-sent events (ASP)."""
        if request.engine == "asp":
            if not asp_slots.acquire(blocking=False):
                return busy(
                    f"busy: {counted(limits.asp_proofs, 'ASP proof')} running, one per core; "
                    "try again in a moment, or use the BFS engine"
                )
            run = lambda progress: solve_position(request, limits, progress)  # noqa: E731
            if request.stream:
                return StreamingResponse(
                    proof_events(run, asp_slots.release), media_type="text/event-stream"
                )
            try:
                return answer(lambda: run(None), PAGE_ADVICE["solve"])
            finally:
                asp_slots.release()
        return slots.answer(lambda: solve_position(request, limits, None), PAGE_ADVICE["solve"])

    @app.post("/api/hint")
    async def hint(request: Position) -> Any:
        """The next move of an optimal plan from the position, and the moves left."""
        if len(request.board) + len(request.moves) <= QUICK_TEXT:
            quick = answer(lambda: hint_record(position(request)))
            if quick is not None:
                return quick
        return await run_in_threadpool(
            slots.answer, lambda: hint_record(position(request), limits), PAGE_ADVICE["hint"]
        )

    @app.post("/api/check")
    def check(request: CheckBody) -> Any:
        """Does the plan solve the position, and is it minimal in moves and slides (BFS)?"""
        return slots.answer(
            lambda: rhasp.check(position(request), request.plan, budget=limits.budget()).record(),
            PAGE_ADVICE["check"],
        )

    @app.post("/api/analyze")
    def analyze(request: Position) -> Any:
        """Cluster, minimal moves and slides, distance profile (``rhasp analyze``); for a
        cluster too large to analyse whose puzzle static analysis proves unsolvable, that
        verdict (``proven_by``, ``proof``, and where the analysis ``stopped``)."""
        budget = limits.budget(ANALYSIS_BYTES_PER_STATE)
        return slots.answer(
            lambda: api.analysis(AnalyzeRequest(position(request), budget)).record(),
            PAGE_ADVICE["analyze"],
        )

    return app


def serve_app(app: FastAPI, listening: socket.socket, announce: Callable[[], None]) -> None:
    """Serve ``app`` on the ``listening`` socket until Ctrl-C or SIGTERM; ``announce()`` once
    the server accepts connections, so that whoever reads the address it prints (a person, a
    script) can connect at once. Large blocks go back to the system as they are freed
    (:func:`unmap_large_blocks`)."""
    unmap_large_blocks()

    class Announcing(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                announce()

    Announcing(uvicorn.Config(app, log_level="warning")).run(sockets=[listening])


#: The levels the original deck prints on its cards, ten cards each, card 1 first.
LEVELS = ("beginner", "intermediate", "advanced", "expert")


@cache
def card_list() -> list[dict[str, Any]]:
    """The cards as ``/api/puzzles`` lists them; their minima are searched once (about 0.05 s
    a card), then kept."""
    return [
        {
            "name": card.name,
            "board": write(card, "line").strip(),
            "level": LEVELS[n // 10],
            "moves": rhasp.solve(card, engine="bfs").moves,
        }
        for n, card in enumerate(cards())
    ]


@cache
def cards() -> tuple[Puzzle, ...]:
    """The original deck, shipped in the package (or beside it in a source checkout)."""
    entries = read_path(str(shipped("puzzles/original40.txt")))
    return tuple(entry.renamed(f"card{n:02d}") for n, entry in enumerate(entries, 1))


def position(request: Position) -> Puzzle:
    puzzle = parsed(request.board)
    return rhasp.play(puzzle, request.moves) if request.moves.strip() else puzzle


def played(request: Position) -> list[dict[str, Any]]:
    """The request's moves as the page replays them; each checked when ``position`` played
    them (an illegal one is a 400 naming it)."""
    puzzle = parsed(request.board)
    return [
        {"label": move.label, "delta": move.delta, "move": format_move(move, puzzle.board)}
        for move in moves_of(puzzle, request.moves)
    ]


@lru_cache(maxsize=128)
def parsed(text: str) -> Puzzle:
    """The board read from its text, kept: the page sends its start board with every request
    (a puzzle never changes; a board that cannot be read raises, and nothing is kept)."""
    return rhasp.parse(text)


def answer(work: Callable[[], Any], advice: str = "") -> Any:
    """``work()``'s answer, or its failure as one line: 400 bad input, 422 a limit (with the
    ``advice`` of :data:`PAGE_ADVICE` for the request), 500 a disagreement between engines (a
    bug)."""
    try:
        return work()
    except SearchLimit as limit:
        return failure(page_limit(limit, advice), 422, limit=True)
    except EngineDisagreement as error:
        return failure(str(error), 500)
    except RhaspError as error:
        return failure(str(error), 400)
    except MemoryError:
        limit = SearchLimit(OUT_OF_MEMORY)
        return failure(page_limit(limit, advice), 422, limit=True)


def internal_error_line(request: Request | None, error: Exception) -> str:
    """What a failure the server did not foresee (a bug) tells the page: its kind only."""
    where = "" if request is None else f"{request.method} {request.url.path}: "
    return f"{where}internal error ({type(error).__name__}); the server's log has the details"


def failure(error: str, status: int, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": error} | extra, status_code=status)


def busy(error: str) -> JSONResponse:
    """HTTP 429 saying ``error``, with ``"busy": true`` and when to try again."""
    return JSONResponse(
        {"error": error, "busy": True}, status_code=429, headers={"Retry-After": "5"}
    )


def view(puzzle: Puzzle) -> dict[str, Any]:
    board = puzzle.board
    empty = board_scene(board, (None,) * len(board.vehicles), cell=CELL)
    vehicles = []
    for i, (vehicle, place) in enumerate(zip(board.vehicles, puzzle.placement, strict=True)):
        body, label = vehicle_shapes(board, i, place, CELL)
        vehicles.append(
            {
                "label": vehicle.label,
                "orientation": vehicle.orientation,
                "line": vehicle.line,
                "length": vehicle.length,
                "position": place,
                "target": vehicle.label in board.targets,
                "box": {
                    "x": body.x,
                    "y": body.y,
                    "width": body.width,
                    "height": body.height,
                    "radius": body.radius,
                    "fill": body.fill,
                },
                "text": {"size": label.size, "fill": label.fill},
            }
        )
    return {
        "name": puzzle.name,
        "width": board.width,
        "height": board.height,
        "cell": CELL,
        "margin": CELL // 2,
        "walls": sorted(board.walls),
        "exits": [{"label": label, "side": side} for label, side in board.exits],
        "vehicles": vehicles,
        "picture": svg(empty, background=None),  # the page's own colour around the frame
        "link": link_text(puzzle),
        "solved": puzzle.solved,
        "meta": dict(puzzle.meta),
        "read": reading_text(puzzle),  # what the reader inferred: the target and its exit, say
    }


def link_text(puzzle: Puzzle) -> str:
    """The board as a link carries it: the one-line form, or JSON when that cannot hold it;
    the board alone, never what is known of it (a generated puzzle's moves and cluster, which
    the line form writes as a database line around the board, are fields of their own)."""
    board = replace(puzzle, meta={})
    try:
        return write(board, "line").strip()
    except RhaspError:
        return json.dumps(json.loads(write(board, "json")), separators=(",", ":"))


def new_puzzle(request: GenerateBody, limits: ServerLimits) -> dict[str, Any]:
    try:
        puzzle = rhasp.generate(
            request.min_moves,
            request.seed,
            size=request.size,
            seconds=limits.seconds,
            max_states=limits.states,
        )
    except SearchLimit as limit:  # the server's bounds: what a player can do instead
        kind = limit.limit.ran_out if limit.limit else None
        smaller = request.size > GENERATE_PAGE_SIDES[0]
        if kind == "states" and smaller:
            advice = "pick a smaller board"
        else:
            advice = PAGE_GENERATE_ADVICE_LARGE if smaller else PAGE_GENERATE_ADVICE
        raise SearchLimit(f"{limit.what}; {advice}", limit.where) from None
    cluster = puzzle.meta.get("cluster")
    return {
        "name": puzzle.name,
        "board": link_text(puzzle),
        "moves": puzzle.meta["moves"],
        "cluster": cluster,
        "proven_by": "astar" if cluster is None else "bfs",
    }


def hint_record(puzzle: Puzzle, limits: ServerLimits | None = None) -> dict[str, Any] | None:
    """The hint as the page reads it; without ``limits``, only one that takes no search (a
    look-up in a kept cluster), else None."""
    if limits is None:
        found = rhasp.hint(puzzle, search=False)
    else:
        found = rhasp.hint(puzzle, budget=limits.budget())
    return None if found is None else found.record(puzzle.board)


def solve_position(request: SolveBody, limits: ServerLimits, progress: Any) -> dict[str, Any]:
    """The request's position solved as ``rhasp deck`` would: the engine asked for, else BFS
    up to 6×6 and A* on a larger board, within the server's limits."""
    puzzle = position(request)
    solve = SolveRequest(
        puzzle,
        request.objective,
        request.engine,
        budget=limits.budget(),
        asp=AspOptions(progress=progress),
        timeout=limits.seconds,
        small_engine="bfs",
    )
    solution = api.solution(solve)
    if solution.limit:
        raise SearchLimit(solution.limit, puzzle.name)
    return solution_record(solution)


def solution_record(solution: Solution) -> dict[str, Any]:
    """What ``rhasp solve --format json`` prints, and each move's label and cells for the
    page's animation."""
    record = solution_dict(solution, "card")
    record["steps"] = [{"label": m.label, "delta": m.delta} for m in solution.plan or ()]
    return record


#: What the page says when Generate finds no puzzle in the server's seconds: each try draws
#: new boards (the command line says to allow more seconds instead; the page has no control
#: for the server's seconds); on a board larger than the smallest offered, a smaller board
#: reaches deeper in the same time.
PAGE_GENERATE_ADVICE = "ask for fewer moves, or try again: each try draws new boards"
PAGE_GENERATE_ADVICE_LARGE = (
    "ask for fewer moves, pick a smaller board, or try again: each try draws new boards"
)

#: What the page's user can do when a search of the position meets the server's bounds (its
#: seconds, its states), by what was asked: the page has no control that raises them. A hint
#: and an analysis search the position's whole cluster, whatever the position; a check is
#: asked by the page when the target is out, to say the minimum.
PAGE_ADVICE = {
    "solve": "try another engine, or play nearer the exit and solve from there",
    "hint": "Solve with A* instead: the first move of its plan is a hint",
    "analyze": "an analysis covers the position's whole cluster: pick a smaller board",
    "check": "Reset, then Solve with A*, to see the minimum",
}


#: What a position needs that the server does not allow, by what its search ran out of.
POSITION_NEEDS: dict[RanOut, str] = {
    "states": "more states",
    "memory": "more states",
    "atoms": "more memory",
    "address space": "more memory",
    "horizon": "more steps",
    "time": "more time",
    "share": "more states",
}


def page_limit(limit: SearchLimit, advice: str = "") -> str:
    """A limit met on the page, said in the page's words: for a search of a position, what it
    needs that the server does not allow, the limit itself (the command line's advice is the
    command line's), then ``advice``, what the page's user can do (:data:`PAGE_ADVICE`). Any
    other bound (generating's, worded for the page by :func:`new_puzzle`) says what it found,
    as it is."""
    if limit.limit is None or not limit.limit.kinds():
        return str(limit)
    need = POSITION_NEEDS[limit.limit.kinds()[0]]
    said = f"this position needs {need} than the server allows: {limit.limit}"
    return f"{said}; {advice}" if advice else said


def proof_events(run: Callable[[Progress], Any], finished: Callable[[], None]) -> Iterator[str]:
    """Server-sent events of an ASP proof run in a thread of its own: ``horizon`` as each
    horizon's solve starts, ``proved`` as it ends (its plan's steps, or null: none of that
    many or fewer), then ``solution`` or ``error``, always one of them: a failure that is not
    rhasp's own (a bug) ends the stream with an ``error`` too, never with silence after the
    200 is sent. ``finished`` is called when it ends."""
    events: queue.Queue[tuple[str, Any]] = queue.Queue()

    class Events(Silent):
        last = -1

        def searching(self, states: int, depth: int, seconds: float, measure: str) -> None:
            if depth != self.last:
                self.last = depth
                step = {"horizon": depth, "seconds": round(seconds, 3), "memo": states}
                events.put(("horizon", step))

        def proved(self, horizon: int, plan: int | None) -> None:
            self.last = -1  # the next solve's first look starts a horizon, whatever its number
            events.put(("proved", {"horizon": horizon, "plan": plan}))

    def work() -> None:
        try:
            events.put(last_event(lambda: run(Events()), PAGE_ADVICE["solve"]))
        finally:
            finished()
            events.put(("end", None))

    threading.Thread(target=work, name="rhasp-asp-proof", daemon=True).start()
    while True:
        name, data = events.get()
        if name == "end":
            return
        yield f"event: {name}\ndata: {json.dumps(data)}\n\n"


def last_event(work: Callable[[], Any], advice: str = "") -> tuple[str, Any]:
    """The event that ends a stream: ``solution`` with ``work()``'s answer, or ``error`` with
    its failure as :func:`answer` words it; a failure that is not rhasp's own is a bug, said
    in one line (and logged with its traceback), as the stream's 200 is sent already."""
    try:
        outcome = answer(work, advice)
    except Exception as error:
        LOG.exception("a streamed answer failed")
        return "error", {"error": internal_error_line(None, error)}
    if isinstance(outcome, JSONResponse):
        return "error", json.loads(bytes(outcome.body))
    return "solution", outcome


class BodyLimit:
    """ASGI middleware: a request whose body is over ``limit`` bytes gets HTTP 413 before the
    app sees any of it (whether or not it says its length)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self.too_large(scope, receive, send)
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self.too_large(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        body, replayed = b"".join(chunks), False

        async def replay() -> Any:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def too_large(self, scope: Any, receive: Any, send: Any) -> None:
        error = f"request body over {self.limit:,} bytes: send a smaller board"
        await JSONResponse({"error": error}, status_code=413)(scope, receive, send)
