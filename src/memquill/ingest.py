"""① Events in: validate raw input, assign ids, build the immutable Event.

Everything here runs before anything is written, so bad input never leaves state behind.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any, TypedDict

from memquill.clock import Clock, offset_name, parse_instant, zone
from memquill.errors import ContentError, ValidationError
from memquill.model import DEFAULT_TRUST, Event, Role, Scope, Trust
from memquill.store.base import Store

MAX_ID_LEN = 256


class EventFields(TypedDict, total=False):
    """The keywords of ``Memory.add()`` that describe one event (besides ``content`` and the
    scope keywords): declared once, checked by ``add_messages``, the CLI's ``ingest`` and a test
    pinning ``add()``'s signature."""

    role: str
    source: str | None
    id: str | None
    at: datetime | str | None
    timezone: str | None
    metadata: dict[str, Any] | None


EVENT_KEYS: tuple[str, ...] = ("content", *EventFields.__annotations__)


def _enum(kind: type[Role] | type[Trust], value: Any, what: str) -> Any:
    try:
        return kind(value)
    except ValueError as exc:
        allowed = ", ".join(m.value for m in kind)
        raise ValidationError(f"{what} must be one of {allowed}; got {value!r}") from exc


def check_content(content: Any, max_bytes: int) -> str:
    if not isinstance(content, str):
        raise ContentError(f"content must be a string, got {type(content).__name__}")
    if not content.strip():
        raise ContentError("content is empty")
    if "\x00" in content:
        raise ContentError("content contains a NUL character")
    size = len(content.encode("utf-8"))
    if size > max_bytes:
        raise ContentError(f"content is {size} bytes; the limit is {max_bytes}")
    return content


def build_event(
    content: Any,
    *,
    scope: Scope,
    clock: Clock,
    max_bytes: int,
    default_timezone: str,
    role: str = "user",
    source: str | None = None,
    id: str | None = None,
    at: datetime | str | None = None,
    timezone: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Event:
    text = check_content(content, max_bytes)
    role_ = _enum(Role, role, "role")
    trust = DEFAULT_TRUST[role_] if source is None else _enum(Trust, source, "source")
    # An ``at=`` written with a local offset says where the speaker was: relative days ("明天",
    # "tomorrow") resolve in that zone unless ``timezone=`` says otherwise. A UTC instant
    # ("Z", "+00:00") is how machines serialise time and says nothing about the speaker, so
    # the configured default zone applies.
    given = offset_name(at) if at is not None else None
    tz = timezone or (given if given not in (None, "+00:00", "UTC") else None) or default_timezone
    zone(tz)
    received = clock.now()
    occurred = received if at is None else parse_instant(at, timezone)
    if id is not None and (not isinstance(id, str) or not id.strip() or len(id) > MAX_ID_LEN):
        raise ValidationError(f"event id must be a non-empty string of at most {MAX_ID_LEN} chars")
    if metadata is not None and not isinstance(metadata, dict):
        raise ValidationError("metadata must be a dict")
    try:
        json.dumps(metadata, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"metadata must be plain JSON (strings, numbers, lists, dicts): {exc}") from exc
    return Event(
        id=id or f"evt-{uuid.uuid4().hex}",
        scope=scope,
        role=role_,
        source=trust,
        content=text,
        occurred_at=occurred,
        timezone=tz,
        metadata=metadata or {},
        received_at=received,
    )


def log(store: Store, event: Event, now: datetime, max_attempts: int = 5) -> tuple[Event, bool]:
    """Log an event durably together with its extract job (one transaction), so a crash can
    never leave an event the worker will not process. Returns (stored, created)."""
    from memquill.maintain.jobs import extract_job

    job = extract_job(event.id, event.scope, None, now)
    job.max_attempts = max_attempts
    return store.append_event(event, [job])
