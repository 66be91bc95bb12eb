"""Candidates: proposed memories from the extract stage, before reconciliation."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from memquill.model.record import MemoryType, Polarity, Source
from memquill.model.scope import Level


class Trigger(StrEnum):
    """When a candidate may be written (DESIGN §4 rule 3)."""

    HOT = "hot"  # explicit request, correction, task state: inline in add()
    SIGNAL = "signal"  # clear preference signal: inline in add()
    SESSION_END = "session_end"  # business context, inferred preferences
    CONFIRMED = "confirmed"  # decisions once confirmed
    OUTCOME = "outcome"  # task outcomes at complete_task()
    BACKGROUND = "background"  # everything else: the worker


class Candidate(BaseModel):
    """A proposed memory. ``subject``/``key`` name the slot used for conflict detection."""

    model_config = ConfigDict(extra="forbid")

    type: MemoryType
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
    evidence: list[str] = Field(min_length=1)
    level: Level = Level.USER
    language: str = "en"
    trigger: Trigger = Trigger.BACKGROUND
    worthiness: float = 1.0
    attributes: dict[str, Any] = Field(default_factory=dict)
    rule: str = ""  # which extractor rule or model produced it, for explain()
