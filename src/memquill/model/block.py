"""Core memory blocks: a few pinned, size-limited texts always rendered into context."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

MAX_CHAR_LIMIT = 100_000  # a block is injected whole into every context: it stays small


class CoreBlock(BaseModel):
    """``agent=None`` is shared by every agent of the user; a named agent's block is private."""

    tenant: str = "default"
    user: str = "default"
    agent: str | None = None
    name: str = Field(min_length=1, max_length=64)
    content: str
    char_limit: int = Field(default=2000, ge=1, le=MAX_CHAR_LIMIT)
    read_only: bool = False
    updated_at: datetime


class Tally(BaseModel):
    """Raw counts a store reports for one user; health metrics are computed from them."""

    records: dict[str, dict[str, int]] = Field(default_factory=dict)  # status -> type -> n
    events: int = 0
    events_by_day: dict[str, int] = Field(default_factory=dict)
    accesses: int = 0
    useful: int = 0
    jobs: dict[str, int] = Field(default_factory=dict)
    retries: int = 0
    job_latency_s: list[float] = Field(default_factory=list)  # done jobs: finished - created
    ops: dict[str, int] = Field(default_factory=dict)  # revision op -> count (add, merge, …)
