"""Safety-critical sentences inside episodes, named by the attribute classifier.

Extraction does not always distil "I have a severe shellfish allergy" or "我有一型糖尿病" into
a record; the turn then lives on only inside an episode, where no record's attribute marks
it private — it leaked into a changelog request and was missed by a meal request. The
attribute classifier (the weights the write path uses, ``data/attribute_model.npz``) names
the catalogue attribute each episode sentence states; the catalogue says which attributes
are safety-critical. Such a sentence is treated like a safety-critical record: cut out of
every episode, and shown as its own profile line (an excerpt of the episode, marked
``excerpt``) only where the request bears on its attribute.

Without weights matching the embedder (the hash embedder of the tests) there is no reader
and episodes are shown as they are.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from memquill.model import MemoryRecord, MemoryType
from memquill.model.result import Hit
from memquill.providers.base import Embedder
from memquill.retrieve import confided, critical, intents, sensitivity, spend
from memquill.retrieve.attributes import Catalogue, bundled
from memquill.retrieve.sensitivity import Sensitivity, SensitivityModel
from memquill.retrieve.spend import sentences
from memquill.retrieve.turn_readings import turns
from memquill.write.episodes import MIN_CONTENT_TERMS, sentence_score
from memquill.write.extract import classifier, phrasing, subjects
from memquill.write.extract.classifier import AttributeClassifier, Prediction

MEMORY_FLOOR = 0.5  # the sentence states something durable at all
# ... an attribute a request's situations may name: the request corroborates the reading ("Can't
# do Thursday nights, that's when my orchestra rehearses" reads as meeting_time at 0.48, and "can
# I make the team dinner next Thursday?" is about just that; "每周二下午四点我去见心理咨询师…" reads
# as availability at 0.45, private, and a meeting booked on a Tuesday afternoon is about it)
NAMED_SCORE = 0.4
ATTRIBUTE_FLOOR = 0.1  # an attribute counts for a sentence from this probability on
SENSITIVE_MASS = 0.4  # summed probability of safety-critical attributes for a private sentence
CACHE_LIMIT = 50_000
TURN_ATTRIBUTE, TURN_MEMORY = 0.5, 0.3  # a whole turn states an attribute the request bears on
# A sentence longer than this is also read by clauses. English from 13 words: "I am currently
# under a tax investigation, which is somewhat ironic given my profession" (14) reads 0.20
# private whole, its first clause 0.81 legal; on context held-out 10 leaks 27 → 18, held-out 7,
# 8, 9, 11 and 12 unchanged once an English clause counts only when it speaks of the speaker
# (``_speaks``). Chinese stays at 28 characters: at 24, family and school-run sentences lost
# four must-include facts on held-out 11.
LONG_WORDS, LONG_CHARS = 12, 28
CLAUSE_WORDS, CLAUSE_CHARS = 4, 8  # shorter pieces are joined to the next
_CLAUSE = re.compile(r"(?<=[,;:，；：])")
_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class Reading:
    """What the classifier says a sentence states."""

    critical: tuple[str, ...]  # safety-critical attributes, likeliest first; empty if none
    attribute: str  # the likeliest attribute
    score: float  # joint confidence: a durable statement of that attribute
    sensitive: Sensitivity | None = None  # the sensitivity head's reading (its likeliest clause)

    def stored(self) -> list[object]:
        """The reading as kept with its episode (``sentence_readings``)."""
        out: list[object] = [list(self.critical), self.attribute, self.score]
        return [*out, self.sensitive.stored()] if self.sensitive is not None else out

    @classmethod
    def of_stored(cls, value: Sequence[Any]) -> Reading:
        """A stored reading; one written before the sensitivity head has none."""
        crit, attribute, score = value[0], value[1], value[2]
        found = Sensitivity.of_stored(value[3]) if len(value) > 3 else None
        return cls(tuple(crit), str(attribute), float(score), found)


class SentenceReader:
    """Catalogue attributes of sentences, cached by wording (one embedding each)."""

    def __init__(
        self,
        model: AttributeClassifier,
        embedder: Embedder,
        catalogue: Catalogue | None = None,
        sensitive: SensitivityModel | None = None,
    ):
        self.model = model
        self.embedder = embedder
        self.sensitive = sensitive
        self.catalogue = catalogue or bundled()
        self._cache: dict[str, Reading] = {}
        self._stored: set[str] = set()  # stored with an episode, but to be read again (stale head)
        self._check: intents.Check | None = None

    @property
    def check(self) -> intents.Check:
        """The situation check (``retrieve/intents.py``) with this reader's embedder."""
        if self._check is None:
            crit = [a.key for a in self.catalogue if critical.attribute(a)]
            self._check = intents.Check(self.embedder, crit)
        return self._check

    def read(self, texts: Sequence[str]) -> list[Reading]:
        """Readings of whole sentences; a long one is also read clause by clause, and a
        clause that states a safety-critical attribute makes the whole sentence private
        ("I have celiac, so it's strictly gluten-free…, and I mean strictly: a shared toaster
        or fryer…" reads as a kitchen sentence whole, as a diagnosis by its first clause)."""
        todo = [s for s in dict.fromkeys(texts) if s not in self._cache]
        if todo:
            if len(self._cache) + len(todo) > CACHE_LIMIT:
                self._cache.clear()
            parts = {s: clauses(s) for s in todo}
            pieces = list(dict.fromkeys([*todo, *(c for p in parts.values() for c in p)]))
            vectors = self.embedder.embed_passages(pieces)
            found = dict(zip(pieces, self.model.predict(vectors, top=8), strict=True))
            sens = dict(zip(pieces, self.sensitive.predict(vectors), strict=True)) if self.sensitive else {}
            for s in todo:
                whole = found[s]
                crit = self._private(whole)
                for c in parts[s]:
                    crit = crit or self._private(found[c])
                most = max(
                    (sens[x] for x in [s, *(c for c in parts[s] if _speaks(c))] if x in sens),
                    key=lambda r: r.private,
                    default=None,
                )
                most = most and sensitivity.with_conditions(most, s)
                self._cache[s] = Reading(crit, whole.attribute, whole.score, most)
        return [self._cache[s] for s in texts]

    def _private(self, p: Prediction) -> tuple[str, ...]:
        """The safety-critical attributes a prediction states, likeliest first, when their
        mass makes it private; else none."""
        crit = [(a, q) for a, q in p.attributes if q >= ATTRIBUTE_FLOOR and self._critical(a)]
        private = p.memory >= MEMORY_FLOOR and sum(q for _, q in crit) >= SENSITIVE_MASS
        return tuple(a for a, _ in crit) if private else ()

    def annotate(self, records: Sequence[MemoryRecord]) -> None:
        """Write time: an episode about to be stored carries the readings of all its
        sentences (compressed and full wording) in ``attributes["sentence_readings"]``, one
        batched embedding in the worker, so a ``context()`` never embeds a stored sentence
        (a cold process used to spend seconds reading the newest episodes)."""
        eps, per = [], []
        for r in records:
            if r.type is MemoryType.EPISODE:
                parts = _all_sentences(r.content, r.attributes.get("search_text"), turns(r))
                if not set(parts) <= set(r.attributes.get("sentence_readings") or {}):  # else read already
                    eps.append(r)
                    per.append(parts)
        texts = list(dict.fromkeys(t for p in per for t in p))
        found = dict(zip(texts, self.read(texts), strict=True))
        for r, parts in zip(eps, per, strict=True):
            r.attributes["sentence_readings"] = {t: found[t].stored() for t in parts}
        if self.sensitive is not None:
            sensitivity.mark(records, self._sensitivities)

    def _sensitivities(self, texts: Sequence[str]) -> list[Sensitivity]:
        return [r.sensitive or Sensitivity("none", 0.0) for r in self.read(texts)]

    def relabel(self, text: str) -> Sensitivity | None:
        """The head's reading of a record's or a turn's wording, its most private sentence
        (as written at write time, ``sensitivity.mark``): for stored readings another head, or
        no head, wrote — an upgraded store is labelled lazily, once per wording."""
        if self.sensitive is None:
            return None
        text = phrasing.first_person(text)
        found = self._sensitivities(list(dict.fromkeys([text, *sentences(text)])))
        return max(found, key=lambda x: x.private)

    def private_labels(self, text: str) -> frozenset[str]:
        """The sensitivity head's labels of a text's sentences (a session turn not yet read:
        embedded once, then memoised like every reading)."""
        if self.sensitive is None:
            return frozenset()
        return frozenset(lab for r in self.read(sentences(text)) if (lab := self.model_label(r.sensitive)))

    def known(self, text: str) -> bool:
        """A reading of ``text`` is at hand (stored with its episode or read before)."""
        return text in self._cache or text in self._stored

    def forget_cached(self) -> None:
        """An erasure happened: no reading keyed by a forgotten sentence stays in memory."""
        self._cache.clear()
        self._stored.clear()

    def seed(self, records: Iterable[MemoryRecord]) -> None:
        """Read time: the readings stored with episodes join the cache (no embedding). One
        without the shipped head's sensitivity (written before the head, or by an older one)
        is read again when first needed: an upgraded store gets the head's labels too."""
        for rec in records:
            stored = rec.attributes.get("sentence_readings")
            if not isinstance(stored, dict):
                continue
            for text, value in stored.items():
                if text not in self._cache and isinstance(value, list) and len(value) >= 3:
                    if self.sensitive is not None and not self._fresh(value):
                        self._stored.add(text)
                    else:
                        self._cache[text] = Reading.of_stored(value)

    def _fresh(self, value: Sequence[Any]) -> bool:
        """A stored reading holds this reader's head's sensitivity."""
        found = Sensitivity.of_stored(value[3]) if len(value) > 3 else None
        return found is not None and self.sensitive is not None and found.version == self.sensitive.version

    def critical(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        """For each sentence, the safety-critical attributes it states, likeliest first
        (empty when it states none)."""
        return [r.critical for r in self.read(texts)]

    def model_label(self, found: Sensitivity | None, theirs: bool = False) -> str | None:
        """The private label the sensitivity head gives a reading (``sensitive:<topic>@p``),
        or None below its threshold (``critical.THEIRS`` for someone else's matter). Not
        for a safety-critical sentence (its own class)."""
        if self.sensitive is None or found is None:
            return None
        return found.label(critical.THEIRS if theirs else self.sensitive.threshold, theirs)

    def bears_on(self, query: str) -> frozenset[str]:
        """The attributes a request bears on: its confirmed situations' (``intents.py``), and
        every safety-critical one when the head reads the request as bearing on the user's
        safety (``REQUEST_SAFETY``) — a trip, a party, a meal no situation's cue word names."""
        found = intents.bears_on(query, check=self.check)
        if self.sensitive is None:
            return found
        if self.sensitive.safety_need(self.embedder.embed_query(query)) < sensitivity.REQUEST_SAFETY:
            return found
        return found | {a.key for a in self.catalogue if critical.attribute(a)}

    def topics(self, query: str) -> frozenset[str]:
        """The private topics a request is about (its vector: the search embedded it)."""
        return self.sensitive.topics(self.embedder.embed_query(query)) if self.sensitive else frozenset()

    def _critical(self, key: str) -> bool:
        return critical.attribute(key, self.catalogue)

    def labels(self, rec: MemoryRecord, parts: Sequence[str]) -> list[frozenset[str]]:
        """For each sentence of an episode, its private labels: the safety-critical and
        sensitive attributes it states, and those of the private user turn holding it
        (``confided.py``); empty for a sentence that is not private."""
        self.seed([rec])
        turns = confided.turn_labels(rec, self.relabel if self.sensitive is not None else None)
        out = []
        for text, r in zip(parts, self.read(parts), strict=True):
            own = set(r.critical)
            attr = self.catalogue.attributes.get(r.attribute)
            if attr is not None and attr.sensitive and r.score >= MEMORY_FLOOR:
                own.add(attr.key)
            theirs = bool(confided.about(text))  # a relative's diagnosis: private, theirs
            if critical.private_matter(r.sensitive):  # a therapist, filed as a medical condition
                own -= critical.MATTER_ATTRIBUTES
            turn = confided.sentence_labels(turns, text)
            if _matter_turn(turn) and r.sensitive is not None and r.sensitive.safety < critical.MATTER_SAFETY:
                # alone the sentence reads as a condition ("An Oslo hospital has offered me a
                # position": medical 0.53); its turn, read whole, is a private matter the one rule
                # found no safety need (a job offer nobody may hear of): the turn's reading wins
                own -= set(r.critical)
                r = Reading((), r.attribute, r.score, r.sensitive)
            # the likeliest attribute counts when the classifier reads the sentence as critical
            # at all: "怀孕十周了…" leans medical (0.17), states none, and is the head's to judge
            key = r.attribute if r.critical else None
            need = None if theirs else critical.matter_need(key, r.sensitive, self.catalogue)
            if need is not None and (lab := self.model_label(r.sensitive, theirs)):
                # a private matter still a need ("been on sertraline for depression"): private,
                # opened by a situation naming its attribute, not by any request bearing on safety
                out.append(frozenset({x for x in own if not self._critical(x)} | {lab, need}) | turn)
                continue
            safe = critical.safety_critical(key=key, head=r.sensitive, theirs=theirs)
            if safe and not own and not theirs and critical.attribute(r.attribute, self.catalogue):
                # the head calls it a safety need and the classifier leans to a critical attribute
                # it is unsure of ("包里常年揣着一支肾上腺素笔…": medication 0.23): it is that
                # attribute's line, or it would be no one's — shown in no profile, cut from nothing
                own.add(r.attribute)
            if not (safe or (own and not theirs)) and (lab := self.model_label(r.sensitive, theirs)):
                own.add(lab)  # a safety-critical sentence is its own class
                if r.sensitive is not None:  # a pregnancy still bears on a meal or a trip
                    own |= critical.topic_need(r.sensitive.topic, theirs)
                if critical.standing_need(attr) and r.score >= NAMED_SCORE:
                    # the therapy slot still bears on a Tuesday meeting: only a request naming
                    # the attribute opens it, so the lower bar of a named reading is enough
                    own.add(r.attribute)
            out.append(frozenset(own) | turn)
        return out


def _matter_turn(labels: Collection[str]) -> bool:
    """A user turn's labels say the head read it whole as a private matter that is no safety
    need (``confided._sensitive_turn`` gives a head label only then) and that bears on nothing
    a meal or a trip must respect (not a pregnancy, ``critical.TOPIC_NEEDS``)."""
    topics = [found[0] for x in labels if (found := sensitivity.parse(x))]
    return bool(topics) and not any(t in critical.TOPIC_NEEDS for t in topics)


def private_split(
    rec: MemoryRecord, reader: SentenceReader | None
) -> tuple[str | None, list[tuple[str, frozenset[str]]]]:
    """An episode's content without its private sentences (``None`` when nothing is left),
    and those sentences with their labels. Other records pass unchanged. Without a reader
    (no classifier for this embedder) only the user's confided turns are private."""
    if rec.type is not MemoryType.EPISODE:
        return rec.content, []
    parts = sentences(rec.content)
    if reader is not None:
        kinds = reader.labels(rec, parts)
    else:
        turns = confided.turn_labels(rec)
        kinds = [confided.sentence_labels(turns, x) for x in parts]
    private = [(x, k) for x, k in zip(parts, kinds, strict=True) if k]
    if not private:
        return rec.content, []
    rest = [x for x, k in zip(parts, kinds, strict=True) if not k]
    return (" ".join(rest) if rest else None), private


def _all_sentences(content: str, full: object, said: Sequence[dict[str, object]] = ()) -> list[str]:
    """Every sentence a read may split out of an episode: its content, its full wording,
    the content with all left-out sentences put back (joining may merge a piece that has no
    end mark, a photo caption, with the next), and each user turn on its own (``said``, the
    turns ``excerpts.bearing_turns`` reads: known only in the writing process's cache, a
    reopened store showed another block for the same request)."""
    pieces = [content, full if isinstance(full, str) else "", _restored_text(content, full, None) or ""]
    pieces += [str(t.get("text", "")) for t in said]
    return list(dict.fromkeys(s for p in pieces for s in sentences(p)))


def clauses(sentence: str) -> list[str]:
    """A long sentence's clauses (split at commas, semicolons and colons, short pieces joined
    to the next); none for a sentence short enough to be read whole."""
    zh = bool(_CJK.search(sentence))
    size = len(sentence) if zh else len(sentence.split())
    if size <= (LONG_CHARS if zh else LONG_WORDS):
        return []
    out: list[str] = []
    cur = ""
    for piece in _CLAUSE.split(sentence):
        cur = f"{cur}{piece}" if zh else f"{cur} {piece.strip()}".strip()
        if (len(cur) if zh else len(cur.split())) >= (CLAUSE_CHARS if zh else CLAUSE_WORDS):
            out.append(cur.strip(" ,;:，；：、"))
            cur = ""
    if cur.strip(" ,;:，；：、"):
        out.append(cur.strip(" ,;:，；：、"))
    return out if len(out) > 1 else []


def _speaks(clause: str) -> bool:
    """A clause read alone for privacy says something of the speaker's own: Chinese always
    (a relative's matter needs no 我), English with a first-person word ("mostly credit risk
    and churn models these days", money 0.96 alone, is a fragment of a job)."""
    return bool(_CJK.search(clause)) or subjects.speaks_of_self(clause)


def reader_for(embedder: Embedder | None) -> SentenceReader | None:
    """A reader when the shipped reading weights were trained against this embedder."""
    model = classifier.reading()
    if model is None or embedder is None or embedder.name != model.embedder:
        return None
    head = sensitivity.bundled()
    return SentenceReader(
        model, embedder, sensitive=head if head and head.embedder == embedder.name else None
    )


def without_private(
    rec: MemoryRecord, reader: SentenceReader | None, request: confided.Request | None = None
) -> MemoryRecord | None:
    """The record with its private sentences cut (an episode) but those ``request`` may
    see; ``None`` when nothing is left."""
    content, private = private_split(rec, reader)
    if not private:
        return rec
    if request is not None and any(opens(request, k, x) for x, k in private):
        keep = {x for x, k in private if opens(request, k, x)}
        content = " ".join(x for x in sentences(rec.content) if x in keep or x not in dict(private)) or None
    return None if content is None else rec.model_copy(update={"content": content})


def opens(request: confided.Request, labels: frozenset[str], text: str) -> bool:
    return request.why(labels, text) is not None


def excerpt(rec: MemoryRecord, text: str) -> MemoryRecord:
    """A copy of an episode holding one of its sentences, marked so the renderer knows the
    rest of the episode may still be shown elsewhere."""
    return rec.model_copy(update={"content": text, "attributes": {**rec.attributes, "excerpt": True}})


def split(rec: MemoryRecord) -> list[MemoryRecord]:
    """An episode of a standing section as one line per sentence, so the packer fills the
    section's share sentence by sentence (a long episode would not fit whole)."""
    if rec.type is not MemoryType.EPISODE:
        return [rec]
    parts = sentences(rec.content)
    return [rec] if len(parts) < 2 else [excerpt(rec, s) for s in parts]


def restored(rec: MemoryRecord, wanted: Collection[str] | None = None) -> MemoryRecord:
    """An episode with the sentences its compression left out put back (from the full
    wording kept for search), so a fact said only there can be shown at all.

    Session-end compression keeps a few dozen words per episode: of "admin 后台是用 Vue 3
    和 TypeScript 做的。 admin 发版先上预发环境…" only the second survived, though both turns are
    its evidence. A left-out sentence comes back when it says something (the episode
    scorer's bar) and, with ``wanted`` terms, when it shares one of them (the request's
    words and its situations' terms: trimmed to what the request needs)."""
    if rec.type is not MemoryType.EPISODE:
        return rec
    text = _restored_text(rec.content, rec.attributes.get("search_text"), wanted)
    return rec if text is None else rec.model_copy(update={"content": text})


def _restored_text(content: str, full: object, wanted: Collection[str] | None) -> str | None:
    if not isinstance(full, str) or not full:
        return None
    said = [spend.sentence_terms(content)]
    rest = full
    for quote in sorted(sentences(content), key=len, reverse=True):
        if len(quote) > 3:  # "haha fair enough I design…": a filler turn joins the next one
            rest = rest.replace(quote, "\n")
    extra = [
        s
        for piece in rest.split("\n")
        for s in sentences(piece)
        if s not in content
        and sentence_score(s) >= MIN_CONTENT_TERMS
        and not spend.covered(s, said)
        and (wanted is None or spend.sentence_terms(s) & set(wanted))
    ]
    return " ".join([content, *extra]) if extra else None


def fuller(hits: Sequence[Hit], sentence_reader: SentenceReader | None) -> dict[str, MemoryRecord]:
    """Episode hits with every sentence compression left out put back (private ones cut):
    what the renderer shows instead when the block has room left."""
    out = {}
    for h in hits:
        if h.memory.type is MemoryType.EPISODE:
            rec = without_private(restored(h.memory), sentence_reader)
            if rec is not None and len(rec.content) > len(h.memory.content):
                out[h.memory.id] = rec
    return out


def cut_private(
    hits: Sequence[Hit],
    sentence_reader: SentenceReader | None,
    wanted: Collection[str],
    request: confided.Request | None = None,
) -> list[Hit]:
    """Hits with their episodes' left-out sentences the request needs put back and their
    private sentences cut (those that keep nothing are dropped)."""
    out = []
    for h in hits:
        full = restored(h.memory, wanted)
        rec = without_private(full, sentence_reader, request)
        if rec is None:
            continue
        why = h.why
        if request is not None and rec is not full:  # say why a private sentence stayed
            kept = [request.why(k, x) for x, k in private_split(full, sentence_reader)[1] if x in rec.content]
            why = {**why, "private": kept[0]} if kept and kept[0] else why
        out.append(
            h if rec is h.memory and why is h.why else h.model_copy(update={"memory": rec, "why": why})
        )
    return out
