"""Private but not safety-critical: what a request may see only when it bears on it.

A custody fight, a secret job offer, a debt, a therapist, a bereavement: none of it is
safety-critical, and all of it leaked into unrelated requests (a LinkedIn summary, a dinner
booking) because the block only withheld ``safety_critical`` attributes. Three signals mark a
memory private, none of them a phrase list of topics:

- its catalogue attribute is ``sensitive`` (salary, marital status, religion, body data) —
  a record's key, or what the attribute classifier reads a sentence as (``sentences.py``);
- the user marked the turn as confided: a *discretion cue* ("don't tell anyone", "my boss
  doesn't know", "这事你知道就行"; data, ``data/discretion.json``). The cue is the user's own
  word on privacy, whatever the topic, in either language;
- it is safety-critical (the older rule, unchanged).

Each private memory carries *labels*: its private attribute keys, the attributes the
classifier confidently reads its turn as, and ``confided``. It is shown when the request's
situations bear on one of them (``data/intents.json``), or when the request names it (two of
the request's own content terms in the memory's wording) — and the line then says why.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from memquill.model import MemoryRecord, MemoryType
from memquill.retrieve import critical, intents, places, sensitivity, spend
from memquill.retrieve.attributes import Attribute, bundled
from memquill.retrieve.weekdays import weekdays
from memquill.text import is_cjk, jieba_posseg, word_cache

CONFIDED = "confided"
NAMED_TERMS = 2  # the request's own content terms a private memory must share to be named
MEMORY_FLOOR, ATTRIBUTE_FLOOR, SENSITIVE_MASS = 0.5, 0.1, 0.4  # as for safety-critical sentences
# a sensitive attribute read this surely is private whatever P(memory): a question stating it
# ("税前年薪38万，帮我算算在成都算啥档次？" reads salary 0.93, memory 0.14) still carries the figure
STATED_SENSITIVE = 0.8
TURN_NEED = 0.2  # a standing need's share of a private turn's attribute reading that it states
# relations whose private matters are their own (a partner's are often the user's as well:
# "we're in couples counselling"; a doctor or a manager is named in the user's own matters)
OTHERS = frozenset(
    {"father", "mother", "parents", "son", "daughter", "child", "brother", "sister", "grandfather"}
    | {"grandmother", "grandchild", "uncle", "aunt", "cousin", "nephew", "niece", "father_in_law"}
    | {"mother_in_law", "sibling_in_law", "friend"}
)
_THIRD_ZH, _THIRD_EN = re.compile(r"用户的?"), re.compile(r"\bthe user's\s+", re.IGNORECASE)
SLOTS = frozenset({"availability", "work_schedule", "meeting_time", "sleep_schedule"})  # kept by the clock
Relabel = Callable[[str], "sensitivity.Sensitivity | None"]  # the head's fresh reading of a text


@lru_cache(maxsize=1)
def _cues() -> re.Pattern[str]:
    data = json.loads(resources.files("memquill").joinpath("data/discretion.json").read_text("utf-8"))
    words = [str(w) for ws in data["cues"].values() for w in ws]
    parts = [rf"(?<![a-z]){re.escape(w.casefold())}(?![a-z])" if w.isascii() else re.escape(w) for w in words]
    patterns = [str(p) for p in data.get("patterns", [])]
    return re.compile("|".join([*sorted(parts, key=len, reverse=True), *patterns]))


@lru_cache(maxsize=4096)
def _names(term: str) -> bool:
    """A shared term that can name a memory: a one-character Chinese term only as a noun ("猫",
    "药"). "这个月想控制开销，帮我做个简单的预算表" shares "月" and "做" with "请了半天假陪我妈去医院做
    化疗" (its date reads "2026年9月3日"), and a mother's chemotherapy showed in a budget table."""
    if len(term) != 1 or not is_cjk(term):
        return True
    return any(w.flag.startswith("n") for w in jieba_posseg().cut(term))


@word_cache(maxsize=8192)
def discreet(text: str) -> bool:
    """The text holds a discretion cue: the user said it is not to be passed on. Memoised:
    every ``context()`` asks it of each profile row (a regex of every cue; 5 ms per 1,000
    rows), and the rows recur from one request to the next; erasure empties the memo."""
    return bool(_cues().search(text.casefold().replace("’", "'")))


