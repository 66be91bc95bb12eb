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


@pytest.mark.parametrize(
    ("text", "key", "value", "left"),
    [
        (
            "Got a membership at Snap Fitness last week, so I cancelled the YMCA.",
            "gym",
            "Snap Fitness",
            "YMCA",
        ),
        ("这个月开始去Total Fitness健身，团课挺多。", "gym", "Total Fitness", None),
        ("I closed my Barclays account and moved everything to Monzo.", "bank", "Monzo", "Barclays"),
        ("办了一张宁波银行的卡，以后工资发这里。", "bank", "宁波银行", None),
    ],
)
def test_a_gym_or_bank_signed_up_with_is_the_slot_and_one_cancelled_is_not(
    mem_e5: Memory, clock: FixedClock, text: str, key: str, value: str, left: str | None
) -> None:
    """The classifier learnt gym and bank shapes (train-*-gymbank-*: a membership taken, an
    account moved, and "joined" a company or a club as no gym); "cancelled", "closed my" and
    "注销" retire the value they name (``data/change_cues.json``): "…so I cancelled the YMCA"
    stored the YMCA as the gym, "这个月开始去Total Fitness健身" a liking for a sport."""
    say(mem_e5, clock, [text], "s1")
    recs = [r for r in mem_e5.records(user="u", statuses=["active"]) if r.type is not MemoryType.EPISODE]
    assert {r.value for r in recs if r.key == key and r.subject == "user"} == {value}, [
        (r.key, r.value) for r in recs
    ]
    assert left is None or not any(left in (r.value or "") for r in recs), [(r.key, r.value) for r in recs]
