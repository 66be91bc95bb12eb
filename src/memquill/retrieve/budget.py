"""Token budget with per-type quotas, so twenty similar episodes cannot crowd out the
user's profile. The packer never exceeds its limit (property-tested).

A quota guards the other types' room; it is no reason to leave room empty. With ``refill``
the items a quota held back are taken, in rank order, into whatever room the other types
did not use (a user whose memories are mostly episodes got a half-empty block).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from memquill.model import MemoryType

T = TypeVar("T")

# Largest share of the memory budget one type may take.
QUOTAS: dict[MemoryType, float] = {
    MemoryType.EPISODE: 0.4,
    MemoryType.TASK_OUTCOME: 0.4,
    MemoryType.TEMPORARY: 0.3,
    MemoryType.TASK_STATE: 0.4,
}


@dataclass(frozen=True)
class Packed:
    chosen: list[int]  # indices into the input, in input order
    tokens: int
    skipped_over_quota: int
    skipped_over_budget: int


def pack(
    items: Sequence[T],
    cost: Callable[[T], int],
    kind: Callable[[T], MemoryType | None],
    budget: int,
    quotas: dict[MemoryType, float] | None = None,
    refill: bool = False,
) -> Packed:
    """Greedy in rank order: take each item that fits the budget and its type's quota;
    with ``refill``, then each held-back item that fits the room left."""
    quotas = QUOTAS if quotas is None else quotas
    used = 0
    per_type: dict[MemoryType, int] = {}
    chosen: list[int] = []
    over_quota = over_budget = 0
    for i, item in enumerate(items):
        c = cost(item)
        if used + c > budget:
            over_budget += 1
            continue
        t = kind(item)
        if t is not None and t in quotas and per_type.get(t, 0) + c > quotas[t] * budget:
            over_quota += 1
            continue
        used += c
        if t is not None:
            per_type[t] = per_type.get(t, 0) + c
        chosen.append(i)
    if refill and over_quota:
        taken = set(chosen)
        for i, item in enumerate(items):
            c = cost(item)
            if i not in taken and used + c <= budget:
                used += c
                chosen.append(i)
                over_quota -= 1
        chosen.sort()
    return Packed(chosen, used, over_quota, over_budget)
