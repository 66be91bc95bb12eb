"""Hybrid recall: lexical (FTS over segmented text) and vector legs, fused by reciprocal rank.

RRF needs no score calibration between bm25 and cosine, which live on unrelated scales.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from memquill.model.query import RecordFilter
from memquill.retrieve.recipes import Recipe
from memquill.store.base import Store
from memquill.text import is_cjk, query_terms

_LATIN = re.compile(r"[A-Za-z]{2,}")


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
    extra_terms: Sequence[str] = (),
    deepen: Callable[[list[str]], int] | None = None,
) -> dict[str, Recall]:
    """``extra_terms`` widen the lexical leg (situation terms in both languages). A full
    first page for which ``deepen`` (given its ids) names a larger depth is read again that
    deep: only the legs that need it pay for it."""

    def read(leg: Callable[[int], list[tuple[str, float]]]) -> list[tuple[str, float]]:
        hits = leg(r.depth)
        more = deepen([mid for mid, _ in hits]) if deepen is not None and len(hits) >= r.depth else 0
        return leg(more) if more > r.depth else hits

    found: dict[str, Recall] = {}
    legs: list[tuple[str, float, list[tuple[str, float]]]] = []
    if r.lexical > 0:
        terms = [*query_terms(query), *extra_terms]
        legs.append(("lexical", r.lexical, read(lambda n: store.lexical(f, terms, n))))
    if r.vector > 0 and qvec is not None:
        vec = qvec
        legs.append(("vector", r.vector, read(lambda n: store.vector(f, vec, n))))
    for leg, weight, hits in legs:
        for rank, (mid, score) in enumerate(hits, start=1):
            item = found.setdefault(mid, Recall(mid))
            item.fused += weight / (r.rrf_k + rank)
            item.legs[leg] = {"rank": rank, "score": round(score, 4)}
    return found


def max_fused(r: Recipe, lexical_possible: bool = True) -> float:
    """The fused score of an item ranked first on every leg that could find it: normalises
    to 0..1. When query and memory share no script the lexical leg cannot match, so a memory
    found only by meaning is not halved against ones that also share words (an English
    request must still reach "我对花生过敏")."""
    lexical = r.lexical if r.lexical > 0 and lexical_possible else 0
    total = lexical + (r.vector if r.vector > 0 else 0)
    return total / (r.rrf_k + 1) if total else 1.0


def shares_script(a: str, b: str) -> bool:
    """False only when both texts have a script and they share none (``"what can I eat"`` and
    ``"我对花生过敏"``): then the lexical leg cannot match and fusion must not count it."""
    sa, sb = _scripts(a), _scripts(b)
    return not (sa and sb) or bool(sa & sb)


def _scripts(text: str) -> set[str]:
    out = {"cjk"} if is_cjk(text) else set()
    return out | ({"latin"} if _LATIN.search(text) else set())
