"""The application factory: one ``Memory``, the key ring, the handlers and the worker.

``create_app`` takes an open ``Memory`` (the caller owns it) so tests and embedders choose
the clock, embedder and store; ``memquill serve`` builds one from ``--db``. With
``worker=True`` the background worker runs on a thread of the same process for the app's
lifetime; run ``memquill worker`` separately instead when several API processes share one
PostgreSQL database.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

import memquill
from memquill import Memory
from memquill.apikeys import KeyRing
from memquill.interfaces.http import errors
from memquill.interfaces.http.routes import router

log = logging.getLogger("memquill.http")
MAX_BODY_BYTES = 1024 * 1024


def create_app(
    mem: Memory, *, worker: bool = True, poll_s: float = 0.5, max_body_bytes: int = MAX_BODY_BYTES
) -> FastAPI:
    """The HTTP API over ``mem`` (see README "HTTP API")."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        stop = threading.Event()
        thread = _start_worker(mem, stop, poll_s) if worker else None
        try:
            yield
        finally:
            stop.set()
            if thread is not None:
                thread.join()

    app = FastAPI(
        title="memquill",
        version=memquill.__version__,
        lifespan=lifespan,
        description="Long-term memory for LLM agents. Every /v1 call needs "
        "`Authorization: Bearer <key>`; the key decides the tenant.",
    )
    app.state.memory = mem
    app.state.keys = KeyRing(mem.store)
    errors.install(app)
    app.include_router(router)

    @app.get("/healthz", tags=["health"])
    def healthz() -> dict[str, str]:
        """Liveness, without authentication."""
        return {"status": "ok", "version": memquill.__version__}

    app.add_middleware(errors.BodyLimit, limit=max_body_bytes)
    return app


def _start_worker(mem: Memory, stop: threading.Event, poll_s: float) -> threading.Thread:
    def run() -> None:
        try:
            mem.worker().run_forever(stop, poll_s=poll_s)
        except Exception:  # a dead worker must be visible, not silent
            log.exception("background worker stopped")

    thread = threading.Thread(target=run, name="memquill-worker", daemon=True)
    thread.start()
    return thread
