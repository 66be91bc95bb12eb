"""Record/event/job ↔ row conversion shared by every backend.

Rows keep the filterable fields in columns and the whole record as JSON in ``body``,
so the schema of a record can grow without a migration per field.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt
import pydantic

from memquill.clock import to_epoch
from memquill.errors import StoreError
from memquill.model import Audit, Event, MemoryRecord, Revision, RevisionOp, Scope
from memquill.model.query import Access, Job
from memquill.text import index_text

RECORD_COLUMNS = (
    "id",
    "revision",
    "tenant",
    "user_id",
    "agent",
    "project",
    "session",
    "type",
    "subject",
    "key",
    "status",
    "valid_from",
    "valid_to",
    "expires_at",
    "confidence",
    "source",
    "read_only",
    "created_at",
    "updated_at",
    "body",
)


def record_row(r: MemoryRecord) -> dict[str, Any]:
    s = r.scope
    return {
        "id": r.id,
        "revision": r.revision,
        "tenant": s.tenant,
        "user_id": s.user,
        "agent": s.agent,
        "project": s.project,
        "session": s.session,
        "type": r.type.value,
        "subject": r.subject,
        "key": r.key,
        "status": r.status.value,
        "valid_from": to_epoch(r.valid_from),
        "valid_to": to_epoch(r.valid_to),
        "expires_at": to_epoch(r.expires_at),
        "confidence": r.confidence,
        "source": r.source.value,
        "read_only": bool(r.read_only),
        "created_at": to_epoch(r.created_at),
        "updated_at": to_epoch(r.updated_at),
        "body": r.model_dump_json(),
    }


def search_terms(r: MemoryRecord) -> str:
    """What the full-text index sees: the content, plus the original wording when the
    content is a distillation (an episode keeps its turns' full text searchable)."""
    extra = r.attributes.get("search_text")
    return index_text(f"{r.content} {extra}" if extra else r.content)


def record_from_body(body: str | bytes | dict[str, Any]) -> MemoryRecord:
    with malformed("memory record"):
        if isinstance(body, dict):
            return MemoryRecord.model_validate(body)
        return MemoryRecord.model_validate_json(body)


def record_dict(r: MemoryRecord | None) -> dict[str, Any] | None:
    return None if r is None else r.model_dump(mode="json")


def event_body(e: Event) -> str:
    return e.model_dump_json(exclude={"seq"})


def event_from_body(body: str | bytes | dict[str, Any], seq: int) -> Event:
    with malformed("event"):
        if isinstance(body, dict):
            return Event.model_validate({**body, "seq": seq})
        return Event.model_validate({**json.loads(body), "seq": seq})


@contextmanager
def malformed(what: str) -> Iterator[None]:
    """A stored row that no longer decodes is the store's failure, not the caller's input."""
    try:
        yield
    except (pydantic.ValidationError, ValueError, TypeError) as exc:
        raise StoreError(f"a stored {what} is malformed: {exc}") from exc


def revision_from_row(
    memory_id: str,
    revision: int,
    op: str,
    actor: str,
    reason: str,
    event_ids: str | list[str],
    before: str | dict[str, Any] | None,
    after: str | dict[str, Any] | None,
    at: Any,
) -> Revision:
    def load(v: Any) -> Any:
        return json.loads(v) if isinstance(v, str | bytes) else v

    return Revision(
        memory_id=memory_id,
        revision=revision,
        op=RevisionOp(op),
        actor=actor,
        reason=reason,
        event_ids=load(event_ids) or [],
        before=load(before),
        after=load(after),
        at=at,
    )


def revision_row(r: MemoryRecord, audit: Audit, before: str | None, at: Any) -> tuple[Any, ...]:
    """A ``revisions`` row in column order (``before`` already JSON; ``at`` as the backend
    stores instants)."""
    evidence = json.dumps(list(audit.event_ids))
    after = json.dumps(record_dict(r), ensure_ascii=False)
    return (
        r.id,
        r.revision,
        r.scope.tenant,
        r.scope.user,
        audit.op.value,
        audit.actor,
        audit.reason,
        evidence,
        before,
        after,
        at,
    )


def access_row(a: Access, at: Any) -> tuple[Any, ...]:
    """An ``access_log`` row in column order (``at`` as the backend stores instants)."""
    s = a.scope
    return (a.memory_id, s.tenant, s.user, s.agent, s.project, s.session, a.query, a.rank, a.score, at)


def job_payload(job: Job) -> str:
    return json.dumps(job.payload, ensure_ascii=False, sort_keys=True)


def job_with_seq(job: Job, seq: int | None) -> Job:
    """Jobs built before the event had a sequence number learn it here."""
    if "seq" in job.payload and job.payload["seq"] is None:
        job.payload = {**job.payload, "seq": seq}
    return job


def job_from_row(r: Any, instant: Callable[[Any], datetime | None]) -> Job:
    """A ``jobs`` row (columns by name) as a Job; ``instant`` decodes the backend's instants."""
    scope = Scope(
        tenant=r["tenant"], user=r["user_id"], agent=r["agent"], project=r["project"], session=r["session"]
    )
    return Job(
        id=r["id"],
        key=r["key"],
        kind=r["kind"],
        ref=r["ref"],
        scope=scope,
        payload=json.loads(r["payload"]),
        status=r["status"],
        attempts=r["attempts"],
        max_attempts=r["max_attempts"],
        run_after=instant(r["run_after"]),
        lease_until=instant(r["lease_until"]),
        last_error=r["last_error"],
        created_at=instant(r["created_at"]),
        updated_at=instant(r["updated_at"]),
    )


def vec_bytes(v: npt.ArrayLike) -> bytes:
    return np.asarray(v, dtype=np.float32).tobytes()


def vec_from_bytes(b: bytes) -> npt.NDArray[np.float32]:
    return np.frombuffer(b, dtype=np.float32)
