"""Three private classes the held-out sets leaked (decision 0016n), Chinese and English, both
backends, each said in wording no training row or spec utterance holds.

- A therapy slot is a private schedule: it serves a request that books a time (the slot is why
  that hour is taken) and no other. "next week" / "下周" in a request named the scheduling
  situation, so a tooth extraction or a trip next week opened every private schedule.
- A faith said with a diet ("我信伊斯兰教，饭菜要清真的"): the faith is private, the diet is what
  a meal must respect. The head read it as no private matter, so it reached code tasks and
  introductions; now it is private and reaches a meal only.
- A pregnancy said by its stage and symptoms reads as ``pregnancy``, not ``health``: a dinner
  must respect it (``critical.TOPIC_NEEDS``), a code task does not see it.
"""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from tests.support.private_lines import Case, check

THERAPY = [
    Case(
        ["我在一家律所做助理。", "我住在南京。", "每周二下午四点我去见心理咨询师，这个点别给我排别的。"],
        "咨询师",
        ["帮我安排下周二下午和客户开个会，几点合适？"],
        ["我下周要去做个胃镜，前一天要注意什么？", "下周去青岛出差三天，帮我列个行李清单"],
    ),
    Case(
        [
            "I work as a paralegal at a law firm.",
            "I live in Leeds.",
            "Tuesdays at 4 pm I see my counsellor, so keep that hour free.",
        ],
        "counsellor",
        ["book a call with the client on Tuesday afternoon, what time works?"],
        [
            "I'm getting a filling next week, anything I should avoid beforehand?",
            "next week I'm in Glasgow for three days of work, make me a packing list",
        ],
    ),
]


@pytest.mark.parametrize("case", THERAPY, ids=["zh", "en"])
def test_a_therapy_slot_serves_a_booking_not_a_trip_or_a_procedure_next_week(
    mem_e5: Memory, clock: FixedClock, case: Case
) -> None:
    check(mem_e5, clock, case)


FAITH = [
    Case(
        ["我在一家物流公司做调度。", "我住在西安。", "我信伊斯兰教，饭菜要清真的，酒也不喝。"],
        "清真",
        ["周六想请几个朋友出去吃饭，推荐个地方"],
        ["给地图加一个图层切换按钮", "帮我写一段自我介绍，下周新同事见面用"],
    ),
    Case(
        [
            "I work as a dispatcher at a logistics firm.",
            "I live in Bradford.",
            "My religion is Islam, so my food has to be halal and I don't touch alcohol.",
        ],
        "halal",
        ["suggest a restaurant for dinner with friends on Saturday"],
        ["add a layer toggle to the map view", "write a short self-introduction for my new team"],
    ),
]


@pytest.mark.parametrize("case", FAITH, ids=["zh", "en"])
def test_a_faith_said_with_a_diet_reaches_a_meal_and_nothing_else(
    mem_e5: Memory, clock: FixedClock, case: Case
) -> None:
    check(mem_e5, clock, case)


PREGNANCY = [
    Case(
        ["我在一家银行做客户经理。", "我住在厦门。", "怀孕快五个月了，最近总是腰酸，晚上也睡不好。"],
        "怀孕",
        ["周五想和同事出去吃饭，推荐个地方吧"],
        ["给这个接口加个分页参数"],
    ),
    Case(
        [
            "I work as an account manager at a bank.",
            "I live in Cardiff.",
            "I'm about five months pregnant now, my back aches and I sleep badly.",
        ],
        "pregnant",
        ["recommend somewhere for a team dinner on Friday"],
        ["add a page-size parameter to this endpoint"],
    ),
]


@pytest.mark.parametrize("case", PREGNANCY, ids=["zh", "en"])
def test_a_pregnancy_by_its_stage_reaches_a_meal_not_a_code_task(
    mem_e5: Memory, clock: FixedClock, case: Case
) -> None:
    check(mem_e5, clock, case)