def turn_labels(rec: MemoryRecord, relabel: Relabel | None = None) -> dict[str, frozenset[str]]:
    """An episode's private user turns (``statements``), by wording, with their labels.

    With ``relabel`` (a reader with the sensitivity head) a turn the head calls private is
    private as a whole, as a confided one is: its other sentences are about the same matter
    ("Dad died in June. Mum's on her own in Chennai now and I call her every night." — the
    second, alone, reads as where the mother lives; "The funeral was in Cork. Anyway…")."""
    return {str(st["text"]): labels for st, labels in _private_turns(rec, relabel)}


def _private_turns(
    rec: MemoryRecord, relabel: Relabel | None = None
) -> Iterator[tuple[dict[str, Any], frozenset[str]]]:
    """The episode's user turns that carry private labels, with them."""
    for st in rec.attributes.get("statements") or []:
        if labels := _turn(st) | (_sensitive_turn(st, relabel) if relabel is not None else frozenset()):
            yield st, labels


def _turn(st: object) -> frozenset[str]:
    """A user turn's private labels, from its wording and the reading taken at write time
    (no embedding here): ``confided`` when it holds a discretion cue, and the sensitive
    attributes the reading gives ``SENSITIVE_MASS`` or more. Not the other attributes the
    reading names: "An Oslo hospital has offered me a position. Nobody here knows yet"
    reads as a medical condition (0.67), and a dinner request bears on those. A turn the
    reading gives a sensitive attribute ``STATED_SENSITIVE`` or more is private whatever its
    P(memory): a question about one's own salary is not a fact worth a record, yet it says it."""
    text = st.get("text") if isinstance(st, dict) else None
    if not isinstance(text, str) or not isinstance(st, dict):
        return frozenset()
    reading = st.get("reading")
    attrs: list[tuple[str, float]] = []
    memory = 0.0
    if isinstance(reading, list) and len(reading) == 2 and isinstance(reading[1], list):
        memory = float(reading[0])
        attrs = [(str(k), float(p)) for k, p in reading[1]]
    cat = bundled()
    sensitive = [(k, p) for k, p in attrs if p >= ATTRIBUTE_FLOOR and _sensitive(cat.attributes.get(k))]
    out = (
        {k for k, _ in sensitive}
        if memory >= MEMORY_FLOOR and sum(p for _, p in sensitive) >= SENSITIVE_MASS
        else {k for k, p in sensitive if p >= STATED_SENSITIVE}
    )
    if discreet(text):
        out.add(CONFIDED)
    return frozenset(out)


def _sensitive_turn(st: object, relabel: Relabel | None = None) -> frozenset[str]:
    """The sensitivity head's label of a user turn (read at write time, or again by
    ``relabel`` when the stored reading is another head's or missing), if it is private and
    not safety-critical (``critical.py``). For the records distilled from the turn only: an
    episode's sentences carry their own."""
    text = st.get("text") if isinstance(st, dict) else None
    if not isinstance(st, dict) or not isinstance(text, str):
        return frozenset()
    found = _head_reading(st.get("sensitive"), text, relabel)
    lab = sensitivity.label_of(found)
    theirs = bool(about(text))  # "Mum's on dialysis now…": her condition, as for sentences and records
    reading = critical.turn_reading(st.get("reading"))
    if lab is None or critical.safety_critical(reading=reading, head=found, theirs=theirs):
        return frozenset()
    return frozenset([lab]) | critical.topic_need(found.topic if found else "", theirs) | _turn_needs(reading)


def _turn_needs(reading: Iterable[tuple[str, float]]) -> frozenset[str]:
    """What a meal must respect that a private turn states beside its matter (``TURN_NEED``
    of the turn's attribute reading, ``critical.MEAL_NEEDS``): "我信伊斯兰教，饭菜要清真的" reads
    as a faith (religion 0.73) and a diet (0.22); the faith is private, the diet is what a meal
    must respect, so a meal opens the turn and nothing else does. Schedules keep their own
    sentence route (``sentences.NAMED_SCORE``): from the turn, a sleep-apnoea diagnosis (sleep
    schedule 0.2) opened to a weekly sync and a court date to a café on held-out 7."""
    return frozenset(k for k, p in reading if p >= TURN_NEED and k in critical.MEAL_NEEDS)


