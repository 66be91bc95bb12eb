"""LangGraph namespaces ↔ memquill scopes, and the directory of namespaces in use.

A namespace is a tuple of strings; memquill needs a tenant and a user. ``NamespaceMap`` says
which elements name the user (and optionally project or session), from a template such as
LangMem's ``("memories", "{user}")`` or a user-first ``("{user}",)``. Namespaces that do not
fit the template belong to ``fallback_user``.

LangGraph may list or search across users (a prefix shorter than the user element), and
memquill reads are per user, so the namespaces in use are recorded in a directory: one
agent-private core block per namespace under a reserved user, named by a hash of the
namespace. Private blocks never reach any other reader's context.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from memquill import Memory, Scope
from memquill.errors import ValidationError

AGENT = "langgraph"  # item records and directory blocks are private to this agent id
DIRECTORY_USER = "__langgraph__"
FIELDS = ("user", "project", "session")

Namespace = tuple[str, ...]


@dataclass(frozen=True)
class NamespaceMap:
    """Where each namespace lives in memquill. ``{user}``, ``{project}``, ``{session}`` mark
    the elements that name those dimensions; other template elements must match literally."""

    template: tuple[str, ...] = ("memories", "{user}")
    tenant: str = "default"
    fallback_user: str = "langgraph"

    def __post_init__(self) -> None:
        holes = [t[1:-1] for t in self.template if t.startswith("{") and t.endswith("}")]
        if "user" not in holes or any(h not in FIELDS for h in holes):
            raise ValidationError("a namespace template needs {user} and may use {project}, {session}")

    def scope(self, namespace: Namespace) -> Scope:
        """The scope that holds the items of ``namespace`` (private to the store's agent)."""
        dims = self._dims(namespace)
        return Scope.of(tenant=self.tenant, agent=AGENT, **(dims or {"user": self.fallback_user}))

    def reader(self, namespace: Namespace) -> dict[str, Any]:
        """Scope keywords for searching the memories of ``namespace`` (items and derived)."""
        s = self.scope(namespace)
        return {k: v for k, v in s.model_dump().items() if v is not None}

    def writer(self, namespace: Namespace) -> dict[str, Any]:
        """Scope keywords for content that goes through the write path (not agent-private)."""
        return {k: v for k, v in self.reader(namespace).items() if k != "agent"}

    def _dims(self, namespace: Namespace) -> dict[str, str] | None:
        if len(namespace) < len(self.template):
            return None
        dims: dict[str, str] = {}
        for part, t in zip(namespace, self.template, strict=False):
            if t.startswith("{") and t.endswith("}"):
                dims[t[1:-1]] = part
            elif part != t:
                return None
        return dims


def subject(namespace: Namespace) -> str:
    """The record subject of a namespace's items: exact (JSON), so no two namespaces collide."""
    return "langgraph:" + json.dumps(list(namespace), ensure_ascii=False, separators=(",", ":"))


class Directory:
    """The namespaces in use, kept as agent-private core blocks of a reserved user."""

    def __init__(self, mem: Memory, tenant: str) -> None:
        self.mem = mem
        self.where: dict[str, Any] = {"tenant": tenant, "user": DIRECTORY_USER, "agent": AGENT}
        self._known: set[Namespace] = set()

    def add(self, namespace: Namespace) -> None:
        if namespace in self._known:
            return
        body = json.dumps(list(namespace), ensure_ascii=False)
        self.mem.set_block(_block_name(namespace), body, char_limit=max(2000, len(body)), **self.where)
        self._known.add(namespace)

    def drop(self, namespace: Namespace) -> None:
        """Blank the entry (blocks have no delete): its name is a hash, its content is gone."""
        self.mem.set_block(_block_name(namespace), "", **self.where)
        self._known.discard(namespace)

    def all(self) -> list[Namespace]:
        return [
            tuple(json.loads(b.content))
            for b in self.mem.blocks(**self.where)
            if b.agent == AGENT and b.name.startswith("ns:") and b.content
        ]


def _block_name(namespace: Namespace) -> str:
    return "ns:" + hashlib.sha256(subject(namespace).encode()).hexdigest()[:32]
