"""What the classifier retrained with the dev splits (decision 0017d) needed beside it, zh + en,
on every backend: a liking a rule took as a memory still names its attribute. A manager said to
have changed: ``test_write_path_owners.py`` (a Chinese name jieba ends a character early is
whole: ``tests/unit/test_text.py``); an event's place and time when the attribute head splits
between them: ``test_attribute_layer.py``."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from memquill.model import MemoryType
from tests.support.sessions import say


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