def _head_reading(value: object, text: str, relabel: Relabel | None) -> sensitivity.Sensitivity | None:
    """The head's reading of a text: the stored one when the shipped head wrote it, else a
    fresh one (an upgraded store: readings from before the head, or from an older head),
    else whatever was stored."""
    found = sensitivity.current(value)
    if found is None and relabel is not None:
        found = relabel(text)
    return found or sensitivity.Sensitivity.of_stored(value)


def _sensitive(attr: Attribute | None) -> bool:
    return attr is not None and attr.sensitive


def sentence_labels(turns: Mapping[str, frozenset[str]], sentence: str) -> frozenset[str]:
    """Labels of an episode sentence said inside one of the private ``turns`` (empty
    otherwise): quoted verbatim, or holding mostly the turn's words (a time-normalised
    quote, a filler turn without an end mark glued in front)."""
    out: frozenset[str] = frozenset()
    for text, labels in turns.items():
        quoted = sentence in text or any(len(x) > 3 and x in sentence for x in spend.sentences(text))
        if quoted or spend.covered(sentence, [spend.sentence_terms(text)]):
            out |= labels
    return out


def others(labels: Collection[str], text: str) -> frozenset[str]:
    """The people in the user's life (``OTHERS``) a private memory is about, when it is
    private for more than a safety-critical attribute: a parent's diagnosis, a brother's
    court date, a sister's divorce. Such a matter is theirs, not a standing fact of the
    user's: a hike or a dinner menu does not open it (though a diagnosis reads as a medical
    condition), a request naming that person does ("给我爸找点在家能做的锻炼")."""
    if not any(not critical.attribute(x) for x in labels):
        return frozenset()
    return about(text)


def about(text: str) -> frozenset[str]:
    """The people of ``OTHERS`` a text names."""
    return people(text) & OTHERS


def people(text: str) -> frozenset[str]:
    """The people in the user's life a text names, in the user's words, a record's third
    person ("用户爸", "the user's dad") or opening a sentence ("Dad passed in May")."""
    first = _THIRD_ZH.sub("我", _THIRD_EN.sub("my ", text))
    opening = f"my {first[0].lower()}{first[1:]}" if first[:1].isupper() else ""
    return places.people(first) | (places.people(opening) if opening else frozenset())


