"""Adaptive writing: per-type worthiness thresholds that follow how memories are used.

From the query log (what was retrieved, and what was asked for and not found) and feedback
(``useful_count`` on the records), over a window:

- a type whose retrieved memories are almost never useful (utilisation below the policy's
  ``low_utilisation``, DESIGN §6: < 20 % means the gate is too loose) is written less eagerly:
  its threshold rises by one step;
- a type that keeps being asked for and missed is written more readily: one step down;
- otherwise it stays. At most one step per type per run, always within the operator's
  ``floor``/``ceiling``; cold start is the policy's own threshold.

Always-present lines (core blocks) are not records and never appear in the query log, so
they do not count as retrievals. Safety-critical attributes are exempt from raised
thresholds at write time (``WritePolicy.threshold_for``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from memquill.model import MemoryType
from memquill.model.log import QueryLog
from memquill.retrieve import routing
from memquill.store.base import Store
from memquill.write.policy import WritePolicy


@dataclass
class TypeUse:
    retrieved: int = 0  # distinct records of the type returned by searches in the window
    useful: int = 0  # of those, marked useful at least once
    misses: int = 0  # searches for the type that found nothing

    @property
    def utilisation(self) -> float | None:
        return self.useful / self.retrieved if self.retrieved else None


@dataclass
class Proposal:
    policy: WritePolicy
    use: dict[MemoryType, TypeUse] = field(default_factory=dict)
    changes: dict[MemoryType, tuple[float, float, str]] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        return "; ".join(f"{t.value} {a:.2f}→{b:.2f}: {why}" for t, (a, b, why) in self.changes.items())

    def summary(self) -> dict[str, Any]:
        """What an adaptive step would do (``stats()`` shows it even when adaptation is off)."""
        return {
            "enabled": self.policy.adaptive.enabled,
            "changes": {t.value: {"from": a, "to": b, "why": why} for t, (a, b, why) in self.changes.items()},
            "use": {
                t.value: {"retrieved": u.retrieved, "useful": u.useful, "misses": u.misses}
                for t, u in self.use.items()
            },
        }


def asked_types(q: QueryLog) -> set[MemoryType]:
    """Which types a search was after: its ``types=`` filter, else a slot question's type."""
    if q.types:
        return {MemoryType(t) for t in q.types}
    return {MemoryType.FACT} if routing.slot_keys(q.query) else set()


def usage(store: Store, since: datetime) -> dict[MemoryType, TypeUse]:
    """Per-type use over the queries logged since ``since`` (every user of the store). A
    search misses a type it was after when none of its hits is of that type."""
    queries = store.queries(since=since)
    records = {r.id: r for r in store.get_many(sorted({i for q in queries for i in q.hits}))}
    use: dict[MemoryType, TypeUse] = {}
    for q in queries:
        found = {records[i].type for i in q.hits if i in records}
        for t in asked_types(q) - found:
            use.setdefault(t, TypeUse()).misses += 1
    for rec in records.values():
        u = use.setdefault(rec.type, TypeUse())
        u.retrieved += 1
        u.useful += 1 if rec.useful_count > 0 else 0
    return use


def decide(policy: WritePolicy, use: dict[MemoryType, TypeUse]) -> Proposal:
    """The pure rule: one bounded step per type, with its reason."""
    b = policy.adaptive
    out = Proposal(policy, use)
    for t, u in sorted(use.items()):
        now = policy.type_thresholds.get(t, policy.worthiness_threshold)
        util = u.utilisation
        if u.retrieved >= b.min_retrievals and util is not None and util < b.low_utilisation:
            new, why = (
                min(b.ceiling, now + b.step),
                (f"{u.useful} of {u.retrieved} retrieved were useful ({util:.0%} < {b.low_utilisation:.0%})"),
            )
        elif u.misses >= b.min_misses and (util is None or util >= b.low_utilisation):
            new, why = max(b.floor, now - b.step), f"asked for and missed {u.misses} times"
        else:
            continue
        if round(new, 4) != round(now, 4):
            out.changes[t] = (now, round(new, 4), why)
    for t, (_, new, _) in out.changes.items():
        out.policy = out.policy.with_threshold(t, new)
    return out


def propose(store: Store, policy: WritePolicy, now: datetime) -> Proposal:
    return decide(policy, usage(store, now - timedelta(days=policy.adaptive.window_days)))
