"""A condition is a condition, whatever the clause was read as (zh + en, every backend, with the
attribute model, the default): "老婆在治乳腺癌" is the wife's breast cancer, not her occupation
"治乳腺癌"; "以前得过乙肝" is a hepatitis B, not a medication; "my husband is fighting lymphoma"
is his lymphoma, not a sport "fighting".

Before: such clauses stored the condition as a job, a medicine or a pastime — a medication
or a job is shown in every context block as the user's or a relative's standing fact, so a
private diagnosis rode along into a trip or a gift request (a context tuning set's leaks),
and "what does my wife do" would have answered "治乳腺癌". The condition's names are data
(``data/value_kinds.json``, kind ``medical_condition``): a reading whose value ends with one,
or is only a word of treating one, in a clause about health, is that condition."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import held, say

HEALTH = ("medical_condition", "medication", "allergy")
OTHER = ("occupation", "employer", "industry", "sport", "hobby", "medication")

CONDITIONS = [
    ("老婆在治乳腺癌，最近老往医院跑。", "person:wife", "乳腺癌"),
    ("以前得过乙肝，治疗过。", "user", "乙肝"),
    ("我爸在做化疗，肺癌中期", "person:father", "肺癌"),
    ("my husband is fighting lymphoma, chemo every two weeks", "person:husband", "lymphoma"),
]


@pytest.mark.parametrize(
    ("turn", "subject", "condition"),
    CONDITIONS,
    ids=["zh-wife-treated", "zh-had-once", "zh-father-chemo", "en-husband-fighting"],
)
def test_a_condition_read_as_another_attribute_is_the_condition(
    mem_e5: Memory, clock: FixedClock, turn: str, subject: str, condition: str
) -> None:
    say(mem_e5, clock, [turn], "s0")
    kept = held(mem_e5, HEALTH + OTHER)
    assert (subject, "medical_condition", condition) in kept, kept
    assert not [h for h in kept if h[0] == subject and h[1] in OTHER], kept


@pytest.mark.parametrize(
    ("turn", "key", "value"),
    [
        ("我在肿瘤医院上班，是护士", "employer", "肿瘤医院"),  # a hospital named by what it treats
        ("I work as a diabetes educator at Mercy Hospital", "occupation", "diabetes educator"),
        ("我妈有糖尿病，一直在吃二甲双胍", "medication", "二甲双胍"),  # a medicine stays one
    ],
    ids=["zh-hospital", "en-job", "zh-medicine"],
)
def test_a_value_named_by_a_condition_keeps_its_attribute(
    mem_e5: Memory, clock: FixedClock, turn: str, key: str, value: str
) -> None:
    say(mem_e5, clock, [turn], "s0")
    assert any(k == key and v == value for _, k, v in held(mem_e5, (key,))), held(mem_e5, HEALTH + OTHER)
