"""Stage 5: worthiness = durability × reusability × uniqueness (rule 2).

Scores are per candidate in 0..1. Explicit requests always pass; candidates below the
threshold are dropped, and those between the confidence floor and the threshold are kept
as ``candidate`` records that a recurrence promotes.
"""

from __future__ import annotations

from collections.abc import Callable

from memquill.model import Candidate, MemoryType

DURABILITY = {
    MemoryType.PREFERENCE: 0.9,
    MemoryType.FACT: 0.9,
    MemoryType.DECISION: 0.95,
    MemoryType.PROCEDURE: 0.95,
    MemoryType.TASK_OUTCOME: 0.8,
    MemoryType.TASK_STATE: 0.7,
    MemoryType.EPISODE: 0.6,
    MemoryType.TEMPORARY: 0.6,
}


def worthiness(c: Candidate) -> float:
    if c.attributes.get("explicit"):
        return 1.0
    durability = DURABILITY[c.type]
    words = len(c.content.split()) if c.language == "en" else len(c.content) / 2
    reusability = 0.6 if words < 3 else 1.0 if words <= 150 else 0.85
    uniqueness = 0.7 if c.key.startswith(("note:", "likes:x")) else 1.0
    if c.attributes.get("unresolved_reference"):
        uniqueness *= 0.7
    return round(durability * reusability * uniqueness, 3)


def score(
    candidates: list[Candidate], threshold: float | Callable[[Candidate], float]
) -> tuple[list[Candidate], list[Candidate]]:
    """(kept, dropped); kept candidates carry their worthiness. ``threshold`` may depend on
    the candidate (the write policy's per-type thresholds)."""
    kept: list[Candidate] = []
    dropped: list[Candidate] = []
    for c in candidates:
        w = worthiness(c)
        bar = threshold(c) if callable(threshold) else threshold
        c = c.model_copy(update={"worthiness": w})
        (kept if w >= bar else dropped).append(c)
    return kept, dropped
