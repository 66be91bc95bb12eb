"""The read path; the only place its stage order is written down (DESIGN §1).

scope filter → status/validity/TTL filter → type filter → slot lookup → hybrid recall →
rerank → dedup → top k. Filters are part of every leg's query, so a record from another
scope or a superseded version never enters the pool by default; a final ``matches`` check
guards against a backend bug.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np

from memquill.catalogue import load
from memquill.clock import Clock
from memquill.model import MemoryRecord, MemoryType, Scope, Status
from memquill.model.query import TEMPORAL, Access, RecordFilter, matches
from memquill.model.result import Hit
from memquill.providers.base import Embedder
from memquill.retrieve import derived, intents, question_forms, question_router, routing, whose
from memquill.retrieve.attributes import attribute_of
from memquill.retrieve.critical import safety_critical
from memquill.retrieve.dedup import dedup
from memquill.retrieve.hybrid import Recall, max_fused, recall, shares_script
from memquill.retrieve.recipes import Recipe, recipe
from memquill.retrieve.rerank import Reranker, Scored, WeightedReranker
from memquill.retrieve.sensitivity import Sensitivity
from memquill.retrieve.spend import sentence_terms
from memquill.retrieve.superseded import Replaced
from memquill.retrieve.timeline import Timeline, asks_history, single_slot, timeline
from memquill.retrieve.turn_readings import TOP, stated, states, turns
from memquill.store.base import Store
from memquill.write import truecase
from memquill.write.entities import NAME_LOOKUP_LIMIT
from memquill.write.extract.classifier import AttributeClassifier


@dataclass(frozen=True)
class Query:
    text: str
    reader: Scope
    k: int = 5
    at: datetime | None = None
    types: frozenset[MemoryType] | None = None
    include_history: bool = False
    include_archived: bool = False
    recipe: str | Recipe = "hybrid"
    timezone: str = "UTC"
    expand: bool = False  # add the request's situation terms to the lexical leg (context())


class Retriever:
    def __init__(
        self,
        store: Store,
        embedder: Embedder | None,
        clock: Clock,
        half_life_days: float = 30.0,
        dedup_similarity: float = 0.95,
        reranker: Reranker | None = None,
        router: AttributeClassifier | None = None,
        model_facts: bool = False,
    ) -> None:
        self.model_facts = model_facts  # the attribute model writes: legs are read deeper
        self.store = store
        self.embedder = embedder
        self.clock = clock
        self.half_life = half_life_days
        self.dedup_similarity = dedup_similarity
        self.reranker = reranker
        self.router = router  # the attribute classifier, when it matches the embedder
        # the learned question router (questions → the asked attribute), for the same embedder
        self.asker = question_router.bundled(embedder.name) if embedder is not None else None

    def filter_for(self, q: Query, at: datetime) -> RecordFilter:
        if q.include_history:
            return RecordFilter(q.reader, statuses=None, types=q.types, at=None)
        statuses = TEMPORAL | ({Status.ARCHIVED} if q.include_archived else set())
        return RecordFilter(q.reader, statuses=frozenset(statuses), types=q.types, at=at)

    def search(self, q: Query, log: bool = True) -> list[Hit]:
        at = q.at or self.clock.now()
        r = recipe(q.recipe)
        f = self.filter_for(q, at)
        qvec = self.embedder.embed_query(q.text) if (self.embedder and r.vector > 0) else None
        extra = intents.expansion(q.text) if q.expand else []
        deepen = derived.deeper(self.store, r, self.model_facts)
        pool = recall(self.store, f, q.text, qvec, r, extra, deepen)
        replaced, routed, learned = Replaced(), list[tuple[str, str]](), None
        if r.slot_lookup:
            replaced, routed, learned = self._slot_lookup(q, f, pool, qvec)
        if not pool:
            return []
        records = [rec for rec in self.store.get_many(list(pool)) if matches(rec, f)]
        records = [rec for rec in records if "slot" in pool[rec.id].legs or not _outdated(rec, replaced)]
        derived.unshift(pool, {rec.id for rec in records if derived.model_made(rec)}, r)
        records = [rec for rec in records if rec.id in pool]
        told, asked = Timeline(), None
        read = self._reading(qvec) if r.slot_lookup else []
        guessed = [] if routed else routing.fallback(q.text, q.reader.project, read)
        if (routed or guessed) and not q.include_history and q.at is None and not asks_history(q.text):
            slot_ids: dict[str, set[str]] = {}
            for i, item in pool.items():
                slot_ids.setdefault(str(_slot_key(item)), set()).add(i)
            also = [k for k, prob in read[:READINGS] if prob >= READING_MIN]
            prefer = [k for k, _ in read]  # newest leads; a guessed slot only when something states it
            asked = single_slot(
                routed or guessed, prefer, records, slot_ids, also, stated=not routed, first=learned
            )
            key = asked[1] if asked else None
            if asked is not None and asked not in routed:  # read, not routed: its history too
                self._replaced(asked, f, replaced)
            own = {i for i, item in pool.items() if _slot_key(item) == key}
            told = timeline(records, asked, own, replaced.evidence, self._read_records(records, own, asked))
            replaced.current |= told.now  # the newest statement's values are no outdated answer
            records = told.apply(rec for rec in records if rec.id in own or not _outdated(rec, replaced))
        relevance = {
            rec.id: (
                1.0
                if "slot" in pool[rec.id].legs
                else min(1.0, pool[rec.id].fused / max_fused(r, shares_script(q.text, rec.content)))
                * derived.weight(rec)
            )
            for rec in records
        }
        window = _window(q.text, at, q.timezone)
        reranker = self.reranker or WeightedReranker(r, self.half_life)
        ranked = reranker.rerank(q.text, [(rec, relevance[rec.id]) for rec in records], at, window)
        lead = told.lead.id if told.lead is not None else None
        ranked, folded = derived.fuse(ranked, lambda mid: "slot" in pool[mid].legs or mid == lead)
        # the slot the question was settled on by what was said leads the routes it was one of
        # ("我们组现在上班是个啥制度": the work schedule, not the commute listed before it); the
        # learned router's slot, tried first for a misread turn, keeps its place
        routes = list(routed)
        if asked is not None and asked in routed and asked != learned:
            routes = [asked, *(s for s in routed if s != asked)]
        order = _slot_order(pool, routes, _off_kind(q.text, [s.record for s in ranked]))
        ranked = sorted(  # the newest statement, then slots answer first, most certain route first
            ranked, key=lambda s: (s.record.id != lead, order(s.record.id))
        )
        head = ranked[: max(q.k * 3, q.k + 10)]
        kept, collapsed = dedup(
            head, self.store.embeddings([s.record.id for s in head]), self.dedup_similarity
        )
        kept = sorted(_slot_wins(kept, collapsed, head, pool, order), key=lambda s: s.record.id != lead)
        collapsed |= folded
        hits = [
            Hit(
                memory=s.record,
                score=s.score,
                why=_why(s.parts, pool[s.record.id], f, collapsed, s.record.id, window, replaced),
            )
            for s in kept[: q.k]
        ]
        for h in hits:
            if h.memory.id == lead:
                h.why["timeline"] = "newest statement of the slot"
        if log and hits:
            self.store.touch([h.memory.id for h in hits], self.clock.now())
            self.store.log_access(
                [
                    Access(h.memory.id, q.reader, q.text, i, h.score, self.clock.now())
                    for i, h in enumerate(hits, start=1)
                ]
            )
        return hits

    def _read_records(
        self, records: list[MemoryRecord], own: set[str], asked: tuple[str, str] | None
    ) -> dict[str, list[tuple[str, float]]]:
        """The classifier's readings of the pool's records under other keys of the asked
        slot's subject, from their stored embeddings (a record may name the slot's older
        value in passing: the user's introduction names the city they lived in then)."""
        if asked is None or self.router is None:
            return {}
        ids = [
            r.id
            for r in records
            if r.type is not MemoryType.EPISODE and r.id not in own and r.subject == asked[0]
        ]
        vecs = self.store.embeddings(ids) if ids else {}
        ids = [i for i in ids if i in vecs]
        if not ids:
            return {}
        read = self.router.predict(np.stack([vecs[i] for i in ids]).astype(np.float32), top=TOP)
        return {i: list(p.attributes) for i, p in zip(ids, read, strict=True)}

    def _reading(self, qvec: np.ndarray | None) -> list[tuple[str, float]]:
        """The query's likeliest attributes by the classifier (none without it)."""
        if self.router is None or qvec is None:
            return []
        p = self.router.predict(np.asarray(qvec, dtype=np.float32).reshape(1, -1), top=10)[0]
        return [(k, prob) for k, prob in p.attributes]

    def _slot_lookup(
        self, q: Query, f: RecordFilter, pool: dict[str, Recall], qvec: np.ndarray | None
    ) -> tuple[Replaced, list[tuple[str, str]], tuple[str, str] | None]:
        """Exact slot lookups first (DESIGN: questions go to slots): what they find enters
        the pool with full relevance and says which route found it. Returns what the slots'
        replaced versions said (their values and evidence): other hits stating only those
        are outdated answers (``superseded.py``); and the slot to settle on first: a
        gathering's that holds a record, asked by its name, else the learned question router's or
        the one a role word names ("哪家运营商"), if any."""
        replaced, held = Replaced(), []
        forms = question_forms.bundled(self.embedder.name) if self.embedder is not None else None
        asked = truecase.restore(q.text)  # "which school does mia go to now"
        names = self._names(f, asked)
        slots = routing.route(
            asked, q.reader.project, self.router, qvec, forms, self.asker, whose.known(names)
        )
        slots = routing.several(slots, names, asked)
        for s in slots:
            slot = RecordFilter(f.reader, f.statuses, f.types, f.at, subject=s.subject, key=s.key)
            found = self.store.find(slot, limit=3)
            for rec in found:
                item = pool.setdefault(rec.id, Recall(rec.id))
                item.legs["slot"] = {"key": s.key, "subject": s.subject, "via": s.via}  # type: ignore[dict-item]
            if found and not q.include_history:
                self._history((s.subject, s.key), f, found, replaced)
            if found and s.via == "words" and s.subject.startswith("event:"):
                held.append((s.subject, s.key))
        # a gathering asked by its name ("周会现在是周几") is settled on before any reading of
        # the question's words: the turn that moved it reads as the event's time, not its day
        learned = next(iter(held), None) or next(
            ((s.subject, s.key) for s in slots if s.via in ("router", "role")), None
        )
        return replaced, [(s.subject, s.key) for s in slots], learned

    def _names(self, f: RecordFilter, question: str) -> list[MemoryRecord]:
        """The visible ``name`` records (one bounded lookup): a question may name the person
        ("where does Maya work now?"), or ask a relation one has several people of; and a
        record of each person the question may name who is filed under their name alone
        ("Mark signed with Amazon" is ``person:Mark``; one lookup per name, at most three)."""
        names = RecordFilter(f.reader, f.statuses, None, f.at, key="name")
        found = self.store.find(names, limit=NAME_LOOKUP_LIMIT)
        for name in whose.named_in(question):
            for kind in ("person", "item"):  # "Luna eats Hill's" is the pet's (``item:Luna``)
                filed = RecordFilter(f.reader, f.statuses, None, f.at, subject=f"{kind}:{name}")
                found += self.store.find(filed, limit=1)
        return found

    def _replaced(self, slot: tuple[str, str], f: RecordFilter, replaced: Replaced) -> None:
        """The replaced versions of a slot the question's reading settled on (no route named
        it): their values and turns are outdated answers as for a routed slot's."""
        now = RecordFilter(f.reader, f.statuses, f.types, f.at, subject=slot[0], key=slot[1])
        if found := self.store.find(now, limit=3):
            self._history(slot, f, found, replaced)

    def _history(
        self, slot: tuple[str, str], f: RecordFilter, found: list[MemoryRecord], replaced: Replaced
    ) -> None:
        old = RecordFilter(f.reader, REPLACED, None, None, subject=slot[0], key=slot[1])
        replaced.add(found, self.store.find(old, limit=20))


