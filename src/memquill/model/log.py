"""What a replay needs beyond the event log: the policy history and the query log."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from memquill.model.scope import Scope


@dataclass(frozen=True)
class PolicyRevision:
    """One switch of the live write policy: which, by whom, why, when (append-only)."""

    policy_id: str
    body: str  # the policy as JSON (``WritePolicy.to_json``)
    actor: str
    reason: str
    at: datetime
    seq: int | None = None


@dataclass(frozen=True)
class QueryLog:
    """One search as the reader asked it, including those that found nothing (misses)."""

    scope: Scope
    query: str
    k: int
    at: datetime
    hits: list[str] = field(default_factory=list)  # memory ids, best first
    types: list[str] | None = None
    id: int | None = None
