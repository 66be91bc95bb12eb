"""Small builders for Store conformance and property tests: records, changes, events, jobs.

Everything is built through the public model only, so the same helpers serve every backend.
Times are fixed (``T0``) so no test depends on the wall clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import numpy.typing as npt

from memquill.model import (
    Audit,
    Create,
    Event,
    MemoryRecord,
    MemoryType,
    Purge,
    RevisionOp,
    Role,
    Scope,
    Source,
    Trust,
    Update,
)
from memquill.model.query import Job, RecordFilter
from memquill.providers.fake import HashEmbedder
from memquill.store.base import Store

T0 = datetime(2026, 11, 29, 2, 0, tzinfo=UTC)
DIM = 384
EMBEDDER = HashEmbedder(DIM)


def at(**delta: float) -> datetime:
    """``T0`` shifted by ``timedelta(**delta)``."""
    return T0 + timedelta(**delta)


def scope(user: str = "alice", tenant: str = "acme", **dims: str | None) -> Scope:
    return Scope(tenant=tenant, user=user, **dims)


# --- vectors ----------------------------------------------------------------------------
def vec(text: str) -> npt.NDArray[np.float32]:
    """The deterministic embedding of ``text`` (passage side)."""
    return EMBEDDER.embed_passages([text])[0]


def qvec(text: str) -> npt.NDArray[np.float32]:
    return EMBEDDER.embed_query(text)


# --- records and changes ------------------------------------------------------------------
def record(
    id: str,
    content: str = "the user drinks green tea",
    *,
    sc: Scope | None = None,
    **fields: Any,
) -> MemoryRecord:
    """A valid active record; any field can be overridden."""
    base: dict[str, Any] = {
        "id": id,
        "type": MemoryType.PREFERENCE,
        "scope": sc or scope(),
        "subject": "user",
        "key": "beverage",
        "content": content,
        "confidence": 0.9,
        "source": Source.EXPLICIT,
        "evidence": ["evt-1"],
        "actor": "user",
        "created_at": T0,
        "updated_at": T0,
    }
    base.update(fields)
    return MemoryRecord(**base)


def audit(
    op: RevisionOp = RevisionOp.ADD,
    actor: str = "tester",
    reason: str = "test",
    event_ids: Iterable[str] = ("evt-1",),
) -> Audit:
    return Audit(op=op, actor=actor, reason=reason, event_ids=tuple(event_ids))


def create(rec: MemoryRecord, *, embed: bool = True, a: Audit | None = None) -> Create:
    """A Create carrying the hash embedding of the content (unless ``embed`` is False)."""
    embedding = vec(rec.content).tolist() if embed else None
    return Create(rec, a or audit(), embedding=embedding)


def update(
    rec: MemoryRecord,
    *,
    a: Audit | None = None,
    expected: int | None = None,
    embed: bool = False,
    reindex: bool = True,
    **changes: Any,
) -> Update:
    """An Update of ``rec`` (as read from the store) to its next revision with ``changes``."""
    exp = rec.revision if expected is None else expected
    new = rec.model_copy(
        update={"revision": exp + 1, "updated_at": rec.updated_at + timedelta(minutes=1), **changes}
    )
    embedding = vec(new.content).tolist() if embed else None
    return Update(new, exp, a or audit(RevisionOp.UPDATE), embedding=embedding, reindex=reindex)


def purge(memory_id: str, reason: str = "user request", expected: int | None = None) -> Purge:
    return Purge(
        memory_id,
        audit(RevisionOp.FORGET, actor="alice", reason=reason, event_ids=()),
        at=at(hours=1),
        expected_revision=expected,
    )


def put(store: Store, *records: MemoryRecord, embed: bool = True) -> list[MemoryRecord]:
    """Create ``records`` in one batch and return them."""
    store.apply([create(r, embed=embed) for r in records])
    return list(records)


# --- events and jobs ----------------------------------------------------------------------
def event(
    id: str,
    content: str = "I never drink coffee",
    *,
    sc: Scope | None = None,
    role: Role = Role.USER,
    minutes: float = 0,
    **fields: Any,
) -> Event:
    return Event(
        id=id,
        scope=sc or scope(session="s1"),
        role=role,
        source=Trust.USER if role is Role.USER else Trust.AGENT,
        content=content,
        occurred_at=at(minutes=minutes),
        **fields,
    )


def job(
    key: str,
    kind: str = "extract",
    *,
    sc: Scope | None = None,
    run_after: datetime = T0,
    payload: dict[str, Any] | None = None,
) -> Job:
    return Job(
        kind=kind,
        key=key,
        scope=sc or scope(),
        payload=payload if payload is not None else {"key": key},
        run_after=run_after,
        created_at=T0,
    )


# --- reading -------------------------------------------------------------------------------
def ids(records: Sequence[MemoryRecord]) -> list[str]:
    return [r.id for r in records]


def hit_ids(hits: Sequence[tuple[str, float]]) -> list[str]:
    return [h[0] for h in hits]


def everything(reader: Scope, **kw: Any) -> RecordFilter:
    """A filter selecting every status of every type visible to ``reader``."""
    return RecordFilter(reader, statuses=None, **kw)