REPLACED = frozenset({Status.SUPERSEDED, Status.INVALIDATED})
READING_MIN = 0.05  # a question's reading below this only orders, never adds, a slot
READINGS = 3  # a question's likeliest readings that may settle its slot beside the routed ones


def _slot_key(item: Recall) -> object:
    """The key of the slot lookup that found a pool item (``None`` for other legs)."""
    leg: dict[str, object] = dict(item.legs.get("slot", {}))
    return leg.get("key")


def _slot_order(
    pool: dict[str, Recall], routed: Sequence[tuple[str, str]], off_kind: Collection[str] = ()
) -> Callable[[str], int]:
    """A hit's place among the answers: a slot lookup's by its route (``routing.route``
    lists the slots most certain first: "remind me where I'm working now?" goes to the
    employer before the workplace, and the newer workplace record led on recency), within
    a slot the values of the kind asked first (``off_kind``), then every other hit."""
    rank = {slot: i for i, slot in enumerate(routed)}

    def order(mid: str) -> int:
        leg: dict[str, object] = dict(pool[mid].legs.get("slot", {}))
        if not leg:
            return 2 * len(routed) + 2
        place = rank.get((str(leg.get("subject")), str(leg.get("key"))), len(routed))
        return 2 * place + (mid in off_kind)

    return order


