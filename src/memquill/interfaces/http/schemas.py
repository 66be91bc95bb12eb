"""Request and response bodies of the HTTP API (pydantic at the boundary).

Bodies forbid unknown fields, so a typo (``"usr"``) is a 422 rather than a silently ignored
key. No body has a ``tenant`` field: the tenant always comes from the API key.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from memquill import AddResult, MemoryRecord, MemoryType
from memquill.model.scope import MAX_SCOPE_LEN

Name = Field(min_length=1, max_length=MAX_SCOPE_LEN)
Instant = Field(
    default=None,
    max_length=64,
    description="ISO-8601 instant, with an offset unless `timezone` says how to read it.",
)
Zone = Field(default=None, max_length=64, description="IANA timezone, e.g. Asia/Shanghai.")


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Where(Body):
    """Scope of a write or of a reader (DESIGN §2); the tenant is the key's."""

    user: str = Field(min_length=1, max_length=MAX_SCOPE_LEN)
    agent: str | None = Field(default=None, min_length=1, max_length=MAX_SCOPE_LEN)
    project: str | None = Field(default=None, min_length=1, max_length=MAX_SCOPE_LEN)
    session: str | None = Field(default=None, min_length=1, max_length=MAX_SCOPE_LEN)

    def scope(self, tenant: str) -> dict[str, Any]:
        fields = {"user": self.user, "agent": self.agent, "project": self.project, "session": self.session}
        return {"tenant": tenant, **{k: v for k, v in fields.items() if v is not None}}


class Message(Body):
    content: str = Field(description="The text of the turn.")
    role: Literal["user", "assistant", "tool", "system"] = "user"
    source: Literal["user", "agent", "tool", "external"] | None = Field(
        default=None,
        description="Trust class; default from the role. A key may be limited to some trust classes.",
    )
    id: str | None = Field(
        default=None,
        min_length=1,
        max_length=256,
        description="Event id; re-sending the same id is idempotent.",
    )
    at: str | None = Instant
    timezone: str | None = Zone
    metadata: dict[str, Any] | None = None

    def fields(self) -> dict[str, Any]:
        """The keywords of ``Memory.add`` other than the scope."""
        return self.model_dump(include=set(Message.model_fields), exclude_none=True)


class EventIn(Where, Message):
    """One interaction for ``add``."""


class MessagesIn(Where):
    messages: list[Message] = Field(min_length=1, max_length=500)


class SessionEndIn(Where):
    session: str = Field(min_length=1, max_length=MAX_SCOPE_LEN)


class SearchIn(Where):
    query: str = Field(min_length=1, max_length=4096)
    k: int = Field(default=5, ge=1, le=100)
    at: str | None = Instant
    timezone: str | None = Zone
    types: list[MemoryType] | None = None
    include_history: bool = False


class ContextIn(Where):
    query: str = Field(min_length=1, max_length=4096)
    budget_tokens: int | None = Field(default=None, ge=1, le=200_000)
    k: int = Field(default=10, ge=1, le=100)
    at: str | None = Instant
    timezone: str | None = Zone
    types: list[MemoryType] | None = None
    language: Literal["en", "zh"] | None = None


class ResolveIn(Body):
    action: Literal["accept", "reject", "keep_both"] = "accept"
    reason: str = Field(default="", max_length=1000)


class FeedbackIn(Body):
    useful: bool = True


class AddOut(BaseModel):
    event_id: str
    created: bool
    written: list[str]
    queued: bool
    skipped: str

    @classmethod
    def of(cls, r: AddResult) -> AddOut:
        return cls(**r.model_dump())


class MessagesOut(BaseModel):
    results: list[AddOut]


class QueuedOut(BaseModel):
    queued: int


class HitOut(BaseModel):
    memory: MemoryRecord
    score: float
    why: dict[str, Any]


class SearchOut(BaseModel):
    hits: list[HitOut]


class ErasedOut(BaseModel):
    deleted: dict[str, int]


class ErrorDetail(BaseModel):
    type: str
    message: str


class ErrorOut(BaseModel):
    error: ErrorDetail
