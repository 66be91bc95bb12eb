"""Retrieval strategies as named data, selectable per call (``search(..., recipe="lexical")``)."""

from __future__ import annotations

from dataclasses import dataclass

from memquill.errors import ValidationError


@dataclass(frozen=True)
class Recipe:
    name: str
    lexical: float = 1.0  # leg weights in reciprocal-rank fusion; 0 disables the leg
    vector: float = 1.0
    depth: int = 50  # over-fetch per leg
    rrf_k: int = 60
    relevance: float = 1.0  # rerank weights
    recency: float = 0.1
    confidence: float = 0.1
    usefulness: float = 0.05
    time_match: float = 0.5  # boost when a record's dates fall in the query's time window
    slot_lookup: bool = True  # answer "what's my email" from slot keys first


RECIPES: dict[str, Recipe] = {
    r.name: r
    for r in (
        Recipe("hybrid"),
        Recipe("lexical", vector=0.0),
        Recipe("vector", lexical=0.0),
        Recipe("recent_first", recency=0.6, relevance=0.7),
    )
}


def recipe(name: str | Recipe) -> Recipe:
    if isinstance(name, Recipe):
        return name
    try:
        return RECIPES[name]
    except KeyError:
        raise ValidationError(f"unknown recipe {name!r}; known: {', '.join(RECIPES)}") from None
