"""``rhasp serve``: the web page's server, on a socket of its own, warming the search
core up in the background."""

from __future__ import annotations

import socket
import threading
import webbrowser
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Annotated

import typer

from rhasp import api
from rhasp.cli.application import app
from rhasp.cli.io import err
from rhasp.cli.options import max_states_option
from rhasp.cli.running import guarded_command
from rhasp.errors import InputError, MissingTool, install_command
from rhasp.exit_codes import EXIT_OK

#: What one request to the page's server may search, unless ``serve --max-states`` says.
SERVE_MAX_STATES = 2_000_000


@app.command()
@guarded_command
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on; 127.0.0.1 keeps the page to this machine.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")] = 8000,
    open_page: Annotated[
        bool, typer.Option("--open", help="Open the page in the web browser.")
    ] = False,
    max_states: max_states_option(
        "States one request's search may reach", default=f"{SERVE_MAX_STATES:,}"
    ) = SERVE_MAX_STATES,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit", min=0.1, help="Seconds one request's searches may take together."
        ),
    ] = 10.0,
    database: Annotated[
        Path | None,
        typer.Option(help="A puzzle database (rhasp enumerate's lines) to pick puzzles from."),
    ] = None,
) -> int:
    """Serve the web page: play a card, get a hint, watch an optimal plan and its proof."""

    try:
        from rhasp.web.server import (
            GENERATE_PAGE_SIDES,
            Database,
            ServerLimits,
            create_app,
            serve_app,
        )
    except ImportError:
        raise MissingTool(
            "FastAPI and uvicorn are not installed: " + install_command("web"), "serve"
        ) from None
    puzzles = None if database is None else Database(database)  # a bad file: one line
    listening = listen(host, port)  # first, so that a taken port is one line
    limits = ServerLimits(states=max_states, seconds=time_limit)
    bound = listening.getsockname()[1]
    address = f"http://{'[' + host + ']' if ':' in host else host}:{bound}/"

    def announce() -> None:
        err.print(f"rhasp serve: {address} (Ctrl-C stops)", markup=False)
        if open_page:  # in a thread: a browser starting holds up no request
            threading.Thread(target=webbrowser.open, args=(address,), daemon=True).start()

    # A server searches for as long as it runs: the compiled core from its start, for the
    # boards its page generates too, loaded by a thread of its own if cached, else compiled
    # in the background. The address comes at once, not after the loading (many seconds on a
    # busy machine): requests meanwhile run uncompiled, within their limits.
    threading.Thread(
        target=warm_up_quietly, args=(GENERATE_PAGE_SIDES,), name="rhasp-warm-up", daemon=True
    ).start()
    serve_app(create_app(limits, puzzles), listening, announce)
    return EXIT_OK


def warm_up_quietly(sides: Sequence[int]) -> None:
    """:func:`rhasp.api.warm_up` for a server's thread: code that cannot be loaded (no memory
    left for numba, say) leaves its searches uncompiled, as they are until it comes, and the
    server runs on."""
    with suppress(Exception):  # MemoryError among them
        api.warm_up(sides)


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` for the server, or one line saying why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Said to be TCP, so that asyncio turns Nagle's delay off on every connection (with 0 it
    # does not, and each answer on a kept connection waits for a delayed acknowledgement).
    listening = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
        listening.listen()  # from now on a connection waits for the server, never refused
    except (OSError, UnicodeError) as error:
        listening.close()
        reason = getattr(error, "strerror", None) or str(error)
        raise InputError(f"cannot listen on {host} port {port}: {reason}", "serve") from None
    return listening
