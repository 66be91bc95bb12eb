"""Collapse near-identical hits (default cosine ≥ 0.95), keeping the best-supported one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from memquill.retrieve.rerank import Scored
from memquill.text import norm_value


def dedup(
    ranked: Sequence[Scored],
    vectors: Mapping[str, npt.NDArray[np.float32]],
    threshold: float,
) -> tuple[list[Scored], dict[str, str]]:
    """(kept, collapsed id → kept id). Input order is rank order; the first of a group
    is replaced by a later member only when that member has more evidence."""
    kept: list[Scored] = []
    collapsed: dict[str, str] = {}
    norms = {item.record.id: norm_value(item.record.content) for item in ranked}  # once, not per pair
    for item in ranked:
        rec = item.record
        vec = vectors.get(rec.id)
        twin = None
        for i, k in enumerate(kept):
            if norms[k.record.id] == norms[rec.id]:
                twin = i
                break
            kv = vectors.get(k.record.id)
            if vec is not None and kv is not None and float(np.dot(vec, kv)) >= threshold:
                twin = i
                break
        if twin is None:
            kept.append(item)
            continue
        winner = kept[twin]
        if len(rec.evidence) > len(winner.record.evidence):
            kept[twin] = Scored(rec, winner.score, winner.parts)
            collapsed[winner.record.id] = rec.id
        else:
            collapsed[rec.id] = winner.record.id
    return kept, collapsed
