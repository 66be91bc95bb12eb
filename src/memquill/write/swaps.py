"""A change that names the value it leaves: "ditched telstra for Optus", "现在改去一兆韦德了 乐刻太挤".

The turn names no attribute — no "carrier", no "健身房" — and often a value no lexicon
knows, so no extractor reads which slot changes (and an ending phrase, "ditched telstra", would
end the held value with nothing after it). The value it leaves is known, though: an open
record of a single-valued slot holds it — an organisation, a technology, a kind word ("渴望" a
pet food), or the name of someone one has one of and sees or works under (a dentist, a
manager). When a user's own turn names that value and another value of the slot's type
follows it where the turn retires it ("ditched X for Y", "moved from X to Y"), or a change cue
brings another in apart from it ("现在改去Y了 X太挤", "went back to Y, X coverage was rubbish"),
that other value is the slot's new one, and reconciliation supersedes the held record like any
change. A value of another kind ("Stan" is no carrier, "Melbourne" no gym), a held value kept
("still with Telstra", "乐刻还是照常去"), one that makes the change ("Google switched us to
Gemini"), one that is itself what the turn goes to ("went back to Telstra"), a value only urged
("同事劝我换成 Cursor") or someone else's change ("我姐把移动换成联通了") changes nothing. The
user's records are read in the worker's pass only, as corrections and endings are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from memquill.catalogue import Attribute, Catalogue, load
from memquill.model import Candidate, Event, MemoryRecord, MemoryType, Polarity, Role, Trust
from memquill.model.candidate import Trigger
from memquill.model.change import SLOT_OPEN
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from memquill.text import is_cjk
from memquill.write import supposed
from memquill.write.corrections import of_record
from memquill.write.endings import LOOKUP_LIMIT, names_in, said_forms
from memquill.write.extract import change_cues, value_kinds, values
from memquill.write.extract.appositions import surname
from memquill.write.extract.base import ExtractionInput
from memquill.write.extract.lexicon import everyday_word, given_name, place_name, tech_roles
from memquill.write.extract.subjects import about_other

# a segment of a turn (Chinese typed with spaces is cut at them): the held value said before a
# change in its own segment is who made the change ("Google switched us to Gemini"), one retired
# there is what it left ("ditched telstra for Optus")
_SEGMENT = re.compile(r"[，,。.;；!！?？:：—\n]|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")
# the held value kept, said right before it ("still with Telstra", "还在乐刻", "依旧用移动")
_KEPT = re.compile(r"(?:\bstill\b|还在|还是|仍然|依旧|依然|照样)[^，,。.;；!！?？]{0,12}$", re.IGNORECASE)
# …or right after it ("Telstra still does the internet", "乐刻还是照常去")
_STILL = re.compile(r"\W{0,2}\s*(?:\bstill\b|还|仍|依旧|依然|照样|照常)", re.IGNORECASE)
# characters a Chinese name does not hold: particles, pronouns, question words
_PARTICLES = frozenset("了的吗呢吧啊么啥什在是我你他她它这那就都也还要")
# the value types a change may take by the value it leaves (and people: ``_swappable``); never
# free text, nor places — "flew from sydney to Perth" leaves no city, and the move rules read moves
_TYPES = frozenset({"organisation", "tech"})


def by_held(batch: ExtractionInput, store: Store, found: Sequence[Candidate]) -> list[Candidate]:
    """Candidates for the held slots the batch's user turns change by naming the held value
    (skipped for a slot an extractor already read in the turn); ``found`` without the turn's
    vaguer readings of the new value ("uses: optus" beside the carrier Optus)."""
    cat = load()
    out: list[Candidate] = []
    for e in batch.events:
        if e.role is not Role.USER or e.source is not Trust.USER or not isinstance(e.content, str):
            continue
        text = batch.text(e)
        cues = change_cues.find(text)
        if all(c.kind == "present" for c in cues) or change_cues.kept_beside(text):
            continue  # no change said ("现在", "these days" alone bring nothing in): no records read
        other = about_other(text)
        for rec, attr, said in _named(store, e, text, cat):
            if other is not None and rec.subject != f"person:{other[0]}" and rec.value != other[1]:
                continue  # "我姐把移动换成联通了": the sister's carrier; "老周调走了…" is about 老周
            if any(_reads(c, rec, e) for c in [*found, *out]):
                continue
            new = _taken(text, attr, said, cues)
            if new is None or supposed.only_supposed(new, text):
                continue  # "同事一直劝我换成 Cursor": urged, not taken
            if new.casefold() not in _read_as_other(found, e, rec.key, cat):
                out.append(_changed(rec, e, new, _said(text, new)))
    if not out:
        return list(found)
    return [c for c in found if not _vaguer(c, out, cat)] + out


def _named(store: Store, e: Event, text: str, cat: Catalogue) -> list[tuple[MemoryRecord, Attribute, str]]:
    """The open single-valued records whose value the turn names, newest first; one per value."""
    out: list[tuple[MemoryRecord, Attribute, str]] = []
    seen: set[str] = set()
    for r in store.find(RecordFilter(e.scope, at=e.occurred_at, statuses=SLOT_OPEN), limit=LOOKUP_LIMIT):
        if r.type is MemoryType.EPISODE or not r.value or r.polarity is not Polarity.POSITIVE:
            continue
        attr = cat.get(r.key)
        if attr is None or not attr.single or not _swappable(attr, r.subject) or r.value.casefold() in seen:
            continue
        said = next((f for f in said_forms(text, r.value) if names_in(text, f)), None)
        if said is not None:
            seen.add(r.value.casefold())
            out.append((r, attr, said))
    return out


def _swappable(attr: Attribute, subject: str) -> bool:
    """Organisations, technologies, kind words — and the name of someone one has one of and
    goes to for something or works under (a dentist, a therapist, a manager), not family."""
    if attr.key == "name":
        rel = load().relation_of(subject.removeprefix("person:"))
        return rel is not None and not rel.several and bool(rel.work or rel.seen_for.en or rel.seen_for.zh)
    return attr.value_type in _TYPES or attr.key in value_kinds.kinds()


def _reads(c: Candidate, rec: MemoryRecord, e: Event) -> bool:
    """Did an extractor already read a new value of ``rec``'s slot in ``e``?"""
    new = c.polarity is Polarity.POSITIVE and (c.value or "").casefold() != (rec.value or "").casefold()
    return new and c.key == rec.key and c.subject == rec.subject and e.id in c.evidence