def _off_kind(query: str, records: Iterable[MemoryRecord]) -> set[str]:
    """The records of a one-value-per-kind attribute (``Attribute.kinds``) whose value is of
    another kind than the one the question names: "what laptop am I on" asks the laptop,
    not the phone beside it in the device slot."""
    # the kind the question names, once per attribute that has kinds (not once per record)
    asked = {a.key: (a, kinds) for a in load().attributes if a.kinds and (kinds := a.kinds_asked(query))}
    off = set()
    for rec in records:
        if rec.key in asked and (a := asked[rec.key])[0].kind_of(rec.value or "", rec.content) not in a[1]:
            off.add(rec.id)
    return off


def _slot_wins(
    kept: list[Scored],
    collapsed: dict[str, str],
    head: list[Scored],
    pool: dict[str, Recall],
    order: Callable[[str], int],
) -> list[Scored]:
    """A slot answer folded into its episode twin (which has more evidence) comes back in
    the twin's place: the question asked for the slot, and the episode may hold old values."""
    by_id = {s.record.id: s for s in head}
    back = {winner: loser for loser, winner in collapsed.items() if "slot" in pool[loser].legs}
    out = []
    for s in kept:
        if s.record.id in back and "slot" not in pool[s.record.id].legs:
            slot = by_id[back[s.record.id]]
            collapsed[s.record.id] = slot.record.id
            del collapsed[slot.record.id]
            s = slot
        out.append(s)
    return sorted(out, key=lambda s: order(s.record.id))


