"""Replay: re-run the write path over a store's event log into a scratch store.

The live store is only read. Events are replayed in append order, each at the clock the
live store had when it took the event (``received_at``), with the worker draining after
every event (a worker that keeps up). Operations recorded in the log — session ends,
checkpoints, task completions, forgets, review decisions, feedback — are redone at their
place in the sequence, so the same log under the same policy gives the same records.

Erasure stays final: a forgotten record's evidence is forgotten again in the scratch
store at the same point, a user erased with ``forget_scope`` has no events left to replay,
and a scratch store registered with the live one is erased with the user
(``erase_scratch``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memquill.clock import FixedClock
from memquill.errors import MemquillError, NotFoundError, ValidationError
from memquill.model import Audit, Event, MemoryRecord, Purge, Role, Scope, Status
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from memquill.working import candidate_from_log
from memquill.write.policy import LOG_MARKERS

if TYPE_CHECKING:
    from memquill.memory import Memory

OPEN = frozenset({Status.ACTIVE, Status.CANDIDATE, Status.NEEDS_REVIEW})


@dataclass
class ReplayReport:
    target: str
    events: int = 0  # interactions replayed
    operations: int = 0  # logged operations redone (session ends, forgets, …)
    skipped: int = 0  # before --since, or operations whose record no longer exists
    owners: list[tuple[str, str]] = field(default_factory=list)


def is_marker(e: Event) -> bool:
    return e.role is Role.SYSTEM and e.metadata.get("kind") in LOG_MARKERS


def log(live: Store, tenant: str | None, user: str | None, page: int = 1000) -> Iterator[Event]:
    """The live log in append order, a page at a time."""
    after = 0
    while batch := live.log_events(tenant, user, after_seq=after, limit=page):
        yield from batch
        after = batch[-1].seq or after


def owners(live: Store) -> list[Scope]:
    """Every (tenant, user) that has events, in first-seen order."""
    seen = dict.fromkeys((e.scope.tenant, e.scope.user) for e in log(live, None, None, page=5000))
    return [Scope(tenant=t, user=u) for t, u in seen]


def replay(
    live: Store,
    scratch: Memory,
    clock: FixedClock,
    *,
    tenant: str | None = None,
    user: str | None = None,
    since: datetime | None = None,
    target: str = "",
) -> ReplayReport:
    """Replay the live log (optionally one tenant / user, events since ``since``) into
    ``scratch``, whose clock must be ``clock``. Deterministic for a given log and policy."""
    if scratch.store is live or same_target(target, live):
        raise ValidationError("replay never writes into the live store: give a scratch target")
    report = ReplayReport(target)
    owners: dict[tuple[str, str], None] = {}
    for e in log(live, tenant, user):
        if since is not None and e.occurred_at < since:
            report.skipped += 1
            continue
        clock.set(max(clock.now(), e.received_at or e.occurred_at))
        owners[(e.scope.tenant, e.scope.user)] = None
        if is_marker(e) or candidate_from_log(e) is not None:
            done = redo(scratch, e)
            report.operations += done
            report.skipped += 1 - done
        else:
            scratch.add(
                e.content,
                role=e.role.value,
                source=e.source.value,
                id=e.id,
                at=e.occurred_at,
                timezone=e.timezone,
                metadata=dict(e.metadata),
                **scope_kw(e.scope),
            )
            report.events += 1
        scratch.flush()
    report.owners = list(owners)
    return report


def redo(scratch: Memory, e: Event) -> int:
    """Redo one logged operation in the scratch store; 1 if something was redone."""
    kind, m = e.metadata["kind"], e.metadata
    if kind == "session_end":
        scratch.end_session(**scope_kw(e.scope))
        return 1
    if not is_marker(e):  # checkpoint / task completion: the same record from the same event
        stored, _ = scratch.store.append_event(e.model_copy(update={"seq": None}))
        scratch._write_logged(stored)
        return 1
    rec = match(scratch.store, e)
    if rec is None:
        return 0
    with contextlib.suppress(NotFoundError):
        if kind == "forget":
            scratch.forget(rec.id, reason="replayed erasure", actor=str(m.get("actor", "user")))
        elif kind == "resolve":
            scratch.resolve(rec.id, m.get("action", "accept"), actor=str(m.get("actor", "user")))
        elif kind == "feedback":
            scratch.feedback(rec.id, useful=bool(m.get("useful", True)), actor=str(m.get("actor", "user")))
    return 1


def match(store: Store, marker: Event) -> MemoryRecord | None:
    """The scratch record a logged operation was about: same owner and slot, sharing evidence."""
    m = marker.metadata
    evidence = set(m.get("evidence", []))
    owner = Scope(tenant=marker.scope.tenant, user=marker.scope.user)
    recs = store.find(RecordFilter(owner, statuses=None, owner=True))
    found = [
        r
        for r in recs
        if r.subject == m.get("subject")
        and r.key == m.get("key")
        and evidence & set(r.evidence)
        and r.status is not Status.DELETED
    ]
    found.sort(key=lambda r: (r.status not in OPEN, -len(evidence & set(r.evidence))))
    return found[0] if found else None


def scope_kw(s: Scope) -> dict[str, Any]:
    return {k: v for k, v in s.model_dump().items() if v is not None}


def same_target(target: str, live: Store) -> bool:
    path = getattr(live, "path", None)
    if path and path != ":memory:" and not is_url(target):
        return Path(path).expanduser().resolve() == Path(target).expanduser().resolve()
    return target == getattr(live, "url", None)


def is_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def erase_scratch(
    target: str, live: Store, opener: Callable[[str], Store], erase: Callable[[Store], object]
) -> int:
    """Apply one erasure (``erase``) to a registered scratch store; delete a SQLite scratch
    file that holds nobody else. Returns 1 when the copy was erased, 0 when already gone."""
    if same_target(target, live) or (not is_url(target) and not Path(target).exists()):
        return 0  # never the live store itself; a deleted copy is already erased
    try:
        store = opener(target)
    except MemquillError:
        return 0
    try:
        erase(store)
        empty = not store.log_events(limit=1)
    finally:
        store.close()
    if empty and not is_url(target):
        for suffix in ("", "-wal", "-shm"):
            Path(target + suffix).unlink(missing_ok=True)
    return 1


def purge_turns(store: Store, owner: Scope, turns: set[str], audit: Audit, at: datetime) -> None:
    """In a replay copy: purge the owner's records made from erased turns and tombstone the
    turns with them (the copy replayed the same event ids, its record ids differ)."""
    made = [
        r
        for r in store.find(RecordFilter(owner, statuses=None, owner=True))
        if turns & {str(e) for e in r.evidence}
    ]
    erased = tuple(sorted(turns))
    store.apply([Purge(r.id, audit, at, expected_revision=r.revision, erase_events=erased) for r in made])
