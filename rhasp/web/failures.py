"""How the server answers what went wrong, always as JSON with the line in ``error``: bad
input 400, a limit 422 in the page's words (:func:`page_limit`: what the position needs,
then what the page's user can do, never a command-line option), busy 429, a disagreement
between engines or a failure not foreseen (a bug) 500, and FastAPI's own 400, 404 and 405 in
that shape too (:func:`add_error_handlers`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from rhasp.api import OUT_OF_MEMORY, EngineDisagreement, RanOut
from rhasp.errors import RhaspError, SearchLimit

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
    other bound (generating's, worded for the page by :func:`rhasp.web.actions.new_puzzle`)
    says what it found, as it is."""
    if limit.limit is None or not limit.limit.kinds():
        return str(limit)
    need = POSITION_NEEDS[limit.limit.kinds()[0]]
    said = f"this position needs {need} than the server allows: {limit.limit}"
    return f"{said}; {advice}" if advice else said


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


def failure(error: str, status: int, **extra: Any) -> JSONResponse:
    """HTTP ``status`` saying ``error``, with the fields ``extra``."""
    return JSONResponse({"error": error} | extra, status_code=status)


def busy(error: str) -> JSONResponse:
    """HTTP 429 saying ``error``, with ``"busy": true`` and when to try again."""
    return JSONResponse(
        {"error": error, "busy": True}, status_code=429, headers={"Retry-After": "5"}
    )


def no_database() -> JSONResponse:
    """HTTP 404: the server was started without ``--database``."""
    return failure("no database: start rhasp serve --database FILE", 404)


def internal_error_line(request: Request | None, error: Exception) -> str:
    """What a failure the server did not foresee (a bug) tells the page: its kind only."""
    where = "" if request is None else f"{request.method} {request.url.path}: "
    return f"{where}internal error ({type(error).__name__}); the server's log has the details"


def bad_request(_: Request, error: RequestValidationError) -> JSONResponse:
    """A body FastAPI could not read as the request's fields: HTTP 400, naming the first
    field that is wrong (or the character where the JSON breaks)."""
    first = error.errors()[0]
    if first["type"] == "json_invalid":  # its place is a character offset, not a field
        reason = first.get("ctx", {}).get("error", first["msg"])
        line = f"request: not JSON ({reason} at character {first['loc'][-1]})"
    else:
        where = ".".join(str(part) for part in first["loc"] if part != "body") or "request"
        what = "not a field of this request (/docs lists them)"
        line = f"{where}: {what if first['type'] == 'extra_forbidden' else first['msg']}"
    return failure(line, 400)


def http_error(request: Request, error: HTTPException) -> JSONResponse:
    """404, 405 and the like in the shape of every other error: one line in ``error``."""
    line = f"{request.method} {request.url.path}: {str(error.detail).lower()}"
    return JSONResponse({"error": line}, status_code=error.status_code, headers=error.headers)


def internal_error(request: Request, error: Exception) -> JSONResponse:
    """Any other failure (a bug) in the shape of every error too, never a plain-text page:
    HTTP 500, the details in the server's log."""
    return failure(internal_error_line(request, error), 500)


def add_error_handlers(app: FastAPI) -> None:
    """Have ``app`` answer FastAPI's own failures and any unforeseen one as JSON."""
    app.add_exception_handler(RequestValidationError, bad_request)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, internal_error)
