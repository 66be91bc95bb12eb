"""Episodes go stale with the facts they quote: a changed fact never comes back through one.

An episode is a digest of what was said. When a slot record made from the same turns is
superseded or invalidated, the episode states an old value, so it is closed in valid time
like that record: ``valid_to`` = when the old value stopped holding, with links to the old
record and to the one that replaced it (``stale_because``, ``replaced_by``). Its status
stays what it was — an episode has no slot successor to point ``superseded_by`` at. Default
search and context then skip it; ``include_history=True`` and an as-of query for the time it
was true still find it.

Both orders are covered: a record changing after the episode was written, and an episode
written (at session end) from turns whose record has already changed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable, Sequence
from datetime import datetime

from memquill.errors import ConflictError
from memquill.model import Audit, Change, Create, MemoryRecord, MemoryType, RevisionOp, Scope, Status, Update
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from memquill.text import norm_value

log = logging.getLogger("memquill.write")

STALE = frozenset({Status.SUPERSEDED, Status.INVALIDATED})
OPEN_EPISODE = frozenset({Status.ACTIVE, Status.ARCHIVED, Status.CANDIDATE})
ACTOR = "memquill"


def states(episode: MemoryRecord, old: MemoryRecord) -> bool:
    """Does ``episode`` quote the turn that stated ``old``'s value?"""
    if not set(episode.evidence) & set(old.evidence):
        return False
    if not old.value:
        return True
    said = norm_value(f"{episode.content} {episode.attributes.get('search_text', '')}")
    return norm_value(old.value) in said


def closing(episode: MemoryRecord, old: MemoryRecord, now: datetime) -> Update:
    """The update that retires ``episode`` when ``old`` did."""
    until = old.valid_to or now
    if episode.valid_from is not None and until < episode.valid_from:
        until = episode.valid_from  # changed before the episode was said: never valid
    closed = episode.model_copy(update={
        "revision": episode.revision + 1, "updated_at": now, "valid_to": until,
        "attributes": {**episode.attributes, "stale_because": old.id,
                       "replaced_by": old.superseded_by},
    })  # fmt: skip
    why = f"states a value of {old.subject}/{old.key} that no longer holds"
    return Update(closed, episode.revision, Audit(RevisionOp.SUPERSEDE, ACTOR, why, tuple(old.evidence)),
                  reindex=False)  # fmt: skip


def _touched(changes: Iterable[Change]) -> list[MemoryRecord]:
    return [ch.record for ch in changes if isinstance(ch, Create | Update)]


def close_stale_episodes(store: Store, changes: Sequence[Change], now: datetime) -> int:
    """After a batch of writes: close every open episode that now states an old value."""
    records = _touched(changes)
    stale = [r for r in records if r.type is not MemoryType.EPISODE and r.status in STALE]
    fresh = [r for r in records if r.type is MemoryType.EPISODE and r.status in OPEN_EPISODE]
    closed = 0
    for tenant, user in {(r.scope.tenant, r.scope.user) for r in [*stale, *fresh]}:
        owner = Scope(tenant=tenant, user=user)
        mine = [r for r in stale if (r.scope.tenant, r.scope.user) == (tenant, user)]
        eps = [r for r in fresh if (r.scope.tenant, r.scope.user) == (tenant, user)]
        if mine:
            eps += [e for e in store.find(RecordFilter(owner, owner=True, statuses=OPEN_EPISODE,
                                                       types=frozenset({MemoryType.EPISODE})))
                    if e.valid_to is None]  # fmt: skip
        if eps:
            mine += [r for r in store.find(RecordFilter(owner, owner=True, statuses=STALE))
                     if r.type is not MemoryType.EPISODE]  # fmt: skip
        closed += _close(store, {e.id: e for e in eps}.values(), {r.id: r for r in mine}.values(), now)
    return closed


def _close(store: Store, eps: Iterable[MemoryRecord], olds: Iterable[MemoryRecord], now: datetime) -> int:
    olds = list(olds)
    n = 0
    for ep in eps:
        old = next((o for o in olds if states(ep, o)), None)
        if old is None:
            continue
        current = store.get(ep.id)
        if current is None or current.status not in OPEN_EPISODE or current.valid_to is not None:
            continue
        with contextlib.suppress(ConflictError):  # changed meanwhile: the next write re-checks
            store.apply([closing(current, old, now)])
            n += 1
    return n
