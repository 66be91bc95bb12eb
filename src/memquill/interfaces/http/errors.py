"""One error shape for every failure: ``{"error": {"type": …, "message": …}}``.

memquill errors map to status codes by class; FastAPI's own validation errors become 400
(unparseable JSON) or 422 (well-formed but wrong); anything unexpected is a logged 500 with
no internals in the body.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memquill import errors as e
from memquill.interfaces.http.schemas import ErrorOut

log = logging.getLogger("memquill.http")

STATUS: tuple[tuple[type[e.MemquillError], int], ...] = (
    (e.ValidationError, 422),
    (e.NotFoundError, 404),
    (e.ConflictError, 409),
    (e.DuplicateEventError, 409),
    (e.PermissionDeniedError, 403),
    (e.StoreError, 503),
    (e.ProviderError, 503),
)
HTTP_TYPES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    422: "validation",
    500: "internal_error",
    503: "unavailable",
}


def error(status: int, kind: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    body = {"error": {"type": kind, "message": message}}
    return JSONResponse(body, status_code=status, headers=headers)


def status_of(exc: e.MemquillError) -> int:
    return next((code for cls, code in STATUS if isinstance(exc, cls)), 500)


def _name(exc: BaseException) -> str:
    """``NaiveDatetimeError`` → ``naive_datetime``: the error class, as a stable type string."""
    name = type(exc).__name__.removesuffix("Error") or "Memquill"
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg")))
    return "; ".join(parts) or "invalid request"


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""

    async def on_memquill(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, e.MemquillError)
        status = status_of(exc)
        if status >= 500:
            log.error("%s %s failed: %s", request.method, request.url.path, exc)
        return error(status, _name(exc), str(exc))

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        if any(err.get("type") == "json_invalid" for err in exc.errors()):
            return error(400, "bad_request", "the body is not valid JSON")
        return error(422, "validation", _validation_message(exc))

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        kind = HTTP_TYPES.get(exc.status_code, "error")
        return error(exc.status_code, kind, str(exc.detail), getattr(exc, "headers", None))

    async def on_crash(request: Request, exc: Exception) -> JSONResponse:
        log.exception("%s %s crashed", request.method, request.url.path)
        return error(500, "internal_error", "internal error; see the server log")

    app.add_exception_handler(e.MemquillError, on_memquill)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(HTTPException, on_http)
    app.add_exception_handler(Exception, on_crash)


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, before the app parses them.

    Checks ``Content-Length`` up front and counts streamed chunks too, so a chunked upload
    cannot get round the limit.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
        await self.app(scope, _replay(b"".join(chunks), receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error(413, "payload_too_large", f"request body over {self.limit} bytes")
        await response(scope, receive, send)


def _replay(body: bytes, receive: Receive) -> Callable[[], Awaitable[Message]]:
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


def responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses=`` entries for these error codes, all in the one error shape."""
    return {code: {"model": ErrorOut, "description": HTTP_TYPES.get(code, "error")} for code in codes}
