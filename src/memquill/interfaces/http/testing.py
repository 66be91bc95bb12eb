"""Serve the app from a thread on 127.0.0.1 (a free port): for tests and benchmarks.

``with serving(Memory(":memory:")) as url:`` gives a real uvicorn server for the block, so
clients in any language can be tested against memquill without a separate process.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from memquill import Memory
from memquill.errors import StoreError
from memquill.interfaces.http.app import MAX_BODY_BYTES, create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(mem: Memory, *, worker: bool = False, max_body_bytes: int = MAX_BODY_BYTES) -> Iterator[str]:
    """Serve ``mem`` over HTTP until the block ends; yields the base URL."""
    port = free_port()
    config = uvicorn.Config(
        create_app(mem, worker=worker, max_body_bytes=max_body_bytes),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise StoreError("the HTTP server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def serve_process(
    db: str, *options: str, env: dict[str, str] | None = None, timeout_s: float = 120.0
) -> Iterator[str]:
    """``memquill serve --db DB`` in a subprocess on a free port until the block ends; yields
    the base URL once ``/healthz`` answers (the process is terminated afterwards)."""
    import subprocess
    import sys
    import urllib.request

    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "memquill.interfaces.cli",
        "serve",
        "--db",
        db,
        "--port",
        str(port),
        "--log-level",
        "warning",
        *options,
    ]
    proc = subprocess.Popen(cmd, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise StoreError(f"memquill serve did not start (exit code {proc.poll()})") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(30)
