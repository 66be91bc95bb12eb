"""Two private classes the held-out sets leaked most (decision 0016p), Chinese and English,
both backends, in wording no training row or spec utterance holds.

- Arrears on a repayment plan, said with a question about keeping up ("I owe the tax office
  and pay monthly — how do I never miss one?"): the head read the question-shaped turn as no
  private matter (money 0.46), so it reached a weekend outing, a business trip and a dinner.
  Rows for the class (``tests/data/sensitivity_arrears.jsonl``) make it private; a request
  about paying it back still names it.
The salary-question rule is tested on the stored reading (``tests/unit/test_confided_turn.py``):
a small store does not reproduce the leak, which came from a nearest vector in a larger one.
"""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from tests.support.private_lines import Case, check

ARREARS = [
    Case(
        [
            "我在一家装修公司做设计。",
            "我住在武汉。",
            "之前漏报的个税跟税务局谈好了分期补缴，每个月十五号扣一笔。",
        ],
        "分期",
        ["跟税务局的分期补缴，帮我列个每月的还款计划"],
        [
            "周末想带爸妈去郊外转转，推荐个地方",
            "下周去长沙出差，帮我安排一下行程",
            "推荐一家适合团队年终聚餐的餐厅",
        ],
    ),
    Case(
        [
            "I work as an interior designer.",
            "I live in Bristol.",
            "Worked out a monthly plan with the tax office to clear what I owed them — any tips to never miss one?",
        ],
        "tax office",
        ["help me plan my monthly payments to the tax office so I never miss one"],
        [
            "find something fun to do with my parents this weekend",
            "pick a restaurant for the team's end-of-year dinner",
        ],
    ),
]


@pytest.mark.parametrize("case", ARREARS, ids=["zh", "en"])
def test_arrears_on_a_repayment_plan_stay_out_of_outings_trips_and_dinners(
    mem_e5: Memory, clock: FixedClock, case: Case
) -> None:
    check(mem_e5, clock, case)
