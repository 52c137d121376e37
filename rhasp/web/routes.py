"""The server's JSON API, one short route an endpoint: each reads its body
(:mod:`~rhasp.web.bodies`), asks :mod:`rhasp.api` (:mod:`~rhasp.web.actions`), in a search
slot where it may search (:mod:`~rhasp.web.slots`), and answers what came back
(:mod:`~rhasp.web.views`) or its failure (:mod:`~rhasp.web.failures`)."""

from __future__ import annotations

import threading
from typing import Any

from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

import rhasp
from rhasp import api
from rhasp.api import ANALYSIS_BYTES_PER_STATE, AnalyzeRequest
from rhasp.errors import counted
from rhasp.web.actions import hint_record, new_puzzle, played, position, solve_position
from rhasp.web.bodies import CheckBody, DatabaseBody, GenerateBody, Position, SolveBody
from rhasp.web.database import Database
from rhasp.web.events import proof_events
from rhasp.web.failures import PAGE_ADVICE, answer, busy, no_database
from rhasp.web.slots import SearchSlots, ServerLimits
from rhasp.web.views import card_list, view

#: A hint on a board and moves of at most this many characters (a 6×6 board and 240 moves,
#: read and replayed in a few milliseconds: bench/README.md, "Figures behind the code") is
#: answered on the event loop when its cluster is kept, as a look-up, without the hand-over
#: to a worker thread that costs more than the look-up;
#: any other hint, and every search, runs in a worker thread.
QUICK_TEXT = 1_000


def add_api_routes(app: FastAPI, limits: ServerLimits, database: Database | None = None) -> None:
    """Give ``app`` the endpoints under ``/api``, within ``limits``; with a ``database``,
    picks from it."""
    asp_slots = threading.BoundedSemaphore(limits.asp_proofs)
    slots = SearchSlots(limits)

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
            return no_database()
        return {"name": database.name, "counts": database.counts()}

    @app.post("/api/database")
    def database_pick(request: DatabaseBody) -> Any:
        """A puzzle of the database with the number of moves asked for, picked at random (the
        same ``seed``, the same puzzle): its board, moves, cluster and line in the file."""
        if database is None:
            return no_database()
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
        ``stream``, server-sent events (ASP). ``text`` is the solution in words."""
        if request.engine != "asp":
            work = lambda: solve_position(request, limits, None)  # noqa: E731
            return slots.answer(work, PAGE_ADVICE["solve"])
        if not asp_slots.acquire(blocking=False):
            return busy(
                f"busy: {counted(limits.asp_proofs, 'ASP proof')} running, one per core; "
                "try again in a moment, or use the BFS engine"
            )
        run = lambda progress: solve_position(request, limits, progress)  # noqa: E731
        if request.stream:
            events = proof_events(run, asp_slots.release)
            return StreamingResponse(events, media_type="text/event-stream")
        try:
            return answer(lambda: run(None), PAGE_ADVICE["solve"])
        finally:
            asp_slots.release()

    @app.post("/api/hint")
    async def hint(request: Position) -> Any:
        """The next move of an optimal plan from the position, and the moves left."""
        if len(request.board) + len(request.moves) <= QUICK_TEXT:
            quick = answer(lambda: hint_record(position(request)))
            if quick is not None:
                return quick
        work = lambda: hint_record(position(request), limits)  # noqa: E731
        return await run_in_threadpool(slots.answer, work, PAGE_ADVICE["hint"])

    @app.post("/api/check")
    def check(request: CheckBody) -> Any:
        """Does the plan solve the position, and is it minimal in moves and slides (BFS)?"""
        budget = limits.budget()
        work = lambda: rhasp.check(position(request), request.plan, budget=budget).record()  # noqa: E731
        return slots.answer(work, PAGE_ADVICE["check"])

    @app.post("/api/analyze")
    def analyze(request: Position) -> Any:
        """Cluster, minimal moves and slides, distance profile (``rhasp analyze``); for a
        cluster too large to analyse whose puzzle static analysis proves unsolvable, that
        verdict (``proven_by``, ``proof``, and where the analysis ``stopped``)."""
        budget = limits.budget(ANALYSIS_BYTES_PER_STATE)
        work = lambda: api.run_analyze(AnalyzeRequest(position(request), budget)).record()  # noqa: E731
        return slots.answer(work, PAGE_ADVICE["analyze"])
