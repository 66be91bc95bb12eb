"""A private weekly slot serves a request on its own day, not one on another day (decision
0016t), Chinese and English, both backends: "Thursdays at 7 I see my counsellor" is why a
Thursday call cannot be at seven, and no reason to show a Saturday brunch plan the counsellor."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from tests.support.private_lines import Case, check

SLOTS = [
    Case(
        ["我在一家物业公司做行政。", "我住在合肥。", "每周四晚上七点我要去见心理咨询师，那个点别给我排事。"],
        "咨询师",
        ["帮我约周四晚上和房东见个面，几点合适？"],
        ["帮我约周六上午和物业经理开个会，几点合适？", "这周六想和朋友吃个早午餐，推荐个地方"],
    ),
    Case(
        [
            "I do admin for a property company.",
            "I live in Norwich.",
            "Thursdays at 7 pm I see my counsellor, so keep that evening clear.",
        ],
        "counsellor",
        [
            "set up a call with the landlord on Thursday evening, what time works?",
        ],
        [
            "set up a meeting with the property manager on Saturday morning, what time works?",
            "brunch spot for me and a friend this Saturday?",
        ],
    ),
]


@pytest.mark.parametrize("case", SLOTS, ids=["zh", "en"])
def test_a_weekly_private_slot_serves_its_own_day_only(mem_e5: Memory, clock: FixedClock, case: Case) -> None:
    check(mem_e5, clock, case)
