"""Episodes go stale with the facts they quote: a changed fact never comes back through one.

An episode is a digest of what was said. When a slot record made from the same turns is
superseded or invalidated, the episode states an old value. It is then versioned like that
record: a new version without the stale sentences, valid from the change, supersedes the full
one (valid until the change); when nothing else is left, the episode is closed in valid time
(``valid_to``). Both carry links to the old record and to the one that replaced it
(``stale_because``, ``replaced_by``). Default search and context then never show the old
value; ``include_history=True`` and an as-of query for the time it was true still do.

Both orders are covered: a record changing after the episode was written, and an episode
written (at session end) from turns whose record has already changed.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime

from memquill.errors import ConflictError
from memquill.model import Audit, Change, Create, MemoryRecord, MemoryType, RevisionOp, Scope, Status, Update
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from memquill.text import SENTENCE, norm_value
from memquill.write.extract.model_gates import may_retire

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


def trimmed(text: str, value: str) -> str:
    """``text`` without the sentences that state ``value``."""
    stale = norm_value(value)
    kept = (x.strip() for x in SENTENCE.split(text.strip()))
    return " ".join(x for x in kept if x and stale not in norm_value(x))


def retire(
    episode: MemoryRecord, old: MemoryRecord, now: datetime, vector: list[float] | None
) -> list[Change]:
    """The changes that take ``old``'s value out of ``episode`` from when it stopped holding.

    With other sentences left, the episode gets a new version without the stale ones (valid
    from the change; the full version is superseded by it, valid until then, so history and
    as-of queries still see it). With nothing left, the episode itself is closed in valid time.
    """
    until = old.valid_to or now
    if episode.valid_from is not None and until < episode.valid_from:
        until = episode.valid_from  # changed before the episode was said: never valid
    links = {"stale_because": old.id, "replaced_by": old.superseded_by}
    why = f"states a value of {old.subject}/{old.key} that no longer holds"
    audit = Audit(RevisionOp.SUPERSEDE, ACTOR, why, tuple(old.evidence))
    rest = trimmed(episode.content, old.value) if old.value else ""
    if not rest:
        attributes = {**episode.attributes, **links}
        closed = episode.model_copy(
            update={
                "revision": episode.revision + 1,
                "updated_at": now,
                "valid_to": until,
                "attributes": attributes,
            }
        )
        return [Update(closed, episode.revision, audit, reindex=False)]
    search_text = trimmed(str(episode.attributes.get("search_text", "")), str(old.value))
    new = episode.model_copy(
        update={
            "id": f"mem-{uuid.uuid4().hex[:20]}",
            "revision": 1,
            "content": rest,
            "valid_from": until,
            "valid_to": None,
            "supersedes": episode.id,
            "superseded_by": None,
            "created_at": now,
            "updated_at": now,
            "access_count": 0,
            "useful_count": 0,
            "last_accessed_at": None,
            "attributes": {**episode.attributes, **links, "search_text": search_text or rest},
        }
    )
    closed = episode.model_copy(
        update={
            "revision": episode.revision + 1,
            "updated_at": now,
            "valid_to": until,
            "status": Status.SUPERSEDED,
            "superseded_by": new.id,
        }
    )
    added = Audit(
        RevisionOp.ADD,
        ACTOR,
        f"episode without the stale sentence; supersedes {episode.id}",
        tuple(old.evidence),
    )
    return [Update(closed, episode.revision, audit, reindex=False), Create(new, added, vector)]


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
            eps += [
                e
                for e in store.find(
                    RecordFilter(
                        owner, owner=True, statuses=OPEN_EPISODE, types=frozenset({MemoryType.EPISODE})
                    )
                )
                if e.valid_to is None
            ]
        if eps:
            mine += [
                r
                for r in store.find(RecordFilter(owner, owner=True, statuses=STALE))
                if r.type is not MemoryType.EPISODE
            ]
        closed += _close(store, {e.id: e for e in eps}.values(), {r.id: r for r in mine}.values(), now)
    return closed


class _Retires:
    """Did the change that replaced an old record come from something that may close the
    episodes quoting it (``model_gates.may_retire``)? Looked up once per old record."""

    def __init__(self, store: Store) -> None:
        self.store, self.seen = store, dict[str, bool]()

    def __call__(self, old: MemoryRecord) -> bool:
        if old.id not in self.seen:
            by = self.store.get(old.superseded_by) if old.superseded_by else None
            self.seen[old.id] = may_retire(by)
        return self.seen[old.id]


def _close(store: Store, eps: Iterable[MemoryRecord], olds: Iterable[MemoryRecord], now: datetime) -> int:
    olds = list(olds)
    retires = _Retires(store)
    n = 0
    for ep in eps:
        old = next((o for o in olds if states(ep, o) and retires(o)), None)
        if old is None:
            continue
        current = store.get(ep.id)
        if current is None or current.status not in OPEN_EPISODE or current.valid_to is not None:
            continue
        vector = store.embeddings([current.id]).get(current.id)
        with contextlib.suppress(ConflictError):  # changed meanwhile: the next write re-checks
            store.apply(retire(current, old, now, None if vector is None else [float(x) for x in vector]))
            n += 1
    return n
