"""Events: the immutable evidence archive (DESIGN §2, rule 1)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from memquill.model.scope import Scope


class Role(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"
    SYSTEM = "system"


class Trust(StrEnum):
    """The trust class of whoever produced an event."""

    USER = "user"
    AGENT = "agent"
    TOOL = "tool"
    EXTERNAL = "external"


DEFAULT_TRUST = {
    Role.USER: Trust.USER,
    Role.ASSISTANT: Trust.AGENT,
    Role.TOOL: Trust.TOOL,
    Role.SYSTEM: Trust.AGENT,
}


# Kinds of ``system`` events that only record an operation in the log (for replay): never
# extracted, never episodes, never pending turns, not counted as interactions.
LOG_MARKERS = frozenset({"session_end", "forget", "resolve", "feedback", "policy"})


class Event(BaseModel):
    """One raw interaction. Never edited after it is appended."""

    model_config = ConfigDict(frozen=True)

    id: str
    scope: Scope
    role: Role
    source: Trust
    content: str
    occurred_at: datetime
    timezone: str = "UTC"
    metadata: dict[str, Any] = Field(default_factory=dict)
    # the writer's clock when add() took it (differs from occurred_at for imported history):
    # a replay runs the write path at the same "now" the live store did
    received_at: datetime | None = None
    seq: int | None = None  # assigned by the store: append order
