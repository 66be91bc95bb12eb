"""What the classifier retrained with the dev splits (decision 0017d) needed beside it, zh + en,
on every backend: a manager said to have changed supersedes the old one by name (a Chinese name
jieba ends a character early is whole: ``tests/unit/test_text.py``), and a liking a rule took as
a memory still names its attribute. An event's place and time when the attribute head splits
between them: ``test_attribute_layer.py``."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from memquill.model import MemoryType
from tests.support.sessions import say


@pytest.mark.parametrize(
    ("first", "later", "was", "now"),
    [
        ("我领导叫贺砚秋", "组织调整，我领导换成了甘雨桐", "贺砚秋", "甘雨桐"),
        (
            "My manager is Tom Baker",
            "Big reorg this week. My manager changed to Priya Raman",
            "Tom Baker",
            "Priya Raman",
        ),
    ],
)
def test_a_changed_manager_replaces_the_old_name(
    mem_modes: Memory, clock: FixedClock, first: str, later: str, was: str, now: str
) -> None:
    say(mem_modes, clock, [first], "s1", gap_days=10)
    say(mem_modes, clock, [later], "s2", gap_days=10)
    names = {
        r.value: r.status.value
        for r in mem_modes.records(user="u", statuses=["active", "superseded", "candidate"])
        if r.subject == "person:manager" and r.key == "name"
    }
    assert names == {was: "superseded", now: "active"}, names


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我宁愿坐地铁也不想开车上班", "commute", "坐地铁"),
        ("I'd rather take the bus than drive to work", "commute", "bus"),
    ],
)
def test_a_liking_said_as_a_comparison_still_names_its_attribute(
    mem_e5: Memory, clock: FixedClock, text: str, key: str, value: str
) -> None:
    say(mem_e5, clock, [text], "s1")
    recs = mem_e5.records(user="u", statuses=["active", "candidate"])
    assert any(r.key == key and r.value == value for r in recs if r.type is not MemoryType.EPISODE), [
        (r.key, r.value) for r in recs
    ]
