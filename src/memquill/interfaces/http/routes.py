"""The ``/v1`` endpoints: one per public operation of DESIGN §5, same names and meaning.

Each handler parses (pydantic), checks what the key may do, calls ``Memory`` and returns
its result: no business logic lives here. Handlers are plain ``def``: FastAPI runs them on
its thread pool, and the engine below is synchronous.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from memquill import Context, MemoryRecord, Revision
from memquill.audit import Explanation, ReviewItem
from memquill.interfaces.http.auth import Authed
from memquill.interfaces.http.errors import responses
from memquill.interfaces.http.schemas import (
    AddOut,
    ContextIn,
    ErasedOut,
    EventIn,
    FeedbackIn,
    HitOut,
    MessagesIn,
    MessagesOut,
    QueuedOut,
    ResolveIn,
    SearchIn,
    SearchOut,
    SessionEndIn,
)
from memquill.model.scope import MAX_SCOPE_LEN

router = APIRouter(prefix="/v1", responses=responses(401, 422))
WRITE = responses(400, 403, 409, 413)
MemoryId = Annotated[str, Path(min_length=1, max_length=256, description="Memory id.")]
UserQ = Annotated[str, Query(min_length=1, max_length=MAX_SCOPE_LEN, description="User (reader).")]
OptQ = Annotated[str | None, Query(min_length=1, max_length=MAX_SCOPE_LEN)]


def _reader(
    tenant: str, user: str, agent: str | None, project: str | None, session: str | None
) -> dict[str, Any]:
    given = {"agent": agent, "project": project, "session": session}
    return {"tenant": tenant, "user": user, **{k: v for k, v in given.items() if v is not None}}


# --- ① events in --------------------------------------------------------------------------
@router.post("/events", response_model=AddOut, responses=WRITE, tags=["events"])
def add(body: EventIn, who: Authed) -> AddOut:
    """Log one interaction (idempotent on ``id``); what must be visible at once is written now."""
    who.writes(body.role, body.source)
    return AddOut.of(who.mem.add(**body.fields(), **body.scope(who.tenant)))


@router.post("/messages", response_model=MessagesOut, responses=WRITE, tags=["events"])
def add_messages(body: MessagesIn, who: Authed) -> MessagesOut:
    """Several turns in order; all are validated before the first is written."""
    for m in body.messages:
        who.writes(m.role, m.source)
    results = who.mem.add_messages([m.fields() for m in body.messages], **body.scope(who.tenant))
    return MessagesOut(results=[AddOut.of(r) for r in results])


@router.post("/sessions/end", response_model=QueuedOut, responses=WRITE, tags=["events"])
def end_session(body: SessionEndIn, who: Authed) -> QueuedOut:
    """Session-end trigger: the session's business context is queued for the worker."""
    who.triggers()
    return QueuedOut(queued=who.mem.end_session(**body.scope(who.tenant)))


# --- ④ retrieval and ⑤ context -----------------------------------------------------------
@router.post("/search", response_model=SearchOut, tags=["read"])
def search(body: SearchIn, who: Authed) -> SearchOut:
    """Hybrid search over the memories this reader may see, valid at ``at`` (default now)."""
    hits = who.mem.search(
        body.query,
        k=body.k,
        at=body.at,
        timezone=body.timezone,
        types=body.types,
        include_history=body.include_history,
        **body.scope(who.tenant),
    )
    return SearchOut(hits=[HitOut(memory=h.memory, score=h.score, why=h.why) for h in hits])


@router.post("/context", response_model=Context, tags=["read"])
def context(body: ContextIn, who: Authed) -> Context:
    """The rendered memory block for a prompt, within ``budget_tokens``."""
    return who.mem.context(
        body.query,
        budget_tokens=body.budget_tokens,
        k=body.k,
        at=body.at,
        types=body.types,
        language=body.language,
        timezone=body.timezone,
        **body.scope(who.tenant),
    )


# --- records and audit ---------------------------------------------------------------------
@router.get("/memories/{memory_id}", response_model=MemoryRecord, responses=responses(404), tags=["memories"])
def get(memory_id: MemoryId, who: Authed) -> MemoryRecord:
    """One record, any status (a forgotten one is a tombstone without content)."""
    return who.record(memory_id)


@router.get(
    "/memories/{memory_id}/history",
    response_model=list[Revision],
    responses=responses(404),
    tags=["memories"],
)
def history(memory_id: MemoryId, who: Authed) -> list[Revision]:
    """Every revision of the record, oldest first."""
    who.record(memory_id)
    return who.mem.history(memory_id)


@router.get(
    "/memories/{memory_id}/explain", response_model=Explanation, responses=responses(404), tags=["memories"]
)
def explain(memory_id: MemoryId, who: Authed) -> Explanation:
    """events → versions → why it is remembered."""
    who.record(memory_id)
    return who.mem.explain(memory_id)


@router.delete(
    "/memories/{memory_id}",
    response_model=MemoryRecord,
    responses={**WRITE, **responses(404)},
    tags=["memories"],
)
def forget(
    memory_id: MemoryId, who: Authed, reason: Annotated[str, Query(max_length=1000)] = ""
) -> MemoryRecord:
    """Erase one memory's content everywhere; its evidence is tombstoned."""
    who.manages(memory_id)
    return who.mem.forget(memory_id, reason=reason or "forgotten on request", actor="api")


@router.post(
    "/memories/{memory_id}/feedback",
    response_model=MemoryRecord,
    responses={**WRITE, **responses(404)},
    tags=["memories"],
)
def feedback(memory_id: MemoryId, body: FeedbackIn, who: Authed) -> MemoryRecord:
    """Mark a retrieved memory useful (or not): it feeds ranking and health."""
    who.manages(memory_id)
    return who.mem.feedback(memory_id, useful=body.useful, actor="api")


@router.delete("/users/{user}", response_model=ErasedOut, responses=WRITE, tags=["memories"])
def forget_scope(
    user: Annotated[str, Path(min_length=1, max_length=MAX_SCOPE_LEN)], who: Authed
) -> ErasedOut:
    """Erase everything of one user of this tenant (events included), and nothing else."""
    who.manages()
    return ErasedOut(deleted=who.mem.forget_scope(tenant=who.tenant, user=user))


# --- review, health ------------------------------------------------------------------------
@router.get("/review", response_model=list[ReviewItem], tags=["review"])
def review(
    who: Authed,
    user: UserQ,
    agent: OptQ = None,
    project: OptQ = None,
    session: OptQ = None,
    include_candidates: bool = False,
) -> list[ReviewItem]:
    """Open conflicts (``needs_review``) visible to this reader; optionally candidates too."""
    reader = _reader(who.tenant, user, agent, project, session)
    return who.mem.review(include_candidates=include_candidates, **reader)


@router.post(
    "/memories/{memory_id}/resolve",
    response_model=MemoryRecord,
    responses={**WRITE, **responses(404)},
    tags=["review"],
)
def resolve(memory_id: MemoryId, body: ResolveIn, who: Authed) -> MemoryRecord:
    """A human decision on a flagged or candidate record: accept, reject or keep both."""
    who.manages(memory_id)
    return who.mem.resolve(memory_id, body.action, reason=body.reason, actor="api")


@router.get("/stats", response_model=dict[str, Any], tags=["health"])
def stats(who: Authed, user: UserQ) -> dict[str, Any]:
    """Health metrics of one user's memory (DESIGN §6)."""
    return who.mem.stats(tenant=who.tenant, user=user)