def _read_as_other(found: Sequence[Candidate], e: Event, key: str, cat: Catalogue) -> set[str]:
    """Values a rule read in ``e`` as another typed attribute: not free for the swap (a model's
    guess — "Dr Patel" as a workplace — is outranked by the held value's slot)."""
    out = set()
    for c in found:
        attr = cat.get(c.key)
        if c.rule.startswith("model:") or attr is None or attr.value_type == "text":
            continue
        if c.value and c.key != key and e.id in c.evidence:
            out.add(c.value.casefold())
    return out


def _taken(text: str, attr: Attribute, said: str, cues: Sequence[change_cues.Cue]) -> str | None:
    """The value the turn takes in place of ``said`` (a held value), else None."""
    at = text.casefold().find(said.casefold())
    after = text[at + len(said) : at + len(said) + 8]
    if change_cues.introduces(cues, at) or _KEPT.search(text[max(0, at - 20) : at]) or _STILL.match(after):
        return None  # "went back to Telstra", "still with Telstra", "Telstra still does…": it holds
    hi = _bounds(text, at)[1]
    retired = any(c.kind == "old" and c.value_start <= at <= c.value_end for c in cues)
    retired = retired or change_cues.ends_held(text, said)
    zh = is_cjk(text)
    offered = []
    kind_words = value_kinds.words_said(attr.key, text, zh)
    named = [s for s in values.named_spans(attr.value_type, text, zh) if _name_shaped(s)]
    if attr.value_type == "person" and zh:
        named += [m.group(0) for m in _zh_titled().finditer(text) if surname(m.group(0)[0]) or m.group(1)]
    for span in [*named, *kind_words]:
        where = text.find(span)
        if where < 0 or span in offered or _overlaps(where, span, at, said) or not _fits(attr, span):
            continue
        if retired and at < where < hi:
            offered.append(span)  # after the retired value in its segment: "ditched telstra for Optus"
        elif change_cues.introduces(cues, where) and not at < where < hi:
            offered.append(span)  # brought in by a change cue, the held value said apart from it
    picked = change_cues.pick(text, offered)
    return picked[0] if picked else None


