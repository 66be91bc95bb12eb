"""A private memory is named by the request's own words, not by chance characters (issue #16,
zh + en, every backend, the real embedder and the attribute model). "这个月想控制开销，帮我做个
简单的预算表" shares "月" (its date reads "…9月…") and "做" with a mother's chemotherapy, and the
chemotherapy showed in a budget table; a request about the chemotherapy still gets it."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say

CASES = [
    (
        [
            "我叫陈雨晴，在杭州做产品设计。",
            "今天请了半天假陪我妈去医院做化疗，整个人都很累。",
            "每周三晚上打羽毛球。",
        ],
        "这个月想控制开销，帮我做个简单的预算表",
        "我妈周五要去医院化疗，帮我安排一下那天",
        "化疗",
    ),
    (
        [
            "My name is Dana, I design products in Hangzhou.",
            "Took half a day off today to take my mom to chemo, totally wiped out.",
            "Badminton every Wednesday night.",
        ],
        "help me make a simple budget for this month",
        "my mom has chemo on Friday, help me plan the day",
        "chemo",
    ),
]


@pytest.mark.parametrize(("turns", "unrelated", "about_it", "word"), CASES)
def test_a_private_matter_is_named_by_words_not_characters(
    mem_e5: Memory, clock: FixedClock, turns: list[str], unrelated: str, about_it: str, word: str
) -> None:
    say(mem_e5, clock, turns, "s1")
    assert word not in mem_e5.context(unrelated, budget_tokens=300, user="u").text
    assert word in mem_e5.context(about_it, budget_tokens=300, user="u").text
