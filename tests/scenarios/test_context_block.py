"""The context block an agent acts on: profile, project memory, safety-critical lines,
evidence spent once and recall across languages (Chinese and English, both backends)."""

from __future__ import annotations

import re

import pytest

from memquill import FixedClock, Memory
from memquill.model import MemoryType


def _said_in_sessions(mem: Memory, clock: FixedClock, user: str, sessions: list[list[str]]) -> None:
    for i, turns in enumerate(sessions):
        for t in turns:
            clock.advance(minutes=2)
            mem.add(t, user=user, session=f"s{i}")
        mem.end_session(user=user, session=f"s{i}")
        clock.advance(days=1)
    mem.flush()


def _lines(ctx, section: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [i.text for i in ctx.items if i.section == section]


PROFILE = [
    (
        "zh",
        [["我叫林晓", "好的", "我是产品经理"], ["我不喝咖啡", "哈哈有道理"]],
        "帮我写一段给新客户的自我介绍",
        ["林晓", "产品经理"],
    ),
    (
        "en",
        [
            ["My name is Daniel Brooks", "ok thanks", "I work as a data engineer"],
            ["I don't drink coffee", "haha fair"],
        ],
        "Draft a short intro of me for a new client",
        ["Daniel Brooks", "data engineer"],
    ),
]


@pytest.mark.parametrize(("lang", "sessions", "request_", "expected"), PROFILE)
def test_profile_section_is_there_for_a_request_sharing_no_words(
    mem: Memory, clock: FixedClock, lang: str, sessions: list[list[str]], request_: str, expected: list[str]
) -> None:
    _said_in_sessions(mem, clock, "u", sessions)
    ctx = mem.context(request_, user="u", project="web", session="new", budget_tokens=300)
    profile = _lines(ctx, "profile")
    for word in expected:
        assert any(word in line for line in profile), (word, ctx.text)
    # rendered first, with date and source like every other memory line
    assert ctx.text.index(profile[0]) < min((ctx.text.index(t) for t in _lines(ctx, "memory")), default=10**6)
    assert all("explicit" in line and re.search(r"\b2026-1[12]-\d\d\b", line) for line in profile)
    assert ctx.tokens <= 300
    assert all(
        i.why.get("profile") in {"identity", "constraint", "preference", "context"}
        for i in ctx.items
        if i.section == "profile"
    )


@pytest.mark.parametrize(
    ("fact", "other", "eat", "code"),
    [
        (
            "我对花生过敏",
            "记住：我的项目笔记{}：计费服务的重试策略是指数退避",
            "火车上带点什么吃的好？",
            "帮我给订单接口加一个分页参数",
        ),
        (
            "I am allergic to peanuts",
            "Remember: billing note {} says the retry policy backs off exponentially",
            "Any ideas what to pack to eat on the train?",
            "Add a pagination parameter to the orders endpoint",
        ),
    ],
)
def test_safety_critical_fact_is_the_last_dropped_and_only_where_it_bears(
    mem: Memory, fact: str, other: str, eat: str, code: str
) -> None:
    allergy = mem.add(fact, user="u").written[0]
    assert mem.get(allergy).key.startswith("allergy")
    for i in range(12):
        mem.add(other.format(i), user="u")
    mem.set_block("persona", "You are a concise assistant.", user="u")
    for budget in (75, 90, 300):  # 75: room for the core block and one line
        ctx = mem.context(eat, user="u", budget_tokens=budget)
        assert ctx.tokens <= budget
        ids = [i.memory_id for i in ctx.items]
        assert allergy in ids, (budget, ctx.text)
        assert ctx.items[0].section == "core"  # hand-set core blocks keep priority
        line = next(i for i in ctx.items if i.memory_id == allergy)
        assert line.section == "profile" and line.why["safety_critical"] is True
    assert allergy not in [i.memory_id for i in mem.context(code, user="u", budget_tokens=300).items]


@pytest.mark.parametrize(
    ("turns", "request_", "record_words"),
    [
        (["我不喝咖啡，别给我推荐咖啡", "周末我去了西湖边的一家书店，买了三本旧书"], "推荐点喝的", "咖啡"),
        (
            [
                "I don't drink coffee, never suggest it",
                "At the weekend I visited an old bookshop by the canal and bought three books",
            ],
            "suggest something to drink",
            "coffee",
        ),
    ],
)
def test_episode_gives_way_to_the_record_carrying_the_same_turn(
    mem: Memory, clock: FixedClock, turns: list[str], request_: str, record_words: str
) -> None:
    _said_in_sessions(mem, clock, "u", [turns])
    episodes = [r for r in mem.records(user="u") if r.type is MemoryType.EPISODE]
    assert episodes and any(len(e.evidence) == 2 for e in episodes)
    ctx = mem.context(request_ + " " + turns[1], user="u", budget_tokens=800)
    lines = [i.text for i in ctx.items]
    assert sum(record_words in line.lower() for line in lines) == 1, ctx.text  # said once
    ep = [i for i in ctx.items if i.memory_id in {e.id for e in episodes}]
    assert ep and all(record_words not in i.text.lower() for i in ep)  # trimmed to what is new
    assert any(("书" in i.text or "book" in i.text) for i in ep)


@pytest.mark.parametrize(
    ("fact", "request_", "word"),
    [
        ("我每周三晚上去游泳馆游泳", "What do I usually do on Wednesday evenings?", "游泳"),
        ("I go swimming every Wednesday evening", "我周三晚上一般做什么？", "swimming"),
    ],
)
def test_a_request_in_one_language_finds_a_memory_said_in_the_other(
    mem_e5: Memory, clock: FixedClock, fact: str, request_: str, word: str
) -> None:
    _said_in_sessions(mem_e5, clock, "u", [[fact, "ok", "今天有点累" if word == "游泳" else "long day"]])
    for i in range(6):
        mem_e5.add(f"Remember: note {i} — the quarterly report template lives in the shared drive", user="u")
    ctx = mem_e5.context(request_, user="u", budget_tokens=300)
    assert any(word in i.text for i in ctx.items), ctx.text


def test_project_section_holds_the_projects_standing_memory_and_nothing_of_another(
    mem: Memory, clock: FixedClock
) -> None:
    for t, p in [
        ("这个项目用 Go 写的，数据库用 PostgreSQL", "shop"),
        ("admin 后台用 Vue 3 做的", "admin"),
        ("We deploy the shop service every Thursday", "shop"),
    ]:
        clock.advance(minutes=2)
        mem.add(t, user="u", project=p, session=f"p-{p}")
    for p in ("shop", "admin"):
        mem.end_session(user="u", project=p, session=f"p-{p}")
    mem.flush()
    ctx = mem.context(
        "Add an endpoint that lists a customer's orders", user="u", project="shop", budget_tokens=300
    )
    assert "PostgreSQL" in "\n".join(_lines(ctx, "project")), ctx.text
    assert "Thursday" in ctx.text
    assert "Vue" not in ctx.text
    assert "## Project shop" in ctx.text


@pytest.mark.parametrize(
    ("turns", "unrelated", "word"),
    [
        (
            ["我对花生过敏", "周末我去了西湖边的一家书店，买了三本旧书"],
            "帮我写一段书店活动的宣传文案",
            "花生",
        ),
        (
            [
                "I am allergic to peanuts",
                "At the weekend I visited an old bookshop by the canal and bought three books",
            ],
            "Write a short blurb for the bookshop's reading event",
            "peanut",
        ),
    ],
)
def test_a_private_fact_stays_out_of_episodes_where_the_request_does_not_bear_on_it(
    mem: Memory, clock: FixedClock, turns: list[str], unrelated: str, word: str
) -> None:
    _said_in_sessions(mem, clock, "u", [turns])
    assert any(r.key.startswith("allergy") for r in mem.records(user="u"))
    ctx = mem.context(unrelated, user="u", budget_tokens=800)
    assert word not in ctx.text.lower(), ctx.text
    assert any(("书店" in i.text or "bookshop" in i.text) for i in ctx.items), ctx.text
