"""Writes as a closed union of small typed ops, applied by ``Store.apply`` atomically.

Each op carries the audit fields of the revision the store writes for it, so a
change and its history can never drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from memquill.model.record import MemoryRecord, RevisionOp, Status
from memquill.model.scope import Scope

SLOT_OPEN = frozenset({Status.ACTIVE, Status.CANDIDATE, Status.NEEDS_REVIEW, Status.ARCHIVED})


@dataclass(frozen=True)
class Audit:
    op: RevisionOp
    actor: str
    reason: str
    event_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Create:
    """Insert a new record (revision 1). Fails if the id exists."""

    record: MemoryRecord
    audit: Audit
    embedding: list[float] | None = None


@dataclass(frozen=True)
class Update:
    """Replace a record whose stored revision is ``expected_revision``.

    ``record.revision`` must be ``expected_revision + 1``. A stale expectation raises
    ``ConflictError`` and rolls the whole batch back.
    """

    record: MemoryRecord
    expected_revision: int
    audit: Audit
    embedding: list[float] | None = None
    reindex: bool = True  # False when content did not change (skip FTS/vector work)


@dataclass(frozen=True)
class Purge:
    """Erase a record's content everywhere (record, revisions, indexes); keep a tombstone."""

    memory_id: str
    audit: Audit
    at: datetime
    expected_revision: int | None = None
    # Evidence events to tombstone in the same transaction, so no job, episode or pending
    # read can bring the forgotten words back.
    erase_events: tuple[str, ...] = ()


@dataclass(frozen=True)
class SlotGuard:
    """Fails the batch (ConflictError) unless the open records of one slot — same exact
    scope, subject and key, status in ``SLOT_OPEN`` — are exactly ``open_ids``.

    Optimistic concurrency for decisions that *add*: two writers who both saw an empty slot
    cannot both create an active record in it; the loser re-decides.
    """

    scope: Scope
    subject: str
    key: str
    open_ids: frozenset[str]


Change = Create | Update | Purge | SlotGuard


@dataclass
class ApplyResult:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    purged: list[str] = field(default_factory=list)
