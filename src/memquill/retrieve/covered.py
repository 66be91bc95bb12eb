"""A hit that only repeats turns already shown gives way (records vs episodes of one turn).

An episode carries a few consecutive turns; a structured record made from one of them (a
rule's or the attribute model's) says part of the same thing. When the episode already
ranks above it, the record adds no evidence to what the reader sees, yet takes a place in
the top k that an episode about other turns could fill. Such a record moves behind the
hits that bring new turns; it is kept (never dropped), and slot answers never move: the
question asked for them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memquill.model import MemoryType
from memquill.retrieve.rerank import Scored


def spread(ranked: Sequence[Scored], pinned: Callable[[str], bool]) -> list[Scored]:
    """``ranked`` with each non-episode hit whose evidence an earlier episode holds moved
    behind the others (relative order kept within both groups)."""
    shown: set[str] = set()
    fresh: list[Scored] = []
    repeats: list[Scored] = []
    for s in ranked:
        rec = s.record
        evidence = set(rec.evidence)
        if rec.type is not MemoryType.EPISODE and evidence and evidence <= shown and not pinned(rec.id):
            repeats.append(s)
            continue
        fresh.append(s)
        if rec.type is MemoryType.EPISODE:
            shown |= evidence
    return [*fresh, *repeats]
