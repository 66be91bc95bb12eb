"""Whom a stored turn is about, for the slot timeline: the user, a relation it names, or the
person a pronoun points back to."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from memquill.model import MemoryRecord
from memquill.retrieve import asked
from memquill.retrieve.turn_readings import turns
from memquill.write.extract import item_names, subjects

# "她不再当护士长了", "he's a dispatcher now": a turn about someone named before, not the user
_OTHER = re.compile(r"^\W*(?:他|她)(?!们)|^\W*(?:he|she)\b(?:'s)?", re.IGNORECASE)


_REPORTS = re.compile(r"\breport(?:ing)? to\b|汇报给|向.{1,6}汇报", re.IGNORECASE)


def subject(text: str) -> str | None:
    """Whom a turn is about: a relation it names ("我老婆…", "老公…", "I now report to …"
    names the manager), someone named before ("她…", "he…"), else the user."""
    # "老公又换了…": family is named without "my"; "我妈说，我姐…" reports on the sister
    if rel := subjects.relation(text) or asked.opening(text):
        return f"person:{asked.reported(text, *rel) or rel[0]}"
    if _REPORTS.search(text):
        return "person:manager"
    if _OTHER.search(text) or asked.by_pronoun(text):  # "…; he's a pastry student now"
        return f"other:{asked.gender(text)}"
    return None


def named(records: Sequence[MemoryRecord]) -> list[tuple[datetime, str]]:
    """(time, person) of every pool turn naming a person by relation, oldest first."""
    out = []
    for r in records:
        for t in turns(r):
            who = subject(str(t.get("text", "")))
            at = t.get("at")
            if who and who.startswith("person:") and isinstance(at, str):
                out.append((datetime.fromisoformat(at), who))
    return sorted(out)


def resolved(said: str | None, at: datetime, named: Sequence[tuple[datetime, str]]) -> str | None:
    """ "她不再当护士长了", "He took a ground job": a turn about someone by pronoun is about the
    person of that gender the user last named by relation before it (in the pool), if any."""
    if said is None or not said.startswith("other:"):
        return said
    told = said.split(":", 1)[1]  # a pronoun's gender: "he" is no sister
    before = [who for when, who in named if when <= at and asked.fits(who.split(":", 1)[1], told)]
    return before[-1] if before else said


def same_subject(slot_subject: str, said: str | None, text: str = "") -> bool:
    """A turn naming a relation ("我老婆辞职了") is about that person; one naming none is
    about the user (or the user's project) — and about a pet or belonging (``item:dog``)
    only when it names that thing ("the dog's called Admiral now"; ``text`` is the turn)."""
    if slot_subject.startswith("person:"):
        return said == slot_subject
    if slot_subject.startswith("item:"):
        return said is None and item_names.mentions(slot_subject, text)
    return said is None
