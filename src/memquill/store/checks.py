"""The write checks every store makes, in one place: revisions, owners, slots, embeddings.

Stores call these inside their write transaction with what they read from their own rows,
so a bad batch is refused the same way (same error, same message) on every backend and
rolled back whole.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from memquill.errors import ConflictError, DuplicateEventError, NotFoundError, ValidationError
from memquill.model import Event, MemoryRecord, SlotGuard, Update
from memquill.store import codec


def embedding(emb: Any, dim: int, memory_id: str) -> npt.NDArray[np.float32] | None:
    """A vector of the store's dimension with finite components, or None."""
    if emb is None:
        return None
    try:
        v = np.asarray(emb, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"embedding of {memory_id!r} is not a vector of numbers") from exc
    if v.shape != (dim,):
        raise ValidationError(f"embedding of {memory_id!r} has shape {v.shape}; the store holds ({dim},)")
    if not np.isfinite(v).all():
        raise ValidationError(f"embedding of {memory_id!r} contains NaN or infinity")
    return v


def content_hash(e: Event) -> str:
    return hashlib.sha256(e.content.encode()).hexdigest()


def replayed_event(e: Event, stored: Any) -> Event:
    """The stored copy of an event appended again (``stored`` has seq, content_hash, body);
    events are immutable, so the same id with other content is refused."""
    if stored["content_hash"] != content_hash(e):
        raise DuplicateEventError(f"event {e.id!r} exists with different content; events are immutable")
    return codec.event_from_body(stored["body"], stored["seq"])


def next_revision(ch: Update) -> None:
    if ch.record.revision != ch.expected_revision + 1:
        raise ConflictError("an update must carry revision = expected_revision + 1")


def current(memory_id: str, revision: int | None, expected: int | None) -> None:
    """The stored row (its revision, None when absent) is the one the change was based on."""
    if revision is None:
        raise NotFoundError(f"no memory {memory_id!r}")
    if expected is not None and revision != expected:
        raise ConflictError(f"memory {memory_id!r} is at revision {revision}, not {expected}")


def same_owner(stored: tuple[str, str], r: MemoryRecord) -> None:
    if stored != (r.scope.tenant, r.scope.user):
        raise ValidationError(f"memory {r.id!r} cannot move to another tenant or user")


def new_id(memory_id: str, exists: bool) -> None:
    if exists:
        raise ConflictError(f"memory {memory_id!r} already exists")


def slot_unchanged(g: SlotGuard, open_ids: Iterable[str]) -> None:
    if set(open_ids) != g.open_ids:
        raise ConflictError(f"slot {g.subject}/{g.key} changed since it was read")
