"""An ASP proof as server-sent events: each horizon as it starts and as it is proven, then
the answer, so that the page shows the proof as it goes."""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from fastapi.responses import JSONResponse

from rhasp.progress import Progress, Silent
from rhasp.web.failures import PAGE_ADVICE, answer, internal_error_line

LOG = logging.getLogger(__name__)


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
    its failure as :func:`~rhasp.web.failures.answer` words it; a failure that is not rhasp's
    own is a bug, said in one line (and logged with its traceback), as the stream's 200 is
    sent already."""
    try:
        outcome = answer(work, advice)
    except Exception as error:
        LOG.exception("a streamed answer failed")
        return "error", {"error": internal_error_line(None, error)}
    if isinstance(outcome, JSONResponse):
        return "error", json.loads(bytes(outcome.body))
    return "solution", outcome
