"""Write time of the slot timeline: each user turn of an episode, read once by the classifier.

At session end (off the hot path) each user turn of an episode about to be written is read
by the attribute classifier — wording, time, P(memory), likeliest attributes, and per clause
for a long turn (merged, and each clause's own top three) — in one batched embedding, so a
query never embeds a stored turn (``timeline.py`` reads these at query time).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from memquill.model import MemoryRecord, MemoryType
from memquill.providers.base import Embedder
from memquill.write.covered import clauses
from memquill.write.extract.classifier import AttributeClassifier, Prediction

TOP = 8  # attributes kept per turn
# Each clause's own likeliest attributes (``parts``): which clause says what ("以前坐东航的时候
# 经常升舱，现在想都别想" — the present clause is not about the airline).
PART_TOP = 3
# A turn states an attribute by one of its stored readings (the whole turn's likeliest eight, or
# its clauses merged) at this probability, as a durable statement (P(memory) at ``STATES_MEMORY``).
STATES_BAR, STATES_MEMORY = 0.6, 0.3


class StatementReader:
    """Reads the user turns of episodes about to be written (one batch per call)."""

    def __init__(self, model: AttributeClassifier, embedder: Embedder) -> None:
        self.model = model
        self.embedder = embedder

    def annotate(self, records: Sequence[MemoryRecord]) -> None:
        todo = [t for r in records if r.type is MemoryType.EPISODE for t in turns(r) if "reading" not in t]
        texts = list(dict.fromkeys(str(t["text"]) for t in todo))
        if not texts:
            return
        parts = {x: clauses(x) for x in texts}
        batch = list(dict.fromkeys([*texts, *(c for cs in parts.values() for c in cs)]))
        read = self.model.predict(self.embedder.embed_passages(batch), top=TOP)
        found = dict(zip(batch, read, strict=True))
        for t in todo:
            text = str(t["text"])
            t["reading"] = _stored(found[text].memory, found[text].attributes)
            if parts[text]:
                t["clauses"] = _merged([found[c] for c in parts[text]])
                t["parts"] = [[c, [k for k, _ in found[c].attributes[:PART_TOP]]] for c in parts[text]]


def _stored(memory: float, attributes: Iterable[tuple[str, float]]) -> list[object]:
    return [round(memory, 3), [[k, round(v, 3)] for k, v in attributes]]


def _merged(read: Sequence[Prediction]) -> list[object]:
    """One reading for a turn's clauses: each attribute at its best clause."""
    best: dict[str, float] = {}
    for p in read:
        for k, v in p.attributes:
            best[k] = max(best.get(k, 0.0), v)
    ranked = sorted(best.items(), key=lambda kv: -kv[1])[:TOP]
    return _stored(max(p.memory for p in read), ranked)


def reader_for(model: AttributeClassifier | None, embedder: Embedder | None) -> StatementReader | None:
    if model is None or embedder is None or embedder.name != model.embedder:
        return None
    return StatementReader(model, embedder)


def turns(rec: MemoryRecord) -> list[dict[str, object]]:
    turns = rec.attributes.get("statements")
    return [t for t in turns if isinstance(t, dict)] if isinstance(turns, list) else []


def states(turn: dict[str, object], keys: Collection[str], bar: float = STATES_BAR) -> str | None:
    """The likeliest of ``keys`` that a user turn states by its stored readings: the whole
    turn's likeliest attributes or its clauses' (``clauses``), at ``bar`` or more; none when
    neither reading is a durable statement (P(memory) under ``STATES_MEMORY``) or no reading is
    stored (nothing is embedded at query time).

    The sentence classifier's single likeliest label misreads a turn whose fact sits in one
    clause: "在高中教化学，这周要出一套期中考试题，想听听你的思路" reads as an event time whole, its
    first clause as the school (0.65); "Pixel my cat just walked across the keyboard" as a name.
    Its other readings still say what the turn is about."""
    found: list[tuple[float, str]] = []
    for name in ("reading", "clauses"):
        value = turn.get(name)
        if not isinstance(value, list) or len(value) != 2 or not isinstance(value[1], list):
            continue
        if float(value[0]) >= STATES_MEMORY:
            found += [
                (float(p[1]), str(p[0]))
                for p in value[1]
                if isinstance(p, list) and len(p) == 2 and p[0] in keys and float(p[1]) >= bar
            ]
    return max(found)[1] if found else None


def stated(rec: MemoryRecord, keys: Collection[str]) -> bool:
    """Some user turn of the episode states one of ``keys`` (``states``)."""
    return bool(keys) and any(states(t, keys) is not None for t in turns(rec))
