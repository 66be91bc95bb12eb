"""Questions routed by the learned router and the subject readings of issue #11 get the
slot's newest statement first (zh + en, every backend, rules only and with the model):
a paraphrase no catalogue form covers, a relative named without "my", and the partner named
by no relation word."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say

CASES = [
    (  # the router: no question form says "night owl"
        ["I'm a total night owl, usually in bed around 2am"],
        ["what's a good name for a goldfish"],
        ["New routine: I go to bed at 10pm now and I'm up at 6"],
        "am I an early bird or a night owl",
        "10pm",
        ("user", "sleep_schedule"),
    ),
    (
        ["我是夜猫子，一般凌晨两点才睡"],
        ["帮我写一首关于秋天的诗"],
        ["最近作息改了，晚上十点就睡，早上六点起"],
        "我是夜猫子吗",
        "十点",
        ("user", "sleep_schedule"),
    ),
    (  # a relation word opening a Chinese question names that person
        ["我闺蜜在杭州一家银行上班"],
        ["帮我写一首关于秋天的诗"],
        ["我闺蜜跳槽了，现在在阿里巴巴做产品经理"],
        "闺蜜现在在哪上班",
        "阿里巴巴",
        ("person:friend", "employer"),
    ),
    (  # the partner named by no relation word
        ["我对象是中学数学老师"],
        ["帮我写一首关于秋天的诗"],
        ["我对象辞职了，现在做保险经纪人"],
        "我家那位现在是干哪行的",
        "保险经纪人",
        ("person:partner", "occupation"),
    ),
    (
        ["My boss's email is dana@northwind.io"],
        ["what's a good name for a goldfish"],
        ["My boss changed address, her email is now dana.k@contoso.com"],
        "boss's email?",
        "dana.k@contoso.com",
        ("person:manager", "email"),
    ),
]


def _text(hit: object) -> str:
    m = hit.memory  # type: ignore[attr-defined]
    return f"{m.value or ''} {m.content}"


@pytest.mark.parametrize(("first", "filler", "later", "question", "now", "slot"), CASES)
def test_a_routed_question_gets_the_newest_statement_first(
    mem_modes: Memory,
    clock: FixedClock,
    first: list[str],
    filler: list[str],
    later: list[str],
    question: str,
    now: str,
    slot: tuple[str, str],
) -> None:
    say(mem_modes, clock, first, "s1", gap_days=20)
    say(mem_modes, clock, filler, "s2", gap_days=20)
    say(mem_modes, clock, later, "s3", gap_days=20)
    hits = mem_modes.search(question, user="u", k=5)
    assert now in _text(hits[0])
    if mem_modes.settings.attribute_model:  # rules alone store no such slot: the timeline answers
        # the answer came by the slot lookup the question was routed to, and ``why`` says so
        leg = hits[0].why["legs"].get("slot")  # type: ignore[attr-defined]
        assert hits[0].why["path"] == "slot" and (leg["subject"], leg["key"]) == slot
