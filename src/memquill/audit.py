"""Explanations and the review queue: why a memory exists, and human decisions on conflicts."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from memquill.errors import NotFoundError, ValidationError
from memquill.model import Audit, Change, Event, MemoryRecord, Revision, RevisionOp, Status, Update
from memquill.model.query import RecordFilter
from memquill.model.scope import Scope
from memquill.store.base import Store


class Explanation(BaseModel):
    """events → versions → why it is remembered."""

    memory: MemoryRecord
    events: list[Event] = Field(default_factory=list)
    history: list[Revision] = Field(default_factory=list)
    chain: list[MemoryRecord] = Field(default_factory=list)  # oldest version first
    conflicts: list[MemoryRecord] = Field(default_factory=list)
    why: list[str] = Field(default_factory=list)
    erased: dict[str, datetime] = Field(default_factory=dict)  # evidence event id → when erased

    def as_text(self) -> str:
        lines = [f"{self.memory.id} [{self.memory.status.value}] {self.memory.content}"]
        lines += [f"  because: {w}" for w in self.why]
        lines += [f"  from event {e.id} ({e.occurred_at.isoformat()}): {e.content}" for e in self.events]
        lines += [f"  from event {i}: erased {at.isoformat()}" for i, at in self.erased.items()]
        lines += [f"  r{r.revision} {r.op.value} by {r.actor}: {r.reason}" for r in self.history]
        return "\n".join(lines)


def version_chain(store: Store, rec: MemoryRecord, limit: int = 50) -> list[MemoryRecord]:
    """All versions of a slot linked through supersedes/superseded_by, oldest first."""
    back: list[MemoryRecord] = []
    cur = rec
    while cur.supersedes and len(back) < limit:
        prev = store.get(cur.supersedes)
        if prev is None:
            break
        back.append(prev)
        cur = prev
    fwd: list[MemoryRecord] = []
    cur = rec
    while cur.superseded_by and len(fwd) < limit:
        nxt = store.get(cur.superseded_by)
        if nxt is None:
            break
        fwd.append(nxt)
        cur = nxt
    return [*reversed(back), rec, *fwd]


def explain(store: Store, memory_id: str) -> Explanation:
    rec = store.get(memory_id)
    if rec is None:
        raise NotFoundError(f"no memory {memory_id!r}")
    history = store.history(memory_id)
    why = []
    if rec.attributes.get("rule"):
        why.append(
            f"extracted by {rec.attributes['rule']} (confidence {rec.confidence:.2f}, "
            f"source {rec.source.value})"
        )
    if rec.attributes.get("policy"):
        why.append(f"written under write policy {rec.attributes['policy']}")
    why += [f"{r.op.value}: {r.reason}" for r in history]
    if rec.supersedes:
        why.append(f"replaced {rec.supersedes}")
    if rec.superseded_by:
        why.append(f"replaced by {rec.superseded_by}")
    erased = store.erased(rec.scope, rec.evidence)
    if erased:
        why.append(f"{len(erased)} evidence event(s) erased")
    return Explanation(
        memory=rec,
        events=store.get_events(rec.scope, rec.evidence),
        history=history,
        chain=version_chain(store, rec),
        conflicts=store.get_many(rec.conflicts_with),
        why=why,
        erased=erased,
    )


class ReviewItem(BaseModel):
    memory: MemoryRecord
    conflicts_with: list[MemoryRecord] = Field(default_factory=list)


REVIEWABLE = frozenset({Status.NEEDS_REVIEW, Status.CANDIDATE})


def review_queue(store: Store, reader: Scope, include_candidates: bool = False) -> list[ReviewItem]:
    statuses = REVIEWABLE if include_candidates else frozenset({Status.NEEDS_REVIEW})
    items = store.find(RecordFilter(reader, statuses=statuses))
    return [ReviewItem(memory=r, conflicts_with=store.get_many(r.conflicts_with)) for r in items]


Action = Literal["accept", "reject", "keep_both"]


def load_review(store: Store, memory_id: str) -> ReviewItem:
    """The I/O half of a review decision: the record and the records it conflicts with."""
    rec = store.get(memory_id)
    if rec is None:
        raise NotFoundError(f"no memory {memory_id!r}")
    return ReviewItem(memory=rec, conflicts_with=store.get_many(rec.conflicts_with))


def decide_review(item: ReviewItem, action: Action, actor: str, reason: str, now: datetime) -> list[Change]:
    """The changes a human decision on a flagged (or candidate) record makes, applied
    atomically. Pure: reads only ``item``, so it is tested without a database."""
    rec = item.memory
    if rec.status not in REVIEWABLE:
        raise ValidationError(f"memory {rec.id} is {rec.status.value}, not awaiting review")
    if action not in ("accept", "reject", "keep_both"):
        raise ValidationError("action must be accept, reject or keep_both")
    audit = Audit(RevisionOp.RESOLVE, actor, f"{action}: {reason}".rstrip(": "), ())
    changes: list[Change] = []
    update: dict[str, Any] = {"revision": rec.revision + 1, "updated_at": now}
    if action == "reject":
        update |= {"status": Status.INVALIDATED, "valid_to": now}
    else:
        attrs = {k: v for k, v in rec.attributes.items() if k != "needs_confirmation"}
        update |= {"status": Status.ACTIVE, "valid_from": rec.valid_from or now, "attributes": attrs}
    for other in item.conflicts_with:
        o: dict[str, Any] = {
            "revision": other.revision + 1,
            "updated_at": now,
            "conflicts_with": [c for c in other.conflicts_with if c != rec.id],
        }
        if action == "accept" and other.status is Status.ACTIVE:
            o |= {"status": Status.SUPERSEDED, "valid_to": now, "superseded_by": rec.id}
            update["supersedes"] = other.id
        changes.append(Update(other.model_copy(update=o), other.revision, audit, reindex=False))
    if action != "keep_both":
        update["conflicts_with"] = []
    changes.insert(0, Update(rec.model_copy(update=update), rec.revision, audit, reindex=False))
    return changes
