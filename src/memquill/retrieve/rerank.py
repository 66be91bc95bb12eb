"""Rerank: relevance, recency decay, confidence, usefulness, time match.

A ``Reranker`` Protocol lets a cross-encoder replace the default; the default is a
transparent weighted sum whose parts are reported in ``why``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from memquill.model import MemoryRecord, MemoryType
from memquill.retrieve.recipes import Recipe

# Per-type recency half-lives in days (DESIGN §6): task outcomes fade slower, temporary faster.
HALF_LIFE = {
    MemoryType.TASK_OUTCOME: 90.0,
    MemoryType.PROCEDURE: 180.0,
    MemoryType.TEMPORARY: 3.0,
    MemoryType.TASK_STATE: 7.0,
}


@dataclass
class Scored:
    record: MemoryRecord
    score: float
    parts: dict[str, float]


class Reranker(Protocol):
    def rerank(
        self,
        query: str,
        items: Sequence[tuple[MemoryRecord, float]],
        at: datetime,
        window: tuple[datetime, datetime] | None,
    ) -> list[Scored]: ...


def recency(record: MemoryRecord, at: datetime, half_life_days: float) -> float:
    """Decay since the record was last said or used — as seen at ``at``: a use after ``at``
    (an earlier as-of query ran later in real time) is not known then, or every record a
    previous question happened to hit would look fresh to a question about the past."""
    known = [t for t in (record.observed_at, record.last_accessed_at) if t and t <= at]
    ref = max(known) if known else (record.observed_at or record.updated_at)
    age_days = max(0.0, (at - ref).total_seconds() / 86400)
    half = HALF_LIFE.get(record.type, half_life_days)
    return math.pow(0.5, age_days / half)


def tie_key(record: MemoryRecord) -> tuple[float, str, str]:
    """Order among equal scores that does not depend on random ids: the newest statement
    first, then by content, so two runs over the same conversation rank alike."""
    seen = record.observed_at or record.valid_from or record.created_at
    return (-seen.timestamp(), record.content, record.id)


def in_window(record: MemoryRecord, window: tuple[datetime, datetime]) -> bool:
    lo, hi = window
    start = record.when_start or record.observed_at or record.valid_from or record.created_at
    end = record.when_end or start
    return start < hi and end >= lo


class WeightedReranker:
    def __init__(self, recipe: Recipe, half_life_days: float = 30.0) -> None:
        self.r = recipe
        self.half_life = half_life_days

    def rerank(
        self,
        query: str,
        items: Sequence[tuple[MemoryRecord, float]],
        at: datetime,
        window: tuple[datetime, datetime] | None,
    ) -> list[Scored]:
        out = []
        for rec, relevance in items:
            used = rec.useful_count / (rec.access_count + 2)
            parts = {
                "relevance": round(self.r.relevance * relevance, 4),
                "recency": round(self.r.recency * recency(rec, at, self.half_life), 4),
                "confidence": round(self.r.confidence * rec.confidence, 4),
                "usefulness": round(self.r.usefulness * used, 4),
            }
            if window is not None and in_window(rec, window):
                parts["time_match"] = self.r.time_match
            out.append(Scored(rec, round(sum(parts.values()), 6), parts))
        out.sort(key=lambda s: (-s.score, *tie_key(s.record)))
        return out
