"""Hybrid recall: lexical (FTS over segmented text) and vector legs, fused by reciprocal rank.

RRF needs no score calibration between bm25 and cosine, which live on unrelated scales.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from memquill.model.query import RecordFilter
from memquill.retrieve.recipes import Recipe
from memquill.store.base import Store
from memquill.text import query_terms


@dataclass
class Recall:
    """One recalled id with what each leg said about it."""

    id: str
    fused: float = 0.0
    legs: dict[str, dict[str, float]] = field(default_factory=dict)


def recall(
    store: Store,
    f: RecordFilter,
    query: str,
    qvec: npt.NDArray[np.float32] | None,
    r: Recipe,
) -> dict[str, Recall]:
    found: dict[str, Recall] = {}
    legs: list[tuple[str, float, list[tuple[str, float]]]] = []
    if r.lexical > 0:
        legs.append(("lexical", r.lexical, store.lexical(f, query_terms(query), r.depth)))
    if r.vector > 0 and qvec is not None:
        legs.append(("vector", r.vector, store.vector(f, qvec, r.depth)))
    for leg, weight, hits in legs:
        for rank, (mid, score) in enumerate(hits, start=1):
            item = found.setdefault(mid, Recall(mid))
            item.fused += weight / (r.rrf_k + rank)
            item.legs[leg] = {"rank": rank, "score": round(score, 4)}
    return found


def max_fused(r: Recipe) -> float:
    """The fused score of an item ranked first on every enabled leg: normalises to 0..1."""
    total = (r.lexical if r.lexical > 0 else 0) + (r.vector if r.vector > 0 else 0)
    return total / (r.rrf_k + 1) if total else 1.0
