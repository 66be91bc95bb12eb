"""An everyday word is no organisation unless the clause brings it in as one: "帮我做个三十天入职计划"
names no employer "计划", "帮我列下要问医生的问题" no vet "问题", "my supervisor's taking a job in
toronto" no employer "job" — so the employer and the vet held stay the answer (zh + en, every
backend, with the attribute model); "在小米上班", "joined Stripe" still name one.

Before: a reading of such a clause put the word in the single-valued slot ("入职计划" by the
employer rule, "问题" by the model), and it
replaced the value held (the knowledge-update dev sets: employer "计划" over 网易, vet "问题"). The
English row is a guard that passes on both."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from memquill.write.extract.model_gates import model_name_only, plain_word
from tests.support.sessions import active_values, say_apart


@pytest.mark.parametrize(
    ("turns", "key", "held"),
    [
        (["我在网易做后端，刚转正", "帮我做个三十天入职计划，表格形式"], "employer", "网易"),
        (
            ["I work at Atlassian on the Jira team", "my supervisor's taking a job in toronto from june"],
            "employer",
            "Atlassian",
        ),
    ],
    ids=["zh-plan", "en-a-job"],
)
def test_an_everyday_word_does_not_replace_the_organisation_held(
    mem_e5: Memory, clock: FixedClock, turns: list[str], key: str, held: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=45)
    assert active_values(mem_e5, key).get("user") == {held}, active_values(mem_e5, key)


@pytest.mark.parametrize(
    ("value", "said", "key", "plain"),
    [
        ("计划", "帮我做个三十天入职计划，表格形式", "employer", True),
        ("问题", "帮我列下要问医生的问题", "vet", True),
        ("一个月的小结", "帮我写一个月的小结", "employer", True),
        ("字节", "下周去字节面试，有点紧张", "employer", False),
        ("三只松鼠", "三只松鼠的年货礼盒卖爆了", "employer", False),
        ("年卡", "健身房年卡快到期了，续费报价4800", "gym", True),
        ("给自己咖啡店", "在给自己咖啡店做个会员小程序", "employer", True),
        ("job", "taking a job in toronto", "employer", True),
        ("Case studies", "Case studies are due friday", "mobile_carrier", True),
        ("my primary", "amara osei is taking over as my primary", "employer", True),
        ("june 😭 amara osei", "taking a job in toronto from june 😭 amara osei is", "employer", True),
        ("The Farmer's Dog", "started biscuit on The Farmer's Dog", "pet_food", False),
        ("小米", "我在小米上班三年了", "employer", False),
        ("腾讯", "腾讯的面试过了", "employer", False),
        ("渴望", "猫粮换成渴望了", "pet_food", False),
        ("Stripe", "just joined Stripe", "employer", False),
        ("monzo", "I bank with monzo", "bank", False),
    ],
)
def test_plain_word(value: str, said: str, key: str, plain: bool) -> None:
    assert plain_word(value, said, key) is plain


@pytest.mark.parametrize(
    ("value", "cut"),
    [
        ("华为P40用了四年", "华为P40"),
        ("小米15的电池", "小米15"),
        ("华为Mate60到手了", "华为Mate60"),
        ("比亚迪海豚", "比亚迪海豚"),
        ("2024年的计划", "2024年的计划"),
        ("iPhone 15 Pro", "iPhone 15 Pro"),
    ],
)
def test_a_chinese_model_name_stops_at_its_number(value: str, cut: str) -> None:
    assert model_name_only(value) == cut
