"""What a request may not see: private memories it does not bear on, and personal episodes
in a project task that the request's own words do not reach (``context()`` only)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from memquill.model import MemoryRecord, MemoryType, Scope
from memquill.model.query import RecordFilter
from memquill.model.result import Hit
from memquill.retrieve import spend
from memquill.retrieve.attributes import Attribute, Catalogue, attribute_of
from memquill.store.base import Store
from memquill.text import query_terms

PROFILE_TYPES = frozenset({MemoryType.PREFERENCE, MemoryType.FACT})


def gate(
    hits: Sequence[Hit],
    bears_on: Collection[str],
    catalogue: Catalogue | None = None,
    project: str | None = None,
    query: str = "",
) -> list[Hit]:
    """Hits without safety-critical memories the request does not bear on, and, for a
    request inside a ``project``, without personal episodes sharing fewer than two of the
    request's own words.

    A diagnosis or an allergy is private: it enters the block when the request's situation
    bears on it, or when the request names it (a lexical or slot match), never merely
    because its vector sits near an unrelated request. Likewise a task in a project is about
    the project: with a short history every personal episode sits near a coding request
    ("my daughter loves dinosaurs" beside "write the commit message"), and one common word
    ("几个") is chance; a personal episode reaches it by words of the request itself (not
    the situations' expansion terms), not by being the nearest vector.
    """
    asked = set(query_terms(query))
    out = []
    for h in hits:
        attr = attribute_of(h.memory, catalogue)
        named = bool(set(h.why.get("legs", {})) & {"lexical", "slot"})
        if _private(attr, bears_on) and not named:
            continue
        personal = h.memory.type is MemoryType.EPISODE and h.memory.scope.project is None
        if project is not None and personal and len(asked & spend.sentence_terms(h.memory.content)) < 2:
            continue
        out.append(h)
    return out


def withheld(
    store: Store,
    reader: Scope,
    at: datetime,
    bears_on: Collection[str],
    shown: Collection[str],
    catalogue: Catalogue | None = None,
    records: Sequence[MemoryRecord] | None = None,
) -> set[str]:
    """Turns behind safety-critical memories this request does not bear on (and that are not
    shown): an episode quoting such a turn is trimmed of it like a turn already said."""
    if records is None:
        user = Scope(tenant=reader.tenant, user=reader.user)
        records = store.find(RecordFilter(user, types=PROFILE_TYPES, at=at, exact_scope=True), limit=500)
    recs = records
    return {
        ev
        for r in recs
        if r.id not in shown
        for ev in r.evidence
        if _private(attribute_of(r, catalogue), bears_on)
    }


def _private(attr: Attribute, bears_on: Collection[str]) -> bool:
    return attr.safety_critical and attr.key not in bears_on
