"""A scripted OpenAI-compatible chat server on 127.0.0.1, for testing real HTTP clients.

Mocking the ``openai`` client would test our assumptions about it; a real socket tests
the client's actual timeout, retry and error mapping. Each POST to
``/v1/chat/completions`` takes the next ``Reply`` from a queue and is recorded, so a
test can assert on what was sent (model, messages, response_format).
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHAT_PATH = "/v1/chat/completions"


@dataclass(frozen=True)
class Reply:
    """One scripted answer.

    ``content`` becomes the assistant message; ``status`` != 200 sends an OpenAI-style
    error instead; ``delay_s`` holds the reply back (to trip client timeouts).
    ``accepts`` lists the ``response_format`` types this reply answers: a request with
    another type gets HTTP 400 and the reply stays queued, like a server that does not
    support ``json_schema``.
    """

    content: str | None = None
    status: int = 200
    delay_s: float = 0.0
    accepts: tuple[str, ...] = ()
    error: str = "scripted error"


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def system(self) -> str:
        return str(self.body["messages"][0]["content"])

    @property
    def user(self) -> str:
        return str(self.body["messages"][-1]["content"])

    @property
    def format_type(self) -> str | None:
        fmt = self.body.get("response_format")
        return fmt.get("type") if isinstance(fmt, dict) else None


@dataclass
class ChatServer:
    """Threaded HTTP server; ``base_url`` ends in ``/v1`` like a real endpoint."""

    replies: deque[Reply] = field(default_factory=deque)
    requests: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def push(self, *replies: Reply) -> None:
        with self._lock:
            self.replies.extend(replies)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()  # wakes handlers sleeping on a delay
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def _next(self, format_type: str | None) -> Reply | None:
        with self._lock:
            if not self.replies:
                return None
            head = self.replies[0]
            if head.accepts and format_type not in head.accepts:
                return Reply(status=400, error=f"response_format {format_type!r} not supported")
            return self.replies.popleft()


@contextmanager
def running_chat_server() -> Iterator[ChatServer]:
    server = ChatServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def completion(content: str | None, model: str, n: int) -> dict[str, Any]:
    """A minimal ``chat.completion`` object as the OpenAI API returns it."""
    return {
        "id": f"chatcmpl-test-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _handler_for(server: ChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path != CHAT_PATH:
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            body = json.loads(raw or b"{}")
            received = Received(self.path, dict(self.headers.items()), body)
            with server._lock:
                server.requests.append(received)
            reply = server._next(received.format_type)
            if reply is None:  # non-retryable, so an unexpected call fails fast and loudly
                self._send(410, {"error": {"message": "no scripted reply left"}})
                return
            if reply.delay_s and server._stopping.wait(reply.delay_s):
                return
            if reply.status != 200:
                error = {"message": reply.error, "type": "invalid_request_error", "code": None}
                self._send(reply.status, {"error": error})
                return
            self._send(200, completion(reply.content, body.get("model", ""), len(server.requests)))

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload, ensure_ascii=False).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout); that is the point of a slow reply

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep pytest output clean

    return Handler
