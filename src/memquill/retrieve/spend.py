"""No double spending: one piece of evidence is shown once per context block.

A preference record and the episode quoting the same turn ("用户不喝咖啡…" and "我不喝咖啡，
别给我推荐咖啡 我喜欢深色主题") say the same thing twice. Records are distilled and short,
so the record stays and the episode gives way: dropped when every turn it quotes is carried
by a shown record, otherwise trimmed to the sentences no shown record covers. A record whose
evidence equals a shown record's and whose words it adds nothing to is dropped as well.
Pure functions; the caller fetches the evidence texts.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from memquill.model import MemoryRecord, MemoryType
from memquill.model.result import Hit
from memquill.text import NOT_AFTER_TITLE, query_terms, word_cache

# Sentence ends, and a space between two Han characters: an episode joins its turns with a
# space, and a Chinese turn often has no end mark ("…怎么取证 现在怀孕中期了…" is two turns,
# one a private matter). A space beside Latin text ("用 Go 写的") is no break.
_SENTENCE = re.compile(
    r"(?<=[.!?])" + NOT_AFTER_TITLE + r"\s+|(?<=[。！？；;])\s*|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])"
)
# share of a sentence's content terms found in a covered turn for the sentence to count as said
COVERED_SHARE = 0.7


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


@word_cache(maxsize=8192)
def _terms(text: str) -> frozenset[str]:
    return frozenset(query_terms(text))


def sentence_terms(text: str) -> frozenset[str]:
    """Content terms of a text (cached), as coverage compares them."""
    return _terms(text)


def covered(sentence: str, said: Collection[frozenset[str]]) -> bool:
    """True when one covered turn holds most of the sentence's content terms."""
    terms = _terms(sentence)
    if not terms:
        return True
    return any(len(terms & s) >= COVERED_SHARE * len(terms) for s in said)


def trim_episode(rec: MemoryRecord, shown_evidence: Collection[str], texts: Mapping[str, str]) -> str | None:
    """The episode's content without what shown records carry; ``None`` when nothing is left.

    ``texts`` maps event ids to their wording. A covered turn's sentences are cut where the
    episode quotes them verbatim; what remains is split into sentences, and those whose
    words a covered turn mostly holds (a time-normalised quote) go too. A covered event
    without wording counts as covering nothing in particular: the episode is kept whole.
    """
    overlap = [e for e in rec.evidence if e in shown_evidence]
    if not overlap:
        return rec.content
    if len(overlap) == len(rec.evidence):
        return None
    said = [texts[e] for e in overlap if e in texts]
    if not said:
        return rec.content
    rest = rec.content
    for quote in sorted((q for t in said for q in sentences(t)), key=len, reverse=True):
        if len(quote) > 3:
            rest = rest.replace(quote, " ")
    said_terms = [_terms(t) for t in said]
    kept = [x for x in sentences(rest) if _terms(x) and not covered(x, said_terms)]
    return " ".join(kept) if kept else None


def redundant_record(
    rec: MemoryRecord, shown: Collection[MemoryRecord], siblings: Collection[MemoryRecord] = ()
) -> bool:
    """A record adding no words to a shown record with exactly the same evidence, or a slot
    fact whose value a longer sibling from the same turns states ("Project shop uses
    PostgreSQL." beside "The shop service is written in Go, and the database is
    PostgreSQL."): ``siblings`` are records that may be shown after this one."""
    if rec.type is MemoryType.EPISODE:
        return False
    mine = _terms(rec.content)
    same = [o for o in shown if o.id != rec.id and set(o.evidence) == set(rec.evidence)]
    if any(mine <= _terms(o.content) for o in same):
        return True
    value = (rec.value or "").strip().lower()
    if len(value) < 2:
        return False
    later = [o for o in siblings if o.id != rec.id and set(o.evidence) == set(rec.evidence)]
    return any(
        o.type is not MemoryType.EPISODE and len(o.content) > len(rec.content) and value in o.content.lower()
        for o in [*same, *later]
    )


def without_excerpts(hits: Sequence[Hit], shown: Collection[MemoryRecord]) -> list[Hit]:
    """Hits whose episode a standing section already shows in part (sentence excerpts),
    without those sentences; dropped when nothing else is left."""
    cut: dict[str, list[str]] = {}
    for r in shown:
        if r.attributes.get("excerpt"):
            cut.setdefault(r.id, []).append(r.content)
    out = []
    for h in hits:
        if h.memory.id not in cut:
            out.append(h)
            continue
        rest = [s for s in sentences(h.memory.content) if not any(s in c for c in cut[h.memory.id])]
        if rest:
            out.append(
                h.model_copy(update={"memory": h.memory.model_copy(update={"content": " ".join(rest)})})
            )
    return out
