"""Write time of the slot timeline: each user turn of an episode, read once by the classifier.

At session end (off the hot path) each user turn of an episode about to be written is read
by the attribute classifier — wording, time, P(memory), likeliest attributes, and per clause
for a long turn (merged, and each clause's own top three) — in one batched embedding, so a
query never embeds a stored turn (``timeline.py`` reads these at query time).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memquill.model import MemoryRecord, MemoryType
from memquill.providers.base import Embedder
from memquill.write.covered import clauses
from memquill.write.extract.classifier import AttributeClassifier, Prediction

TOP = 8  # attributes kept per turn
# Each clause's own likeliest attributes (``parts``): which clause says what ("以前坐东航的时候
# 经常升舱，现在想都别想" — the present clause is not about the airline).
PART_TOP = 3


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
