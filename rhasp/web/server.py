"""The web page's server: the page and its assets, and a small JSON API over :mod:`rhasp.api`
(:mod:`~rhasp.web.routes`).

Every endpoint takes a position as text in a ``board`` field (any format rhasp reads, never a
file name: the server reads no file a request names), optionally with ``moves`` played from
it, and answers moves in card notation. Safe by default for a page on one's own machine:

- request bodies of at most :data:`~rhasp.web.middleware.MAX_BODY` bytes (HTTP 413 beyond);
- every search bounded by :class:`~rhasp.web.slots.ServerLimits` (states and seconds): a
  limit is HTTP 422 with ``"limit": true``, never "no solution", said in the page's words
  (``this position needs more states than the server allows: ...``, no command-line option);
- at most one ASP proof per core at a time; the next is told ``busy`` (HTTP 429) at once
  rather than queued behind minutes of work;
- at most one other search per core at a time (:class:`~rhasp.web.slots.SearchSlots`): the
  next waits its turn, for the server's seconds at most (then ``busy``), so that the memory
  searches take together is bounded (``docs/commands/serve.md``, "Memory");
- bad input is HTTP 400 with the one line the CLI prints, in ``error``
  (:mod:`~rhasp.web.failures`).
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

import uvicorn
from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

import rhasp
from rhasp.web.bodies import GENERATE_PAGE_SIDES
from rhasp.web.database import Database
from rhasp.web.failures import add_error_handlers
from rhasp.web.middleware import MAX_BODY, BodyLimit
from rhasp.web.routes import add_api_routes
from rhasp.web.slots import ServerLimits, unmap_large_blocks

#: What ``rhasp serve`` (:mod:`rhasp.cli.serve`) takes from here.
__all__ = ["GENERATE_PAGE_SIDES", "Database", "ServerLimits", "create_app", "serve_app"]

#: The page's files: HTML, CSS, its JavaScript modules and its icon, served under ``/assets``.
ASSETS = Path(__file__).parent / "assets"


def create_app(limits: ServerLimits | None = None, database: Database | None = None) -> FastAPI:
    """The ASGI app: the page at ``/``, its files under ``/assets``, the API under ``/api``
    (documented at ``/docs``) within ``limits``; with a ``database``, picks from it."""
    app = FastAPIOffline(  # /docs from the package's own copy of Swagger UI: no internet needed
        title="rhasp",
        version=rhasp.__version__,
        summary="Optimal Rush Hour plans, proven minimal: the API behind rhasp serve's page.",
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.mount("/assets", StaticFiles(directory=ASSETS), name="assets")
    add_error_handlers(app)

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(ASSETS / "index.html")

    add_api_routes(app, limits or ServerLimits(), database)
    return app


def serve_app(app: FastAPI, listening: socket.socket, announce: Callable[[], None]) -> None:
    """Serve ``app`` on the ``listening`` socket until Ctrl-C or SIGTERM; ``announce()`` once
    the server accepts connections, so that whoever reads the address it prints (a person, a
    script) can connect at once. Large blocks go back to the system as they are freed
    (:func:`~rhasp.web.slots.unmap_large_blocks`)."""
    unmap_large_blocks()

    class Announcing(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                announce()

    Announcing(uvicorn.Config(app, log_level="warning")).run(sockets=[listening])
