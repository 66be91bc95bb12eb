"""A turn that names a value only as what ended ("深圳的房子已经退了", "closed my Barclays
account") is no statement of it: it never becomes the slot's value nor leads the answer over
the move or switch before it. A clause opening with a thing ("工资卡是招行的") is about the
user, not a person called 工资卡 (zh + en, every backend, the real embedder and the model)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, say_apart


@pytest.mark.parametrize(
    ("turns", "question", "now", "was"),
    [
        (
            [
                "我在深圳住了三年了。",
                "最后还是搬去了上海，总算安顿下来了。",
                "深圳的房子已经退了，一堆东西都寄到这儿来了。",
            ],
            "我现在住哪个城市？",
            "上海",
            "深圳",
        ),
        (
            [
                "I bank with Barclays, have done for years.",
                "All moved over to Monzo now, the app is so much better.",
                "Finally closed my Barclays account today, took forever on the phone.",
            ],
            "who do I bank with now?",
            "Monzo",
            "Barclays",
        ),
    ],
)
def test_a_turn_naming_a_value_only_as_ended_is_no_answer(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, now: str, was: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=20)
    held = {r.value for r in mem_e5.records(user="u", statuses=["active", "candidate"]) if r.value}
    assert was not in held  # the ended value is no record's current value
    top = mem_e5.search(question, user="u", k=5)[0].memory
    assert now in f"{top.value} {top.content}" and was not in top.content


@pytest.mark.parametrize(
    ("turns", "question", "now"),
    [
        (
            ["工资卡是招行的，想办张信用卡。", "公司把代发工资的银行换成建行了，原来那张卡还要留着吗？"],
            "我工资卡现在是哪家银行？",
            "建行",
        ),
        (
            [
                "My salary goes into my Chase account.",
                "my paycheck lands in Wells Fargo now, work switched payroll banks.",
            ],
            "which bank is my salary paid into now?",
            "Wells Fargo",
        ),
    ],
)
def test_a_clause_opening_with_a_thing_is_the_users(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, now: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=20)
    assert active_values(mem_e5, "bank") == {"user": {now}}
    assert mem_e5.search(question, user="u", k=5)[0].memory.value == now
