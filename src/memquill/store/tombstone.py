"""What remains of a forgotten record: ids, scope and the audit of who erased it and why."""

from __future__ import annotations

from datetime import datetime

from memquill.model import Audit, MemoryRecord, Status


def tombstone(record: MemoryRecord, audit: Audit, at: datetime) -> MemoryRecord:
    return record.model_copy(
        update={
            "revision": record.revision + 1,
            "status": Status.DELETED,
            "content": "",
            "subject": "",
            "key": "",
            "value": None,
            "conditions": [],
            "attributes": {"forgotten_by": audit.actor, "reason": audit.reason},
            "updated_at": at,
            "read_only": False,
        }
    )
