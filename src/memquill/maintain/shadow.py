"""Shadow runs: a candidate write policy replayed beside the live one, and the difference.

Nothing live changes: the live store is read (searches without access logging), the
candidate runs into a temporary scratch store. The report compares both sides on what
the write path is judged by — records per event, duplicate and conflict rates, candidates
vs active, expired hits, retrieval overlap@k on the recorded queries, context tokens —
and lists the records that would appear or disappear, with their evidence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memquill.maintain import health
from memquill.maintain.replay import OPEN, ReplayReport, is_marker, log
from memquill.model import MemoryRecord, Scope
from memquill.model.log import QueryLog
from memquill.model.query import RecordFilter
from memquill.retrieve.pipeline import Query

if TYPE_CHECKING:
    from memquill.memory import Memory

Fingerprint = tuple[Any, ...]


def fingerprint(r: MemoryRecord) -> Fingerprint:
    """What a record says and where: equal across stores for the same memory (ids and
    bookkeeping times differ between a live store and its replay)."""
    s = r.scope
    return (
        r.type.value,
        s.tenant,
        s.user,
        s.agent,
        s.project,
        s.session,
        r.subject,
        r.key,
        r.value,
        r.content,
        r.polarity.value,
        tuple(r.conditions),
        r.status.value,
        r.valid_from,
        r.valid_to,
        r.expires_at,
        r.source.value,
        tuple(sorted(r.evidence)),
    )


def claim(r: MemoryRecord) -> Fingerprint:
    """The statement itself, whatever its status: used to match hits and appear/disappear."""
    s = r.scope
    return (r.type.value, s.tenant, s.user, s.agent, s.project, s.session, r.subject, r.key, r.content)


@dataclass
class Side:
    """One store's figures over the replayed owners."""

    events: int = 0
    records: dict[str, int] = field(default_factory=dict)  # status -> n
    duplicate_rate: float = 0.0
    conflict_rate: float = 0.0
    expired_hits: int = 0
    hits: int = 0
    context_tokens: float = 0.0

    def row(self) -> dict[str, Any]:
        active = self.records.get("active", 0)
        return {
            "events": self.events,
            "records": sum(self.records.values()),
            "active": active,
            "candidates": self.records.get("candidate", 0),
            "needs_review": self.records.get("needs_review", 0),
            "active_per_event": round(active / self.events, 4) if self.events else 0.0,
            "duplicate_rate": self.duplicate_rate,
            "conflict_rate": self.conflict_rate,
            "expired_hits": self.expired_hits,
            "hits": self.hits,
            "context_tokens": round(self.context_tokens, 1),
        }


@dataclass
class ShadowReport:
    live_policy: str
    candidate_policy: str
    policy_diff: dict[str, tuple[Any, Any]]
    replay: ReplayReport
    live: Side
    shadow: Side
    overlap_at_k: float | None
    queries: int
    appear: list[dict[str, Any]]
    disappear: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "live_policy": self.live_policy,
            "candidate_policy": self.candidate_policy,
            "policy_diff": {k: {"live": a, "candidate": b} for k, (a, b) in self.policy_diff.items()},
            "events_replayed": self.replay.events,
            "operations_replayed": self.replay.operations,
            "metrics": {"live": self.live.row(), "candidate": self.shadow.row()},
            "queries": self.queries,
            "overlap_at_k": self.overlap_at_k,
            "appear": self.appear,
            "disappear": self.disappear,
        }


def side(
    mem: Memory, owners: Iterable[tuple[str, str]], queries: list[QueryLog]
) -> tuple[Side, list[list[Fingerprint]]]:
    """Figures for one store, and its top-k claims per recorded query (no access logging)."""
    out = Side()
    tally_ops: dict[str, int] = {}
    for tenant, user in owners:
        t = mem.store.tally(tenant, user)
        for status, types in t.records.items():
            out.records[status] = out.records.get(status, 0) + sum(types.values())
        for op, n in t.ops.items():
            tally_ops[op] = tally_ops.get(op, 0) + n
    stats = health.stats(_merged_tally(out.records, tally_ops))
    out.duplicate_rate, out.conflict_rate = stats["duplicate_rate"], stats["conflict_rate"]
    now = mem.clock.now()
    results: list[list[Fingerprint]] = []
    tokens = 0
    for q in queries:
        hits = mem.retriever.search(Query(text=q.query, reader=q.scope, k=q.k), log=False)
        out.hits += len(hits)
        out.expired_hits += sum(
            1 for h in hits if h.memory.expires_at is not None and h.memory.expires_at <= now
        )
        results.append([claim(h.memory) for h in hits])
        tokens += mem.tokenizer.count("\n".join(h.memory.content for h in hits))
    out.context_tokens = tokens / len(queries) if queries else 0.0
    return out, results


def _merged_tally(records: dict[str, int], ops: dict[str, int]) -> Any:
    from memquill.model.block import Tally

    return Tally(records={s: {"all": n} for s, n in records.items()}, ops=ops)


def open_claims(mem: Memory, owners: Iterable[tuple[str, str]]) -> dict[Fingerprint, MemoryRecord]:
    out: dict[Fingerprint, MemoryRecord] = {}
    for tenant, user in owners:
        for r in mem.store.find(RecordFilter(Scope(tenant=tenant, user=user), statuses=OPEN, owner=True)):
            out[claim(r)] = r
    return out


def describe(r: MemoryRecord, evidence_text: Callable[[MemoryRecord], list[str]]) -> dict[str, Any]:
    return {
        "type": r.type.value,
        "scope": r.scope.label(),
        "subject": r.subject,
        "key": r.key,
        "content": r.content,
        "status": r.status.value,
        "evidence": list(r.evidence),
        "evidence_text": evidence_text(r),
    }


def compare(live: Memory, scratch: Memory, replayed: ReplayReport, queries: list[QueryLog]) -> ShadowReport:
    owners = replayed.owners
    live_side, live_hits = side(live, owners, queries)
    cand_side, cand_hits = side(scratch, owners, queries)
    for s in (live_side, cand_side):
        s.events = replayed.events
    overlaps = [
        len(set(a) & set(b)) / max(len(a), len(b))
        for a, b in zip(live_hits, cand_hits, strict=True)
        if a or b
    ]
    before, after = open_claims(live, owners), open_claims(scratch, owners)

    def evidence_text(r: MemoryRecord) -> list[str]:
        events = live.store.get_events(r.scope, r.evidence[:3])
        return [e.content[:160] for e in events if not is_marker(e)]

    return ShadowReport(
        live_policy=live.policy.id,
        candidate_policy=scratch.policy.id,
        policy_diff=live.policy.diff(scratch.policy),
        replay=replayed,
        live=live_side,
        shadow=cand_side,
        overlap_at_k=round(sum(overlaps) / len(overlaps), 4) if overlaps else None,
        queries=len(queries),
        appear=[describe(r, evidence_text) for c, r in after.items() if c not in before],
        disappear=[describe(r, evidence_text) for c, r in before.items() if c not in after],
    )


def recorded_queries(live: Memory, tenant: str | None, user: str | None, limit: int = 200) -> list[QueryLog]:
    """The most recent distinct recorded queries (by reader and text)."""
    seen: dict[tuple[Any, ...], QueryLog] = {}
    for q in reversed(live.store.queries(tenant, user)):
        seen.setdefault((q.scope.label(), q.query, q.k), q)
        if len(seen) >= limit:
            break
    return list(reversed(seen.values()))


def count_events(live: Memory, tenant: str | None, user: str | None) -> int:
    return sum(1 for e in log(live.store, tenant, user) if not is_marker(e))
