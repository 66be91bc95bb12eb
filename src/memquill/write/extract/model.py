"""The long tail: catalogue attributes for clauses no rule understood (DESIGN §4 rule 8).

Off the hot path (the worker and session end), each clause of a user turn that no rule
pattern matched, that is no question, hedge or order, is embedded (one batch per call) and
classified (``classifier.py``). For the top attributes the model believes in, the subject
comes from the clause's words or the model's subject kind (``subjects.py``) and the value
from the typed extractor of the attribute's value type (``values.py``); without a value of
the right type nothing is proposed. The candidate records the model id and its score
(``rule="model:<id>"``, ``attributes.model``), which ``explain()`` shows; a score below the
confidence floor makes it a ``candidate`` record that a recurrence must promote.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from memquill.catalogue import Attribute, load
from memquill.model import Candidate, Event, MemoryType, Polarity, Role, Trust
from memquill.model.candidate import Trigger
from memquill.model.scope import Level
from memquill.providers.base import Embedder
from memquill.write import truecase
from memquill.write.extract import (
    change_cues,
    span_change,
    span_path,
    span_scorer,
    subjects,
    value_shapes,
    values,
)
from memquill.write.extract.appositions import named_relations
from memquill.write.extract.base import ExtractionInput
from memquill.write.extract.classifier import AttributeClassifier, Prediction, blended
from memquill.write.extract.clause import Beside, Clause
from memquill.write.extract.item_names import named_items
from memquill.write.extract.lexicon import only_verb, role_of, tech_roles
from memquill.write.extract.model_gates import (
    TYPED_VALUES,
    acceptable,
    cue_may_lift,
    empty,
    fits_role,
    introduced,
    model_name_only,
    names_person,
    names_slot,
    now_and_then,
    past_opening_verb,
    references,
    refers,
    region_like,
    uncontracted,
    usual,
    without_captions,
)
from memquill.write.extract.patterns import PATTERNS
from memquill.write.extract.patterns_common import asks_en, blocked, say, zh_asks
from memquill.write.extract.patterns_time import expiry
from memquill.write.extract.phrasing import said_of
from memquill.write.extract.rules import RuleExtractor, keyed
from memquill.write.extract.span_features import retired
from memquill.write.extract.span_scorer import SpanScorer
from memquill.write.extract.thresholds import Thresholds
from memquill.write.extract.transcript import addressee, as_said_by, speaker, speakers, without_vocative
from memquill.write.extract.value_kinds import (
    CONDITION,
    closed,
    closed_list,
    condition_within,
    distinctive,
    domain_kind,
    kind_value,
    said_kinds,
    vouched,
    whole_word,
)

_TYPES = {
    "preference": MemoryType.PREFERENCE,
    "fact": MemoryType.FACT,
    "decision": MemoryType.DECISION,
    "temporary": MemoryType.TEMPORARY,
    "procedure": MemoryType.PROCEDURE,
}
# Attributes a model confuses with a person's name said beside their relation.
_NAME_LIKE = frozenset({"relation", "nickname"})
# A comma segment's free-text reading ("刚入职了米哈游，做技术美术": the occupation) is kept
# when the segment alone reads that sure (memory × attribute probability); lower, a free-text
# value needs the clause's context. 0.6 on the dev corpora: attribute accuracy +0.02–0.04,
# memory F1 +0.01, candidate precision −0.01 (0.5 costs twice the precision for little more).
_FREE_SEGMENT = 0.6
# the readings of each attribute a clause read twice averages (one missing from a reading's
# top counts 0 there): deeper than the three a reading keeps, so a second-best survives
BLEND_READINGS = 6
# P(memory) of a clause naming a word of the closed kind its top attribute holds: a user's own
# statement's confidence (``rules._SOURCE``), as a rule's match
NAMED_KIND = 0.9
_OPTIONS = re.compile(r"\bor\b|还是|或者|或是", re.IGNORECASE)
READINGS = 3  # a segment's likeliest readings a distinctive kind word may lift to its top…
KIND_READING = 0.5  # …as sure as this: the word, not the head, says what the segment is about
# The subject head's "person" below this, for a clause that opens with "I"/"我" and names no
# one, is the user: "我今年32岁，在北京做律师" reads person at 0.50, "在北京做律师" (its
# segment) at 0.68, and no person is said; "我朋友在北京做律师" reads person at 1.00.
_UNSURE_KIND = 0.75
# Place attributes whose value, when it ends with a school's head word ("Lincoln Elementary",
# "蒲公英幼儿园"), is where someone studies (``value_shapes.names_school``), not where they live.
_SCHOOL_FROM = frozenset({"address", "city", "current_location", "hometown", "visited_place", "country"})
ANTECEDENTS = 10  # the ranker's spans a reference may point back at
REFERRED = 0.5  # the span probability of a typed name a reference points back at


@dataclass(frozen=True)
class Open:
    """A clause no rule claimed: normalised (for the content) and as said (for the model)."""

    clause: Clause
    said: str
    speaker: str | None = None  # the transcript speaker ("Caroline: …"), when labelled
    to: str | None = None  # whom the speaker addresses (``transcript.addressee``)
    whole: str | None = None  # for a comma segment, the clause it is from (whose subject it shares)
    # a clause a rule took: the keys and values it gave (only its other segments are read)
    ruled: tuple[tuple[str, str], ...] = ()
    # of those keys, the ones the rule gave only as something not wanted ("我不喝咖啡")
    refused: frozenset[str] = frozenset()
    # a free-form rule (a liking, a habit) took the clause: it holds a memory at the rule's
    # confidence, whatever the memory head says; the model still names its attribute ("I'd
    # rather take the bus than drive to work" is a liking and the commute, memory head 0.60)
    stated: float = 0.0
    # the keys and values a ``Beside`` family gave (a gathering's standing day, ``patterns_schedule``):
    # the model reads the rest of the clause — its venue, whose it is — but gives neither again
    beside: tuple[tuple[str, str], ...] = ()


class ModelExtractor:
    """Candidates from the attribute classifier for clauses the rules left alone."""

    name = "model"

    def __init__(
        self,
        classifier: AttributeClassifier,
        embedder: Embedder,
        rules: RuleExtractor | None = None,
        thresholds: Thresholds | None = None,
        spans: SpanScorer | None = None,
    ) -> None:
        self.classifier = classifier
        self.embedder = embedder
        self.spans = spans or span_scorer.bundled()
        self.rules = rules or RuleExtractor(PATTERNS)
        # the bars shipped with the weights (fitted with them), unless the caller sets its own
        self.thresholds = thresholds or Thresholds.of(classifier.thresholds)
        self.catalogue = load()

    def extract(self, batch: ExtractionInput) -> list[Candidate]:
        session = speakers([*batch.context, *batch.events])
        read = [self._open_clauses(e, batch, session) for e in batch.events]
        clauses = [c for opened, _ in read for c in opened]
        named = [x for _, names in read for x in names]
        if not clauses:
            return named
        parts = [[replace(c, said=x, whole=c.said) for x in _unruled(c)] for c in clauses]
        said = [c.said for c in clauses] + [x.said for ps in parts for x in ps]
        found = self._read_all(said)
        rest = iter(found[len(clauses) :])
        out: list[Candidate] = []
        for c, p, ps in zip(clauses, found[: len(clauses)], parts, strict=True):
            p = replace(p, memory=max(p.memory, c.stated, self._named_kind(c, p)))
            times = batch.times.get(c.clause.event.id, [])
            made = [] if c.ruled else self.propose(c, p, times)
            have: dict[str, set[str]] = {}
            for k, v in [(x.key, x.value or "") for x in made] + list(c.ruled):
                have.setdefault(k, set()).add(v.casefold())
            # a clause read as no memory keeps only its segments naming their kind's word
            # ("行，换爱肯拿了，过渡7天是吧")
            faint = p.memory < self.thresholds.memory and not c.ruled
            lifted = [self._lifted(o, q, faint) for o, q in zip(ps, [next(rest) for _ in ps], strict=True)]
            made += self._segment_facts(c.said, ps, lifted, have, times, c.refused)
            made = [x for x in made if not _beside(x, c.beside)]
            owned = [as_said_by(x, c.speaker, c.clause.event, c.to) if c.speaker else x for x in made]
            # a speaker is a person
            out.extend(x for x in owned if x is not None and self.catalogue.allows(x.key, x.subject))
        # a name said beside its relation or item ("猫叫芝士", "换了个发型师 叫Kevin") is that
        # one's, not the user's own nor a segment's guess at whose ("叫Kevin 在天河那边": a project)
        owner = {(x.value or "").casefold(): x.subject for x in named if x.key == "name"}
        out = [
            x
            for x in out
            if not (x.key == "name" and owner.get((x.value or "").casefold(), x.subject) != x.subject)
        ]
        # a name said beside its relation ("my brother's name is Tom") is read surer by the
        # apposition than by the model (memory head 0.36 there): the surer of the two stays
        sure = {(x.subject, x.key): x.confidence for x in named}
        out = [x for x in out if x.confidence >= sure.get((x.subject, x.key), 0.0)]
        slots = {(x.subject, x.key) for x in out}
        return out + [x for x in named if (x.subject, x.key) not in slots]

    def _read_all(self, said: list[str]) -> list[Prediction]:
        """The model's reading of each clause; one that opens with a name is read a second
        time with a pronoun standing in for the name (``subjects.stand_in``) and the two
        readings averaged (``blended``). A name the model never saw pulls its reading toward
        names, places and events ("Noah moved to Riverside Elementary" read as an event's
        venue, "她九月份转到…" as a school); the name itself carries what the pronoun loses
        ("Mark signed with Amazon, starts July 7": the employer the name's reading gives). On
        260 clauses about people and pets named bare, written apart (``attributes_dev12``):
        attribute found 0.606 → 0.637 of the labelled facts, value 0.486 → 0.510; the pronoun
        reading alone found as many and lost six of the suite's readings (decision 0018i)."""
        vectors = self.embedder.embed_passages(said)
        found = self.classifier.predict(vectors, texts=said)
        heard = [subjects.stand_in(x) for x in said]
        swapped = [i for i, (x, y) in enumerate(zip(said, heard, strict=True)) if x != y]
        if not swapped:
            return found
        alt = [heard[i] for i in swapped]
        own = self.classifier.predict(vectors[swapped], top=BLEND_READINGS, texts=[said[i] for i in swapped])
        other = self.classifier.predict(self.embedder.embed_passages(alt), top=BLEND_READINGS, texts=alt)
        for i, a, b in zip(swapped, own, other, strict=True):
            found[i] = blended(a, b, len(found[i].attributes))
        return found

    def _segment_facts(
        self,
        whole: str,
        parts: list[Open],
        found: list[Prediction],
        have: dict[str, set[str]],
        times: Sequence[Any],
        refused: Collection[str] = (),
    ) -> list[Candidate]:
        """Facts of a clause's comma segments that the whole clause's prediction left out
        ("我叫何静，今年29，在南京做HR": the clause reads as a name, its segments also as an
        age, a city and an occupation): each segment the model reads as a memory on its
        own proposes its top attribute, unless the clause already has that key — from the
        model or from the rule that took the clause ("我在腾讯上班，做游戏策划": the
        employer rule leaves the occupation). A multi-valued attribute the clause already
        has takes a further value from a segment that reads as it ("用的是Pixel 8 Pro，电脑是
        ThinkPad", "单测用Vitest，端到端是Playwright"), whatever its value type: the clause's
        reading gave the context. A single-valued attribute the rule gave only as refused
        ("我不喝咖啡，…，一般都喝普洱", "please don't call me, Signal messages work best") takes
        the one value a segment states of it."""
        keys = {k: set(v) for k, v in have.items()}
        open_keys = set(refused)
        out: list[Candidate] = []
        for o, p in zip(parts, found, strict=True):
            if p.memory < self.thresholds.memory or not p.attributes:
                continue
            attr = self.catalogue.get(p.attributes[0][0])
            if attr is None or (attr.key in keys and attr.single and attr.key not in open_keys):
                continue
            if attr.key in keys and _BACK.search(o.said):
                continue  # "…"Paris, Texas", I rewatch it every winter": the value already given
            # read and pooled as a whole clause is ("My wife works at Tencent, she's been doing
            # overtime": the segment is an employer at 0.48, an industry at 0.21 and a workplace
            # at 0.16, all of "Tencent": an employer at 0.86)
            pooled = [x for a, x, _ in self._pooled(p, self._read(o, p, times)) if a.key == attr.key]
            held = (x.attributes.get("model", {}).get("pooled", 0.0) for x in pooled)  # the mass
            score = max([p.memory * p.attributes[0][1], *held])
            typed = attr.value_type in TYPED_VALUES or any(
                vouched(attr.key, x.value or "", o.said) or _proper_name(x.value or "", attr.value_type)
                for x in pooled
            )
            if attr.key not in keys and not typed and score < _FREE_SEGMENT:
                continue  # a free-text value needs the clause's context, unless read sure
            # the slot a rule found only refused is what the clause is about: the value a
            # segment states of it needs only the joint bar ("please don't call me, Signal
            # messages work best": contact channel at 0.59 in the segment alone)
            bar = self.thresholds.joint if attr.key in open_keys else None
            cands = [
                x
                for x in pooled
                if (self._sure(x, attr) if bar is None else x.confidence >= bar)
                and not retired(whole, x.value)
                and not _known(x.value, keys.get(attr.key, set()))
                and not (attr.key in keys and _beside_change(whole, x.value))
            ]
            if attr.key in open_keys:
                cands = [x for x in cands if x.polarity is Polarity.POSITIVE][:1]
                if cands:
                    open_keys.discard(attr.key)
            for x in cands:
                keys.setdefault(x.key, set()).add((x.value or "").casefold())
            out += cands
        return out

    def _open_clauses(
        self, event: Event, batch: ExtractionInput, session: Sequence[str] = ()
    ) -> tuple[list[Open], list[Candidate]]:
        """Clauses of a user's own turn that no rule pattern claimed, with their wording as
        said: the model was trained on how people talk, and values keep that wording; the
        normalised clause (absolute times, resolved references) becomes the content.

        Beside them, the names said beside a relation ("my colleague Rashid is…",
        ``appositions``), whoever took the clause. Off the hot path: such a record carries only
        part of its turn, and a rules-only session must keep the episode the rest of the turn
        is in (the context block drops an episode a record of its turn carries). Not in a
        transcript line: whose relation it is depends on the speaker."""
        if event.role is not Role.USER or event.source is not Trust.USER:
            return [], []
        times = batch.times.get(event.id, [])
        who, text = speaker(event, without_captions(batch.text(event)))
        _, content = speaker(event, without_captions(event.content))
        to = addressee(event, text, who, session) if who else None
        text, content = without_vocative(text, to), without_vocative(content, to)
        norm = self.rules.clauses(event, text, times, transcript=who is not None)
        named = [] if who else [x for c in norm for x in [*named_relations(c, []), *named_items(c)]]
        raw = self.rules.clauses(event, content, times, transcript=who is not None)
        said = [r.text for r in raw] if len(raw) == len(norm) else [c.text for c in norm]
        out = []
        for c, words in zip(norm, said, strict=True):
            if blocked(c):
                continue  # orders and chit-chat are the memory head's negatives
            families = self.rules.patterns
            taken = next((found for p in families if not isinstance(p, Beside) and (found := p(c))), [])
            beside = tuple((x.key, x.value or "") for p in families if isinstance(p, Beside) for x in p(c))
            if all(_freeform(x.key) for x in taken):
                stated = max((x.confidence for x in taken), default=0.0)
                out.append(Open(c, words, who, to, stated=stated, beside=beside))
            elif len(segments(words)) >= 2:
                ruled = tuple((keyed(x).key, x.value or "") for x in taken)
                refused = frozenset(k for k, _ in ruled) - {
                    keyed(x).key for x in taken if x.polarity is not Polarity.NEGATIVE
                }
                if _unruled(Open(c, words, who, to, ruled=ruled)):
                    out.append(Open(c, words, who, to, ruled=ruled, refused=refused, beside=beside))
        return out, named

    def propose(self, o: Open, p: Prediction, times: Sequence[Any] = ()) -> list[Candidate]:
        """Zero or more candidates for one clause from one prediction."""
        if p.memory < self.thresholds.memory and p.score < self.thresholds.joint:
            return []
        out: list[Candidate] = []
        for attr, x, split in self._pooled(p, self._read(o, p, times)):
            # a change cue may have lifted the score ("I'm on fish now"): judge what was proposed
            once = not attr.single or all(y.key != x.key for y in out)
            if once and (split or self._sure(x, attr)):
                out.append(x)
        return out + self._event_details(o, p, out, times)

    def _lifted(self, o: Open, p: Prediction, faint: bool) -> Prediction:
        """A segment's reading with the memory its kind word states; for a segment of a
        ``faint`` clause only that (none otherwise). A segment is short: a distinctive word of a
        closed kind among its likeliest readings makes that reading its top one ("换爱肯拿了":
        ``name`` 0.14, ``pet_food`` 0.07)."""
        zh = o.clause.language == "zh"
        for rank, (key, prob) in enumerate(p.attributes[:READINGS]):
            words = said_kinds(key, o.said, zh) if rank and closed(key) else []
            if any(distinctive(w) and whole_word(o.said, w) for w in words):
                lifted = (key, max(prob, KIND_READING))
                p = replace(p, attributes=(lifted, *(a for a in p.attributes if a[0] != key)))
                break
        named = self._named_kind(o, p)
        return replace(p, memory=max(named, 0.0 if faint else p.memory))

    def _named_kind(self, o: Open, p: Prediction) -> float:
        """A clause read as an attribute of a closed kind that names one of its words states
        it, however faint the memory head ("猫现在吃渴望挺好的，便便成型了": 0.15), as surely as
        a rule's pattern would (``NAMED_KIND``) — said as a word of its own ("这个咖啡因多吗"
        names no coffee), in a clause not worded as a question ("渴望好还是巅峰好"; "I guess that
        makes me pescatarian now?" states it)."""
        zh = o.clause.language == "zh"
        if not p.attributes or not closed(key := p.attributes[0][0]):
            return 0.0
        if (zh_asks(o.said) if zh else asks_en(o.said)) or _OPTIONS.search(o.said):
            return 0.0  # nor one offering options ("fish or veggie", "渴望还是巅峰")
        return NAMED_KIND if any(whole_word(o.said, w) for w in said_kinds(key, o.said, zh)) else 0.0

    def _read(
        self, o: Open, p: Prediction, times: Sequence[Any]
    ) -> list[tuple[Attribute, float, list[Candidate]]]:
        """The candidates of each attribute the head reads near its top one."""
        read: list[tuple[Attribute, float, list[Candidate]]] = []
        top = p.attributes[0][1]
        for rank, (key, prob) in enumerate(p.attributes):
            if rank and (prob < self.thresholds.second or prob < self.thresholds.ratio * top):
                break
            attr = self.catalogue.get(key)
            if attr and (cands := self._candidates(o, p, attr, p.memory * prob, times)):
                read.append((attr, prob, cands))
        return read

    def _pooled(
        self, p: Prediction, read: list[tuple[Attribute, float, list[Candidate]]]
    ) -> list[tuple[Attribute, Candidate, bool]]:
        """Each value the clause states once, read by the attribute whose span ranker is
        surest of it, at the attribute mass of every attribute that read the same span: "I
        work as a pharmacist" is an employer at 0.38 and an occupation at 0.22, both of
        "pharmacist" (the ranker: 0.05 as an employer, 0.76 as an occupation), an occupation
        at 0.60.

        A clause stating several facts splits the attribute head between them ("I'm an
        accountant in Leeds": occupation 0.21, industry 0.19, city 0.19), each under the
        bar one slot's value must clear. When two or more values each come from a span the
        ranker is sure of (``SPAN_SURE``) and reach the joint bar, each is held at the
        clause's mass on all of them together: the head is that sure the clause states
        them, the ranker which span is which. Such a value is proposed (the flag) whatever
        the bar of its attribute alone."""
        groups: list[list[tuple[Attribute, float, Candidate]]] = []
        for attr, prob, cands in read:
            for x in cands:
                at = next((g for g in groups if any(_same_span(x, y) for _, _, y in g)), None)
                if at is None:
                    groups.append([(attr, prob, x)])
                elif all(a.key != attr.key for a, _, _ in at):
                    at.append((attr, prob, x))
        pooled = []  # (the reading attribute, its candidate, the mass on the value by attribute)
        for g in groups:
            attr, _, x = max(g, key=lambda r: r[1] * _span_score(r[2]))
            pooled.append((attr, x, {a.key: p.memory * prob for a, prob, _ in g}))
        split = [
            (x, mass)
            for _, x, mass in pooled
            if sum(mass.values()) >= self.thresholds.joint and _span_score(x) >= SPAN_SURE
        ]
        # each attribute counted once: a list of two values ("tea and coffee") is one fact's mass
        on_all = {k: q for _, mass in split for k, q in mass.items()}
        together = sum(on_all.values()) if len(split) >= 2 else 0.0
        out = []
        for attr, x, mass in pooled:
            one_of = together > 0 and any(x is y for y, _ in split)
            held = together if one_of else sum(mass.values())
            if held > x.confidence:  # explain() shows the pooled mass beside the attribute's own
                why = {**x.attributes.get("model", {}), "pooled": round(held, 3)}
                if one_of:
                    why["facts"] = len(split)  # the clause's facts this one was read with
                x = x.model_copy(update={"confidence": held, "attributes": {**x.attributes, "model": why}})
            out.append((attr, x, one_of))
        return out

    def _sure(self, x: Candidate, read_as: Attribute) -> bool:
        """Is a guess about a single-valued attribute sure enough to replace its value? An
        event's details describe that one occurrence and replace nothing said elsewhere, so
        free text is as good as a typed span there, and a typed one (a place, a time) needs
        only the joint bar: a clause giving an event's place and time splits the attribute
        head between the two ("下个月的读书会在杭州举办": 0.38 / 0.37), each under the bar a
        single slot's one value must clear. A value the kind lexicon vouches for is typed too
        (``value_kinds.vouched``: "matcha", "刚在超级猩猩办了次卡"). The candidate's attribute
        may be another than the one the clause was read as (``_typed``)."""
        attr = self.catalogue.get(x.key) or read_as
        subject, score = x.subject, x.confidence
        if attr.cardinality != "single":
            return True
        event = subject.startswith("event:")
        if event and attr.value_type in TYPED_VALUES:
            return score >= self.thresholds.joint
        free = (
            attr.value_type not in TYPED_VALUES
            and not event
            and not vouched(attr.key, x.value or "", x.content)
        )
        return score >= (self.thresholds.single_free_text if free else self.thresholds.single)

    def _event_details(
        self, o: Open, p: Prediction, found: list[Candidate], times: Sequence[Any]
    ) -> list[Candidate]:
        """An event clause also states where and when when it names a place or a time
        ("it's in Xiamen on the 11th"): the typed extractors find them without the model."""
        if not found or not found[0].subject.startswith("event:"):
            return []
        extra = []
        for key in ("venue", "event_time"):
            attr = self.catalogue.get(key)
            if attr is None or any(x.key == key for x in found):
                continue
            if key == "venue" and not values.spans("place", o.said, o.clause.language == "zh"):
                continue
            if key == "event_time" and not _time_said(o.said, times):
                continue
            cands = self._candidates(o, p, attr, found[0].confidence, times)[:1]
            extra += [c for c in cands if c.subject == found[0].subject]
        return extra

    def _candidates(
        self, o: Open, p: Prediction, attr: Attribute, score: float, times: Sequence[Any]
    ) -> list[Candidate]:
        """One candidate per value (several for a multi-valued attribute given as a list)."""
        c = o.clause
        recalled = change_cues.RECALL.search(o.said) is not None and not change_cues.kind(o.said)
        if attr.single and o.speaker is None and recalled:
            # "以前在青岛的时候…", "back when I lived in Lisbon": how it was, not how it is (a
            # transcript's recalls stay: its questions ask about the speakers' past)
            return []
        kind = p.kind if p.kind in attr.subjects else attr.subjects[0]
        said = o.whole or o.said
        subject = subjects.subject_for(said, kind, c.project, c.event.content)
        opening = subjects.bare_opening(o.said) if subject == "user" else None
        topic = subjects.carried(said, c.event.content) if o.speaker is None else None
        if subject is None and kind == "person" and topic is not None:
            subject = topic  # "我姐辞职了！护士不干了…": the sentence before set the subject
        if subject is None and kind == "person" and p.kind_score < _UNSURE_KIND and subjects.user_opens(said):
            subject = "user"  # a person nobody names, in a clause the user opens about themself
        if subject is None and kind == "person" and subjects.verb_opens(said):
            subject = "user"  # "bought a MacBook Air M2 for coding": the subject left out is the speaker
        if subject is None and kind == "person" and (opened := subjects.bare_opening(said)):
            subject = f"person:{opened[0]}"  # "女朋友刚换了iPhone 15 Pro…": the relation opening it
        pets_only = attr.subjects[0] == "item" and "user" in attr.subjects
        no_person = subject is not None and subject.startswith("person:") and pets_only
        if pets_only and (subject in (None, "user") or no_person):
            # a pet's food or vet: "猫粮换成渴望了" the cat's; "Luna eats Hill's" Luna's (a pet
            # by the name the clause opens with, no person); "换爱肯拿了" said of no pet: the user's
            named = None if subjects.speaks_of_self(said) else subjects.opening_name(truecase.restore(said))
            pet = subjects.pet_said(said) or named
            subject = f"item:{pet}" if pet else "user"
        if subject is None or not self.catalogue.allows(attr.key, subject):
            return []
        level = Level.PROJECT if subject.startswith("project:") else Level.USER
        zh = c.language == "zh"
        kept: dict[str, float | None] = {}  # a closed kind's value (a pet's animal) or none
        for v, q in self._values(o, attr, subject, times):
            if (bare := uncontracted(v, o.said)) != v and empty(bare):
                continue  # "She's from Lyon" read "She's" as a hometown
            bare = model_name_only(past_opening_verb(bare, o.said))
            k = kind_value(attr.key, bare, o.said, zh)
            if attr.single and (retired(o.said, k) if k != bare else change_cues.ended(o.said, k)):
                continue  # "after quitting soda", "深圳的房子已经退了": the value left behind
            if change_cues.holds_old(o.said, bare):
                continue  # the span "after quitting soda" itself (the ranker's since 0017c)
            if k is not None and k not in kept:
                kept[k] = q
        if not kept and attr.single and (left := self._kind_left(attr, o.said, zh)):
            kept[left] = None  # "Nextcloud sync finished, migrated from Dropbox": the word not left behind
        out = []
        for value, span_p in kept.items():
            if (cond := condition_within(attr.key, value, o.whole or o.said)) is not None:
                value, attr = cond, self.catalogue.get(CONDITION) or attr  # "老婆在治乳腺癌"
            if (typed := self._typed(attr, value, o.said, p)) is not None:
                pupil = subjects.named_person(o.said, value) if typed.key == "school" else None
                who = f"person:{pupil}" if pupil and subject == "user" else subject  # "moving Maya to …"
                if who == "user" and (theirs := self._opened(opening, o.said, value, typed.key)):
                    who = theirs  # "娃转到新城花园幼儿园了": the kid's school
                if not self.catalogue.allows(typed.key, who):  # a CI system is a project's
                    who = subjects.subject_for(said, typed.subjects[0], c.project, c.event.content) or who
                if self.catalogue.allows(typed.key, who):
                    at = Level.PROJECT if who.startswith("project:") else Level.USER
                    out.append(self._make(o, p, typed, who, at, score, value, span_p, attr))
                continue
            if not fits_role(value, attr.value_type, attr.key):
                continue
            if attr.value_type == "organisation" and names_person(value, o.said):
                continue  # "I now report to Pieter Olivier": a manager, not an employer
            if attr.value_type == "organisation" and _ends_in_verb(value):
                continue  # "Someone at the co-working space bought me a matcha latte": no organisation
            if attr.key in _NAME_LIKE and names_person(value, o.said):
                continue  # "Amy is my sister": her name, which ``named_relations`` files
            if attr.key == "name" and subject == "user" and not subjects.speaks_of_self(o.said):
                continue  # "新室友找到了，叫阿杰，…": the speaker is nowhere in the clause
            whose = subjects.value_owner(o.said, value, subject, attr.single, topic)
            if whose == "user" and (theirs := self._opened(opening, o.said, value, attr.key)):
                whose = theirs  # "女朋友刚换了iPhone 15 Pro，天天在我面前晃"
            if whose == "user" and (item := subjects.item_before(o.whole or o.said, value)):
                whose = f"item:{item}"  # "我家猫叫芝士，今年两岁": the cat's age
            if whose != subject and not self.catalogue.allows(attr.key, whose):
                whose = subject
            out.append(self._make(o, p, attr, whose, level, score, value, span_p))
        return out

    def _opened(self, opening: tuple[str, int] | None, said: str, value: str, key: str) -> str | None:
        """The relation opening the clause (``subjects.bare_opening``) when ``value`` is said in
        its segment and the relation may hold ``key``."""
        if opening is None or not 0 <= said.find(value) < opening[1]:
            return None
        theirs = f"person:{opening[0]}"
        return theirs if self.catalogue.allows(key, theirs) else None

    @staticmethod
    def _kind_left(attr: Attribute, said: str, zh: bool) -> str | None:
        """The first word of the attribute's closed kind the clause says and does not retire,
        when the ranker found no value it keeps (its span was the one left behind, or none)."""
        for w in said_kinds(attr.key, said, zh):
            if not retired(said, w) and not change_cues.holds_old(said, w):
                return w
        return None

    def _typed(self, attr: Attribute, value: str, said: str, p: Prediction) -> Attribute | None:
        """The attribute a value's own type says it fills when the reading's does not: a place
        ending with a school's head word is a school ("Maple Grove Montessori", "蒲公英幼儿园";
        not one said as a landmark, "near Lincoln Elementary"), and a value of a closed kind in a
        clause about its domain is that kind's (``value_kinds.domain_kind``: an airline's name in
        a clause about flying is the airline, "went back to United, the open seating…" had been
        a sport; a carrier's in one about a phone plan the carrier, not an employer). A
        technology read as another tool's slot fills its own role (``lexicon.role_of``: "Moved
        the CLI to GitHub Actions" read as the editor is the project's CI)."""
        if (
            attr.key in _SCHOOL_FROM
            and value_shapes.names_school(value)
            and not value_shapes.landmark(value, said)
        ):
            return self.catalogue.get("school")
        other = domain_kind(attr.key, value, said)
        roles = role_of(value) if other is None and attr.value_type == "tech" else None
        if roles and attr.key not in roles:
            read = dict(p.attributes)  # the role the model believes most of those the value fills
            other = max(sorted(roles), key=lambda k: read.get(k, 0.0))
        return self.catalogue.get(other) if other else None

    def _make(
        self,
        o: Open,
        p: Prediction,
        attr: Attribute,
        subject: str,
        level: Level,
        score: float,
        value: str,
        span_p: float | None,
        read_as: Attribute | None = None,
    ) -> Candidate:
        """A candidate of ``attr``; ``read_as`` is the attribute the model read the clause as
        when the value's own type chose ``attr`` (``_typed``): the model's rank is that one's."""
        c = o.clause
        cue = change_cues.kind(o.said) if attr.single or _replaced_by(value, o.said) else None
        believed = cue in change_cues.CHANGE or p.memory >= self.thresholds.memory
        sure = cue is not None and cue_may_lift(score, self.thresholds.single, value, o.said)
        if believed and sure and rank_ok(p, (read_as or attr).key):
            score = max(score, CUED)  # "switched to X", "现在…": a statement, not a guess
        extra: dict[str, Any] = {"change": cue} if cue else {}
        if (
            cue is None
            and self._present(o, p, attr, subject, score, value)
            and _names_thing(value, attr.value_type)
        ):
            extra["present"] = True  # reconcile may let it replace the slot's value (see there)
        kind = _TYPES[attr.memory_type]
        # a passing state ("在杭州出差" next Wednesday) holds for the clause's time, not for ever
        when = c.when if kind is MemoryType.TEMPORARY else None
        return c.make(
            kind,
            subject,
            attr.key,
            said_of(say(c), subject),
            value=value,
            level=level,
            trigger=Trigger.BACKGROUND,
            confidence=max(0.3, score),
            rule=f"model:{self.classifier.id} (p={score:.2f})",
            when=when,
            expires_at=expiry(when),
            model={
                "id": self.classifier.id,
                "score": round(score, 3),
                "memory": round(p.memory, 3),
                "kind": p.kind,
                **(
                    {"span": self.spans.id, "span_score": round(span_p, 3)}
                    if span_p is not None and self.spans
                    else {}
                ),
            },
            **extra,
        )

    def _present(
        self, o: Open, p: Prediction, attr: Attribute, subject: str, score: float, value: str
    ) -> bool:
        """Does the clause state a value of a single-valued attribute of the user as how things
        are, without a change cue ("Lapce is what I code in", "我在鹭岛数智上班")? The model
        reads the attribute first and the clause as a memory, the value is a typed span (a
        place, an organisation, a tool, a contact detail) or one the kind lexicon vouches for
        ("我们家一直是清真的"), the joint score clears the bar a
        single-valued guess needs, and the clause recalls nothing ("back when I used Emacs")
        and is not about a transcript speaker, nor says an intention ("打算去…", "going to").
        Questions and suppositions never get here."""
        return (
            attr.single
            and (attr.value_type in PRESENT_TYPES or vouched(attr.key, value, o.said))
            and subject == "user"
            and o.speaker is None
            and rank_ok(p, attr.key)
            and p.memory >= self.thresholds.memory
            and score >= self.thresholds.single
            and change_cues.RECALL.search(o.said) is None
            and _PLANNED.search(o.said) is None
        )

    def _values(
        self, o: Open, attr: Attribute, subject: str, times: Sequence[Any]
    ) -> list[tuple[str, float | None]]:
        """The value spans and the ranker's probability for each: a time as said for dates
        (never free text), else the learned span ranker's pick (the first typed span without
        a ranker); a value must name something (``model_gates.acceptable``)."""
        own = {w.casefold() for w in span_path.own_words(o.said, subject)}
        zh = o.clause.language == "zh"
        if attr.value_type in ("date", "datetime"):
            said = _time_said(o.said, times)
            if not said or self.spans is None:
                return [(said, None)] if said else []
            # the normaliser's wording, or the ranker's surer span around it ("去年" → "去年九月")
            return [(v, q) for v, q in span_path.choose(self.spans, o.said, zh, attr, said, own)[:1]]

        def ok(v: str) -> bool:
            return bool(v) and acceptable(v, attr.value_type, attr.key, o.said, o.speaker, attr.region)

        if (spans := self.spans) is not None:
            top = spans.top(o.said, zh, attr, own, k=1)
            if top and attr.region and not region_like(span_path.trimmed(spans, o.said, zh, attr, top)[0][0]):
                return []  # the best span is a car or a company ("置换了台秦PLUS"): no region was said
            if top and names_slot(top[0][0], attr.key):
                return []  # "focused on auth and onboarding": the clause names the slot, no value of it

            def trims_ok(v: str) -> bool:  # "March after 31 years at the post office" ends as "March"
                return ok(v) and ok(span_path.trimmed(spans, o.said, zh, attr, [(v, 0.0)])[0][0])

            if not attr.single:
                listed = spans.pick_all(o.said, zh, attr, own)
                chosen = [(v, q) for v, q in listed if trims_ok(v) and not refers(v)]
                chosen = chosen or [(v, q) for v, q in spans.top(o.said, zh, attr, own) if trims_ok(v)][:1]
                chosen = _replacing(
                    o.said, chosen, [x for x in spans.top(o.said, zh, attr, own) if trims_ok(x[0])]
                )
                chosen = closed_list(attr, o.said, zh, chosen)
                return list(span_path.trimmed(spans, o.said, zh, attr, chosen))
            ranked = {v: q for v, q in spans.top(o.said, zh, attr, own) if trims_ok(v)}
            if attr.value_type in PRESENT_TYPES:  # a name has no verb in it ("retired pilot" may)
                uncued = _without_cue_words(o.said, ranked, attr.value_type)
                ranked = {v: q for v, q in uncued.items() if trims_ok(v)}
            if any(not now_and_then(v, o.said) for v in ranked):  # the usual value, not the occasional
                ranked = {v: q for v, q in ranked.items() if not now_and_then(v, o.said)}
            if said_usual := [o.said.find(v) for v in ranked if usual(v, o.said)]:
                # "mostly OCaml, Python for scripts": not a value after the usual one (one before
                # it is not what "mostly" qualifies: "Tagalog is my first…, I mostly think in English")
                ranked = {
                    v: q for v, q in ranked.items() if usual(v, o.said) or o.said.find(v) < min(said_usual)
                }
            # "…顺手把工资卡也换成他们家了": the cue's new value is one named before
            if cued := next((r for _, r in references(o.said) if introduced(r, o.said)), None):
                return _antecedent(spans, o, attr, own, cued)
            order = change_cues.pick(o.said, list(ranked))
            floor = CUE_OVERRULES * max(ranked.values(), default=0.0)
            best = next((v for v in order if ranked[v] >= floor), None)
            if best is None and order:  # nothing near the ranker's pick
                picked = max(ranked, key=lambda v: ranked[v])
                best = order[0] if picked in order else picked
            if best is None:
                return []
            q = ranked[best]
            if refers(best):  # "Saguaro Health made an offer, so that is the place I work now"
                return _antecedent(spans, o, attr, own, best)
            now = span_change.current(o.said, zh, attr, best)  # "不在杭州了，回长沙…": 长沙
            if now is not None and ok(now):
                best, q = now, ranked.get(now, q)
            elif best not in order:
                return []  # the pick is the value left behind ("ditched Neovim: … my config")
            return list(span_path.trimmed(spans, o.said, zh, attr, [(best, q)]))
        found = values.spans(attr.value_type, o.said, zh)
        for span in change_cues.pick(o.said, found) if attr.single else found:
            if span and span.casefold() not in own:
                return [(span, None)] if ok(span) and not refers(span) else []
        return []


def _antecedent(
    spans: SpanScorer, o: Open, attr: Attribute, own: Collection[str], ref: str
) -> list[tuple[str, float | None]]:
    """What a reference value points at: a value said before it, in its clause or else in the
    whole turn — the nearest name of the attribute's value type ("宁波银行利率最低，…换成他们家了"),
    else the ranker's likeliest span for the attribute ("Saguaro Health made an offer, so that
    is the place I work now"); nothing when nothing before it names one."""
    zh = o.clause.language == "zh"
    for text in dict.fromkeys([o.whole or o.said, o.clause.event.content]):
        at = text.find(ref)
        found = values.spans(attr.value_type, text, zh)
        typed = value_shapes.typed(attr.key, attr.value_type, text, zh, found)
        if named := [v for v in typed if _points_back(v, text, at, attr, o.speaker)]:
            return [(_owner(max(named, key=text.find)), REFERRED)]
        ranked = spans.top(text, zh, attr, own, k=ANTECEDENTS)
        if likely := [(v, q) for v, q in ranked if _points_back(v, text, at, attr, o.speaker)]:
            v, q = max(likely, key=lambda x: x[1])
            return [(_owner(v), q)]
    return []


def _owner(value: str) -> str:
    """A one-word name said as an owner is the name ("Ally's rates beat everyone's, so I switched
    my paycheck to that one": Ally); one spelt with its "'s" keeps it ("McDonald's")."""
    m = re.fullmatch(r"([A-Z][a-z]+)['’]s", value.strip())
    return m.group(1) if m else value


def _points_back(value: str, text: str, at: int, attr: Attribute, speaker: str | None) -> bool:
    """May a reference at ``at`` in ``text`` point back at ``value``: said and ended before
    it, no reference itself, a value the attribute accepts?"""
    start = text.find(value)
    return (
        start >= 0
        and start + len(value) <= at
        and not refers(value)
        and acceptable(value, attr.value_type, attr.key, text, speaker, attr.region)
    )


# Rule families whose keys are minted from the wording, not a catalogue attribute: a clause
# they took may still state an attribute ("我喜欢东野圭吾的推理" → likes:… and reading).
FREEFORM = frozenset({"likes", "uses", "instruction", "note", "plan", "temp", "reminder", "decision", "task"})


def _pets_name(c: Candidate, pets: set[str]) -> bool:
    """Is ``c`` the user's ``name`` read from a clause naming a pet ("猫叫芝士" read as a name)?"""
    return c.key == "name" and c.subject == "user" and (c.value or "").casefold() in pets


def _freeform(key: str) -> bool:
    return key.split(":", 1)[0] in FREEFORM and ":" in key


# A change cue may put a span the ranker found less likely first, but not a far less
# likely one (the cue's "in" must not turn "Xiamen" into "in Xiamen").
CUE_OVERRULES = 0.25
# Value types a present statement may carry to replace a slot's value without a change cue:
# the typed extractors found them, so the value is a thing of the slot's kind, not free text.
PRESENT_TYPES = TYPED_VALUES | frozenset({"organisation", "tech"})
# An intention is no present: "周末打算去崇武古城转转" names a trip, not where the user lives.
_PLANNED = re.compile(
    r"打算|准备|计划|想去|要去|回头去|"
    r"\b(?:will|'ll|going to|gonna|plan(?:ning)? to|thinking of|hoping to|might)\b",
    re.IGNORECASE,
)
# The span ranker this sure of a value's span makes it one of the facts of a clause stating
# several (``ModelExtractor._pooled``); a value without a ranker score is a typed span.
SPAN_SURE = 0.7


def _span_score(c: Candidate) -> float:
    found = (c.attributes.get("model") or {}).get("span_score")
    return float(found) if isinstance(found, int | float) else 1.0


def _same_span(a: Candidate, b: Candidate) -> bool:
    """Two readings of one value of one subject. Not a span inside another: "I'm 29 and a
    nurse in Leeds" is an occupation at 0.40 of the span "29 and a nurse" (ranker: 0.01),
    no reason to think the clause states an age."""
    x, y = (a.value or "").casefold(), (b.value or "").casefold()
    return a.subject == b.subject and bool(x) and x == y


CUED = 0.65  # confidence of a cued statement of a single-valued attribute (above the floor)


def _names_thing(value: str, value_type: str) -> bool:
    """Is a Latin-script value a name the way a present statement must give one: a place,
    organisation or person capitalised ("Lisbon", not the "lease" of "got a Rivian on a
    lease"), a tool the lexicon knows or capitalised? Other types and Chinese values pass."""
    if not value.isascii() or value_type not in ("place", "organisation", "person", "tech"):
        return True
    if value_type == "tech" and tech_roles(value) is not None:
        return True
    return any(ch.isupper() for ch in value)


def _proper_name(value: str, value_type: str) -> bool:
    """An organisation named by its proper name in Latin script ("Amazon", "Deloitte"): as
    typed a span as a place ("Mark signed with Amazon" is a segment naming an employer)."""
    return value_type == "organisation" and value.isascii() and value[:1].isupper()


def rank_ok(p: Prediction, key: str) -> bool:
    """The attribute is the model's first choice for the clause."""
    return bool(p.attributes) and p.attributes[0][0] == key


_SEGMENT = re.compile(r"[，,；;]")


def _ends_in_verb(value: str) -> bool:
    """Does a name of several words end in a lowercase verb ("the co-working space bought")?
    One capitalised word that is also a verb is a name ("Google", "Slack")."""
    words = value.split()
    return len(words) > 1 and words[-1].islower() and only_verb(words[-1])


def _replacing(
    said: str, chosen: list[tuple[str, float]], top: list[tuple[str, float]]
) -> list[tuple[str, float]]:
    """A multi-valued attribute's values when the clause replaces one thing with another
    ("上个月把飞度卖了，提了台轩逸", "got a Pixel 9, the Pixel 7 is now my backup"): the value a
    change cue introduces, or failing one the ranker's next span the clause does not set aside,
    instead of the one it sets aside — the old thing is no new value of the slot. Unchanged
    when nothing chosen is set aside."""
    if not any(change_cues.set_aside(said, v) for v, _ in chosen):
        return chosen
    kept = [(v, q) for v, q in chosen if not change_cues.set_aside(said, v)]
    if kept:
        return kept
    others = [(v, q) for v, q in top if not change_cues.set_aside(said, v) and not _inside_any(v, chosen)]
    cued = [(v, q) for v, q in others if introduced(v, said)]
    return cued[:1] or chosen


def _without_cue_words(said: str, ranked: dict[str, float], value_type: str) -> dict[str, float]:
    """Spans without a change cue's words at their start ("ditched Neovim" → "Neovim"); a span
    an old cue began names the value the clause retires, and leaves with every span it
    holds. When that was the ranker's best span, another is the new value only if a change
    cue introduces it or it is a name ("Also ditched Neovim: a plugin broke my config" gives
    no editor, not "config"; "ditched Neovim for Helix" gives Helix)."""
    out: dict[str, float] = {}
    old: list[str] = []
    for v, q in ranked.items():
        lead = change_cues.leading(said, v)
        if lead is None:
            out[v] = max(q, out.get(v, 0.0))
        elif lead[0] == "old":
            old.append(lead[1].casefold())
        else:
            out[lead[1]] = max(q, out.get(lead[1], 0.0))

    def retired(v: str) -> bool:
        return any(v.casefold() in o or o in v.casefold() for o in old)

    kept = {v: q for v, q in out.items() if not retired(v)}
    best = next(iter(ranked), "")
    if not (old and (retired(best) or change_cues.leading(said, best) is not None)):
        return kept
    return {v: q for v, q in kept.items() if introduced(v, said) or _names_thing(v, value_type)}


def _replaced_by(value: str, said: str) -> bool:
    """Is ``value`` of a multi-valued attribute the new thing of a replacement: a change cue
    introduces it and the clause sets something else aside ("把飞度卖了，提了台轩逸")? Such a
    value is stated like a single-valued change, not guessed."""
    return (
        introduced(value, said)
        and change_cues.sets_aside_any(said)
        and not change_cues.set_aside(said, value)
    )


def _inside_any(value: str, chosen: list[tuple[str, float]]) -> bool:
    v = value.casefold()
    return any(v in c.casefold() or c.casefold() in v for c, _ in chosen)


def _beside_change(whole: str, value: str | None) -> bool:
    """Is ``value`` (a segment's further value of a multi-valued attribute) said beside a
    change the clause names with a cue, without being what the cue introduces ("提了台轩逸，
    油耗挺低": the fuel use is no second car)?"""
    return (
        bool(value) and change_cues.kind(whole) in change_cues.CHANGE and not introduced(value or "", whole)
    )


# A segment that refers back to a thing by a pronoun talks about a value already given.
_BACK = re.compile(r"\b(?:it|them|that one|this one)\b|它|这个|那个", re.IGNORECASE)


def _beside(x: Candidate, given: Sequence[tuple[str, str]]) -> bool:
    """Did a ``Beside`` family already give the candidate's key, or its value as another key's
    (the class's day "每周六早上" read again as working hours)?"""
    value = (x.value or "").casefold()
    return any(x.key == k or (value and value == v.casefold()) for k, v in given)


def _known(value: str | None, seen: set[str]) -> bool:
    """Is ``value`` one the clause already gave (or a part or extension of one)?"""
    v = (value or "").casefold()
    return not v or any(v in x or x in v for x in seen if x)


def _unruled(o: Open) -> list[str]:
    """The comma segments of a clause the model reads on their own: all of them, or for a
    clause a rule took, those holding none of the rule's values."""
    parts = segments(o.said)
    if not o.ruled:
        return parts
    return [x for x in parts if not any(v and (v in x or x in v) for _, v in o.ruled)]


def segments(said: str) -> list[str]:
    """A clause's comma segments of at least two words' length when it has two or more,
    else none (a one-segment clause is read whole)."""
    parts = [x.strip() for x in _SEGMENT.split(said) if len(x.strip()) >= 2]
    return parts if len(parts) >= 2 else []


def _time_said(said: str, times: Sequence[Any]) -> str | None:
    """The original wording of the clause's time ("周六下午", "the 11th"), not its label."""
    for t in times:
        if t.text in said:
            return str(t.text)
    return None
