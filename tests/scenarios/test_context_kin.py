"""A request naming someone in the user's life reaches what was said of them, in either
language and under another word for them, both backends: "plan an outing for me and my kid"
shares no word with "闺女豆豆六岁…", and an English request sits too far from a Chinese turn for
the vector leg alone. The catalogue's relation words (both languages) and the relations a named
one also reaches (``kin`` in ``data/intents.json``: a kid is a son or a daughter) widen the
lexical leg of ``context()`` (``intents.kin_terms``); ``search()`` is unchanged. A hit ``focus``
keeps out of the task memories (too far below the best match) still tells the profile which
standing lines the request touches (``profile.assemble(near=…)``)."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memquill import FixedClock, Memory
from memquill.model import Scope
from memquill.model.result import Hit
from memquill.retrieve import intents, profile
from tests.support.sessions import say


class Case(NamedTuple):
    turns: list[str]
    word: str  # a word of the turn about the relative
    request: str  # names the relative with another word, in the other language


CASES = [
    Case(
        [
            "我在一家设计公司做UI设计。",
            "闺女豆豆六岁，今年刚上一年级，拼音作业把全家都搞崩溃了。",
            "我周末喜欢去公园跑步。",
        ],
        "豆豆",
        "plan a saturday outing for me and my kid somewhere around town",
    ),
    Case(
        [
            "I work as a UI designer at an agency.",
            "My daughter Lily just started first grade and hates spelling homework.",
            "I like running in the park at weekends.",
        ],
        "Lily",
        "周末带孩子去哪玩比较好？",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=["zh", "en"])
def test_a_request_naming_a_relative_reaches_their_turn_by_words(
    mem_read: Memory, clock: FixedClock, case: Case
) -> None:
    say(mem_read, clock, case.turns, "s1")
    wide = mem_read.search(case.request, user="u", k=10, expand=True)
    found = [h for h in wide if case.word in h.memory.content]
    assert found, [h.memory.content for h in wide]
    assert "lexical" in found[0].why["legs"], found[0].why
    plain = mem_read.search(case.request, user="u", k=10)
    assert all("lexical" not in h.why["legs"] for h in plain if case.word in h.memory.content)
    ctx = mem_read.context(case.request, user="u", budget_tokens=300)
    assert case.word in ctx.text, ctx.text


def test_kin_terms_name_the_relation_in_both_languages_and_its_wider_kin() -> None:
    kid = intents.kin_terms("plan a saturday outing for me and my kid")
    assert {"child", "孩子", "daughter", "闺女", "son", "儿子"} <= set(kid)
    assert {"girlfriend", "gf", "女朋友"} <= set(intents.kin_terms("这周末和女朋友去哪吃饭？"))
    assert "朋友" not in intents.kin_terms("这周末和女朋友去哪吃饭？")  # a word inside 女朋友 names no one
    assert {"妈妈", "mum", "parent"} <= set(intents.kin_terms("find time to visit my mum this week"))
    assert intents.kin_terms("add a unit test for the pressure solver") == []
    assert intents.kin_terms("email my doctor about the results") == []  # kin_skip: health lives there


class Near(NamedTuple):
    turns: list[str]
    word: str
    request: str


NEAR = [
    Near(
        [
            "我在杭州做后端开发。",
            "闺女豆豆六岁，今年刚上一年级，拼音作业把全家都搞崩溃了。",
            "我每天早上跑五公里。",
        ],
        "豆豆",
        "plan a saturday outing for me and my family",
    ),
    Near(
        [
            "I write backend code for a shop in Leeds.",
            "Our little one Ava is six and just started school, homework is a battle every night.",
            "I run five kilometres every morning.",
        ],
        "Ava",
        "周六带家人出去玩，帮我安排一下",
    ),
]


@pytest.mark.parametrize("case", NEAR, ids=["zh", "en"])
def test_a_hit_focus_trims_still_tells_the_profile_what_the_request_touches(
    mem_read: Memory, clock: FixedClock, case: Near
) -> None:
    """``assemble(near=…)``: the profile ranks a standing line the request's search found as
    touched even when ``focus`` kept that hit out of the task memories."""
    say(mem_read, clock, case.turns, "s1")
    found = mem_read.search(case.request, user="u", k=10, expand=True)
    ep = [h for h in found if case.word in h.memory.content]
    assert ep, [h.memory.content for h in found]
    scope = Scope.of(user="u")

    def profile_lines(near: list[Hit]) -> list[str]:
        a = profile.assemble(
            mem_read.store,
            scope,
            case.request,
            [],
            clock.now(),
            mem_read.profile_policy,
            sentence_reader=mem_read.sentence_reader,
            near=near,
        )
        return [e.record.content for st in a.standing for e in st.entries if e.relevant]

    assert any(case.word in line for line in profile_lines(ep)), profile_lines(ep)
    assert not any(case.word in line for line in profile_lines([]))
