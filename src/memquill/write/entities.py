"""Entity linking: one person, however the user refers to them (DESIGN §4 rule 9).

"我领导叫周琴" files the name under ``person:manager``; later "周琴是成都人" is extracted
about ``person:周琴``. Before reconciliation, a candidate about ``person:<Name>`` is moved
to the subject that already holds that name (``person:manager``), so both statements
describe one entity with one set of slots. The lookup is local and bounded: the reader's
visible, active ``name`` records, newest first.
"""

from __future__ import annotations

from memquill.model import Candidate, Scope
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from memquill.write.extract.normalise import canonical

NAME_LOOKUP_LIMIT = 200


def named_subject(store: Store, scope: Scope, name: str) -> str | None:
    """The ``person:<relation>`` subject whose ``name`` slot holds ``name``, if any."""
    want = canonical(name, "person")
    for rec in store.find(RecordFilter(scope, key="name"), limit=NAME_LOOKUP_LIMIT):
        if rec.subject.startswith("person:") and rec.value and canonical(rec.value, "person") == want:
            return rec.subject
    return None


def link(cand: Candidate, store: Store, scope: Scope) -> Candidate:
    """The candidate re-addressed to the known entity its subject names, or unchanged."""
    kind, _, name = cand.subject.partition(":")
    if kind != "person" or not name or cand.key == "name":
        return cand
    subject = named_subject(store, scope, name)
    if subject is None or subject == cand.subject:
        return cand
    return cand.model_copy(
        update={"subject": subject, "attributes": {**cand.attributes, "linked_from": cand.subject}}
    )
