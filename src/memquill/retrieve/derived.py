"""How a record the attribute model made ranks against the episode it was read from.

A model fact ("Melanie's kids like pottery") is one sentence read from a turn that an
episode usually also holds. In hybrid search (not a slot answer) the two are one piece of
memory: listing both spends two of the k places on one turn and pushes out a different
one, and a short model sentence that repeats the speaker's name wins word matches the
episode earned. So:

* a model fact's relevance is its fused relevance times the model's calibrated score (a
  0.4 guess does not rank like a stated fact);
* a model fact and an episode citing every turn the fact was read from are one item: the
  episode (the turn in its context, with more evidence) takes the better of the two ranks
  and the fact is listed as collapsed into it.

Slot answers are left alone: a question routed to a slot asked for the fact itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memquill.model import MemoryRecord, MemoryType
from memquill.retrieve.hybrid import Recall
from memquill.retrieve.recipes import Recipe
from memquill.retrieve.rerank import Scored, tie_key
from memquill.store.base import Store
from memquill.write.extract.model_gates import model_made as model_made  # re-exported

WEIGHTED = True  # scale a model fact's relevance by its calibrated score
FUSED = True  # fold a model fact into the episode holding its turns
UNSHIFT = True  # model facts take no leg rank from other records


def weight(rec: MemoryRecord) -> float:
    """The model's calibrated score for a model fact (1.0 for anything else)."""
    if not WEIGHTED or not model_made(rec):
        return 1.0
    info = rec.attributes.get("model")
    score = info.get("score") if isinstance(info, dict) else None
    return float(score) if isinstance(score, int | float) else rec.confidence


def deeper(store: Store, r: Recipe, facts_possible: bool) -> Callable[[list[str]], int] | None:
    """How deep to read a leg whose first page is ``ids``: twice as deep when that page holds
    model facts, so that after ``unshift`` the other records still fill ``r.depth`` places
    per leg; a page without them is final (``unshift`` would drop whatever lies below it)."""
    if not (UNSHIFT and facts_possible):
        return None
    return lambda ids: r.depth * 2 if any(model_made(rec) for rec in store.get_many(ids)) else 0


def unshift(pool: dict[str, Recall], facts: set[str], r: Recipe) -> None:
    """Re-fuse the legs as if the model facts were not in them: a fact ties with the record
    after it instead of pushing every later record one rank down, and a leg keeps
    ``r.depth`` other records (read with ``deeper``). Reciprocal-rank fusion is positional:
    without this, each sentence read from a turn lowers the fused score of every episode
    below it, and pushes the last ones out of the leg, whether or not it is relevant."""
    if not UNSHIFT:
        return
    fused = dict.fromkeys(pool, 0.0)
    for leg, w in (("lexical", r.lexical), ("vector", r.vector)):
        ordered = sorted((it for it in pool.values() if leg in it.legs), key=lambda it: it.legs[leg]["rank"])
        others = 0
        for it in ordered:
            if it.id not in facts:
                others += 1
            rank = others + 1 if it.id in facts else others
            if rank > r.depth:
                del it.legs[leg]  # beyond what the leg would have read without the facts
            else:
                fused[it.id] += w / (r.rrf_k + rank)
    for mid in list(pool):
        pool[mid].fused = fused[mid]
        if not pool[mid].legs:
            del pool[mid]


def fuse(ranked: Sequence[Scored], is_slot: Callable[[str], bool]) -> tuple[list[Scored], dict[str, str]]:
    """(ranked with each model fact folded into an episode that holds its turns, fact id →
    episode id). The episode keeps the better score of the two, so it takes the better rank."""
    if not FUSED:
        return list(ranked), {}
    episodes = [s for s in ranked if s.record.type is MemoryType.EPISODE]
    into: dict[str, Scored] = {}
    for s in ranked:
        rec = s.record
        if not model_made(rec) or is_slot(rec.id) or not rec.evidence:
            continue
        turns = {str(e) for e in rec.evidence}
        host = next((e for e in episodes if turns <= {str(x) for x in e.record.evidence}), None)
        if host is not None:
            into[rec.id] = host
    if not into:
        return list(ranked), {}
    best: dict[str, float] = {}
    for s in ranked:
        host = into.get(s.record.id, s)
        best[host.record.id] = max(best.get(host.record.id, float("-inf")), s.score)
    out = [
        Scored(s.record, best[s.record.id], s.parts) if s.record.id in best else s
        for s in ranked
        if s.record.id not in into
    ]
    out.sort(key=lambda s: (-s.score, *tie_key(s.record)))
    return out, {fact: host.record.id for fact, host in into.items()}
