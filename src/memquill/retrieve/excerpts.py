"""Profile lines made of episode sentences: a private sentence the request opens, and a
user's turn that states a standing fact, each shown as an excerpt of its episode (split out
of ``sentences.py``, which reads the sentences)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from memquill.model import MemoryRecord
from memquill.retrieve import confided, critical, sensitivity
from memquill.retrieve.attributes import bundled
from memquill.retrieve.sentences import (
    TURN_ATTRIBUTE,
    TURN_MEMORY,
    SentenceReader,
    excerpt,
    opens,
    private_split,
)
from memquill.retrieve.spend import sentences


def excerpts(
    episodes: Sequence[MemoryRecord],
    reader: SentenceReader | None,
    request: confided.Request,
) -> list[tuple[MemoryRecord, str, str]]:
    """Private sentences the request bears on or names, each as a copy of its episode
    holding only that sentence's turn (marked ``excerpt``), with the label that opened it
    and why (``bears on …`` / ``named``)."""
    out: list[tuple[MemoryRecord, str, str]] = []
    for ep in episodes:
        for text, keys in private_split(ep, reader)[1]:
            why = request.why(keys, text)
            if why is None:
                continue
            key = next((k for k in sorted(keys) if k in request.bears_on), None) or _label(keys)
            line = turn_of(ep, text, reader)
            if all(line != r.content or r.id != ep.id for r, _, _ in out):
                out.append((excerpt(ep, line), key, why))
    return out


def _label(keys: Collection[str]) -> str:
    """The label a private line is shown under: a catalogue attribute before ``confided``."""
    first = sorted(keys, key=lambda k: (k == confided.CONFIDED, sensitivity.parse(k) is not None, k))[0]
    model = sensitivity.parse(first)
    return f"{sensitivity.PREFIX}{model[0]}" if model else first


def turn_of(rec: MemoryRecord, sentence: str, reader: SentenceReader | None) -> str:
    """The user's turn that holds ``sentence`` (as the episode keeps it), without its other
    private sentences: what a profile line shows. A standing fact comes with its reason or
    its qualifier ("Fish yes, meat no. Been that way since my twenties.", "Austin hit 104
    today. My plants and I are both wilting." — home, not a trip). Only sentences whose
    readings are stored are kept, so no stored text is embedded here; the sentence alone when
    the turn is not found."""
    for st in rec.attributes.get("statements") or []:
        text = st.get("text") if isinstance(st, dict) else None
        if not isinstance(text, str) or sentence not in text:
            continue
        parts = sentences(text)
        if reader is None or not all(reader.known(x) for x in parts):
            return sentence
        labels = reader.labels(rec, [sentence, *parts])
        own, kinds = labels[0], labels[1:]
        kept = [x for x, k in zip(parts, kinds, strict=True) if x == sentence or not k or own]
        return " ".join(kept)
    return sentence


def _kept(request: confided.Request, key: str, labels: frozenset[str], text: str) -> bool:
    """A sentence of a bearing turn stays: not private, private for the very attribute the
    request bears on (unless it is someone else's matter: a father's diagnosis reads as a
    medical condition too), or opened by the request. When the sensitivity head calls the
    sentence private its topic is the finer reading, as in ``confided.Request.why``: "正在办离婚，
    最近心情很差" reads as marital status, which a dinner for colleagues bears on, and is a
    divorce; only a safety-critical attribute or a standing need (a schedule, a diet) it
    states keeps it for a request bearing on that attribute. In a project task only a
    safety-critical one does (``confided.Request.why``)."""
    own = key in labels and not confided.others(labels, text) and request.meets(key, text)
    if own and (request.task or any(sensitivity.parse(x) for x in labels)):
        attr = bundled().attributes.get(key)
        own = critical.attribute(attr) or (critical.standing_need(attr) and not request.task)
    return not labels or own or opens(request, labels, text)


def bearing_turns(
    rec: MemoryRecord, bears_on: Collection[str], reader: SentenceReader, request: confided.Request
) -> list[tuple[str, str]]:
    """The user's turns of an episode that state an attribute the request's situation bears
    on, read as a whole (``statements[*].reading``, taken at write time), as (turn without
    its private sentences, attribute).

    A turn can state a standing fact that no sentence of it states alone, and that
    compression leaves out: "Mushrooms are a hard no. It's a texture thing." is a food
    dislike with probability 0.95, though the classifier's durable-memory score for it is
    0.43 and neither sentence reaches the episode scorer's bar. Where the request is about
    that very attribute (a menu, a breakfast) such a turn is worth a line: its likeliest
    attribute at ``TURN_ATTRIBUTE`` or more, and a durable-memory score of at least
    ``TURN_MEMORY`` (a one-off "had pasta last night" scores lower)."""
    out = []
    for st in rec.attributes.get("statements") or []:
        text, reading = (st.get("text"), st.get("reading")) if isinstance(st, dict) else (None, None)
        if not isinstance(text, str) or not isinstance(reading, list) or len(reading) != 2 or not reading[1]:
            continue
        memory, (key, p) = float(reading[0]), reading[1][0]
        parts = sentences(text)
        if memory < TURN_MEMORY or float(p) < TURN_ATTRIBUTE or key not in bears_on:
            continue
        if not parts or not all(reader.known(x) for x in parts):
            continue  # no stored reading: nothing is embedded at request time
        kinds = reader.labels(rec, parts)
        kept = [x for x, k in zip(parts, kinds, strict=True) if _kept(request, key, k, x)]
        if kept:
            out.append((" ".join(kept), str(key)))
    return out
