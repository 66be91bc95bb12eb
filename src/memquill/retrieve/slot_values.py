"""Which values a slot's statements name: the newest one's are current, the rest outdated.

A slot's timeline (``timeline.py``) knows which turns state the asked attribute and which of
them is the newest. The values those turns name (typed extractor spans: places,
organisations, names, tech, contact details) say what any other hit must not answer with:
a value only older statements name is outdated ("Tussock ate a thong" after the pup was
renamed), a value the newest statement names never is.

Spans are taken clause by clause (the typed extractors read one clause: a whole turn
"…被猎头挖去了鹭岛医疗，好在他们在合肥有研发中心…" hides "合肥" from them), and a value the
newest statement's words name is current however its spans were cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from memquill.catalogue import load
from memquill.keymap import TECH_ROLES
from memquill.model import MemoryRecord, MemoryType
from memquill.retrieve.superseded import states_value
from memquill.text import is_cjk
from memquill.write.covered import clauses
from memquill.write.extract import change_cues, values
from memquill.write.extract.lexicon import classify

# Value types whose typed extractor finds names, not phrases; free text only as a short
# Chinese span ("大麦茶"), since an English free-text span may be any word ("work").
NAMED = frozenset("place organisation person tech email phone url language money number".split())
SHORT_ZH = 6
# Value types a record names in passing that are still that attribute's kind of value: a
# structured record of the same subject naming another one, said before the newest
# statement, holds an older value ("…here in Nairobi" in the user's introduction).
PASSING = frozenset("place organisation tech email phone url".split())


class Said(Protocol):
    """A statement of the slot: its record and its words."""

    @property
    def record(self) -> MemoryRecord: ...

    @property
    def text(self) -> str: ...


def named(key: str, st: Said, record_words: bool = True) -> set[str]:
    """The values of attribute ``key``'s type that a statement names: a record's value, and
    (``record_words``) what its words name besides ("搬到了合肥，厦门的房子租出去了")."""
    attr = load().get(key)
    if attr is None:
        return set()
    zh = is_cjk(st.text)
    found = {v for part in clauses(st.text) or [st.text] for v in values.spans(attr.value_type, part, zh)}
    if st.record.type is not MemoryType.EPISODE and st.record.value:
        found = {st.record.value} | (found if record_words else set())
    if attr.value_type not in NAMED:
        found = {v for v in found if is_cjk(v) and 2 <= len(v) <= SHORT_ZH}
    if key.startswith("stack:"):  # a role's statement names no other role's technology, nor "3am"
        found = {v for v in found if _role(v) == key or (_role(v) is None and not _digits(v))}
    return {v.strip() for v in found if len(v.strip()) >= 2}


def _role(value: str) -> str | None:
    """The stack role of a technology the lexicon knows ("postgres" → ``stack:database``)."""
    known = classify(value)
    return TECH_ROLES.get(known[1]) if known else None


def values_said(key: str, newest: Said, older: Sequence[Said]) -> tuple[set[str], set[str]]:
    """(values the newest statement names as current, values only older statements name,
    or the newest one names before the change it states)."""
    now, left = moved_from(newest.text, named(key, newest, record_words=False))
    old = {v for s in older for v in named(key, s)}
    old = {v for v in old if not any(states_value(v, n) or states_value(n, v) for n in now)}
    return now, left | {v for v in old if not states_value(newest.text, v) or retired(newest.text, v)}


def only_ended(key: str, st: Said) -> bool:
    """Does a turn name the attribute's values only as what ended ("他说深圳的房子已经退了",
    "closed my Barclays account")? It tells what no longer holds, not what holds now: no
    statement of the current value. A record's own value is what it holds; the values are the
    typed extractors' names (no free-text fallback: "一堆东西都寄到我这儿来了" names no place)."""
    attr = load().get(key)
    if st.record.type is not MemoryType.EPISODE or attr is None:
        return False
    if any(c.kind in change_cues.CHANGE for c in change_cues.find(st.text)):
        return False  # "厦门的房子退租了，上个月搬到了合肥" also says what holds now
    found = typed_names(attr.value_type, st.text)
    return bool(found) and all(retired(st.text, v) for v in found)


def typed_names(value_type: str, text: str) -> set[str]:
    """The values of ``value_type`` a turn names, clause by clause, by the typed extractors
    alone (no free-text fallback, which any clause yields)."""
    zh = is_cjk(text)
    return {v for part in clauses(text) or [text] for v in values.named_spans(value_type, part, zh)}


def moved_from(text: str, values: set[str]) -> tuple[set[str], set[str]]:
    """(current, left behind) among the ``values`` a statement names. When a change cue
    introduces some of them ("found someone to take over our Pilsen lease and we moved to
    Evanston"), those are current, and one named before that cue is what the change left
    ("Pilsen"); one named after it may be where the new one lies ("moved to Evanston, just
    north of Chicago") and stays current. Without such a cue every value is current."""
    cues = [c for c in change_cues.find(text) if c.kind in change_cues.CHANGE]
    new = {v for v in values if any(change_cues.introduces(cues, at) for at in _spots(text, v))}
    if not new:
        return values, set()
    spots = [at for v in new for at in _spots(text, v)]
    first = min(c.start for c in cues if any(change_cues.introduces([c], at) for at in spots))
    left = {
        v
        for v in values - new
        if not any(states_value(v, n) or states_value(n, v) for n in new)
        and all(at < first for at in _spots(text, v))
    }
    return values - left, left


def _spots(text: str, value: str) -> list[int]:
    low, v = text.casefold(), value.casefold()
    return [i for i in range(len(low)) if low.startswith(v, i)]


def retired(text: str, value: str) -> bool:
    """Does ``text`` name ``value`` only as what no longer holds ("不再喝美式", "left Dell")?"""
    cues = [c for c in change_cues.find(text) if c.kind == "old"]
    spots = [i for i in range(len(text)) if text.startswith(value, i)]
    return bool(spots) and all(any(c.start <= i <= c.value_end for c in cues) for i in spots)


def _digits(value: str) -> bool:
    return any(c.isdigit() for c in value)