def _outdated(rec: MemoryRecord, replaced: Replaced) -> bool:
    """An episode that is evidence of a replaced slot value, or any hit stating only a
    replaced value, would answer with the old one."""
    if rec.type is MemoryType.EPISODE and replaced.evidence & set(rec.evidence):
        return True
    return replaced.outdated(rec)


FOCUS_MARGIN = 0.02  # cosine below the best vector match that still counts as near (``focus``, ``StillNear``)


def best_vector(hits: Sequence[Hit]) -> float:
    """The best vector-leg cosine among ``hits`` (0 when none came by vector)."""
    cosines = (h.why["legs"]["vector"]["score"] for h in hits if "vector" in h.why.get("legs", {}))
    return max(cosines, default=0.0)


def focus(hits: list[Hit], margin: float = FOCUS_MARGIN, standing: Collection[str] = ()) -> list[Hit]:
    """Fewer, better for the prompt: keep hits matched by words or by slot, and vector-only
    hits within ``margin`` cosine of the best vector match (e5 puts unrelated text ≈ 0.78,
    so an absolute threshold would not transfer across embedders).

    A vector-only hit further down is kept too when it is a user-level standing record (not
    an episode) of an attribute in ``standing`` — those the request's situations name
    (``intents.bears_on``): "I'm going away for 4 days" shares no word with "my cat Mochi",
    and the pet record sits 0.02–0.06 below the best match, yet the trip is what it is for.
    A wider margin admits any far hit (more must-not than must facts, decision 0016k); this
    admits only records of an attribute the request's kind of task is known to need, and
    episodes whose turns state one by a reading stored at write time (decision 0016o)."""
    best = best_vector(hits)
    return [
        h
        for h in hits
        if {"lexical", "slot", "pending"} & set(h.why.get("legs", {}))
        or h.why["legs"].get("vector", {}).get("score", 0.0) >= best - margin
        or (standing and _standing_of(h.memory, standing))
    ]


