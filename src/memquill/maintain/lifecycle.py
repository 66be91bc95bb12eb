"""Lifecycle jobs, local to one user: TTL expiry, decay → archive, consolidation.

Expired records leave retrieval but stay for audit; unused records decay by a per-type
half-life down to ``archived`` (out of default retrieval, back on access or confirmation);
repeated successful task outcomes with the same steps are distilled into one ``procedure``
*candidate* that a person confirms before it is used (re-running finds it and adds nothing).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from memquill.model import (
    Audit,
    Candidate,
    Change,
    MemoryRecord,
    MemoryType,
    RevisionOp,
    Scope,
    Source,
    Status,
    Update,
)
from memquill.model.candidate import Trigger
from memquill.model.query import RecordFilter
from memquill.model.scope import Level
from memquill.store.base import Store
from memquill.text import norm_value

# Days for the "liveliness" of an unused record to halve; archived after ARCHIVE_AFTER of them.
DECAY_HALF_LIFE = {
    MemoryType.PREFERENCE: 180.0,
    MemoryType.FACT: 365.0,
    MemoryType.DECISION: 365.0,
    MemoryType.PROCEDURE: 365.0,
    MemoryType.TASK_OUTCOME: 90.0,
    MemoryType.EPISODE: 30.0,
    MemoryType.TASK_STATE: 14.0,
    MemoryType.TEMPORARY: 3.0,
}
ARCHIVE_AFTER = 4.0  # half-lives: liveliness < 1/16
MIN_OUTCOMES = 3
ACTOR = "worker"


@dataclass
class LifecycleReport:
    expired: list[str] = field(default_factory=list)
    archived: list[str] = field(default_factory=list)
    procedures: list[Candidate] = field(default_factory=list)


def liveliness(rec: MemoryRecord, now: datetime) -> float:
    """1.0 when just used or confirmed; halves every half-life; usefulness slows the decay."""
    last = max(t for t in (rec.last_accessed_at, rec.observed_at, rec.updated_at) if t is not None)
    days = max(0.0, (now - last).total_seconds() / 86400)
    half = DECAY_HALF_LIFE[rec.type] * (1 + rec.useful_count)
    return math.pow(0.5, days / half)


def _mark(rec: MemoryRecord, status: Status, op: RevisionOp, why: str, now: datetime) -> Update:
    update = {"revision": rec.revision + 1, "status": status, "updated_at": now}
    return Update(rec.model_copy(update=update), rec.revision, Audit(op, ACTOR, why), reindex=False)


def expire_and_decay(
    store: Store, tenant: str, user: str, now: datetime
) -> tuple[list[Change], LifecycleReport]:
    report = LifecycleReport()
    changes: list[Change] = []
    everyone = Scope(tenant=tenant, user=user)
    for rec in _all_active(store, everyone):
        if rec.read_only:
            continue
        if rec.expires_at is not None and rec.expires_at <= now:
            changes.append(_mark(rec, Status.EXPIRED, RevisionOp.EXPIRE, "TTL passed", now))
            report.expired.append(rec.id)
        elif liveliness(rec, now) < math.pow(0.5, ARCHIVE_AFTER):
            changes.append(_mark(rec, Status.ARCHIVED, RevisionOp.ARCHIVE, "unused; decayed", now))
            report.archived.append(rec.id)
    return changes, report


def _all_active(store: Store, owner: Scope) -> list[MemoryRecord]:
    """Every active record of the user, across projects, sessions and agents."""
    return store.find(RecordFilter(owner, statuses=frozenset({Status.ACTIVE}), owner=True))


def feedback(rec: MemoryRecord, useful: bool, actor: str, now: datetime) -> Update:
    """A reader's verdict on a memory: counts feed utilisation and ranking, no content change."""
    not_useful = int(rec.attributes.get("not_useful", 0)) + (0 if useful else 1)
    updated = rec.model_copy(
        update={
            "revision": rec.revision + 1,
            "updated_at": now,
            "useful_count": rec.useful_count + (1 if useful else 0),
            "attributes": {**rec.attributes, "not_useful": not_useful},
        }
    )
    why = "marked useful" if useful else "marked not useful"
    return Update(updated, rec.revision, Audit(RevisionOp.FEEDBACK, actor, why), reindex=False)


def reactivation(rec: MemoryRecord, now: datetime, why: str) -> Update:
    return _mark(rec, Status.ACTIVE, RevisionOp.REACTIVATE, why, now)


