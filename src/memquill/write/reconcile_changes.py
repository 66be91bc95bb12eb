"""The typed changes each reconcile outcome writes (pure: records in, ``Change``s out).

``reconcile.decide`` picks the outcome; these builders spell out what it means for the
records involved — new versions, status moves, version-chain links and audit reasons —
so the rules read as a short list of conditions.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memquill.model import (
    Audit,
    Candidate,
    Change,
    Create,
    MemoryRecord,
    RevisionOp,
    Source,
    Status,
    Update,
)
from memquill.providers.base import Vector
from memquill.write.reconcile_model import (
    Decision,
    Embed,
    Op,
    Policy,
    Proposal,
    View,
    start_of,
)

# Fields a record takes over from its candidate as they are.
COPIED = (
    "type",
    "subject",
    "key",
    "value",
    "content",
    "polarity",
    "valid_from",
    "valid_to",
    "expires_at",
    "when_start",
    "when_end",
    "observed_at",
    "confidence",
    "source",
    "language",
)


def new_record(p: Proposal, status: Status) -> MemoryRecord:
    """The record a candidate becomes in the proposal's scope."""
    c = p.candidate
    return MemoryRecord(
        **{f: getattr(c, f) for f in COPIED},
        id=p.new_id(),
        scope=p.scope,
        conditions=list(c.conditions),
        status=status,
        evidence=list(dict.fromkeys(c.evidence)),
        actor=p.actor,
        created_at=p.now,
        updated_at=p.now,
        attributes={**c.attributes, "rule": c.rule} if c.rule else dict(c.attributes),
    )


def initial_status(c: Candidate, policy: Policy) -> Status:
    """Active only when trusted, confident, worth keeping and not awaiting confirmation."""
    if c.source is Source.EXTERNAL and not policy.external_can_activate:
        return Status.CANDIDATE
    if c.confidence < policy.confidence_floor or c.worthiness < 0.5:
        return Status.CANDIDATE
    if c.attributes.get("needs_confirmation"):
        return Status.CANDIDATE
    return Status.ACTIVE


def nothing(p: Proposal, target: MemoryRecord, why: str) -> Decision:
    """A NOOP that writes nothing."""
    return Decision(Op.NOOP, p.candidate, p.scope, why, target.id, target=target)


def add(p: Proposal, policy: Policy, why: str, embed: Embed) -> Decision:
    c = p.candidate
    rec = new_record(p, initial_status(c, policy))
    audit = Audit(RevisionOp.ADD, p.actor, why, tuple(c.evidence))
    return Decision(Op.ADD, c, p.scope, why, rec.id, changes=(Create(rec, audit, _emb(embed())),))


def merge(p: Proposal, policy: Policy, cur: MemoryRecord, why: str) -> Decision:
    """NOOP with new evidence: merged in; an archived record is reactivated and a recurring
    candidate promoted."""
    c = p.candidate
    new_ev = [e for e in c.evidence if e not in cur.evidence]
    if not new_ev:
        return nothing(p, cur, "already known from the same evidence")
    evidence = [*cur.evidence, *new_ev]
    status, op = cur.status, RevisionOp.MERGE
    if cur.status is Status.ARCHIVED:
        status, op = Status.ACTIVE, RevisionOp.REACTIVATE
        why += "; confirmed again, reactivated"
    elif (
        cur.status is Status.CANDIDATE
        and len(evidence) >= policy.promote_after
        and (c.source is not Source.EXTERNAL or policy.external_can_activate)
    ):
        status, op = Status.ACTIVE, RevisionOp.PROMOTE
        why += "; recurred, promoted to active"
    observed = max((t for t in (cur.observed_at, c.observed_at) if t), default=None)
    updated = _next(
        cur,
        p.now,
        evidence=evidence,
        status=status,
        confidence=min(0.99, max(cur.confidence, c.confidence) + 0.03),
        observed_at=observed,
    )
    change = Update(updated, cur.revision, Audit(op, p.actor, why, tuple(new_ev)), reindex=False)
    return Decision(Op.NOOP, c, p.scope, why, cur.id, target=cur, changes=(change,))


def flag(p: Proposal, cur: MemoryRecord, why: str, embed: Embed) -> Decision:
    """Cannot decide: both kept, the new one ``needs_review``, linked both ways."""
    c = p.candidate
    rec = new_record(p, Status.NEEDS_REVIEW)
    rec.conflicts_with = [cur.id]
    flagged = _next(cur, p.now, conflicts_with=[*cur.conflicts_with, rec.id])
    audit = Audit(RevisionOp.FLAG, p.actor, why, tuple(c.evidence))
    changes = (
        Create(rec, audit, _emb(embed())),
        Update(flagged, cur.revision, audit, reindex=False),
    )
    return Decision(Op.FLAG, c, p.scope, why, rec.id, target=cur, changes=changes)


