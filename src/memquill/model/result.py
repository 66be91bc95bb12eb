"""What the public API returns."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from memquill.model.record import MemoryRecord


class AddResult(BaseModel):
    event_id: str
    created: bool = True  # False when the same event was added before (idempotent)
    written: list[str] = Field(default_factory=list)  # records changed on the hot path
    queued: bool = False
    skipped: str = ""  # why the turn produced no memory on the hot path, if it did not


class Hit(BaseModel):
    memory: MemoryRecord
    score: float
    why: dict[str, Any] = Field(default_factory=dict)


class ContextItem(BaseModel):
    section: str  # core | memory | session | checkpoint
    text: str
    memory_id: str | None = None
    tokens: int = 0
    why: dict[str, Any] = Field(default_factory=dict)


class Context(BaseModel):
    text: str
    items: list[ContextItem] = Field(default_factory=list)
    tokens: int = 0
    budget_tokens: int = 0
    language: str = "en"

    def as_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")
