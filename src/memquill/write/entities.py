"""Entity linking: one person, however the user refers to them (DESIGN §4 rule 9).

"我领导叫周琴" files the name under ``person:manager``. Both orders of learning reach one
entity with one set of slots:

* the name is known first: a later candidate about ``person:周琴`` ("周琴是成都人") is
  re-addressed to ``person:manager`` before reconciliation (``link``);
* the name comes last: records already filed under ``person:周琴`` / ``person:Zhou Qin``
  move to ``person:manager`` once its ``name`` is written (``relink``); what was said about
  "my manager" before the name was known is already there;
* a second person of a relation one has several of ("my colleague Ana", later "my
  colleague Rashid") is ``person:colleague:Rashid`` (``another_person``), not a new name of
  the first.

Lookups are local and bounded: the reader's visible name records, newest first, and the
open records of one named subject.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from datetime import datetime

from memquill.catalogue import load
from memquill.errors import ConflictError
from memquill.model import (
    Audit,
    Candidate,
    Change,
    Create,
    MemoryRecord,
    RevisionOp,
    Scope,
    SlotGuard,
    Update,
)
from memquill.model.change import SLOT_OPEN
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from memquill.text import is_cjk
from memquill.write.extract.item_names import content, renamed
from memquill.write.extract.normalise import canonical

NAME_LOOKUP_LIMIT = 200
MOVE_LIMIT = 200
ACTOR = "memquill"


def named_subject(store: Store, scope: Scope, name: str) -> str | None:
    """The ``person:<relation>`` subject whose ``name`` slot holds ``name``, if any."""
    want = canonical(name, "person")
    for rec in store.find(RecordFilter(scope, key="name"), limit=NAME_LOOKUP_LIMIT):
        if rec.subject.startswith("person:") and rec.value and canonical(rec.value, "person") == want:
            return rec.subject
    return None


def _names(store: Store, scope: Scope, kind: str) -> list[tuple[str, str]]:
    """(name, subject) of the reader's named subjects of one kind (``person``, ``item``): one
    bounded lookup of the scope's ``name`` records, newest first."""
    found = store.find(RecordFilter(scope, key="name"), limit=NAME_LOOKUP_LIMIT)
    return [(r.value, r.subject) for r in found if r.subject.startswith(f"{kind}:") and r.value]


def _known_names(store: Store, scope: Scope) -> dict[str, str]:
    """canonical name → ``person:<relation>`` of the reader's named relations (one lookup)."""
    out: dict[str, str] = {}
    for name, subject in _names(store, scope, "person"):
        out.setdefault(canonical(name, "person"), subject)
    return out


def link(cand: Candidate, store: Store, scope: Scope) -> Candidate:
    """The candidate re-addressed to the known entity its subject names, or unchanged."""
    kind, _, name = cand.subject.partition(":")
    if cand.key == "name" and cand.subject == "user" and (thing := renamed_thing(cand, store, scope)):
        return thing
    if cand.subject == "user" and cand.key != "name":
        # "Maeve … took her straight back as a veterinary nurse": Maeve's, when Maeve is known
        opening = _opening_names(cand)
        known = _known_names(store, scope) if opening else {}
        found = (known[k] for n in opening if (k := canonical(n, "person")) in known)
        if (subject := next(found, None)) is not None:
            return cand.model_copy(
                update={"subject": subject, "attributes": {**cand.attributes, "linked_from": "user"}}
            )
    if kind == "item" and name and cand.key != "name":
        # "Luna eats Hill's" once "my dog Luna" is known: the dog's
        pets = (s for n, s in _names(store, scope, "item") if n.casefold() == name.casefold())
        if (pet := next(pets, cand.subject)) != cand.subject:
            return cand.model_copy(
                update={"subject": pet, "attributes": {**cand.attributes, "linked_from": cand.subject}}
            )
    if kind != "person" or not name or cand.key == "name":
        return cand
    subject = named_subject(store, scope, name)
    if subject is None or subject == cand.subject:
        return cand
    return cand.model_copy(
        update={"subject": subject, "attributes": {**cand.attributes, "linked_from": cand.subject}}
    )


# The user naming themself (as said, or as the content words it): a name said so is theirs
# whatever else the clause names.
_SELF_NAMED = re.compile(
    r"(?:(?:我|用户)(?:叫|的名字(?:是|叫)|是)|\b(?:my name is|call me|i'm|i am|the user's name is|"
    r"the user is|call the user))\s*$",
    re.IGNORECASE,
)


def renamed_thing(cand: Candidate, store: Store, scope: Scope) -> Candidate | None:
    """A name the model read as the user's, in a clause that renames a pet or a belonging
    known by the name it says ("小七这名字我越叫越不顺口，改叫煤球了" once the cat is 小七,
    "Nacho is a girl. We're calling her Olive now"): the thing's new name (``item_names.
    renamed``). The user's own name said as theirs ("我叫…", "my name is…") stays."""
    text = cand.content
    at = text.find(cand.value or "")
    if cand.value is None or at < 0 or _SELF_NAMED.search(text[:at]):
        return None
    zh = is_cjk(text)
    new = renamed(text, zh)
    if new is None:
        return None
    folded = text.casefold()
    thing = next(
        (subject for name, subject in _names(store, scope, "item") if name.casefold() in folded), None
    )
    if thing is None:
        return None
    update = {"subject": thing, "value": new, "content": content(thing, new, zh)}
    return cand.model_copy(update={**update, "attributes": {**cand.attributes, "linked_from": "user"}})