def _name_shaped(span: str) -> bool:
    """Does a typed extractor's span read as a name: no particle, no space in Chinese ("了 上完课
    吃点什么"), not only everyday English words ("Case studies")?"""
    s = span.strip()
    if is_cjk(s):
        return 2 <= len(s) <= 10 and not any(ch in _PARTICLES or ch.isspace() for ch in s)
    words = s.casefold().split()
    return 0 < len(words) <= 4 and not all(everyday_word(w) for w in words)


@cache
def _zh_titled() -> re.Pattern[str]:
    """A Chinese surname with a title ("周医生", "陈总") or a familiar form ("老周", "陈姐")."""
    titles = "|".join(sorted(value_kinds.data().get("zh_titles", []), key=len, reverse=True))
    return re.compile(rf"[\u4e00-\u9fff](?:{titles}|姐|哥)|([老小阿])[\u4e00-\u9fff](?![\u4e00-\u9fff]{{2}})")


def _person(span: str) -> bool:
    """A person's name: a titled one ("Dr Patel"), a given name, or a capitalised word that is no
    everyday word; in Chinese, a surname first or a familiar form ("老周", "小K")."""
    if is_cjk(span):
        return surname(span[0]) or span[0] in "老小阿"
    first = span.split()[0]
    return (
        first in value_kinds.data().get("honorifics", [])
        or given_name(first)
        or not everyday_word(first.casefold())
    )


def _fits(attr: Attribute, span: str) -> bool:
    """Could ``span`` be a value of ``attr``: no word of another kind ("Stan" for a carrier),
    no city, no everyday word, no technology of another role, a person's name for a person?"""
    s = span.strip()
    if len(s) < 2 or (s.isascii() and s.islower() and everyday_word(s)):
        return False
    kinds = [k for k in value_kinds.kinds() if value_kinds.names_kind(k, s)]
    if kinds and attr.key not in kinds:
        return False
    if attr.value_type != "place" and place_name(s):
        return False
    if attr.value_type == "person" and not _person(s):
        return False
    roles = tech_roles(s)
    return roles is None or attr.key in roles or attr.value_type != "tech"


def _overlaps(where: int, span: str, at: int, said: str) -> bool:
    return (where < at + len(said) and at < where + len(span)) or span.casefold() == said.casefold()


def _bounds(text: str, at: int) -> tuple[int, int]:
    starts = [m.end() for m in _SEGMENT.finditer(text, 0, at)]
    stop = _SEGMENT.search(text, at)
    return (starts[-1] if starts else 0), (stop.start() if stop else len(text))


def _said(text: str, span: str) -> str:
    """What the record says: the turn, or the segment that names the new value in a long one."""
    if len(text) <= 160:
        return text.strip()
    lo, hi = _bounds(text, text.find(span))
    return text[lo:hi].strip()


def _cased(new: str, held: str) -> str:
    """A lower-case new value takes the held value's capital ("telstra" → "optus" → "Optus")."""
    return new[:1].upper() + new[1:] if new.islower() and new.isascii() and held[:1].isupper() else new


def _changed(rec: MemoryRecord, e: Event, new: str, said: str) -> Candidate:
    value = _cased(new, rec.value or "")
    attributes: dict[str, object] = {"changes_from": rec.value}
    return of_record(rec, e, value, said or value, attributes, "change.by_held", Trigger.BACKGROUND)


def _vaguer(c: Candidate, taken: Sequence[Candidate], cat: Catalogue) -> bool:
    """A reading of the same turn that states the value left as held, files the taken value
    under a free-text key, or under the same key for another subject ("煤球的粮…换成渴望": the
    cat's food, not the user's)."""
    for t in taken:
        if t.evidence[0] not in c.evidence:
            continue
        if c.key == t.key and c.subject == t.subject and _same(c.value, t.attributes["changes_from"]):
            return True  # "went back to telstra, optus coverage was rubbish": Optus is what it leaves
        if not _same(c.value, t.value):
            continue
        attr = cat.get(c.key)
        if (c.key == t.key and c.subject != t.subject) or attr is None or attr.value_type == "text":
            return True
    return False


def _same(a: object, b: object) -> bool:
    return isinstance(a, str) and isinstance(b, str) and a.casefold() == b.casefold()
