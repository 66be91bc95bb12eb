"""The MCP server as a client sees it: ``memquill mcp`` in a subprocess, over stdio."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from memquill import Memory
from memquill.providers.fake import HashEmbedder

pytestmark = pytest.mark.slow


def server(db: str, user: str, *extra: str) -> StdioServerParameters:
    env = {**os.environ, "MEMQUILL_EMBEDDER": "hash", "OMP_NUM_THREADS": "1"}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "memquill.interfaces.cli", "mcp", "--db", db, "--user", user, *extra],
        env=env,
    )


def payload(result: Any) -> Any:
    assert not result.is_error, result
    if result.structured_content is not None:
        sc = result.structured_content
        return sc.get("result", sc) if isinstance(sc, dict) else sc
    return json.loads(result.content[0].text)


def call(params: StdioServerParameters, steps: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async def run() -> list[Any]:
        async with Client(params) as c:
            return [await c.call_tool(name, args) for name, args in steps]

    return anyio.run(run)


def test_tools_are_listed_with_guidance(tmp_path: Path) -> None:
    async def run() -> Any:
        async with Client(server(str(tmp_path / "m.db"), "alice")) as c:
            return await c.list_tools()

    tools = {t.name: t for t in anyio.run(run).tools}
    assert {"remember", "recall", "get_context", "forget", "review", "resolve"} <= set(tools)
    assert "before answering" in (tools["recall"].description or "")
    # identity is configuration: no tool takes a user or tenant argument
    for t in tools.values():
        assert not {"user", "tenant", "user_id"} & set(t.input_schema.get("properties", {}))


@pytest.mark.parametrize(
    ("statement", "query", "word"),
    [
        ("The user prefers dark mode in editors.", "editor theme dark mode", "dark mode"),
        ("用户喜欢喝绿茶", "喝什么茶", "绿茶"),
    ],
)
def test_remember_is_visible_at_once_and_recall_returns_dates_and_sources(
    tmp_path: Path, statement: str, query: str, word: str
) -> None:
    db = str(tmp_path / "m.db")
    saved, hits, ctx = call(
        server(db, "alice"),
        [
            ("remember", {"content": statement}),
            ("recall", {"query": query, "k": 3}),
            ("get_context", {"query": query, "budget_tokens": 300}),
        ],
    )
    assert any(word in s for s in payload(saved)["saved"])
    found = payload(hits)
    assert found and word in found[0]["content"]
    assert found[0]["date"] and found[0]["source"] == "inferred"  # the agent's trust, not the user's
    assert word in ctx.content[0].text
    # another user's server sees nothing of alice's
    (other,) = call(server(db, "bob"), [("recall", {"query": query})])
    assert payload(other) == []


def test_agent_memory_never_overrides_what_the_user_said(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    with Memory(db, embedder=HashEmbedder()) as mem:
        mem.add("Remember that I live in Berlin", user="alice")
        before = {r.id: r.content for r in mem.records(user="alice")}
    assert any("Berlin" in c for c in before.values())
    call(server(db, "alice"), [("remember", {"content": "The user lives in Paris."})])
    with Memory(db, embedder=HashEmbedder()) as mem:
        active = [
            r
            for r in mem.records(statuses=["active"], user="alice", agent="mcp")
            if r.source.value == "explicit"
        ]
        assert [r.id for r in active] == [i for i in before if "Berlin" in before[i]]


def test_forget_erases_and_cannot_reach_another_user(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    with Memory(db, embedder=HashEmbedder()) as mem:
        theirs = mem.add("Remember that my locker code is 4417", user="bob").written[0]
    (saved,) = call(server(db, "alice"), [("remember", {"content": "The user's cat is called Miso."})])
    mine = payload(saved)["saved"]
    assert mine

    async def run() -> tuple[Any, Any, Any]:
        async with Client(server(db, "alice")) as c:
            hits = await c.call_tool("recall", {"query": "cat Miso"})
            mid = payload(hits)[0]["id"]
            gone = await c.call_tool("forget", {"memory_id": mid})
            cross = await c.call_tool("forget", {"memory_id": theirs})
            return mid, gone, cross

    mid, gone, cross = anyio.run(run)
    assert not gone.is_error
    assert cross.is_error  # bob's memory does not exist for alice's server
    with Memory(db, embedder=HashEmbedder()) as mem:
        assert mem.get(mid).status.value == "deleted"
        assert "Miso" not in mem.get(mid).content
        assert mem.get(theirs).status.value == "active"


def test_streamable_http_transport(tmp_path: Path) -> None:
    import socket
    import subprocess
    import time

    from memquill.interfaces.http.testing import free_port

    port = free_port()
    args = [
        "mcp",
        "--db",
        str(tmp_path / "m.db"),
        "--user",
        "alice",
        "--transport",
        "http",
        "--port",
        str(port),
    ]
    params = server(str(tmp_path / "m.db"), "alice")
    proc = subprocess.Popen([params.command, "-m", "memquill.interfaces.cli", *args], env=params.env)

    async def run() -> tuple[Any, Any]:
        async with Client(f"http://127.0.0.1:{port}/mcp") as c:
            saved = await c.call_tool("remember", {"content": "The user's cat is called Miso."})
            return saved, await c.call_tool("recall", {"query": "cat name"})

    try:
        deadline = time.monotonic() + 60
        while True:  # wait until the port accepts connections, then talk MCP once
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "mcp http did not start"
                time.sleep(0.3)
        saved, hits = anyio.run(run)
        assert payload(saved)["saved"]
        assert "Miso" in payload(hits)[0]["content"]
    finally:
        proc.terminate()
        proc.wait(20)
