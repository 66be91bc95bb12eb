"""The memory record and its revisions (DESIGN §3)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from memquill.model.scope import Scope


class MemoryType(StrEnum):
    PREFERENCE = "preference"
    FACT = "fact"
    DECISION = "decision"
    TASK_STATE = "task_state"
    TASK_OUTCOME = "task_outcome"
    PROCEDURE = "procedure"
    EPISODE = "episode"
    TEMPORARY = "temporary"


class Status(StrEnum):
    CANDIDATE = "candidate"
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    INVALIDATED = "invalidated"
    NEEDS_REVIEW = "needs_review"
    ARCHIVED = "archived"
    EXPIRED = "expired"
    DELETED = "deleted"


class Source(StrEnum):
    """How the record's content was obtained; orders trust (rule 6)."""

    EXPLICIT = "explicit"
    OBSERVED = "observed"
    INFERRED = "inferred"
    EXTERNAL = "external"


SOURCE_RANK = {Source.EXPLICIT: 3, Source.OBSERVED: 2, Source.INFERRED: 1, Source.EXTERNAL: 0}


class Polarity(StrEnum):
    POSITIVE = "positive"
    NEGATIVE = "negative"


class MemoryRecord(BaseModel):
    """A versioned memory. ``revision`` increments on every change."""

    model_config = ConfigDict(validate_assignment=False)

    id: str
    revision: int = 1
    type: MemoryType
    scope: Scope
    subject: str
    key: str
    value: str | None = None
    content: str
    polarity: Polarity = Polarity.POSITIVE
    conditions: list[str] = Field(default_factory=list)
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    expires_at: datetime | None = None
    # when the thing it describes happens (a trip, a meeting): used by time-aware retrieval
    when_start: datetime | None = None
    when_end: datetime | None = None
    # when the newest evidence was said: recency and time windows for replayed histories
    observed_at: datetime | None = None
    confidence: float = Field(ge=0.0, le=1.0)
    source: Source
    status: Status = Status.ACTIVE
    supersedes: str | None = None
    superseded_by: str | None = None
    conflicts_with: list[str] = Field(default_factory=list)
    evidence: list[str] = Field(min_length=1)
    actor: str = "memquill"
    created_at: datetime
    updated_at: datetime
    last_accessed_at: datetime | None = None
    access_count: int = 0
    useful_count: int = 0
    read_only: bool = False
    language: str = "en"
    attributes: dict[str, Any] = Field(default_factory=dict)

    def valid_at(self, at: datetime) -> bool:
        """Holds in the world at ``at`` and has not expired by then."""
        if self.valid_from is not None and at < self.valid_from:
            return False
        if self.valid_to is not None and at >= self.valid_to:
            return False
        return self.expires_at is None or at < self.expires_at


class RevisionOp(StrEnum):
    ADD = "add"
    UPDATE = "update"
    SUPERSEDE = "supersede"
    INVALIDATE = "invalidate"
    MERGE = "merge"
    FLAG = "flag"
    RESOLVE = "resolve"
    EXPIRE = "expire"
    ARCHIVE = "archive"
    REACTIVATE = "reactivate"
    PROMOTE = "promote"
    FEEDBACK = "feedback"
    FORGET = "forget"


class Revision(BaseModel):
    """One change to a record, as written in the same transaction as the change."""

    memory_id: str
    revision: int
    op: RevisionOp
    actor: str
    reason: str
    event_ids: list[str] = Field(default_factory=list)
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    at: datetime
