"""The newest statement of a slot answers; older statements of it are history.

A single-valued slot holds one value, but the turn that changed it may never have become a
record: a phrasing no rule knows ("茶喝腻了，最近爱上了燕麦拿铁"), a value span the
extractors cut wrong, or the attribute model off. The turn still lives in an episode, and
the episodes with the earlier values live beside it. Read by attribute, they form the
slot's timeline: the newest statement is the answer, the older ones are what it replaced.

Write time (session end, off the hot path): each user turn of an episode is read once by
the attribute classifier (``statements``: wording, time, P(memory), likeliest attributes),
one batched embedding per episode batch, so a query never embeds a stored turn
(``turn_readings.py``; whom a turn is about: ``whose.py``).

Read time, when a question goes to a single-valued slot (and it is no history or as-of
query): the pool's turns that state the routed attribute of the routed subject form the
timeline, together with the slot's own record. The newest statement leads the answer (the
turn itself, as an excerpt of its episode, when it is newer than the slot's record); every
older statement of the attribute is left out (its turns cut from an episode that says more),
and so is a turn recalling an earlier value ("back when I lived in Graz…"), a turn or record
of the subject reading the attribute only faintly or naming another value of its kind in
passing, and any hit naming a value only older statements name (``slot_values.py``).
Hits stating something else are untouched.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from memquill.catalogue import load
from memquill.model import MemoryRecord, MemoryType
from memquill.retrieve import slot_values, whose
from memquill.retrieve.superseded import states_value
from memquill.retrieve.turn_readings import StatementReader as StatementReader  # re-exported
from memquill.retrieve.turn_readings import reader_for as reader_for  # re-exported
from memquill.retrieve.turn_readings import turns as _turns
from memquill.text import SENTENCE, is_cjk
from memquill.write import corrections, noise, supposed
from memquill.write.episodes import FIRST_PERSON, asks, content_terms
from memquill.write.extract import change_cues, value_kinds

MEMORY_FLOOR = 0.02  # P(the turn states something durable) for a turn to count at all…
ATTRIBUTE_FLOOR = 0.1  # …and P(attribute) among its top three (``STRONG``)…
STRONG = 3
# …or, for a turn that says a change ("Left Dell, I'm at Zillow now", "又切回暗色了"; a
# change cue, not just "now"), any of its top ``TOP`` readings down to this floor: the
# classifier often reads a changing turn as a neighbouring attribute (``city``, ``color``)
# with the asked one close behind.
CUED_FLOOR = 0.03
# …but a turn another attribute clearly outweighs ("Still settling in here in Braga": ``city``
# 0.80, ``employer`` 0.11) is about that one: a distant runner-up reading, without a change
# cue or a clearly read clause, states nothing (it led an employer question wrongly).
OUTWEIGHED = 0.2
# A turn's clause readings (each attribute at its best clause) state an attribute only when a
# clause reads it clearly; a faint clause reading is noise the merge made look strong, and
# the change-cue floor above applies to the whole turn's reading alone.
CLAUSE_FLOOR = 0.3
# A question, a hypothetical or talk about options states no value ("如果搬去深圳的话…",
# "thinking about switching to Neovim", "要不要换成 Arc？").
NOT_SAID = re.compile(
    r"如果|假如|要是|万一|也许|或许|考虑|要不要|是不是|打算|[吗呢][？?]?\s*$|[?？]\s*$|"
    r"\b(?:if (?:i|we)|what if|maybe|might|perhaps|thinking about|considering|should i|would it)\b",
    re.IGNORECASE,
)
_CLAUSES = re.compile(r"[^，,。.;；!！?？]+[，,。.;；!！?？]*")


def asked(text: str, by_clause: bool = False) -> bool:
    """Is the turn asked, wondered or supposed rather than said? Whole-turn for a statement
    that may lead. ``by_clause`` for an older mention that may only leave the answer's
    company: a statement followed by a question to the assistant ("Most of my day is Python,
    … Any tips for finding dead code?", "每天早上不来一杯冰美式…，你说这算咖啡因依赖吗") still
    said its value; only a supposition anywhere, or every clause asked, says nothing."""
    if not by_clause or SUPPOSED.search(text):
        # the write path's own judgement too: what someone else urges, what the user only
        # applied for ("Colleague Tom tried to convince me to move the clinic app to
        # CockroachDB. Not happening." led over the database the app runs on)
        return NOT_SAID.search(text) is not None or supposed.urged_or_sought(text)
    return not said_part(text)


def said_part(text: str) -> str:
    """The turn's clauses that are said, not asked: a value named only in a question to the
    assistant ("Barclays just charged me £35. Monzo or Starling?") is an option, not a value."""
    return " ".join(c for c in _CLAUSES.findall(text) if c.strip() and not NOT_SAID.search(c.strip()))


# A question about the past wants the older statements ("where did I live before",
# "我以前用什么编辑器", "when did I move"): no timeline then.
HISTORY = re.compile(
    r"以前|之前|原来|曾经|过去|上一[个家份]|第一[个家份次]|什么时候|哪年|哪一年|多久|"
    r"\b(?:before|used to|previous(?:ly)?|former(?:ly)?|first|when did|how long|ago|back then)\b",
    re.IGNORECASE,
)
SAME_TIME = 60.0  # seconds: a record made from a turn is as new as the turn
# A turn recalling an earlier value ("back when I lived in Graz…", "以前在字节的时候…") is
# history however new the turn: it never leads, and the value it names is an older one —
# unless it also says how things are now (a change cue, or a present cue in a clause read as
# the attribute: "…, now I take the tram"; ``recalls``).
# A recall frame, or a comparison with a place or time the turn leaves ("比在上海挤地铁舒服多了",
# "way cheaper than in London"): the value it names is the earlier one, not a statement of now.
PAST = re.compile(rf"{change_cues.RECALL.pattern}|比起?在|\bthan (?:back )?(?:in|at)\b", re.IGNORECASE)


# --- read time -------------------------------------------------------------------------
@dataclass(frozen=True)
class Statement:
    record: MemoryRecord
    text: str  # the turn (for an episode) or the record's content
    at: datetime
    score: float  # P(attribute)
    event: str | None = None  # the turn's event (records made from it name it as evidence)
    past: bool = False  # recalls an earlier value ("back when I lived in …"): never the newest


@dataclass
class Timeline:
    """What a question routed to single-valued slots keeps, drops and puts first."""

    lead: MemoryRecord | None = None  # the newest statement, when it is newer than the slot
    drop: set[str] = field(default_factory=set)  # records stating only older values
    trimmed: dict[str, MemoryRecord] = field(default_factory=dict)  # episodes without old turns
    old: set[str] = field(default_factory=set)  # values only older statements name…
    now: set[str] = field(default_factory=set)  # …and the values the newest one names
    keep: set[str] = field(default_factory=set)  # the slot's own records

    def apply(self, records: Iterable[MemoryRecord]) -> list[MemoryRecord]:
        out = []
        for r in records:
            if r.id in self.drop or self.outdated(r):
                continue
            if self.lead is not None and r.id == self.lead.id:
                out.append(self.lead)
            else:
                out.append(self.trimmed.get(r.id, r))
        return out

    def outdated(self, r: MemoryRecord) -> bool:
        """Any other hit naming a value only older statements name ("Tussock ate a thong"
        after the pup was renamed) answers with the old value: it is left out."""
        if r.id in self.keep or (self.lead is not None and r.id == self.lead.id) or not self.old:
            return False
        rec = self.trimmed.get(r.id, r)
        text = f"{rec.value or ''} {rec.content}"
        return any(states_value(text, v) for v in self.old) and not any(
            states_value(text, v) for v in self.now
        )


def timeline(
    records: Sequence[MemoryRecord],
    slot: tuple[str, str] | None,
    slot_ids: set[str],
    replaced: Collection[str] = (),
    readings: Mapping[str, Sequence[tuple[str, float]]] | None = None,
) -> Timeline:
    """The timeline of the routed single-valued ``slot`` (subject, key) over ``records``
    (the pool), with ``slot_ids`` the slot lookup's own records and ``replaced`` the turns
    of its replaced versions (their episodes may be closed already); ``readings`` are the
    classifier's readings of the pool's other records (from their stored embeddings)."""
    if slot is None:
        return Timeline()
    said, others = statements(records, slot, slot_ids)
    now_said = [s for s in said if not s.past and not slot_values.only_ended(slot[1], s)]
    if not now_said:
        return Timeline()
    newest = newest_of(now_said, slot_ids)
    if newest.record.id not in slot_ids:  # a later turn naming the slot record's own value
        # ("再帮我写一个postgres慢查询的告警规则" after the move to PostgreSQL): the record answers
        newest = next((s for s in now_said if s.record.id in slot_ids and _names_own(newest.text, s)), newest)
    tl = Timeline(keep=set(slot_ids))
    if newest.record.id not in slot_ids:
        tl.lead = newest.record.model_copy(
            update={"content": newest.text, "attributes": {**newest.record.attributes, "excerpt": True}}
        )
    older = [s for s in said if s.past or (newest.at - s.at).total_seconds() > SAME_TIME]
    tl.now, tl.old = slot_values.values_said(slot[1], newest, older)
    gone = [*older, *(s for s in others if s.record.id != newest.record.id)]
    faint = [*_loose(records, slot, said), *_loose_records(records, slot, slot_ids, readings or {})]
    gone += [s for s in faint if _outdone(s, newest, tl.now, slot[1])]
    gone += _sources(records, gone, newest)
    told = ({s.event for s in gone if s.event} | set(replaced)) - {newest.event}
    for r in records:  # what other records made of such a turn say is no answer either
        made = r.type is not MemoryType.EPISODE and r.id not in slot_ids
        if made and r.evidence and set(r.evidence) <= told:
            tl.drop.add(r.id)
    for rid in {s.record.id for s in gone}:
        turns = [s.text for s in gone if s.record.id == rid]
        rec = next(s.record for s in gone if s.record.id == rid)
        if rec.id in slot_ids or rec.type is not MemoryType.EPISODE:
            tl.drop.add(rid)
            continue
        if tl.lead is not None and rid == tl.lead.id:
            continue
        rest = _without(rec.content, turns)
        if rest is None:
            tl.drop.add(rid)
        else:
            tl.trimmed[rid] = rec.model_copy(update={"content": rest})
    return tl


def _names_own(text: str, st: Statement) -> bool:
    """Does ``text`` name the value of the slot record ``st`` states, in passing: with no
    change said ("生酮坚持不下去了，现在就是低碳水" names the old value to leave it)?"""
    if not st.record.value or change_cues.kind(text) or change_cues.sets_aside_any(text):
        return False
    return states_value(text, st.record.value)


def newest_of(said: Sequence[Statement], slot_ids: Collection[str] = ()) -> Statement:
    """The statement that says how things are now: the newest, except that a turn which only
    follows a statement up does not take its place. Within one sitting (``FOLLOW_UP``) the
    turns after a statement talk about it ("柠檬茶喝多了会不会伤牙", "Mileage-based, makes
    sense"): a later one leads only when it reads the attribute at least as clearly, says a
    change or corrects it. A short acknowledgement of what the assistant offered ("Perfect, no
    carbs.", "Watermelon mint, yes."; ``reply``) never leads while anything else states the slot.
    A slot record made from a turn is as new as the turn and wins the tie."""
    ordered = sorted(said, key=lambda s: (s.at, s.record.id in slot_ids))
    stated = [s for s in ordered if s.record.id in slot_ids or not reply(s.text)] or ordered
    lead = stated[0]
    for s in stated[1:]:
        close = (s.at - lead.at).total_seconds() <= FOLLOW_UP
        if close and s.score < lead.score and not _restates(s.text):
            continue
        lead = s
    return lead


FOLLOW_UP = 3600.0  # seconds: one sitting


def _restates(text: str) -> bool:
    """A later turn of the sitting that says a change or corrects what was just said ("抱歉，
    邮箱写错了，…是 qiao.lin@…") states the value anew: it is no follow-up."""
    return change_cues.kind(text) in change_cues.CHANGE or corrections.marks_correction(text)


_CLAUSE = re.compile(r"[，,。.;；!！?？:：—…]+")
REPLY_WORDS = 5  # words (Latin) or characters / 2 (Chinese) beside the acknowledgement


def reply(text: str) -> bool:
    """Is the turn a short acknowledgement of what the assistant said ("Perfect, no carbs.",
    "Watermelon mint, yes.", "好的，就燕麦奶吧")? A clause of filler, a few words beside it, no
    first person and no change cue: it picks among the assistant's words, it states nothing
    of the user's own."""
    parts = [p.strip() for p in _CLAUSE.split(text) if p.strip()]
    rest = [p for p in parts if not noise.filler(p)]
    if len(rest) == len(parts) or FIRST_PERSON.search(text):
        return False
    words = sum(len(re.findall(r"[A-Za-z0-9'-]+", p)) + sum(map(is_cjk, p)) / 2 for p in rest)
    return words <= REPLY_WORDS and change_cues.kind(text) not in change_cues.CHANGE


def statements(
    records: Sequence[MemoryRecord], slot: tuple[str, str], slot_ids: Collection[str]
) -> tuple[list[Statement], list[Statement]]:
    """The pool's statements of ``slot``: the slot's records and the episode turns read as
    its attribute, split into those about the slot's subject and those about someone else."""
    said: list[Statement] = []
    others: list[Statement] = []  # the same attribute of someone else: no answer either
    heard = {str(t["event"]): str(t["at"]) for r in records for t in _turns(r) if t.get("event")}
    said_in = {str(t["event"]): t for r in records for t in _turns(r) if t.get("event")}
    words = {e: str(t.get("text", "")) for e, t in said_in.items()}
    named = whose.named(records)
    names = whose.known(records)
    # A Latin-script turn that names no value of a name-valued attribute ("finished that puzzle"
    # read as ``employer``) states none of it; Chinese names carry no capital the typed
    # extractors could find ("改坐海南航空了" yields none), so a Chinese turn is not judged so.
    attr = load().get(slot[1])
    named_kind = attr.value_type if attr is not None else ""
    valued = named_kind in slot_values.NAMED
    # A closed kind's statement names one of its words (``value_kinds``): "现在一天只吃两顿" reads
    # as the diet and names none, and it answered "我现在是什么饮食方式" over the 清真 stored
    closed = value_kinds.closed(slot[1])
    taken = _taken(records, slot[1])
    held = any(r.id in slot_ids and r.value for r in records)
    for r in records:
        if r.id in slot_ids:
            # a slot record made only from recalls ("Back when I used Emacs…") is history too
            told = [said_in[e] for e in r.evidence if e in said_in]
            past = bool(told) and len(told) == len(r.evidence) and all(recalls(t, slot[1]) for t in told)
            own = Statement(r, r.content, _when(r, heard), 1.0, past=past)
            (others if _supposed(r, words) else said).append(own)
        elif r.type is MemoryType.EPISODE:
            for t in _turns(r):
                if (st := _statement(r, t, slot[1])) is not None:
                    if valued and not is_cjk(st.text) and not slot_values.named(slot[1], st):
                        continue  # names no value of the attribute's kind: states none of it
                    if valued and held and _unnamed(named_kind, st):
                        continue
                    if closed and value_kinds.said_kind(slot[1], st.text, is_cjk(st.text)) is None:
                        continue
                    if _elsewhere(st, t, slot[1], taken):  # that attribute's: history here, never the answer
                        st = replace(st, past=True)
                    who = whose.whom(st.text, st.at, named, names)
                    (said if whose.same_subject(slot[0], who, st.text) else others).append(st)
    return said, others


# A turn naming nothing the typed extractors know as the attribute's kind (without the
# free-text fallback, which any clause yields) states a value beside a slot record holding one
# only when it reads the attribute this clearly or says a change ("最后还是去了风控组": team 0.75;
# Chinese names carry no capital). "对了，研一期末考机器学习和矩阵论，帮我排个复习计划吧" reads school
# 0.17 and led "我现在在哪所学校读书" over the 浙江大学 stored.
UNNAMED_CLEAR = 0.5


# A place or employer pointed at rather than named ("先在这边干满一年再说", "staying here for
# now") is the one held: such a turn, however clearly read, states no new value.
_DEICTIC = re.compile(r"这边|这里|这儿|那边|那里|那儿|\b(?:here|there)\b", re.IGNORECASE)


def _unnamed(value_type: str, st: Statement) -> bool:
    """A faint statement of a name-valued attribute that names no such value, or one that
    only points at the value held."""
    if change_cues.kind(st.text) in change_cues.CHANGE:
        return False
    if st.score >= UNNAMED_CLEAR and not _DEICTIC.search(st.text):
        return False
    return not slot_values.typed_names(value_type, st.text)


def _taken(records: Sequence[MemoryRecord], key: str) -> dict[str, dict[str, set[str]]]:
    """turn → attribute → the values the write path stored under attributes other than
    ``key`` from that turn (the pool's records): what the turn was read as saying."""
    out: dict[str, dict[str, set[str]]] = {}
    for r in records:
        if r.type is not MemoryType.EPISODE and r.value and r.key != key:
            for ev in r.evidence:
                out.setdefault(ev, {}).setdefault(r.key, set()).add(r.value.casefold())
    return out


def _elsewhere(
    st: Statement, turn: Mapping[str, object], key: str, taken: Mapping[str, Mapping[str, set[str]]]
) -> bool:
    """Is every value the turn names one the write path stored from it under an attribute
    of another value type that the turn reads more surely than ``key``? Then the turn states
    that attribute, and never leads ``key``'s answer (it still counts as an older mention of
    ``key``): "Sold the car over the holidays, so it's the Blue Line every morning now" reads
    commute 0.47 and employer 0.14, said a change, and as the employer's newest statement it
    made the employer stored a week before ("Carver Health") an old value; "公司搬家了，现在在
    望京SOHO T3办公" (workplace 0.92, employer 0.03, its first clause employer 0.35) did so
    to "禾木科技". An attribute of the same value type is no other matter: a teacher's school
    stored as the employer still names the school. An English turn naming nothing of the
    kind is that attribute's when ``key`` is only a faint reading there by its change cue;
    a Chinese one is not judged so (its spans may be any short noun, and the reading's order
    misleads: "…全部迁到GitHub Actions" was stored as a licence)."""
    if st.event is None or not (stored := taken.get(st.event)):
        return False
    reading = turn.get("reading")
    if not isinstance(reading, list) or len(reading) != 2:
        return False
    probs = {str(k): float(p) for k, p in reading[1]}
    kind = _kind(key)
    surer = {
        v
        for k, vs in stored.items()
        if probs.get(k, 0.0) > probs.get(key, 0.0) and _kind(k) != kind
        for v in vs
    }
    names = {v.casefold() for v in slot_values.named(key, st)}
    if not names and not is_cjk(st.text):  # a faint reading, there by its change cue
        return bool(surer) and st.score < ATTRIBUTE_FLOOR
    return bool(names) and all(any(v in s or s in v for s in surer) for v in names)


def _kind(key: str) -> str | None:
    """The value type of a catalogue attribute (None for a key the catalogue lacks)."""
    attr = load().get(key)
    return attr.value_type if attr is not None else None


def _loose(
    records: Sequence[MemoryRecord], slot: tuple[str, str], said: Sequence[Statement]
) -> list[Statement]:
    """The pool's turns about the slot's subject that read the attribute only faintly (among
    their ``TOP`` readings down to ``CUED_FLOOR``, whole or by clause: "我叫林栖，在厦门做后端
    开发，公司是拓维链" is read as ``name`` with ``employer`` fifth) and so are no statement —
    or, for an attribute whose values are names, that name one in passing ("佛山这边的早茶真的
    离谱", "Back in Dali I used to bike…", read as food and sport): what they name is an older
    value unless it is the newest statement's (``_outdone``)."""
    seen = {(s.record.id, s.text) for s in said}
    named, names = whose.named(records), whose.known(records)
    attr = load().get(slot[1])
    passing = attr is not None and attr.value_type in slot_values.PASSING
    out = []
    for r in records:
        if r.type is not MemoryType.EPISODE:
            continue
        for t in _turns(r):
            st = _statement(r, t, slot[1], loose=True) or (_passing(r, t, slot[1]) if passing else None)
            if st is None or (r.id, st.text) in seen:
                continue
            if whose.same_subject(slot[0], whose.whom(st.text, st.at, named, names), st.text):
                out.append(st)
            elif passing:  # "…, Barclays just charged me £35. my flatmate Jess uses Starling"
                out += _own_sentences(st, slot, named, names)
    return out


def _own_sentences(
    st: Statement, slot: tuple[str, str], named: Sequence[tuple[datetime, str]], names: dict[str, str]
) -> list[Statement]:
    """The sentences of a turn about someone else that are about the slot's subject and name
    a value of the attribute's kind: the turn's subject is its first relation ("my flatmate
    Jess uses Starling"), but what the user said of their own in another sentence
    ("Barclays just charged me £35") is still a passing mention of the user's slot."""
    out = []
    for part in (x.strip() for x in SENTENCE.split(st.text)):
        if not part or part == st.text.strip():
            continue
        own = replace(st, text=part)
        if whose.same_subject(slot[0], whose.whom(part, st.at, named, names), part) and slot_values.named(
            slot[1], own
        ):
            out.append(own)
    return out


def _passing(rec: MemoryRecord, turn: Mapping[str, object], key: str) -> Statement | None:
    """A said (not asked or supposed) turn, whatever its reading, as a passing mention of
    ``key``: ``_outdone`` keeps it only when it names a value of the attribute's type."""
    text, at, reading = str(turn.get("text", "")), turn.get("at"), turn.get("reading")
    if not isinstance(at, str) or not isinstance(reading, list) or len(reading) != 2:
        return None
    if float(reading[0]) < MEMORY_FLOOR or asked(text, by_clause=True):
        return None
    return Statement(rec, text, datetime.fromisoformat(at), 0.0, past=recalls(turn, key))


def recalls(turn: Mapping[str, object], key: str) -> bool:
    """Does the turn recall an earlier value of ``key`` rather than state the present one? A
    recall frame ("以前", "back when") and no change cue, unless a clause of its own that
    recalls nothing says the present about the attribute ("以前住成都，现在杭州": ``city``
    among that clause's readings; "以前坐东航的时候经常升舱，现在想都别想" recalls)."""
    text = str(turn.get("text", ""))
    if PAST.search(text) is None:
        return False
    kind = change_cues.kind(text)
    if kind in change_cues.CHANGE:
        return False
    parts = turn.get("parts")
    if kind is None or not isinstance(parts, list):
        return kind is None  # read before clauses were kept apart: a present cue says now
    return not any(
        isinstance(c, list)
        and len(c) == 2
        and change_cues.kind(str(c[0])) == "present"
        and PAST.search(str(c[0])) is None
        and key in c[1]
        for c in parts
    )


def _loose_records(
    records: Sequence[MemoryRecord],
    slot: tuple[str, str],
    slot_ids: Collection[str],
    readings: Mapping[str, Sequence[tuple[str, float]]],
) -> list[Statement]:
    """Records of the slot's subject under other keys whose words read the attribute faintly,
    or — for an attribute whose values are names (a place, an organisation, a tool) — name
    one in passing ("The user is Wanjiru, … at a fintech called Pesaflow here in Nairobi"
    for ``city``, read as ``relation``): what they name is an older value unless it is the
    newest statement's (``_outdone``)."""
    attr = load().get(slot[1])
    passing = attr is not None and attr.value_type in slot_values.PASSING
    out = []
    for r in records:
        read = dict(readings.get(r.id, ()))
        if r.id in slot_ids or r.subject != slot[0] or r.type is MemoryType.EPISODE:
            continue
        if read.get(slot[1], 0.0) < CUED_FLOOR and not passing:
            continue
        if not NOT_SAID.search(r.content):
            at = r.valid_from or r.observed_at or r.created_at
            out.append(Statement(r, r.content, at, read.get(slot[1], 0.0)))
    return out


def _sources(
    records: Sequence[MemoryRecord], gone: Sequence[Statement], newest: Statement
) -> list[Statement]:
    """The episode turns a left-out record was made from say what it said: they go too."""
    made = {e for s in gone if s.record.type is not MemoryType.EPISODE for e in s.record.evidence}
    made -= {
        newest.event or "",
        *(newest.record.evidence if newest.record.type is not MemoryType.EPISODE else ()),
    }
    out = []
    for r in records:
        for t in _turns(r) if r.type is MemoryType.EPISODE else []:
            if t.get("event") in made and isinstance(t.get("at"), str):
                out.append(Statement(r, str(t.get("text", "")), datetime.fromisoformat(str(t["at"])), 0.0))
    return out


def _outdone(st: Statement, newest: Statement, now: Collection[str], key: str) -> bool:
    """A faint older mention of the attribute that names a value of its type and none of the
    newest statement's values is history: it leaves with the older statements."""
    if (not st.past and (newest.at - st.at).total_seconds() <= SAME_TIME) or not slot_values.named(key, st):
        return False  # a recall ("以前用 Sublime Text 的时候…") is history however new
    return not any(states_value(said_part(st.text), v) for v in now)


# A slot record made only from supposing turns ("If we ever went back to Bengaluru I'd live
# near Cubbon Park") states no value: it is no answer and leaves with the older statements.
SUPPOSED = re.compile(r"如果|假如|要是|万一|\b(?:if (?:i|we)|what if)\b", re.IGNORECASE)


def _supposed(r: MemoryRecord, words: Mapping[str, str]) -> bool:
    said = [words[e] for e in r.evidence if e in words]
    return bool(said) and len(said) == len(r.evidence) and all(SUPPOSED.search(w) for w in said)


def single_slot(
    slots: Sequence[tuple[str, str]],
    prefer: Sequence[str] = (),
    records: Sequence[MemoryRecord] = (),
    slot_ids: Mapping[str, Collection[str]] | None = None,
    also: Sequence[str] = (),
    stated: bool = False,
    first: tuple[str, str] | None = None,
) -> tuple[str, str] | None:
    """The single-valued slot a question asks about: of the routed ones and the query's
    likeliest readings (``also``; each joins with the routed subject), the first the
    query's reading prefers (``prefer``, best first) that anything in ``records`` states,
    else the first routed one (``None`` when ``stated``: slots guessed from a loose reading
    of the question are asked only when something states them).
    Two close readings of a question ("我在公司的岗位现在叫什么" read as ``name``, then
    ``occupation``) are settled by what was said: an empty slot is not the answer.
    ``first`` (the learned question router's slot) is tried before them all: the attribute
    reading of a question ("best number to text me on?" read as ``contact_channel``, "我早上咋
    去公司来着" as ``employer``) lets a turn misread as that slot lead over the slot asked —
    but only among the first route's subject: "我现在直属领导是谁啊" names the manager, whom
    the router's reading (the user's ``team``) is not about. A question about someone else
    or something else is not answered by a slot of the user's at all."""
    cat = load()
    single = [(s, k) for s, k in slots if (a := cat.get(k)) is not None and a.single]
    if not single:
        return None
    subject = single[0][0]
    if subject != "user":  # "现在给我做头发的是哪位发型师": no turn of the user's employer answers it
        single = [c for c in single if c[0] == subject]
    extra = [(subject, k) for k in also if (a := cat.get(k)) is not None and a.single]
    extra = [c for c in extra if cat.allows(c[1], subject) and c not in single]
    rank = {k: i for i, k in enumerate(prefer)}
    ordered = sorted([*single, *extra], key=lambda c: rank.get(c[1], len(rank)))
    if first is not None and first in single and first[0] == subject:
        ordered = [first, *(c for c in ordered if c != first)]
    # beside a routed slot holding a record, a slot only turns state must be stated clearly ("who
    # do i bank with now": the bank stored, not the employer a project turn read faintly, 0.13)
    held = any((slot_ids or {}).get(k) for _, k in single)
    for cand in ordered:
        if cand in single and not records and not stated:
            return cand
        said = statements(records, cand, (slot_ids or {}).get(cand[1], ()))[0] if records else []
        if said and (not held or (slot_ids or {}).get(cand[1]) or max(s.score for s in said) >= CLAUSE_FLOOR):
            return cand
    return None if stated else next((c for c in ordered if c in single), single[0])


def _statement(rec: MemoryRecord, turn: dict[str, object], key: str, loose: bool = False) -> Statement | None:
    """The turn as a statement of attribute ``key``, if its reading names the attribute
    among its likeliest and it is said, not asked or supposed (``loose``: anywhere among
    its ``TOP`` readings down to ``CUED_FLOOR``, whole or by clause)."""
    reading = turn.get("reading")
    text, at = str(turn.get("text", "")), turn.get("at")
    if not isinstance(reading, list) or len(reading) != 2 or not isinstance(at, str):
        return None
    ranked = [(str(k), float(p)) for k, p in reading[1]]
    memory, attrs = float(reading[0]), dict(ranked)
    p = attrs.get(key, 0.0)
    strong = (
        p >= ATTRIBUTE_FLOOR and key in {k for k, _ in ranked[:STRONG]} and p >= OUTWEIGHED * ranked[0][1]
    )
    part = turn.get("clauses")  # the turn read clause by clause: a clearly read clause only
    if isinstance(part, list) and len(part) == 2:
        by_clause = [(str(k), float(v)) for k, v in part[1]]
        q = dict(by_clause).get(key, 0.0)
        if q >= CLAUSE_FLOOR and key in {k for k, _ in by_clause[:STRONG]}:
            strong, p, memory = True, max(p, q), max(memory, float(part[0]))
    cued = p >= CUED_FLOOR and change_cues.kind(text) in change_cues.CHANGE
    if loose and isinstance(part, list) and len(part) == 2:
        cued = cued or dict((str(k), float(v)) for k, v in part[1]).get(key, 0.0) >= CUED_FLOOR
    cued = cued or (loose and p >= CUED_FLOOR)
    if memory < MEMORY_FLOOR or not (strong or cued) or asked(text, by_clause=loose):
        return None  # asked, wondered or supposed: the slot keeps what was said
    if not loose and requested(turn, key):
        return None
    event = turn.get("event") if isinstance(turn.get("event"), str) else None
    event = str(event) if event else None
    return Statement(rec, text, datetime.fromisoformat(at), p, event, recalls(turn, key))


def requested(turn: Mapping[str, object], key: str) -> bool:
    """Is every clause reading ``key`` part of a request to the assistant ("Snowed in. Give me
    something I can make with eggs, spinach and cheese." read as ``diet``; "Help me write a
    post announcing I'm leaving my job" as ``employer``)? Such a turn asks for help with the
    attribute and states no value of it: it never leads (turns read before clauses were kept
    apart are not judged)."""
    text, parts = str(turn.get("text", "")), turn.get("parts")
    if not isinstance(parts, list):
        return False
    sentences = [x for x in SENTENCE.split(text) if x.strip()]
    reading = [str(p[0]) for p in parts if isinstance(p, list) and len(p) == 2 and key in p[1]]
    if not reading:
        return False
    for part in reading:
        around = next((x for x in sentences if part.strip() and part.strip() in x), part)
        if not asks(around):
            return False
    return True


def _when(r: MemoryRecord, heard: dict[str, str]) -> datetime:
    """When the slot's value was first said: the start of its version, else its first
    turn's time. A restatement merged in later moves ``observed_at``, not this (a value span
    cut wrong from a newer turn merges into the old value; the newer turn must still lead)."""
    if r.valid_from is not None:
        return r.valid_from
    first = [datetime.fromisoformat(heard[e]) for e in r.evidence if e in heard]
    return min(first) if first else (r.observed_at or r.created_at)


def _without(content: str, turns: Sequence[str]) -> str | None:
    """The episode's content without the sentences that come from ``turns`` (its content
    quotes turns sentence by sentence); ``None`` when nothing that says anything is left."""
    for t in turns:
        for x in (x.strip() for x in SENTENCE.split(t.strip())):
            if x:
                content = content.replace(x, " ")
    rest = " ".join(content.split())
    return rest if content_terms(rest) else None


def asks_history(query: str) -> bool:
    """Does the question ask about the past of a slot rather than its current value?"""
    return HISTORY.search(query) is not None
