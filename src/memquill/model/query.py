"""Record filters and jobs: the read-side and queue vocabulary shared by every Store.

``matches`` is the pure-Python oracle: every backend must select exactly the records
it selects (property-tested).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memquill.model.record import MemoryRecord, MemoryType, Status
from memquill.model.scope import Scope

ACTIVE_ONLY: frozenset[Status] = frozenset({Status.ACTIVE})
# Statuses a point-in-time query may see: superseded versions were true until valid_to.
TEMPORAL: frozenset[Status] = frozenset({Status.ACTIVE, Status.SUPERSEDED})


@dataclass(frozen=True)
class RecordFilter:
    """Which records a reader may see.

    ``at`` applies the validity filter (``valid_from <= at < valid_to`` and not expired);
    ``None`` skips it (history, audit). ``statuses=None`` means every status.
    """

    reader: Scope
    statuses: frozenset[Status] | None = ACTIVE_ONLY
    types: frozenset[MemoryType] | None = None
    at: datetime | None = None
    subject: str | None = None
    key: str | None = None
    exact_scope: bool = False  # True: the record's scope must equal ``reader`` (slot lookup)
    owner: bool = False  # True: every record of reader's tenant+user, any binding (maintenance)


def matches(record: MemoryRecord, f: RecordFilter) -> bool:
    """The reference semantics of ``RecordFilter``."""
    if f.owner:
        if (record.scope.tenant, record.scope.user) != (f.reader.tenant, f.reader.user):
            return False
    elif f.exact_scope:
        if record.scope != f.reader:
            return False
    elif not record.scope.visible_to(f.reader):
        return False
    if f.statuses is not None and record.status not in f.statuses:
        return False
    if f.types is not None and record.type not in f.types:
        return False
    if f.subject is not None and record.subject != f.subject:
        return False
    if f.key is not None and record.key != f.key:
        return False
    return f.at is None or record.valid_at(f.at)


# Claims a job may take when its workers keep dying (expired leases), as a multiple of
# ``max_attempts``: a crash is rarely the job's fault, a raised exception is.
CRASH_TOLERANCE = 3


class JobStatus:
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    DEAD = "dead"


@dataclass
class Job:
    """A durable unit of background work. ``key`` makes enqueueing idempotent."""

    kind: str
    key: str
    scope: Scope
    payload: dict[str, Any] = field(default_factory=dict)
    ref: str | None = None  # what the job is about within its owner (an event id…), a column of its own
    id: int | None = None
    status: str = JobStatus.QUEUED
    attempts: int = 0
    max_attempts: int = 5
    run_after: datetime | None = None
    lease_until: datetime | None = None
    last_error: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None


def job_key(kind: str, scope: Scope, *parts: str) -> str:
    """The idempotency key of a job: kind, owner and parts, each escaped so that no two
    different part lists give the same key (a ``:`` inside a tenant or id cannot forge one)."""

    def esc(part: str) -> str:
        return part.replace("%", "%25").replace(":", "%3A")

    return ":".join(esc(p) for p in (kind, scope.tenant, scope.user, *parts))


@dataclass(frozen=True)
class Access:
    """One retrieval of one memory, for audit and utilisation metrics."""

    memory_id: str
    scope: Scope
    query: str
    rank: int
    score: float
    at: datetime
