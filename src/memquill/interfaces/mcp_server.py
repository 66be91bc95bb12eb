"""The MCP server (extra ``memquill[mcp]``): memory tools for desktop and IDE agents.

Who the memory belongs to is fixed by the server's configuration (``memquill mcp --user``),
never by tool arguments, so a prompt-injected tool call cannot read or write another user.
``remember`` is an explicit write by the configured agent on the user's behalf: it is logged
as the agent's request ("Remember: …"), so it takes the hot path and is visible at once, but
with the agent's trust class, so it never overrides what the user said directly (a clash
goes to review) and it passes the same noise and injection filters as every other write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations

from memquill import Hit, Memory, Scope
from memquill.errors import NotFoundError
from memquill.interfaces.remember import as_request

INSTRUCTIONS = (
    "Long-term memory about the user across conversations. Call get_context (or recall) "
    "before answering anything that may depend on the user's preferences, history, projects "
    "or earlier decisions; call remember when the user states something durable or asks you "
    "to remember it; call forget when the user asks you to forget something."
)


@dataclass(frozen=True)
class Identity:
    """The scope every tool call acts in, from the server's configuration."""

    user: str
    tenant: str | None = None
    project: str | None = None
    agent: str = "mcp"

    def scope(self, session: str | None = None, project: str | None = None) -> dict[str, Any]:
        given = {
            "tenant": self.tenant,
            "user": self.user,
            "agent": self.agent,
            "project": project or self.project,
            "session": session,
        }
        return {k: v for k, v in given.items() if v}


def render_hit(h: Hit) -> dict[str, Any]:
    m = h.memory
    when = m.observed_at or m.valid_from or m.created_at
    return {
        "id": m.id,
        "content": m.content,
        "type": m.type.value,
        "date": when.date().isoformat(),
        "source": m.source.value,
        "status": m.status.value,
        "score": round(h.score, 4),
    }


def build_server(mem: Memory, ident: Identity) -> MCPServer:
    """An MCP server whose tools act on ``mem`` for ``ident`` only."""
    server: MCPServer = MCPServer("memquill", instructions=INSTRUCTIONS)
    read = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(
        description="Save something durable about the user or their work so it is "
        "available in later conversations: a preference, a fact, a decision and its "
        "reason, how a project is set up. Call it when the user states such a thing or "
        "asks you to remember it; write one self-contained statement (no 'he', no "
        "'next week'). Do not save small talk or one-off requests. `project` and "
        "`session` narrow where it applies."
    )
    def remember(content: str, project: str | None = None, session: str | None = None) -> dict[str, Any]:
        r = mem.add(as_request(content), role="assistant", source="agent", **ident.scope(session, project))
        saved = [mem.get(i).content for i in r.written]
        note = "" if saved else r.skipped or "logged; nothing durable found to save now"
        return {"event_id": r.event_id, "saved": saved, "note": note}

    @server.tool(
        description="Search the user's long-term memory. Call it before answering "
        "questions that may depend on what the user said in earlier conversations "
        "(preferences, plans, people, projects, decisions). Returns the best `k` "
        "memories with their dates and sources.",
        annotations=read,
    )
    def recall(query: str, k: int = 5) -> list[dict[str, Any]]:
        return [render_hit(h) for h in mem.search(query, k=max(1, min(k, 50)), **ident.scope())]

    @server.tool(
        description="The memory block to read before answering: the user's profile, "
        "the memories relevant to `query`, within `budget_tokens`. Prefer it to recall "
        "at the start of a task.",
        annotations=read,
    )
    def get_context(query: str, budget_tokens: int = 800) -> str:
        return mem.context(query, budget_tokens=max(1, budget_tokens), **ident.scope()).text

    @server.tool(
        description="Forget one memory for good (by the id recall returned). Call it "
        "when the user asks you to forget something or says a memory is wrong."
    )
    def forget(memory_id: str) -> str:
        _own(mem, ident, memory_id)
        mem.forget(memory_id, reason="forgotten on request (MCP)", actor=ident.agent)
        return f"forgotten {memory_id}"

    @server.tool(
        description="Memories that conflict and wait for the user's decision. Show "
        "them to the user and call resolve with their choice.",
        annotations=read,
    )
    def review() -> list[dict[str, Any]]:
        return [
            {
                "id": i.memory.id,
                "content": i.memory.content,
                "conflicts_with": [{"id": c.id, "content": c.content} for c in i.conflicts_with],
            }
            for i in mem.review(**ident.scope())
        ]

    @server.tool(
        description="Apply the user's decision on a memory from review: `accept` it "
        "(it replaces what it conflicts with), `reject` it, or `keep_both`. Only on "
        "the user's explicit choice."
    )
    def resolve(memory_id: str, action: str = "accept") -> str:
        _own(mem, ident, memory_id)
        rec = mem.resolve(memory_id, action, reason="user decision via MCP", actor=ident.agent)  # type: ignore[arg-type]
        return f"{rec.id} is now {rec.status.value}"

    return server


def _own(mem: Memory, ident: Identity, memory_id: str) -> None:
    """A memory of another user (or tenant) does not exist for this server."""
    rec = mem.get(memory_id)
    me = Scope.of(**ident.scope())
    if rec.scope.tenant != me.tenant or rec.scope.user != me.user:
        raise NotFoundError(f"no memory {memory_id!r}")
