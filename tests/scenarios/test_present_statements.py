"""A different value said as how things are replaces the slot's value without a change cue
(zh + en, every backend, the real embedder and the attribute model): the model's first
reading of the clause, a typed value (a place), no recall. The revision says why, and a
recall of an earlier value or a supposition changes nothing."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say

CASES = [
    ("我住在厦门，离海边不远。", "青岛的海风好大，我们家阳台天天晒不干衣服。", "厦门", "青岛"),
    (
        "I live in Porto, near the river.",
        "The light in Lisbon is unreal, our flat gets sun all afternoon.",
        "Porto",
        "Lisbon",
    ),
]


def city(mem: Memory) -> dict[str, str | None]:
    recs = mem.records(user="u", statuses=["active", "superseded", "needs_review", "candidate"])
    return {r.status.value: r.value for r in recs if r.subject == "user" and r.key == "city"}


@pytest.mark.parametrize(("first", "later", "was", "now"), CASES)
def test_a_new_value_said_as_the_present_replaces_the_slot(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, was: str, now: str
) -> None:
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    assert city(mem_e5) == {"active": now, "superseded": was}
    new = next(r for r in mem_e5.records(user="u") if r.key == "city")
    if new.confidence <= 0.6:  # below the floor on its own: the rule that let it replace is named
        assert any("without a change cue" in h.reason for h in mem_e5.history(new.id))


@pytest.mark.parametrize(
    ("first", "later", "was"),
    [
        ("我住在厦门，离海边不远。", "以前在青岛的时候，海风大得阳台天天晒不干衣服。", "厦门"),
        (
            "I live in Porto, near the river.",
            "Back when I lived in Lisbon our flat got sun all afternoon.",
            "Porto",
        ),
    ],
)
def test_a_recall_replaces_nothing(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, was: str
) -> None:
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    assert city(mem_e5).get("active") == was


@pytest.mark.parametrize(
    ("first", "later", "was"),
    [
        (
            "自从三月份离开南通来了泉州，早饭天天面线糊，还没吃腻",
            "周末打算去崇武古城转转，听说海边风大，要带外套吗",
            "泉州",
        ),
        (
            "I live in Porto, near the river.",
            "Going to Lisbon next weekend, the light there is unreal.",
            "Porto",
        ),
    ],
)
def test_an_intention_replaces_nothing(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, was: str
) -> None:
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    assert city(mem_e5).get("active") == was