def supersede(
    p: Proposal, policy: Policy, cur: MemoryRecord, start: datetime, embed: Embed, reason: str | None = None
) -> Decision:
    """Same slot, new value: the old version ends where the new one starts (``reason``: why
    the new value could replace it, when not the usual "same slot, new value")."""
    c = p.candidate
    rec = new_record(p, initial_status(c, policy))
    rec.valid_from, rec.supersedes = start, cur.id
    old = _next(cur, p.now, status=Status.SUPERSEDED, valid_to=start, superseded_by=rec.id)
    why = f"{reason or 'same slot, new value'} (was: {cur.value or cur.content})"
    audit = Audit(RevisionOp.SUPERSEDE, p.actor, why, tuple(c.evidence))
    said = f"{reason or 'new value of the slot'}; supersedes {cur.id}"
    added = Audit(RevisionOp.ADD, p.actor, said, tuple(c.evidence))
    changes = (
        Update(old, cur.revision, audit, reindex=False),
        Create(rec, added, _emb(embed())),
    )
    return Decision(Op.UPDATE, c, p.scope, why, rec.id, target=cur, changes=changes)


def insert_history(p: Proposal, view: View, cur: MemoryRecord, start: datetime, embed: Embed) -> Decision:
    """Older information processed late: link it into the version chain where it belongs,
    between the version current at ``start`` and its successor."""
    c = p.candidate
    succ, prev = cur, view.record(cur.supersedes)
    while prev is not None and (began := start_of(prev)) is not None and start < began:
        succ, prev = prev, view.record(prev.supersedes)
    why = "older value of this slot, kept as history"
    audit = Audit(RevisionOp.ADD, p.actor, why, tuple(c.evidence))
    rec = new_record(p, Status.SUPERSEDED)
    rec.valid_from, rec.valid_to = start, start_of(succ)
    rec.superseded_by, rec.supersedes = succ.id, prev.id if prev else None
    linked = Audit(RevisionOp.UPDATE, p.actor, f"version chain: {rec.id} inserted", tuple(c.evidence))
    after = _next(succ, p.now, supersedes=rec.id, valid_from=succ.valid_from or start_of(succ))
    changes: list[Change] = [
        Create(rec, audit, _emb(embed())),
        Update(after, succ.revision, linked, reindex=False),
    ]
    if prev is not None:
        before = _next(prev, p.now, superseded_by=rec.id, valid_to=start)
        changes.append(Update(before, prev.revision, linked, reindex=False))
    return Decision(Op.ADD, c, p.scope, why, rec.id, target=cur, changes=tuple(changes))


def end(p: Proposal, cur: MemoryRecord) -> Decision:
    """The user ended what the record holds ("Netflix is cancelled"): it held until the turn
    said so, and nothing new is written (``write/endings.py``)."""
    c = p.candidate
    why = "ended by the user"
    old = _next(cur, p.now, status=Status.INVALIDATED, valid_to=c.observed_at or p.now)
    audit = Audit(RevisionOp.INVALIDATE, p.actor, why, tuple(c.evidence))
    changes = (Update(old, cur.revision, audit, reindex=False),)
    return Decision(Op.INVALIDATE, c, p.scope, why, cur.id, target=cur, changes=changes)


def invalidate(p: Proposal, policy: Policy, cur: MemoryRecord, embed: Embed) -> Decision:
    """The old value no longer holds (it ended), or never held (a correction)."""
    c = p.candidate
    start = c.valid_from or c.observed_at or p.now
    correction = bool(c.attributes.get("correction"))
    why = "corrected by the user" if correction else "no longer holds"
    rec = new_record(p, initial_status(c, policy))
    rec.valid_from, rec.supersedes = start, cur.id
    old = _next(
        cur,
        p.now,
        status=Status.INVALIDATED,
        valid_to=cur.valid_from if correction else start,
        superseded_by=rec.id,
    )
    audit = Audit(RevisionOp.INVALIDATE, p.actor, why, tuple(c.evidence))
    changes = (
        Update(old, cur.revision, audit, reindex=False),
        Create(rec, Audit(RevisionOp.ADD, p.actor, why, tuple(c.evidence)), _emb(embed())),
    )
    return Decision(Op.INVALIDATE, c, p.scope, why, rec.id, target=cur, changes=changes)


def _next(cur: MemoryRecord, now: datetime, **fields: Any) -> MemoryRecord:
    """The following revision of ``cur`` with ``fields`` changed."""
    return cur.model_copy(update={"revision": cur.revision + 1, "updated_at": now, **fields})


def _emb(vec: Vector | None) -> list[float] | None:
    return None if vec is None else vec.tolist()
