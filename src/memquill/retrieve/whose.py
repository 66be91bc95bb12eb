"""Whom a stored turn is about, for the slot timeline: the user, a relation it names, or the
person a pronoun points back to."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from memquill.model import MemoryRecord
from memquill.retrieve import asked, places
from memquill.retrieve.turn_readings import turns
from memquill.text import is_cjk, jieba_frequency
from memquill.write import entities
from memquill.write.extract import item_names, subjects
from memquill.write.extract.lexicon import TECH, everyday_word
from memquill.write.extract.value_kinds import thing_word
from memquill.write.extract.value_shapes import shapes
from memquill.write.extract.values import pos_cut

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
    if name := actor(text):
        return f"person:{name}"
    return None


def known(records: Sequence[MemoryRecord]) -> dict[str, str]:
    """name → subject of the people and pets the pool's name records name ("周琴" →
    ``person:manager``, "Luna" → ``item:dog``), and of those filed under their name alone
    (``person:周琴``, a move the rules read; ``item:Luna``, a pet no kind word named)."""
    filed = {
        name: r.subject
        for r in records
        if (name := _filed_name(r.subject)) and name != "user" and not entities.is_relation_subject(r.subject)
    }
    return filed | {
        r.value: r.subject
        for r in records
        if r.key == "name" and r.subject.startswith(NAMED) and r.value and r.subject != "person:user"
    }


NAMED = ("person:", "item:")  # the subjects a name may stand for


def _filed_name(subject: str) -> str | None:
    """The name a subject is filed under: a person's, or a pet's that is no kind word
    (``item:dog`` is the dog, not one called "dog")."""
    kind, _, name = subject.partition(":")
    if kind == "person" or (kind == "item" and name and not thing_word(name)):
        return name or None
    return None


_QUESTION_WORDS = frozenset(
    "i what which who whom where when how why does do is are did can could my".split()
)
MAX_ASKED_NAMES = 3  # names a question may ask about, each one bounded lookup


_EVERYDAY = 300  # jieba's count of a doubled word said as a word, not a nickname ("宝宝" 301)


def named_in(question: str) -> list[str]:
    """Words of a question that may name a person filed under their name ("where does Mark
    work now?", "周琴现在住哪"): capitalised words that are no question word, or what jieba
    reads as a person's name."""
    if is_cjk(question):
        heads = shapes().org_heads + shapes().school_zh  # jieba tags "幼儿园" a name
        cut = pos_cut(question)
        found = [  # "乐乐", "豆豆": nicknames, not a word said every day ("天天", "看看", "妈妈")
            w for w, _ in cut if len(w) == 2 and w[0] == w[1] and jieba_frequency(w) < _EVERYDAY
        ]
        found += [w for w, flag in cut if flag.startswith("nr") and len(w) > 1 and w not in heads]
    else:
        found = [w for w in re.findall(r"\b[A-Z][a-z]+\b", question) if w.casefold() not in _QUESTION_WORDS]
    return list(dict.fromkeys(found))[:MAX_ASKED_NAMES]


def by_name(text: str, names: dict[str, str]) -> str | None:
    """ "周琴搬去成都了", "Dana moved to Austin": a turn opening with a name the pool knows is
    about that person."""
    opening = text.lstrip()
    return next((who for name, who in names.items() if len(name) > 1 and opening.startswith(name)), None)


# "Priya's moved to Dublin", "Rohit's left for a startup", "Sam's at Patagonia now": a turn
# opening with a name and "'s" before a participle of moving on. What then moves or changes is
# that person's, not the user's.
_ACTOR = re.compile(
    r"^\W*(?:(?:also|so|and|oh|well|btw)\s+)?([A-Z][a-z]+)(?:'s|’s)\s+([a-z]+)\b", re.IGNORECASE
)
_NOT_NAMES = frozenset("he she it what who where when how why which that there here let".split())
_ACTS = frozenset(
    "done got gone left taken quit begun become at moving leaving starting joining switching".split()
)


def actor(text: str) -> str | None:
    """The name a Latin-script turn opens with when that person has moved on ("Priya's done
    it again: left Dublin for Lisbon"): capitalised, not an ordinary English noun or verb
    ("Company's opening…", "School's back"), a city, or a tool ("Vivaldi's sync broke"),
    then "'s" and a participle ("been" is no act: "Outback's been great" is the user's car).
    A Chinese turn carries no capital, and jieba tags drinks and brands 'nr' too ("大麦茶",
    "安卓"): there only a name the store knows counts (``known``)."""
    if is_cjk(text):
        return None
    m = _ACTOR.match(text)
    if not m or not m.group(1)[0].isupper():
        return None
    name, act = m.group(1), m.group(2).lower()
    word = name.lower()
    if everyday_word(word) or word.endswith(("ly", "ing")):
        return None
    if word in _NOT_NAMES or TECH.match(name) or places.cities(name):
        return None
    return name if act in _ACTS or (act.endswith("ed") and act != "need") else None


def named(records: Sequence[MemoryRecord]) -> list[tuple[datetime, str]]:
    """(time, person) of every pool turn naming a person by relation, oldest first."""
    out = []
    for r in records:
        for t in turns(r):
            text = str(t.get("text", ""))
            who = subject(text)
            at = t.get("at")  # a pronoun points back to a relation, not to a name in passing
            if who and who.startswith("person:") and isinstance(at, str) and not actor(text):
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


def whom(text: str, at: datetime, named: Sequence[tuple[datetime, str]], names: dict[str, str]) -> str | None:
    """Whom a stored turn is about: a relation it names or a pronoun points back to
    (``resolved``), else a name the pool knows it opens with (``by_name``), else the user."""
    return resolved(subject(text), at, named) or by_name(text, names)


def same_subject(slot_subject: str, said: str | None, text: str = "") -> bool:
    """A turn naming a relation ("我老婆辞职了") is about that person; one naming none is
    about the user (or the user's project) — and about a pet or belonging (``item:dog``)
    only when it names that thing ("the dog's called Admiral now"; ``text`` is the turn)."""
    if slot_subject.startswith("person:"):
        return said == slot_subject
    if slot_subject.startswith("item:"):
        return said is None and item_names.mentions(slot_subject, text)
    return said is None