# A clause opening with someone's name is about them ("Maeve called me herself — the clinic
# took her straight back as a veterinary nurse"), though a rule reading "as a …" filed it
# under the user; unless the user is the subject of a later part ("…, and the user …").
_OPEN_EN = re.compile(r"^([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)(?:'s|’s)?\b")
_OPEN_ZH = re.compile(r"^([\u4e00-\u9fff]{2,3})")
_NOT_OPENING = frozenset(
    "The This That These Those There Here It My Our Your His Her Their User Users".split()
)
_USER_SUBJECT = re.compile(
    r"(?:^|[,;:—–，；：]\s*|\b(?:and|so|but|then)\s+)(?:the user\b(?!\s+(?:herself|himself))|用户(?!的))",
    re.IGNORECASE,
)


def _opening_names(cand: Candidate) -> list[str]:
    """The names a user-subject candidate's content may open with, when the user is no
    subject of it and the attribute can be a person's; the caller keeps one only when it is
    a known person's name (``named_subject``)."""
    text = cand.content.strip()
    attr = load().get(cand.key)
    if attr is None or "person" not in attr.subjects or _USER_SUBJECT.search(text):
        return []
    if (m := _OPEN_EN.match(text)) and m.group(1).split()[0] not in _NOT_OPENING:
        return list(dict.fromkeys([m.group(1), m.group(1).split()[0]]))
    if (m := _OPEN_ZH.match(text)) and not text.startswith(("用户", "我")):
        return [m.group(1)[:2], m.group(1)]
    return []


def is_relation_subject(subject: str) -> bool:
    """``person:manager`` (a relation the catalogue knows) or ``person:colleague:Rashid`` (a
    further person of it, ``another_person``), not ``person:周琴``."""
    kind, _, rest = subject.partition(":")
    return kind == "person" and any(r.key == rest.split(":", 1)[0] for r in load().relations)


def another_person(cand: Candidate, store: Store, scope: Scope) -> Candidate:
    """A name of ``person:<relation>`` that differs from the one the relation already holds,
    for a relation one has several people of (``Relation.several``: colleagues, friends,
    cousins), is a second person: ``person:<relation>:<name>``, with a slot set of its own.
    "我同事叫王磊" then "我同事小陈…" are two colleagues, not a new name of the first; a new
    manager or partner still replaces the old one (single-valued ``name``)."""
    kind, _, rel = cand.subject.partition(":")
    if cand.key != "name" or not cand.value or kind != "person":
        return cand
    relation = load().relation_of(rel)
    if relation is None or not relation.several:
        return cand
    held = store.find(
        RecordFilter(scope, statuses=SLOT_OPEN, subject=cand.subject, key="name"), limit=NAME_LOOKUP_LIMIT
    )
    want = canonical(cand.value, "person")
    if not held or any(r.value and canonical(r.value, "person") == want for r in held):
        return cand
    return cand.model_copy(
        update={
            "subject": f"{cand.subject}:{cand.value}",
            "attributes": {**cand.attributes, "another_of": cand.subject},
        }
    )


def name_aliases(name: str) -> list[str]:
    """The subjects a name may have been filed under: as written, and as a transcript
    speaker's lower-cased label."""
    return list(dict.fromkeys([f"person:{name}", f"person:{name.casefold()}"]))


def relink(store: Store, scope: Scope, named: MemoryRecord, now: datetime) -> int:
    """Move the open records filed under the name ``named`` states to its relation subject.

    A record whose slot the entity already fills with another value (a single-valued
    attribute) stays where it is: moving it would put two current values in one slot."""
    if named.key != "name" or not named.value or not is_relation_subject(named.subject):
        return 0
    moved = 0
    for alias in name_aliases(named.value):
        if alias == named.subject:
            continue
        found = store.find(RecordFilter(scope, statuses=SLOT_OPEN, subject=alias), limit=MOVE_LIMIT)
        for rec in found:
            moved += _move(store, rec, named.subject, now)
    return moved


def _move(store: Store, rec: MemoryRecord, subject: str, now: datetime) -> int:
    cat = load()
    attr = cat.get(rec.key)
    if not cat.allows(rec.key, subject) and attr is not None:
        return 0
    slot = store.find(
        RecordFilter(rec.scope, statuses=SLOT_OPEN, subject=subject, key=rec.key, exact_scope=True)
    )
    if slot and (attr is None or attr.cardinality == "single"):
        return 0
    moved = rec.model_copy(
        update={
            "revision": rec.revision + 1,
            "subject": subject,
            "updated_at": now,
            "attributes": {**rec.attributes, "linked_from": rec.subject},
        }
    )
    why = f"{rec.subject} is {subject}: its name was learned"
    guard = SlotGuard(rec.scope, subject, rec.key, frozenset(r.id for r in slot))
    with contextlib.suppress(ConflictError):  # changed meanwhile: left for the next name write
        store.apply(
            [
                guard,
                Update(
                    moved,
                    rec.revision,
                    Audit(RevisionOp.UPDATE, ACTOR, why, tuple(rec.evidence)),
                    reindex=False,
                ),
            ]
        )
        return 1
    return 0


def relink_written(store: Store, scope: Scope, changes: Sequence[Change], now: datetime) -> int:
    """``relink`` for every relation's name a batch of changes has just made current."""
    named = [
        ch.record
        for ch in changes
        if isinstance(ch, Create | Update) and ch.record.key == "name" and ch.record.status in SLOT_OPEN
    ]
    return sum(relink(store, scope, rec, now) for rec in named)