@dataclass(frozen=True)
class Request:
    """What one request opens: its situations' attributes, its own words, and the turns
    the user confided (event id → labels)."""

    bears_on: frozenset[str]
    asked: frozenset[str]
    confided: Mapping[str, frozenset[str]] = field(default_factory=dict)
    people: frozenset[str] = frozenset()  # relations the request names ("my dad" → father)
    topics: frozenset[str] = frozenset()  # private topics the request is about (sensitivity head)
    relabel: Relabel | None = None  # reads a text whose stored head reading is missing or stale
    situations: frozenset[str] = frozenset()  # of ``bears_on``, what the request's situations name
    days: frozenset[int] = frozenset()  # the days of the week the request names (``weekdays``)
    task: bool = False  # a task inside a project: its situations open only safety-critical needs

    @classmethod
    def of(
        cls,
        query: str,
        bears_on: Collection[str],
        asked: Iterable[str],
        episodes: Iterable[MemoryRecord],
        topics: Collection[str] = (),
        relabel: Relabel | None = None,
        task: bool = False,
    ) -> Request:
        confided: dict[str, frozenset[str]] = {}
        for ep in episodes:
            if ep.type is MemoryType.EPISODE:
                for st in ep.attributes.get("statements") or []:
                    labels = _turn(st) | _sensitive_turn(st, relabel)
                    if labels:
                        confided[str(st.get("event"))] = labels
        people = places.people(query)
        # the situations' own attributes, not those a request the head reads as bearing on
        # safety opens wholesale (``SentenceReader.bears_on``): what a private matter's need asks
        named = frozenset(bears_on) & intents.bears_on(query)
        return cls(
            frozenset(bears_on),
            frozenset(asked),
            confided,
            people,
            frozenset(topics),
            relabel,
            named,
            weekdays(query),
            task,
        )

    def labels(self, rec: MemoryRecord, attr: Attribute) -> frozenset[str]:
        """A record's private labels (empty: not private). An episode has none of its own:
        its private sentences are cut from it instead (``sentences.py``)."""
        if rec.type is MemoryType.EPISODE:
            return frozenset()
        out: set[str] = set()
        if critical.attribute(attr) or attr.sensitive:
            out.add(attr.key)
        for ev in rec.evidence:
            out |= self.confided.get(ev, frozenset())
        if discreet(rec.content):
            out.add(CONFIDED)
        found = _head_reading(rec.attributes.get("sensitive"), rec.content, self.relabel)
        theirs = bool(about(rec.content))  # a relative's diagnosis is private, theirs
        need = None if theirs else critical.matter_need(attr, found)
        if need is not None and (own := sensitivity.label_of(found)):
            # a private matter that is still a need (a psychiatric medication): its situations open it
            return frozenset({x for x in out if not critical.attribute(x)} | {own, need})
        if critical.safety_critical(key=attr, head=found, theirs=theirs):  # never hidden by the head
            return frozenset(x for x in out if sensitivity.parse(x) is None)
        if own := sensitivity.label_of(found, theirs):  # the head overrode a catalogue flag, if
            out = {x for x in out if not critical.attribute(x)} | {own}  # any: it opens nothing
            out |= critical.topic_need(found.topic if found else "", theirs)  # but a pregnancy bears
            if critical.standing_need(attr):  # a private schedule still bears on a meeting
                out.add(attr.key)
        return frozenset(out)

    def meets(self, key: str, text: str) -> bool:
        """A memory bearing on the request by ``key`` can meet it in time: a weekly slot on other
        days than the request names cannot collide with it (the Tuesday therapy hour is no
        reason to show a Saturday café plan the therapy). A text or request naming no day can."""
        if key not in SLOTS or not self.days:
            return True
        days = weekdays(text)
        return not days or bool(days & self.days)

    def named(self, text: str) -> bool:
        """The request names the memory: enough of its own words are in the wording."""
        return sum(map(_names, self.asked & spend.sentence_terms(text))) >= NAMED_TERMS

    def why(self, labels: Collection[str], text: str) -> str | None:
        """Why a private memory may be shown (``bears on <label>`` / ``named``), or None.

        What the user confided opens only to a situation bearing on a safety-critical
        attribute it states, and — when it is about someone in the user's life — only to a
        request that names that person too ("driving up to see my dad" and the dad's lung
        disease; not a dinner menu). A birthday dinner bears on marital status, but "we
        broke up, don't ask" is not for it. A task inside a project ("给装备清单页加一个按重量
        排序") is about the project: the situation its words name (shopping, by "装备") opens
        no private matter but a safety-critical need; naming it still does."""
        keys = set(labels) & self.bears_on
        model = [m for x in labels if (m := sensitivity.parse(x))]
        if model:  # the head's topic is the finer reading: "a family dinner bears on marital
            # status" is for "married to Li", not for the custody hearing it also reads as that;
            # a schedule or a diet it states still bears (``critical.standing_need``)
            cat = bundled()
            keys = {k for k in keys if critical.attribute(k) or critical.standing_need(cat.attributes.get(k))}
        keys = {k for k in keys if self.meets(k, text) and (critical.attribute(k) or not self.task)}
        keys |= {f"sensitive:{t}" for t, _ in model if t in self.topics}
        needs = {x for x in labels if x.startswith(critical.NEED)}  # a matter's need: its situations
        keys |= {x for x in needs if x.removeprefix(critical.NEED) in self.situations}
        if whom := others(labels, text):  # someone else's private matter: theirs to open
            met = sorted(whom & self.people)
            keys = {f"names {met[0]}"} if met else set()
        elif CONFIDED in labels:
            keys = {k for k in keys if critical.attribute(k)}
            whom = places.people(text)
            if whom and not whom & self.people:
                keys = set()
        first = sorted(keys)[0] if keys else ""
        why = (first if first.startswith("names ") else f"bears on {first}") if keys else None
        why = why or ("named" if self.named(text) else None)
        if why is not None and model:
            return f"{why}; sensitive (model {max(p for _, p in model):.2f})"
        return why
