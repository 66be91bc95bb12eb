"""Stage 6: reconcile a candidate with what is already known (DESIGN §4 rules 5–7).

Per candidate one decision — ADD, UPDATE (supersede), INVALIDATE, NOOP (merge evidence)
or FLAG (needs_review, linked by ``conflicts_with``) — expressed as typed changes that
``Store.apply`` writes in one transaction. Lookups are local: the same scope and slot
first, then lexical near-duplicates in that scope; never a scan of the store.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from difflib import SequenceMatcher
from enum import StrEnum

import numpy as np

from memquill.model import (
    SLOT_OPEN,
    SOURCE_RANK,
    Audit,
    Candidate,
    Change,
    Create,
    MemoryRecord,
    MemoryType,
    RevisionOp,
    Scope,
    SlotGuard,
    Source,
    Status,
    Update,
)
from memquill.model.query import RecordFilter
from memquill.providers.base import Vector
from memquill.store.base import Store
from memquill.text import norm_value, query_terms, tokens

OPEN = SLOT_OPEN


class Op(StrEnum):
    ADD = "add"
    UPDATE = "update"
    INVALIDATE = "invalidate"
    NOOP = "noop"
    FLAG = "flag"


@dataclass(frozen=True)
class Policy:
    """Who may overwrite what; thresholds come from Settings."""

    confidence_floor: float = 0.6
    duplicate_similarity: float = 0.92
    duplicate_overlap: float = 0.85  # ordered term overlap also required: e5 scores are compressed
    promote_after: int = 2  # evidence count that promotes a recurring candidate
    external_can_activate: bool = False


@dataclass
class Decision:
    op: Op
    candidate: Candidate
    scope: Scope
    reason: str
    memory_id: str
    target: MemoryRecord | None = None
    changes: list[Change] = field(default_factory=list)


def _conditions(items: list[str]) -> frozenset[str]:
    return frozenset(norm_value(c) for c in items if norm_value(c))


def _same_claim(c: Candidate, r: MemoryRecord) -> bool:
    cv = norm_value(c.value if c.value is not None else c.content)
    rv = norm_value(r.value if r.value is not None else r.content)
    return cv == rv and c.polarity == r.polarity


def _overlap(a: str, b: str) -> float:
    """Order-aware term similarity; 0 when the numbers differ (a number is a fact)."""
    ta, tb = tokens(a), tokens(b)
    if {t for t in ta if t.isdigit()} != {t for t in tb if t.isdigit()}:
        return 0.0
    return SequenceMatcher(None, ta, tb, autojunk=False).ratio()


class Reconciler:
    def __init__(self, store: Store, policy: Policy) -> None:
        self.store = store
        self.policy = policy

    # --- building records ---------------------------------------------------------------
    def new_record(
        self, c: Candidate, scope: Scope, now: datetime, actor: str, status: Status
    ) -> MemoryRecord:
        return MemoryRecord(
            id=f"mem-{uuid.uuid4().hex[:20]}",
            type=c.type, scope=scope, subject=c.subject, key=c.key, value=c.value,
            content=c.content, polarity=c.polarity, conditions=list(c.conditions),
            valid_from=c.valid_from, valid_to=c.valid_to, expires_at=c.expires_at,
            when_start=c.when_start, when_end=c.when_end, observed_at=c.observed_at,
            confidence=c.confidence,
            source=c.source, status=status, evidence=list(dict.fromkeys(c.evidence)),
            actor=actor, created_at=now, updated_at=now, language=c.language,
            attributes={**c.attributes, "rule": c.rule} if c.rule else dict(c.attributes),
        )  # fmt: skip

    def initial_status(self, c: Candidate) -> Status:
        if c.source is Source.EXTERNAL and not self.policy.external_can_activate:
            return Status.CANDIDATE
        if c.confidence < self.policy.confidence_floor or c.worthiness < 0.5:
            return Status.CANDIDATE
        if c.attributes.get("needs_confirmation"):
            return Status.CANDIDATE
        return Status.ACTIVE

    # --- the decision -------------------------------------------------------------------
    def decide(
        self, c: Candidate, scope: Scope, now: datetime, actor: str, vec: Vector | None = None,
        embed: Callable[[], Vector | None] | None = None,
    ) -> Decision:  # fmt: skip
        """One decision; its changes start with a guard on the slot state it was based on.

        ``embed`` computes the candidate's vector only when the decision needs it."""
        if c.type is MemoryType.TEMPORARY:
            return self._fresh(c, scope, now, actor, vec if vec is not None else _call(embed))
        everything = self.store.find(
            RecordFilter(reader=scope, exact_scope=True, statuses=None, subject=c.subject, key=c.key)
        )
        seen = next((r for r in everything if set(c.evidence) <= set(r.evidence)), None)
        if seen is not None:  # a re-run of work already done (retry, replay, crash)
            return Decision(Op.NOOP, c, scope, "already recorded from this evidence", seen.id, target=seen)
        d = self._decide(c, scope, now, actor, vec if vec is not None else _call(embed), everything)
        if d.changes:
            open_ids = frozenset(r.id for r in everything if r.status in OPEN)
            d.changes.insert(0, SlotGuard(scope, c.subject, c.key, open_ids))
        return d

    def _decide(
        self, c: Candidate, scope: Scope, now: datetime, actor: str, vec: Vector | None,
        everything: list[MemoryRecord],
    ) -> Decision:  # fmt: skip
        slot = [r for r in everything if r.status in OPEN]
        same_cond = [r for r in slot if _conditions(r.conditions) == _conditions(c.conditions)]
        if same_cond:
            return self._against(c, scope, now, actor, _pick(same_cond), vec)
        return self._fresh(c, scope, now, actor, vec)

    def _fresh(self, c: Candidate, scope: Scope, now: datetime, actor: str, vec: Vector | None) -> Decision:
        """No record in the slot: a near-duplicate elsewhere in the scope, or new.

        Task outcomes are never merged: each completion is evidence for consolidation."""
        dup = None if c.type is MemoryType.TASK_OUTCOME else self._near_duplicate(c, scope, vec)
        if dup is not None:
            return self._noop(c, scope, now, actor, dup, "near-duplicate of an existing memory")
        return self._add(c, scope, now, actor, "new information", vec)

    def _against(
        self, c: Candidate, scope: Scope, now: datetime, actor: str, cur: MemoryRecord,
        vec: Vector | None,
    ) -> Decision:  # fmt: skip
        ends = bool(c.attributes.get("ends"))
        if _same_claim(c, cur) and not ends:
            return self._noop(c, scope, now, actor, cur, "same slot, same value: evidence merged")
        if cur.read_only:
            return self._flag(c, scope, now, actor, cur, "conflicts with a read-only memory", vec)
        if SOURCE_RANK[c.source] < SOURCE_RANK[cur.source] and cur.status is Status.ACTIVE:
            return self._flag(
                c, scope, now, actor, cur,
                f"{c.source.value} source may not overwrite {cur.source.value} memory", vec,
            )  # fmt: skip
        if c.source is Source.EXTERNAL and not self.policy.external_can_activate:
            return self._flag(
                c, scope, now, actor, cur, "external content cannot replace memory", vec
            )
        if ends or c.attributes.get("correction"):
            return self._invalidate(c, scope, now, actor, cur, vec)
        return self._supersede(c, scope, now, actor, cur, vec)

    def _add(
        self, c: Candidate, scope: Scope, now: datetime, actor: str, why: str, vec: Vector | None
    ) -> Decision:
        rec = self.new_record(c, scope, now, actor, self.initial_status(c))
        audit = Audit(RevisionOp.ADD, actor, why, tuple(c.evidence))
        return Decision(Op.ADD, c, scope, why, rec.id, changes=[Create(rec, audit, _emb(vec))])

    def _noop(
        self, c: Candidate, scope: Scope, now: datetime, actor: str, cur: MemoryRecord, why: str
    ) -> Decision:
        new_ev = [e for e in c.evidence if e not in cur.evidence]
        d = Decision(Op.NOOP, c, scope, why, cur.id, target=cur)
        if not new_ev:
            d.reason = "already known from the same evidence"
            return d
        evidence = [*cur.evidence, *new_ev]
        status = cur.status
        if status is Status.ARCHIVED:
            status = Status.ACTIVE
            why += "; confirmed again, reactivated"
        elif (
            status is Status.CANDIDATE
            and len(evidence) >= self.policy.promote_after
            and (c.source is not Source.EXTERNAL or self.policy.external_can_activate)
        ):
            status = Status.ACTIVE
            why += "; recurred, promoted to active"
        updated = cur.model_copy(
            update={
                "revision": cur.revision + 1, "evidence": evidence, "status": status,
                "confidence": min(0.99, max(cur.confidence, c.confidence) + 0.03),
                "updated_at": now,
                "observed_at": max((t for t in (cur.observed_at, c.observed_at) if t), default=None),
            }
        )  # fmt: skip
        op = {Status.ARCHIVED: RevisionOp.REACTIVATE, Status.CANDIDATE: RevisionOp.PROMOTE}.get(
            cur.status, RevisionOp.MERGE) if status is not cur.status else RevisionOp.MERGE  # fmt: skip
        d.changes = [Update(updated, cur.revision, Audit(op, actor, why, tuple(new_ev)), reindex=False)]
        d.reason = why
        return d

    def _flag(
        self, c: Candidate, scope: Scope, now: datetime, actor: str, cur: MemoryRecord, why: str,
        vec: Vector | None,
    ) -> Decision:  # fmt: skip
        rec = self.new_record(c, scope, now, actor, Status.NEEDS_REVIEW)
        rec.conflicts_with = [cur.id]
        flagged = cur.model_copy(
            update={"revision": cur.revision + 1, "updated_at": now,
                    "conflicts_with": [*cur.conflicts_with, rec.id]}
        )  # fmt: skip
        audit = Audit(RevisionOp.FLAG, actor, why, tuple(c.evidence))
        return Decision(
            Op.FLAG, c, scope, why, rec.id, target=cur,
            changes=[Create(rec, audit, _emb(vec)), Update(flagged, cur.revision, audit, reindex=False)],
        )  # fmt: skip

    def _supersede(
        self, c: Candidate, scope: Scope, now: datetime, actor: str, cur: MemoryRecord,
        vec: Vector | None,
    ) -> Decision:  # fmt: skip
        start = c.valid_from or c.observed_at or now
        if _start(cur) is not None and start < _start(cur):  # type: ignore[operator]
            return self._insert_history(c, scope, now, actor, cur, start, vec)
        rec = self.new_record(c, scope, now, actor, self.initial_status(c))
        rec.valid_from, rec.supersedes = start, cur.id
        old = cur.model_copy(
            update={"revision": cur.revision + 1, "status": Status.SUPERSEDED, "valid_to": start,
                    "superseded_by": rec.id, "updated_at": now}
        )  # fmt: skip
        why = f"same slot, new value (was: {cur.value or cur.content})"
        audit = Audit(RevisionOp.SUPERSEDE, actor, why, tuple(c.evidence))
        added = Audit(RevisionOp.ADD, actor, f"new value of the slot; supersedes {cur.id}", tuple(c.evidence))
        return Decision(
            Op.UPDATE, c, scope, why, rec.id, target=cur,
            changes=[Update(old, cur.revision, audit, reindex=False), Create(rec, added, _emb(vec))],
        )  # fmt: skip

    def _insert_history(
        self, c: Candidate, scope: Scope, now: datetime, actor: str, cur: MemoryRecord, start: datetime,
        vec: Vector | None,
    ) -> Decision:  # fmt: skip
        """Older information processed late: link it into the version chain where it belongs,
        between the version current at ``start`` and its successor."""
        succ, prev = cur, self.store.get(cur.supersedes) if cur.supersedes else None
        while prev is not None and _start(prev) is not None and start < _start(prev):  # type: ignore[operator]
            succ, prev = prev, self.store.get(prev.supersedes) if prev.supersedes else None
        why = "older value of this slot, kept as history"
        audit = Audit(RevisionOp.ADD, actor, why, tuple(c.evidence))
        rec = self.new_record(c, scope, now, actor, Status.SUPERSEDED)
        rec.valid_from, rec.valid_to = start, _start(succ)
        rec.superseded_by, rec.supersedes = succ.id, prev.id if prev else None
        linked = Audit(RevisionOp.UPDATE, actor, f"version chain: {rec.id} inserted", tuple(c.evidence))
        after = succ.model_copy(update={
            "revision": succ.revision + 1, "updated_at": now, "supersedes": rec.id,
            "valid_from": succ.valid_from or _start(succ),
        })  # fmt: skip
        changes: list[Change] = [
            Create(rec, audit, _emb(vec)), Update(after, succ.revision, linked, reindex=False)
        ]
        if prev is not None:
            changes.append(Update(prev.model_copy(update={
                "revision": prev.revision + 1, "updated_at": now, "superseded_by": rec.id,
                "valid_to": start}), prev.revision, linked, reindex=False))  # fmt: skip
        return Decision(Op.ADD, c, scope, why, rec.id, target=cur, changes=changes)

    def _invalidate(
        self, c: Candidate, scope: Scope, now: datetime, actor: str, cur: MemoryRecord,
        vec: Vector | None,
    ) -> Decision:  # fmt: skip
        start = c.valid_from or c.observed_at or now
        correction = bool(c.attributes.get("correction"))
        why = "corrected by the user" if correction else "no longer holds"
        old = cur.model_copy(
            update={"revision": cur.revision + 1, "status": Status.INVALIDATED,
                    "valid_to": cur.valid_from if correction else start,
                    "superseded_by": None, "updated_at": now}
        )  # fmt: skip
        rec = self.new_record(c, scope, now, actor, self.initial_status(c))
        rec.valid_from, rec.supersedes = start, cur.id
        old.superseded_by = rec.id
        audit = Audit(RevisionOp.INVALIDATE, actor, why, tuple(c.evidence))
        return Decision(
            Op.INVALIDATE, c, scope, why, rec.id, target=cur,
            changes=[Update(old, cur.revision, audit, reindex=False),
                     Create(rec, Audit(RevisionOp.ADD, actor, why, tuple(c.evidence)), _emb(vec))],
        )  # fmt: skip

    def _near_duplicate(self, c: Candidate, scope: Scope, vec: Vector | None) -> MemoryRecord | None:
        terms = query_terms(c.content)
        f = RecordFilter(reader=scope, exact_scope=True, statuses=OPEN, types=frozenset({c.type}))
        hits = self.store.lexical(f, terms, 5)
        if not hits:
            return None
        embs = self.store.embeddings([h[0] for h in hits]) if vec is not None else {}
        for rec in self.store.get_many([h[0] for h in hits]):
            if rec.key != c.key and (set(rec.evidence) & set(c.evidence) or not _freeform(c.key)):
                continue  # one sentence may state several facts; structured slots differ by key
            same_cond = _conditions(rec.conditions) == _conditions(c.conditions)
            same_claim = rec.polarity == c.polarity and same_cond
            if same_claim and norm_value(rec.content) == norm_value(c.content):
                return rec  # identical statement: no embedding needed to call it a duplicate
            if _overlap(rec.content, c.content) < self.policy.duplicate_overlap:
                continue
            if rec.polarity != c.polarity or _conditions(rec.conditions) != _conditions(c.conditions):
                continue
            emb = embs.get(rec.id)
            if vec is None or emb is None or float(np.dot(emb, vec)) >= self.policy.duplicate_similarity:
                return rec
        return None


FREEFORM = frozenset({"note", "reminder", "instruction", "likes", "plan", "temp", "task", "episode"})


def _freeform(key: str) -> bool:
    """Keys minted from free text (``note:<slug>``): paraphrases land in different keys."""
    return key.split(":", 1)[0] in FREEFORM


def _start(r: MemoryRecord) -> datetime | None:
    """When a version began to hold: its validity start, or when it was (last) said."""
    return max((t for t in (r.valid_from, r.observed_at) if t is not None), default=None)


def _call(fn: Callable[[], Vector | None] | None) -> Vector | None:
    return None if fn is None else fn()


def _emb(vec: Vector | None) -> list[float] | None:
    return None if vec is None else vec.tolist()


def _pick(records: list[MemoryRecord]) -> MemoryRecord:
    """The record a new claim is compared with: the active one, else the newest."""
    order = {Status.ACTIVE: 0, Status.CANDIDATE: 1, Status.NEEDS_REVIEW: 2, Status.ARCHIVED: 3}
    return sorted(records, key=lambda r: (order.get(r.status, 9), -r.updated_at.timestamp()))[0]
