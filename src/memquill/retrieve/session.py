"""The whole read path of ``search()``: ranked records, archived memories brought back by
use, and the session's not-yet-processed turns (read-your-writes before the worker runs)."""

from __future__ import annotations

import contextlib
from datetime import datetime

from memquill.errors import ConflictError
from memquill.maintain import lifecycle
from memquill.model import MemoryRecord, Status
from memquill.model.log import QueryLog
from memquill.model.result import Hit
from memquill.retrieve.pending import admissible, pending_hits
from memquill.retrieve.pipeline import Query, Retriever
from memquill.retrieve.superseded import Replaced
from memquill.store.base import Store


def search(retriever: Retriever, store: Store, q: Query, now: datetime) -> list[Hit]:
    hits = retriever.search(q)
    asked = None if q.types is None else sorted(t.value for t in q.types)
    store.log_query(QueryLog(q.reader, q.text, q.k, now, [h.memory.id for h in hits], asked))  # misses too
    reactivate(store, [h.memory for h in hits if h.memory.status is Status.ARCHIVED], now)
    return with_pending(store, q, hits)


def reactivate(store: Store, records: list[MemoryRecord], now: datetime) -> None:
    """An archived memory that is used again comes back to default retrieval."""
    for rec in records:
        with contextlib.suppress(ConflictError):  # changed meanwhile: that version stands
            store.apply([lifecycle.reactivation(rec, now, "accessed again")])


def with_pending(store: Store, q: Query, hits: list[Hit]) -> list[Hit]:
    """Merge the session's pending turns into ``hits`` (current-time reads only)."""
    if not q.reader.session or q.at is not None or q.include_history:
        return hits
    pending = admissible(store.pending_events(q.reader, q.reader.session), q.reader)
    if not pending:
        return hits
    fresh = [h for h in pending_hits(q.text, pending, q.k) if not replaced_in(hits).outdated(h.memory)]
    return sorted([*hits, *fresh], key=lambda h: -h.score)[: q.k]


def replaced_in(hits: list[Hit]) -> Replaced:
    """What the slot answers among ``hits`` hold now and no longer hold (``why``)."""
    out = Replaced()
    for h in hits:
        if h.why.get("path") == "slot":
            out.current.add(h.memory.value or "")
            out.old |= set(h.why.get("replaced", ()))
    out.current.discard("")
    return out
