"""A question in the middle of a turn asks only itself: the statements before and after it
are read (zh + en, every backend, rules only and with the attribute model). "我上个月搬到杭州了
这边有什么好吃的 我老婆在阿里上班" states the user's city and the wife's employer, as "I moved to
Denver last month, any good ramen places? my wife works at Kaiser" does.

Before: a Chinese turn typed with spaces (how many people type a comma) was one clause, and
the question in its middle blocked every statement in it; English, split at its question
mark, was read."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import held, say

TURNS = [
    (
        "我上个月搬到杭州了 这边有什么好吃的 我老婆在阿里上班",
        ("user", "city", "杭州"),
        ("person:wife", "employer", "阿里"),
    ),
    (
        "I moved to Denver last month, any good ramen places? my wife works at Kaiser",
        ("user", "city", "Denver"),
        ("person:wife", "employer", "Kaiser"),
    ),
]


@pytest.mark.parametrize(("turn", "before", "after"), TURNS, ids=["zh-spaced", "en"])
def test_the_statements_around_a_question_are_read(
    mem_e5: Memory, clock: FixedClock, turn: str, before: tuple[str, str, str], after: tuple[str, str, str]
) -> None:
    say(mem_e5, clock, [turn], "s0")
    kept = held(mem_e5, ("city", "employer"))
    assert before in kept and after in kept, kept


@pytest.mark.parametrize(
    "turn",
    ["我老婆是不是在阿里上班来着 我有点忘了 帮我查查", "is my wife still at Kaiser? I forget, check please"],
    ids=["zh-spaced", "en"],
)
def test_the_part_that_asks_states_nothing(mem_e5: Memory, clock: FixedClock, turn: str) -> None:
    say(mem_e5, clock, [turn], "s0")
    assert not held(mem_e5, ("employer",)), held(mem_e5, ("employer",))
