"""Private but not safety-critical facts in the context block: a turn the user confided, or
a sensitive catalogue attribute, is shown only where the request bears on it or names it
(Chinese and English, both backends)."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory

CONFIDED = [
    (
        "zh",
        [
            "我在一家设计院做桥梁结构工程师。",
            "说起来有点烦，我在走离婚的程序，律师那边一堆材料。这事你知道就行，别跟别人提。",
            "我周末喜欢去江边钓鱼。",
        ],
        "帮我写一段给新客户的自我介绍",
        "律师",
        "离婚程序的材料，律师让我下周交，帮我列个清单",
    ),
    (
        "en",
        [
            "I work as a bridge engineer at a design firm.",
            "Between us, I've got a job offer from a hospital in Oslo. Nobody at work knows yet.",
            "At the weekend I like fishing down by the river.",
        ],
        "Draft a short intro of me for a new client",
        "Oslo",
        "The Oslo hospital wants an answer on the job offer; draft a reply asking for two more weeks",
    ),
]


def _said(mem: Memory, clock: FixedClock, turns: list[str]) -> None:
    for t in turns:
        clock.advance(minutes=2)
        mem.add(t, user="u", session="s1")
    mem.end_session(user="u", session="s1")
    clock.advance(days=1)
    mem.flush()


@pytest.mark.parametrize(("lang", "turns", "unrelated", "word", "naming"), CONFIDED)
def test_a_confided_turn_stays_out_of_an_unrelated_request_and_the_rest_of_its_episode_stays(
    mem: Memory, clock: FixedClock, lang: str, turns: list[str], unrelated: str, word: str, naming: str
) -> None:
    _said(mem, clock, turns)
    ctx = mem.context(unrelated, user="u", budget_tokens=800)
    assert word not in ctx.text, ctx.text
    # the episode is trimmed, not dropped: the other turns it holds are still there
    assert any(("钓鱼" in i.text or "fishing" in i.text) for i in ctx.items), ctx.text
    # a request that names it (two of its own words) sees it, and the line says why
    named = mem.context(naming, user="u", budget_tokens=800)
    assert word in named.text, named.text
    assert any(i.why.get("private") == "named" for i in named.items if word in i.text), named.items


@pytest.mark.parametrize(
    ("statement", "unrelated"),
    [
        ("我是做前端开发的，月薪两万五，这个别跟我同事说。", "帮我给订单接口加一个分页参数"),
        (
            "I'm a nurse; my salary is 41k and nobody at work knows that.",
            "Add a pagination parameter to the orders endpoint",
        ),
    ],
)
def test_a_confided_record_is_withheld_with_its_turn(
    mem: Memory, clock: FixedClock, statement: str, unrelated: str
) -> None:
    _said(mem, clock, [statement])
    ctx = mem.context(unrelated, user="u", budget_tokens=800)
    assert "两万五" not in ctx.text and "41k" not in ctx.text, ctx.text


@pytest.mark.parametrize(
    ("turns", "unrelated", "word", "naming"),
    [
        (
            ["我在一家设计院做桥梁结构工程师。", "最近在走离婚的程序，律师那边一堆材料。"],
            "帮我写一段给新客户的自我介绍",
            "离婚",
            "离婚程序的材料律师让我下周交齐，帮我列个清单",
        ),
        (
            ["I work as a bridge engineer at a design firm.", "I'm going through a divorce at the moment."],
            "Draft a short intro of me for a new client",
            "divorce",
            "The divorce is going through; help me write to the divorce mediator",
        ),
    ],
)
def test_a_sensitive_attribute_is_shown_only_where_the_request_names_it(
    mem_e5: Memory, clock: FixedClock, turns: list[str], unrelated: str, word: str, naming: str
) -> None:
    _said(mem_e5, clock, turns)
    assert any(r.key == "marital_status" for r in mem_e5.records(user="u")), mem_e5.records(user="u")
    ctx = mem_e5.context(unrelated, user="u", budget_tokens=800)
    assert word not in ctx.text.lower(), ctx.text
    named = mem_e5.context(naming, user="u", budget_tokens=800)
    assert any(word in i.text.lower() and i.why.get("private") for i in named.items), named.items


@pytest.mark.parametrize(("lang", "turns", "unrelated", "word", "naming"), CONFIDED)
def test_the_sessions_unread_turns_obey_the_same_gate(
    mem: Memory, clock: FixedClock, lang: str, turns: list[str], unrelated: str, word: str, naming: str
) -> None:
    """A side door: the session's turns not yet read were shown whole in "This session",
    confided or not, for any request."""
    for t in turns:
        clock.advance(minutes=2)
        mem.add(t, user="u", session="s1")
    ctx = mem.context(unrelated, user="u", session="s1", budget_tokens=800)
    assert word not in ctx.text, ctx.text
    assert any(i.section == "session" for i in ctx.items), ctx.items  # the other turns stay
    assert word in mem.context(naming, user="u", session="s1", budget_tokens=800).text
