"""memquill as a LangGraph ``BaseStore`` (extra ``memquill[langgraph]``).

Each item is a versioned memquill record, private to the store's agent id: ``put`` values
come back from ``get`` exactly, a second ``put`` is an update with a revision (history is
kept), ``delete`` is a ``forget`` (erasure, with a tombstone). A value with a ``content``
string also goes through memquill's write path as the agent's explicit request, so a
LangMem-style agent gets extraction, supersede and TTL, and every other memquill reader of
that user sees the distilled memory; search maps those memories back to their items.

Namespace semantics are LangGraph's own (a prefix search never returns an item outside the
prefix; filters and namespace matching reuse ``InMemoryStore``'s comparison functions).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)
from langgraph.store.memory import _compare_values, _does_match  # the reference semantics

from memquill import Memory, MemoryRecord, Status
from memquill.errors import ConflictError, NotFoundError
from memquill.integrations.namespaces import Directory, Namespace, NamespaceMap, subject
from memquill.interfaces.remember import as_request
from memquill.model import (
    Audit,
    Create,
    Event,
    MemoryType,
    Revision,
    RevisionOp,
    Role,
    Source,
    Trust,
    Update,
)
from memquill.model.query import RecordFilter

ATTR = "langgraph"
LIVE = frozenset({Status.ACTIVE, Status.CANDIDATE, Status.NEEDS_REVIEW, Status.ARCHIVED})


class MemquillStore(BaseStore):
    """``MemquillStore("memory.db")`` or a ``postgresql://`` URL, or an open ``Memory``."""

    supports_ttl = True

    def __init__(
        self,
        target: str | Memory | None = None,
        *,
        namespaces: NamespaceMap | None = None,
        write_content: bool = True,
    ) -> None:
        self.mem = target if isinstance(target, Memory) else Memory(target)
        self.map = namespaces or NamespaceMap()
        self.write_content = write_content
        self.directory = Directory(self.mem, self.map.tenant)

    def close(self) -> None:
        self.mem.close()

    # --- the BaseStore contract ------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                rec = self._record(op.namespace, op.key)
                results.append(None if rec is None else _item(rec).as_item())
            elif isinstance(op, PutOp):
                self._put(op) if op.value is not None else self._delete(op.namespace, op.key)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise ValueError(f"unknown operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """The engine is synchronous; run it off the event loop."""
        import asyncio

        return await asyncio.to_thread(self.batch, list(ops))

    # --- items -----------------------------------------------------------------------------
    def _record(self, namespace: Namespace, key: str) -> MemoryRecord | None:
        found = self.mem.store.find(
            RecordFilter(
                self.map.scope(namespace),
                subject=subject(namespace),
                key=key,
                exact_scope=True,
                at=self.mem.clock.now(),
            ),
            limit=1,
        )
        return found[0] if found else None

    def _items(self, namespace: Namespace) -> list[MemoryRecord]:
        recs = self.mem.store.find(
            RecordFilter(
                self.map.scope(namespace),
                subject=subject(namespace),
                exact_scope=True,
                at=self.mem.clock.now(),
            )
        )
        return sorted(recs, key=lambda r: (r.created_at, r.id))

    def _put(self, op: PutOp) -> None:
        now = self.mem.clock.now()
        ns, value = tuple(op.namespace), dict(op.value or {})
        old = self._record(ns, op.key)
        event = self._log(ns, op.key, value, now)
        text = _text(value, op.index)
        rec = MemoryRecord(
            id=old.id if old else f"mem-{uuid.uuid4().hex[:20]}",
            revision=old.revision + 1 if old else 1,
            type=MemoryType.FACT,
            scope=self.map.scope(ns),
            subject=subject(ns),
            key=op.key,
            content=text or op.key,
            confidence=0.9,
            source=Source.INFERRED,
            status=Status.ACTIVE,
            evidence=[event.id],
            actor="langgraph",
            created_at=old.created_at if old else now,
            updated_at=now,
            expires_at=None if op.ttl is None else now + timedelta(minutes=op.ttl),
            attributes={ATTR: {"namespace": list(ns), "key": op.key, "value": value}},
        )
        emb = None
        if op.index is not False and self.mem.embedder is not None:
            emb = self.mem.embedder.embed_passages([text])[0].tolist()
        audit = Audit(RevisionOp.UPDATE if old else RevisionOp.ADD, "langgraph", "LangGraph put", (event.id,))
        self.mem.store.apply([Update(rec, old.revision, audit, emb) if old else Create(rec, audit, emb)])
        self.directory.add(ns)
        if self.write_content and isinstance(value.get("content"), str) and value["content"].strip():
            self.mem.add(
                as_request(value["content"]),
                role="assistant",
                source="agent",
                id=f"{event.id}-content",
                **self.map.writer(ns),
            )
        if old is not None:  # after the new content, so a repeated statement is merged, not lost
            self._forget_derived(old, keep=event.id)

    def _log(self, ns: Namespace, key: str, value: dict[str, Any], now: datetime) -> Event:
        """The evidence event of a put: the exact value, logged before the record changes."""
        body = json.dumps(
            {"namespace": list(ns), "key": key, "value": value},
            ensure_ascii=False,
            sort_keys=True,
            default=str,
        )
        digest = hashlib.sha256(body.encode()).hexdigest()[:24]
        event = Event(
            id=f"lg-{digest}-{now.timestamp():.6f}",
            scope=self.map.scope(ns),
            role=Role.SYSTEM,
            source=Trust.AGENT,
            content=body,
            occurred_at=now,
            metadata={"kind": "langgraph_put"},
        )
        return self.mem.store.append_event(event)[0]

    def _delete(self, namespace: Namespace, key: str) -> None:
        rec = self._record(tuple(namespace), key)
        if rec is None:
            return
        self._forget_derived(rec)
        self.mem.forget(rec.id, reason="LangGraph delete", actor="langgraph")
        if not self._items(tuple(namespace)):
            self.directory.drop(tuple(namespace))

    def _forget_derived(self, item: MemoryRecord, keep: str | None = None) -> None:
        """Memories distilled from an item's earlier content go with that content."""
        content_ids = {f"{e}-content" for e in item.evidence if e != keep}
        ns = tuple(item.attributes[ATTR]["namespace"])
        for rec in self.mem.records(statuses=None, **self.map.writer(ns)):
            # superseded versions are history and stay; what is still current goes
            if rec.status in LIVE and set(rec.evidence) and set(rec.evidence) <= content_ids:
                try:
                    self.mem.forget(rec.id, reason="its LangGraph item changed", actor="langgraph")
                except (ConflictError, NotFoundError):  # changed or gone meanwhile
                    continue

    # --- search and listing --------------------------------------------------------------------
    def _namespaces(self, prefix: Namespace = ()) -> list[Namespace]:
        n = len(prefix)
        return [ns for ns in self.directory.all() if ns[:n] == tuple(prefix)]

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        items = sorted(
            (r for ns in self._namespaces(prefix) for r in self._items(ns)),
            key=lambda r: (r.created_at, r.id),
        )
        if op.filter:
            wanted = op.filter.items()
            items = [r for r in items if all(_compare_values(_value(r).get(k), v) for k, v in wanted)]
        if not op.query:
            return [_item(r, None) for r in items[op.offset : op.offset + op.limit]]
        scores = self._scores(op.query, items)
        ranked = sorted(items, key=lambda r: -scores.get(r.id, -1.0))
        return [_item(r, scores.get(r.id)) for r in ranked[op.offset : op.offset + op.limit]]

    def _scores(self, query: str, items: list[MemoryRecord]) -> dict[str, float]:
        """memquill's hybrid retrieval per scope; a distilled memory scores for its item."""
        by_event = {f"{e}-content": r.id for r in items for e in r.evidence}
        wanted = {r.id for r in items}
        scopes = {
            json.dumps(self.map.reader(tuple(r.attributes[ATTR]["namespace"])), sort_keys=True) for r in items
        }
        scores: dict[str, float] = {}
        for s in scopes:
            for hit in self.mem.search(query, k=max(50, len(items)), **json.loads(s)):
                direct = [hit.memory.id] if hit.memory.id in wanted else []
                for owner in direct or [by_event[e] for e in hit.memory.evidence if e in by_event]:
                    scores[owner] = max(scores.get(owner, 0.0), float(hit.score))
        return scores

    def _list_namespaces(self, op: ListNamespacesOp) -> list[Namespace]:
        found = [ns for ns in self.directory.all() if self._items(ns)]
        if op.match_conditions:
            found = [ns for ns in found if all(_does_match(c, ns) for c in op.match_conditions)]
        listed = sorted({ns[: op.max_depth] for ns in found} if op.max_depth is not None else set(found))
        return listed[op.offset : op.offset + op.limit]

    def forget_user(self, user: str) -> dict[str, int]:
        """Erase a user (``Memory.forget_scope``) and blank their namespaces in the directory,
        so no namespace naming them is left behind."""
        for ns in self.directory.all():
            if self.map.scope(ns).user == user:
                self.directory.drop(ns)
        return self.mem.forget_scope(tenant=self.map.tenant, user=user)

    def history(self, namespace: Namespace, key: str) -> list[Revision]:
        """Every version of an item (memquill keeps what LangGraph overwrites)."""
        rec = self._record(tuple(namespace), key)
        return [] if rec is None else self.mem.history(rec.id)


def _value(rec: MemoryRecord) -> dict[str, Any]:
    return dict(rec.attributes[ATTR]["value"])


class _Found(SearchItem):
    """A search hit that can also be handed out as the plain ``Item`` that ``get`` returns."""

    def as_item(self) -> Item:
        return Item(
            value=self.value,
            key=self.key,
            namespace=self.namespace,
            created_at=self.created_at,
            updated_at=self.updated_at,
        )


def _item(rec: MemoryRecord, score: float | None = None) -> _Found:
    a = rec.attributes[ATTR]
    return _Found(
        namespace=tuple(a["namespace"]),
        key=a["key"],
        value=dict(a["value"]),
        created_at=rec.created_at,
        updated_at=rec.updated_at,
        score=score,
    )


def _text(value: dict[str, Any], index: list[str] | bool | None) -> str:
    """What an item is searched by: its ``content``, the indexed fields, or the whole value."""
    if isinstance(index, list):
        parts = [value.get(f.split(".")[0]) for f in index]
        return " ".join(
            p if isinstance(p, str) else json.dumps(p, ensure_ascii=False) for p in parts if p is not None
        )
    if isinstance(value.get("content"), str):
        return str(value["content"])
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


__all__ = ["Item", "MemquillStore", "NamespaceMap"]
