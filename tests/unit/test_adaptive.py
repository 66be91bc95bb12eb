"""The adaptive rule as a table: one bounded step per type, each with its reason."""

from __future__ import annotations

import pytest

from memquill.maintain.adaptive import TypeUse, decide
from memquill.model import MemoryType
from memquill.write.policy import AdaptiveBounds, WritePolicy

E, F, P = MemoryType.EPISODE, MemoryType.FACT, MemoryType.PREFERENCE
BOUNDS = AdaptiveBounds(enabled=True, step=0.05, floor=0.4, ceiling=0.6, min_retrievals=10, min_misses=3)


@pytest.mark.parametrize(
    ("start", "use", "expected"),
    [
        ({}, TypeUse(retrieved=40, useful=2), 0.55),  # 5% useful < 20%: written less eagerly
        ({}, TypeUse(retrieved=40, useful=20), None),  # useful: kept
        ({}, TypeUse(retrieved=5, useful=0), None),  # too few retrievals to judge
        ({E: 0.6}, TypeUse(retrieved=40, useful=0), None),  # already at the ceiling
        ({}, TypeUse(retrieved=0, misses=5), 0.45),  # asked for and missed: more readily
        ({E: 0.4}, TypeUse(misses=9), None),  # already at the floor
        ({}, TypeUse(retrieved=40, useful=1, misses=9), 0.55),  # useless beats missed
        ({}, TypeUse(retrieved=40, useful=10, misses=3), 0.45),  # useful enough and missed
    ],
)
def test_one_bounded_step(start: dict[MemoryType, float], use: TypeUse, expected: float | None) -> None:
    policy = WritePolicy(type_thresholds=start, adaptive=BOUNDS)
    proposal = decide(policy, {E: use})
    if expected is None:
        assert proposal.changes == {} and proposal.policy == policy
    else:
        assert proposal.changes[E][1] == expected
        assert proposal.policy.type_thresholds[E] == expected
        assert proposal.reason.startswith(f"episode {start.get(E, 0.5):.2f}→{expected:.2f}")


def test_types_move_independently() -> None:
    p = decide(
        WritePolicy(adaptive=BOUNDS),
        {E: TypeUse(retrieved=50, useful=0), F: TypeUse(misses=4), P: TypeUse(retrieved=50, useful=40)},
    )
    assert {t: new for t, (_, new, _) in p.changes.items()} == {E: 0.55, F: 0.45}
    assert p.summary()["changes"]["fact"]["why"] == "asked for and missed 4 times"
