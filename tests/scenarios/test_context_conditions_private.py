"""A condition the typed lexicon names is private even when the sensitivity head reads its
sentence as ordinary (someone's cancer treatment, a gambling habit): kept out of unrelated
requests, shown where the request names it (Chinese and English, both backends, rules only
and with the attribute model)."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from memquill.retrieve.sensitivity import bundled
from tests.support.sessions import say

ZH_PROFILE = ["我叫周楠，在成都做平面设计。", "周末喜欢去爬山。"]
EN_PROFILE = ["I'm Dana, a graphic designer in Leeds.", "I love hiking at weekends."]
ZH_UNRELATED = ["帮我写一段周末爬山的朋友圈文案", "推荐几本适合通勤看的书"]
EN_UNRELATED = ["Write a caption for my weekend hike photos", "Recommend a few books for my commute"]

CASES = [
    (
        ZH_PROFILE,
        "我老公在治肺癌，最近总跑医院。",
        ZH_UNRELATED,
        "肺癌",
        "帮我列一下陪老公去医院复查肺癌要带的东西",
    ),
    (ZH_PROFILE, "我有点赌瘾，一直戒不掉。", ZH_UNRELATED, "赌瘾", "有什么办法能帮我戒掉赌瘾？"),
    (
        EN_PROFILE,
        "I've got a bit of a betting habit I keep meaning to kick.",
        EN_UNRELATED,
        "betting",
        "How can I finally kick my betting habit?",
    ),
]


@pytest.mark.parametrize(("profile", "condition", "unrelated", "word", "names"), CASES)
def test_a_condition_the_head_reads_as_ordinary_stays_out_of_unrelated_requests(
    mem_modes: Memory,
    clock: FixedClock,
    profile: list[str],
    condition: str,
    unrelated: list[str],
    word: str,
    names: str,
) -> None:
    # the head alone reads it under its bar: the lexicon is what makes it private
    model = bundled()
    assert model is not None and mem_modes.embedder is not None
    assert model.predict(mem_modes.embedder.embed_passages([condition]))[0].private < model.threshold
    say(mem_modes, clock, profile, "s1")
    say(mem_modes, clock, [condition, "家里养了一只橘猫，叫馒头。"], "s2")
    for request in unrelated:
        ctx = mem_modes.context(request, user="u", budget_tokens=300)
        assert word not in ctx.text, (request, ctx.text)
    assert word in mem_modes.context(names, user="u", budget_tokens=300).text
