"""What stands before the app: a bound on the size of a request's body."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

#: The most bytes a request's body may have (HTTP 413 beyond).
MAX_BODY = 64 * 1024


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
