"""Pure data: events, records, revisions, candidates, changes, scopes. Imports nothing of ours
except errors."""

from memquill.model.candidate import Candidate, Trigger
from memquill.model.change import SLOT_OPEN, ApplyResult, Audit, Change, Create, Purge, SlotGuard, Update
from memquill.model.event import DEFAULT_TRUST, Event, Role, Trust
from memquill.model.record import (
    SOURCE_RANK,
    MemoryRecord,
    MemoryType,
    Polarity,
    Revision,
    RevisionOp,
    Source,
    Status,
)
from memquill.model.scope import SCOPE_KEYS, Level, Scope

__all__ = [
    "DEFAULT_TRUST",
    "SCOPE_KEYS",
    "SLOT_OPEN",
    "SOURCE_RANK",
    "ApplyResult",
    "Audit",
    "Candidate",
    "Change",
    "Create",
    "Event",
    "Level",
    "MemoryRecord",
    "MemoryType",
    "Polarity",
    "Purge",
    "Revision",
    "RevisionOp",
    "Role",
    "Scope",
    "SlotGuard",
    "Source",
    "Status",
    "Trigger",
    "Trust",
    "Update",
]