def procedures(outcomes: list[MemoryRecord]) -> list[Candidate]:
    """Successful outcomes that share the same steps, ≥ MIN_OUTCOMES times → a procedure."""
    groups: dict[tuple[str, ...], list[MemoryRecord]] = defaultdict(list)
    for rec in outcomes:
        steps: tuple[str, ...] = tuple(rec.attributes.get("steps") or ())
        if rec.attributes.get("success", True) and len(steps) >= 2:
            groups[tuple(norm_value(s) for s in steps)].append(rec)
    out = []
    for members in groups.values():
        if len(members) < MIN_OUTCOMES:
            continue
        members.sort(key=lambda r: r.created_at)
        step_list = list(members[-1].attributes["steps"])
        trigger = _common_trigger(members)
        content = f"{trigger}: " + ", then ".join(step_list)
        first = members[0]
        out.append(
            Candidate(
                type=MemoryType.PROCEDURE,
                subject=f"project:{first.scope.project}" if first.scope.project else "user",
                key=f"procedure:{'>'.join(norm_value(s) for s in step_list)[:80]}",
                value=content,
                content=content,
                confidence=0.75,
                source=Source.INFERRED,
                evidence=sorted({e for m in members for e in m.evidence}),
                level=Level.PROJECT if first.scope.project else Level.USER,
                trigger=Trigger.BACKGROUND,
                observed_at=members[-1].observed_at,
                rule="consolidate.procedure",
                attributes={"steps": step_list, "from": [m.id for m in members], "needs_confirmation": True},
            )
        )
    return out


def _common_trigger(members: list[MemoryRecord]) -> str:
    given = {str(m.attributes.get("when")) for m in members if m.attributes.get("when")}
    if len(given) == 1:
        return given.pop()
    tasks = [str(m.attributes.get("task", "")) for m in members]
    prefix = tasks[0]
    for t in tasks[1:]:
        while not t.startswith(prefix):
            prefix = prefix[:-1]
    prefix = prefix.rstrip("-_ 0123456789")
    return f"Procedure for {prefix}" if prefix else "Procedure"


def derived_from(records: Iterable[MemoryRecord], erased: set[str], skip: str = "") -> list[MemoryRecord]:
    """Records that quote or were made from an erased turn: they go with it (an episode or a
    fact from the forgotten words must never bring them back), tombstones excepted."""
    return [
        r for r in records if r.id != skip and r.status is not Status.DELETED and erased & set(r.evidence)
    ]


def moot_conflicts(records: Iterable[MemoryRecord], gone: set[str]) -> list[MemoryRecord]:
    """Records held for review only because they conflicted with records that go."""
    return [
        r
        for r in records
        if r.status is Status.NEEDS_REVIEW
        and r.id not in gone
        and r.conflicts_with
        and set(r.conflicts_with) <= gone
    ]


def unlinked(
    rec: MemoryRecord, gone: set[str], by_id: Mapping[str, MemoryRecord], now: datetime, why: str
) -> Update | None:
    """A version chain with erased links, as if the erased words were never said (what a
    replay of the log, which never sees them, also concludes): the chain closes over the
    gap; a version whose erased successors had no successor holds again; one whose erased
    predecessors had none stands first, keeping a start it was told but not the moment it
    replaced them. Conflict links to what goes are dropped."""
    if rec.id in gone or rec.status is Status.DELETED:
        return None
    fields: dict[str, object] = {}
    if rec.status is Status.SUPERSEDED and rec.superseded_by in gone:
        nxt = _past_gone(rec.superseded_by, gone, by_id, "superseded_by")
        if nxt is None:
            fields.update(status=Status.ACTIVE, valid_to=None, superseded_by=None)
        else:
            fields.update(superseded_by=nxt.id, valid_to=nxt.valid_from or rec.valid_to)
    if rec.supersedes in gone:
        prev = _past_gone(rec.supersedes, gone, by_id, "supersedes")
        fields["supersedes"] = prev.id if prev is not None else None
        if prev is None and rec.valid_from in (rec.observed_at, rec.created_at):
            fields["valid_from"] = None  # the moment it replaced them, not a start it was told
    if set(rec.conflicts_with) & gone:
        fields.update(conflicts_with=[c for c in rec.conflicts_with if c not in gone])
    if not fields:
        return None
    changed = rec.model_copy(update={**fields, "revision": rec.revision + 1, "updated_at": now})
    op = RevisionOp.REACTIVATE if fields.get("status") is Status.ACTIVE else RevisionOp.UPDATE
    return Update(changed, rec.revision, Audit(op, ACTOR, why))


def _past_gone(
    start: str | None, gone: set[str], by_id: Mapping[str, MemoryRecord], link: str
) -> MemoryRecord | None:
    """Follow a chain link (``supersedes`` / ``superseded_by``) past records that go."""
    seen: set[str] = set()
    while start is not None and start in gone and start not in seen:
        seen.add(start)
        nxt = by_id.get(start)
        start = getattr(nxt, link) if nxt is not None else None
    return by_id.get(start) if start is not None and start not in gone else None