class StillNear:
    """Does what is left of a trimmed episode still bear on the request?

    An episode is ranked by its whole wording; spending evidence once then trims it to the
    sentences no shown record carries, and those can be about anything else ("正在准备秋招…"
    left of an episode whose eating-out turn matched "宿舍聚餐点外卖" and is carried by a
    preference). What is left keeps its place as ``focus`` would judge it: it shares a word
    of the request or of its situations, or its vector sits within ``margin`` of the best
    vector match; an episode a slot or the session asked for, a turn stating a safety need, and
    a turn stating an attribute the request's situations need (``needs``: a dog that has to be
    walked for "a morning routine that gets me outside") stay whatever they share. Remainders
    are embedded once each, only when trimming happened."""

    def __init__(
        self,
        embedder: Embedder | None,
        query: str,
        hits: Sequence[Hit],
        asked: Collection[str],
        needs: Collection[str] = (),
        margin: float = FOCUS_MARGIN,
    ) -> None:
        self.embedder = embedder
        self.query = query
        self.asked = frozenset(asked)
        self.needs = frozenset(needs)
        self.asked_for = {h.memory.id for h in hits if {"slot", "pending"} & set(h.why.get("legs", {}))}
        self.bar = best_vector(hits) - margin
        self._seen: dict[str, bool] = {}

    def __call__(self, rec: MemoryRecord, content: str) -> bool:
        if rec.id in self.asked_for or self.asked & sentence_terms(content) or self._states(rec, content):
            return True
        if self.embedder is None or self.bar <= 0:
            return True
        if content not in self._seen:
            q = np.asarray(self.embedder.embed_query(self.query), dtype=np.float32)
            v = self.embedder.embed_passages([content])[0]
            cos = float(v @ q / ((np.linalg.norm(v) * np.linalg.norm(q)) or 1.0))
            self._seen[content] = cos >= self.bar
        return self._seen[content]

    def _states(self, rec: MemoryRecord, content: str) -> bool:
        """A user turn still shown states, by its stored readings, a safety need ("有哮喘，包里永远
        揣着吸入器" is for a packing list whatever words it shares) or what the request needs."""
        for t in turns(rec):
            if not isinstance(text := t.get("text"), str) or text not in content:
                continue
            head = Sensitivity.of_stored(t.get("sensitive"))
            if (head is not None and safety_critical(head=head)) or (self.needs and states(t, self.needs)):
                return True
        return False


def _standing_of(rec: MemoryRecord, keys: Collection[str]) -> bool:
    """A user-level record (no project, no session) of one of the attribute ``keys``, or a
    user-level episode one of whose user turns states one of them by its stored readings
    (``turn_readings.states``): the classifier's likeliest label for a turn can be a misreading
    ("Pixel my cat…" as a name), and no record then carries the fact the request needs."""
    if rec.scope.project or rec.scope.session:
        return False
    if rec.type is MemoryType.EPISODE:
        return stated(rec, keys)
    return attribute_of(rec).key in keys


def _window(text: str, at: datetime, tz: str) -> tuple[datetime, datetime] | None:
    w = routing.time_window(text, at, tz)
    if w is None:
        return None
    lo, hi = w
    return (lo, hi if hi > lo else lo + timedelta(hours=1))


def _why(
    parts: dict[str, float],
    item: Recall,
    f: RecordFilter,
    collapsed: dict[str, str],
    mid: str,
    window: tuple[datetime, datetime] | None,
    replaced: Replaced | None = None,
) -> dict[str, object]:
    why: dict[str, object] = {
        "path": "slot" if "slot" in item.legs else "hybrid",
        "legs": item.legs,
        "scores": parts,
        "filters": _filters(f),
    }
    twins = sorted(k for k, v in collapsed.items() if v == mid)
    if twins:
        why["collapsed"] = twins
    if window is not None:
        why["time_window"] = [window[0].isoformat(), window[1].isoformat()]
    if replaced is not None and replaced.old and "slot" in item.legs:
        why["replaced"] = replaced.values()  # values this slot no longer holds
    return why


def _filters(f: RecordFilter) -> list[str]:
    out = [f"scope:{f.reader.label()}"]
    if f.statuses is not None:
        out.append("status:" + ",".join(sorted(s.value for s in f.statuses)))
    if f.at is not None:
        out.append(f"valid_at:{f.at.isoformat()}")
    if f.types is not None:
        out.append("types:" + ",".join(sorted(_values(f.types))))
    return out


def _values(items: Iterable[MemoryType]) -> list[str]:
    return [t.value for t in items]
