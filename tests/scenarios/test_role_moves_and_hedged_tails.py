"""A role moved into or held for a while names the user's occupation and replaces the old one;
a clause keeps what it states before a hedged tail; a relation signed up with is named
(zh + en, every backend).

Before: "公司内部转岗，从UI设计师转产品经理…" stored nothing of the move (公司 opening the clause
read as "what the company does", and 从 made 产品经理 the value left behind); "当产品经理第三周"
named no role; "医生把我妈的药换成氨氯地平了，说脚肿可能是硝苯地平引起的" was dropped whole for its
可能, so the old medication stayed the only one; "Registered with a huisarts in De Pijp, Dr.
Visser" named no doctor."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, held, say_apart


@pytest.mark.parametrize(
    ("turns", "question", "was", "now"),
    [
        (
            [
                "我是UI设计师，想给作品集写个自我介绍，150字以内",
                "公司内部转岗，从UI设计师转产品经理，下个月1号生效，有点慌，PRD到底怎么写",
            ],
            "我现在岗位是啥来着",
            "UI设计师",
            "产品经理",
        ),
        (
            [
                "I'm a support engineer, can you help me tidy my CV?",
                "I moved from support into a product manager role last month, any tips for PRDs?",
            ],
            "what's my job these days?",
            "support engineer",
            "product manager",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_role_moved_into_replaces_the_occupation(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, was: str, now: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=40)
    assert active_values(mem_e5, "occupation").get("user") == {now}, active_values(mem_e5, "occupation")
    top = mem_e5.search(question, user="u", k=1)[0].memory
    assert top.key == "occupation" and top.value == now, (top.key, top.value, top.content)


@pytest.mark.parametrize(
    ("turns", "question", "now"),
    [
        (
            ["我是UI设计师，想给作品集写个自我介绍", "当产品经理第三周，天天开会，怎么跟开发沟通需求"],
            "我现在做什么工作",
            "产品经理",
        ),
        (
            [
                "I'm a teacher, help me plan a lesson on fractions",
                "Three weeks into being a data engineer and I love it",
            ],
            "what do I do for work now?",
            "data engineer",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_role_held_for_a_while_is_read_and_answers(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, now: str
) -> None:
    """Said without a change, the role held now is read, and the question finds it first."""
    say_apart(mem_e5, clock, turns, gap_days=40)
    assert now in active_values(mem_e5, "occupation").get("user", set()), active_values(mem_e5, "occupation")
    top = mem_e5.search(question, user="u", k=1)[0].memory
    assert top.key == "occupation" and top.value == now, (top.key, top.value, top.content)


@pytest.mark.parametrize(
    ("text", "key", "subject", "value"),
    [
        (
            "医生把我妈的药换成氨氯地平了，说脚肿可能是硝苯地平引起的",
            "medication",
            "person:mother",
            "氨氯地平",
        ),
        (
            "We moved the API to Postgres, might try CockroachDB at some point next year",
            "stack:database",
            "project",
            "Postgres",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_clause_keeps_what_it_states_before_a_hedged_tail(
    mem_e5: Memory, clock: FixedClock, text: str, key: str, subject: str, value: str
) -> None:
    say_apart(mem_e5, clock, [text], gap_days=1)
    recs = mem_e5.records(user="u", statuses=["active", "candidate"])
    got = {(r.subject, r.value) for r in recs if r.key == key}
    assert (subject, value) in got, got
    assert all("硝苯地平" not in (r.value or "") and "Cockroach" not in (r.value or "") for r in recs), got


@pytest.mark.parametrize(
    "text",
    [
        "纠结换华为还是小米，主要看拍照和续航",
        "I'm moving to Denver, maybe next spring",
        "下个月搬去上海，可能吧",
    ],
    ids=["zh-first", "en-short", "zh-short"],
)
def test_a_hedge_first_or_over_the_whole_clause_leaves_nothing(
    mem_e5: Memory, clock: FixedClock, text: str
) -> None:
    say_apart(mem_e5, clock, [text], gap_days=1)
    assert not held(mem_e5, ("city", "device", "current_location", "address"))


@pytest.mark.parametrize(
    ("text", "subject", "name"),
    [
        (
            "Registered with a huisarts in De Pijp, Dr. Visser. Can you draft an email asking my old GP for my records?",
            "person:doctor",
            "Dr. Visser",
        ),
        ("Signed up with a new dentist, Dr. Okafor, hope she's gentle", "person:dentist", "Dr. Okafor"),
    ],
)
def test_a_relation_signed_up_with_is_named(mem_e5: Memory, text: str, subject: str, name: str) -> None:
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    recs = mem_e5.records(user="u", statuses=["active", "candidate"])
    assert (subject, name) in {(r.subject, r.value) for r in recs if r.key == "name"}, [
        (r.subject, r.key, r.value) for r in recs
    ]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("我老婆在腾讯上班 最近老加班 周末想带她出去玩 有推荐吗", ("person:wife", "employer", "腾讯")),
        ("我们家狗叫豆豆 每天早上遛 有啥好用的牵引绳吗", ("item:狗", "name", "豆豆")),
        (
            "My wife works at Tencent. She's been doing a lot of overtime, any weekend trip ideas?",
            ("person:wife", "employer", "Tencent"),
        ),
    ],
    ids=["zh-employer", "zh-pet", "en-guard"],
)
def test_chinese_words_apart_by_a_space_are_clauses(
    mem_e5: Memory, clock: FixedClock, text: str, fact: tuple[str, str, str]
) -> None:
    """ "我老婆在腾讯上班 最近老加班 … 有推荐吗": typed with spaces for commas, the statements stand
    apart from the question that ends the turn (before, the question took the whole turn)."""
    say_apart(mem_e5, clock, [text], gap_days=1)
    assert fact in held(mem_e5, (fact[1],)), held(mem_e5, (fact[1],))
