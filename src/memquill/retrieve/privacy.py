"""What a request may not see: private memories it does not bear on (safety-critical ones,
and sensitive or confided ones: ``retrieve/confided.py``), and personal episodes in a project
task that the request's own words do not reach (``context()`` only)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from memquill.model import MemoryRecord, MemoryType, Scope, Status
from memquill.model.query import RecordFilter
from memquill.model.result import Hit
from memquill.retrieve import spend
from memquill.retrieve.attributes import Catalogue, attribute_of, stand_in
from memquill.retrieve.confided import Request, people
from memquill.retrieve.critical import attribute as is_critical
from memquill.store.base import Store

PROFILE_TYPES = frozenset({MemoryType.PREFERENCE, MemoryType.FACT})
CANDIDATES = frozenset({Status.CANDIDATE})


def gate(
    hits: Sequence[Hit],
    request: Request,
    catalogue: Catalogue | None = None,
    project: str | None = None,
) -> list[Hit]:
    """Hits without private memories the request does not bear on, and, for a request
    inside a ``project``, without personal episodes sharing fewer than two of the request's
    own words. A private hit that stays says why (``why["private"]``).

    A diagnosis or an allergy is private: it enters the block when the request's situation
    bears on it, or when the request names it (a lexical or slot match), never merely
    because its vector sits near an unrelated request. A sensitive or confided memory (a
    divorce, a debt, a job offer the boss must not hear of) likewise, except that naming it
    takes two of the request's own words: the lexical leg also matches the situations'
    expansion terms and single common words. A task in a project is about the project: with
    a short history every personal episode sits near a coding request ("my daughter loves
    dinosaurs" beside "write the commit message"), and one common word ("几个") is chance; a
    personal episode reaches it by words of the request itself, not by being the nearest
    vector.
    """
    out = []
    for h in hits:
        reason = shown_because(h.memory, request, catalogue, set(h.why.get("legs", {})))
        if reason is None:
            continue
        personal = h.memory.type is MemoryType.EPISODE and h.memory.scope.project is None
        if (
            project is not None
            and personal
            and len(request.asked & spend.sentence_terms(h.memory.content)) < 2
        ):
            continue
        out.append(h if not reason else h.model_copy(update={"why": {**h.why, "private": reason}}))
    return out


def shown_because(
    rec: MemoryRecord, request: Request, catalogue: Catalogue | None = None, legs: Collection[str] = ()
) -> str | None:
    """``""`` for a memory that is not private; for a private one why this request may see
    it (``bears on <label>``, ``named``); ``None`` when it may not."""
    attr = attribute_of(rec, catalogue)
    labels = request.labels(rec, attr)
    if not labels:
        return ""
    if is_critical(attr) and not labels - {attr.key}:  # the older rule: a search leg names it
        opened = attr.key in request.bears_on
        return f"bears on {attr.key}" if opened else ("named" if set(legs) & {"lexical", "slot"} else None)
    return request.why(labels, rec.content)


def not_for_task(rec: MemoryRecord, request: Request, project: str | None) -> bool:
    """A standing line about someone in the user's life ("my girlfriend is a pastry chef")
    in a project task that does not name that person: personal, not about the project."""
    if project is None or rec.type is MemoryType.EPISODE:
        return False
    whom = people(rec.content)
    return bool(whom) and not whom & request.people


def withheld(
    store: Store,
    reader: Scope,
    at: datetime,
    request: Request,
    shown: Collection[str],
    catalogue: Catalogue | None = None,
    records: Sequence[MemoryRecord] | None = None,
    unsure: Sequence[MemoryRecord] | None = None,
) -> set[str]:
    """Turns behind private memories this request does not bear on (and that are not
    shown): an episode quoting such a turn is trimmed of it like a turn already said.

    ``records`` are the user's active standing records and ``unsure`` their candidates
    (``read_standing``, here when not given); the candidates count too, by their wording
    alone. A candidate is a reading too unsure
    to be shown, yet its wording is the turn restated: "HMRC are on my back over VAT" is a
    candidate the head reads as money 0.96, while the episode quoting the raw turn reads 0.58
    and leaked into a birthday-gift request. Its key is what the classifier was unsure of, so
    a key the catalogue flags does not make it private ("Use British spelling…" read as an
    accessibility need would hide the spelling rule from every writing request)."""
    if records is None or unsure is None:
        records, unsure = read_standing(store, reader, at)
    out = {
        ev
        for r in records
        if r.id not in shown and shown_because(r, request, catalogue) is None
        for ev in r.evidence
    }
    for r in unsure:
        if (labels := request.labels(r, stand_in(r))) and request.why(labels, r.content) is None:
            out.update(r.evidence)
    return out


def read_standing(store: Store, reader: Scope, at: datetime) -> tuple[list[MemoryRecord], list[MemoryRecord]]:
    """The user's standing records (exact user scope) and their candidates, in one read: the
    profile lists the first, ``withheld`` reads both."""
    user = Scope(tenant=reader.tenant, user=reader.user)
    statuses = CANDIDATES | {Status.ACTIVE}
    found = store.find(RecordFilter(user, statuses, PROFILE_TYPES, at, exact_scope=True), limit=1000)
    return [r for r in found if r.status is Status.ACTIVE], [r for r in found if r.status in CANDIDATES]
