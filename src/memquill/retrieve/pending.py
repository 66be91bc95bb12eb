"""Read-your-writes: a session's turns that the worker has not processed yet.

They are matched by term overlap and returned as transient ``episode`` hits (id
``pending:<event id>``), so "what did I just say" works before background extraction runs.
They pass the gate every record passes: the reader's full scope, trust (no tool, external
or system turn), the noise gate and the injection filter; erased turns never reach here.
"""

from __future__ import annotations

from collections.abc import Sequence

from memquill.model import Event, MemoryRecord, MemoryType, Scope, Source, Status
from memquill.model.result import Hit
from memquill.text import query_terms, tokens
from memquill.write import noise
from memquill.write.episodes import eligible

SOURCE = {
    "user": Source.EXPLICIT,
    "tool": Source.OBSERVED,
    "agent": Source.INFERRED,
    "external": Source.EXTERNAL,
}


def admissible(events: Sequence[Event], reader: Scope) -> list[Event]:
    """The pending turns ``reader`` may be shown: same rules as episodes and records, and
    only what of the turn the noise gate lets carry memory (a joke's retraction cut)."""
    return [
        e if said == e.content else e.model_copy(update={"content": said})
        for e in events
        if e.scope.visible_to(reader) and eligible(e, e.content)
        if (said := noise.gate(e.content, e.role).said(e.content)) is not None
    ]


def as_record(e: Event) -> MemoryRecord:
    return MemoryRecord(
        id=f"pending:{e.id}",
        type=MemoryType.EPISODE,
        scope=e.scope,
        subject="session",
        key=f"pending:{e.id}",
        content=e.content,
        confidence=0.5,
        source=SOURCE[e.source.value],
        status=Status.CANDIDATE,
        evidence=[e.id],
        actor=e.source.value,
        created_at=e.occurred_at,
        updated_at=e.occurred_at,
        observed_at=e.occurred_at,
        attributes={"pending": True, "tz": e.timezone},
    )


def pending_hits(query: str, events: Sequence[Event], k: int) -> list[Hit]:
    terms = set(query_terms(query))
    if not terms:
        return []
    hits = []
    for e in events:
        overlap = len(terms & set(tokens(e.content))) / len(terms)
        if overlap > 0:
            hits.append(
                Hit(
                    memory=as_record(e),
                    score=round(0.5 + 0.5 * overlap, 4),
                    why={
                        "legs": {"pending": {"overlap": round(overlap, 3)}},
                        "filters": ["session pending log"],
                    },
                )
            )
    hits.sort(key=lambda h: -h.score)
    return hits[:k]
