"""Closed kinds of value and values that name nothing, zh + en (``value_kinds``,
``model_gates.predicate`` / ``empty``, ``values.tech_shaped``, ``span_path.clause_cut``)."""

from __future__ import annotations

import pytest

from memquill.catalogue import load
from memquill.write.extract import values
from memquill.write.extract.model_gates import empty, predicate
from memquill.write.extract.span_path import clause_cut
from memquill.write.extract.value_kinds import (
    closed_list,
    condition_named,
    domain_kind,
    kind_of,
    kind_value,
    names_kind,
)


@pytest.mark.parametrize(
    ("key", "value", "said", "zh", "expected"),
    [
        ("pet", "dog", "Took the dog to the beach", False, None),
        ("pet", "dog", "I walked my neighbour's dog", False, None),
        ("pet", "cat", "everyone should own a cat", False, None),
        ("pet", "Pickle", "I have a gecko named Pickle", False, "gecko"),
        ("pet", "cats", "my sister has two cats", False, "cats"),
        ("pet", "香山", "周末带狗去爬了香山", True, None),
        ("pet", "猫", "要是能养只猫就好了", True, None),
        ("pet", "团子", "我家那只布偶叫团子", True, "布偶"),
        ("pet", "豆豆", "我养的柯基叫豆豆", True, "柯基"),
        ("beverage", "addictive", "Kakoune's selections are addictive", False, None),
        ("beverage", "oat lattes", "I usually drink oat lattes", False, "oat lattes"),
        ("beverage", "早上", "我早上一般来杯美式", True, "美式"),
        ("city", "Lisbon", "I live in Lisbon", False, "Lisbon"),
        # a diet is a diet word: "eating" and a blister are no diet (they were stored as one)
        ("diet", "eating", "Been eating vegan for three months now, feel great", False, "vegan"),
        ("diet", "blisters", "Three rowing sessions a week now, blisters everywhere", False, None),
        ("diet", "keto", "I quit keto last month", False, None),
        ("diet", "素食主义者", "我是素食主义者，蛋也不吃", True, "素食主义者"),
        ("diet", "最近", "最近开始生酮了，米饭一口不碰", True, "生酮"),
        ("diet", "晚饭", "晚饭随便吃点就行", True, None),
        # a diet a doctor asks for is a diet too (the list missed it, and the old diet stayed)
        ("diet", "尿酸", "体检说尿酸偏高，我现在开始低嘌呤饮食了", True, "低嘌呤饮食"),
        ("diet", "gout", "Doctor put me on a low-purine diet after the gout flare", False, "low-purine"),
    ],
)
def test_kind_value(key: str, value: str, said: str, zh: bool, expected: str | None) -> None:
    assert kind_value(key, value, said, zh) == expected


@pytest.mark.parametrize(
    ("value", "said", "expected"),
    [
        ("addictive", "Kakoune's multiple selections are addictive", True),
        ("tea", "my favourite drink is tea", False),
        ("漂亮", "那条裙子太漂亮了", True),
        ("爬山", "我很喜欢爬山", False),
    ],
)
def test_predicate(value: str, said: str, expected: bool) -> None:
    assert predicate(value, said) is expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("literally everyone", True),
        ("ugh", True),
        ("Italy", False),
        ("大家", True),
        ("一直", True),
        ("咖啡", False),
    ],
)
def test_empty(value: str, expected: bool) -> None:
    assert empty(value) is expected


def test_tech_shaped_names_the_lexicon_does_not_know() -> None:
    assert values.tech_shaped("数据库用的是TiDB，之前MySQL分库分表太折腾了", True) == ["TiDB", "MySQL"]
    assert "vanilla-extract" in values.tech_shaped("we style it with vanilla-extract, no Tailwind", False)


@pytest.mark.parametrize(
    ("value", "key", "zh", "expected"),
    [
        ("yerba mate a few months ago", "beverage", False, "yerba mate"),
        ("a retired pilot who restores boats", "occupation", False, "a retired pilot"),
        ("before 10am", "meeting_time", False, "before 10am"),
        ("连锁药店，单子都不大", "customers", True, "连锁药店"),
        ("先打tag，再点发布", "deploy_process", True, "先打tag，再点发布"),
    ],
)
def test_clause_cut(value: str, key: str, zh: bool, expected: str) -> None:
    attr = load().get(key)
    assert attr is not None
    assert clause_cut(value, attr, zh) == expected


def test_closed_list_takes_every_language_not_negated() -> None:
    attr = load().get("languages_spoken")
    assert attr is not None
    got = closed_list(attr, "我会说粤语，葡萄牙语也能聊几句", True, [("粤语", 0.5)])
    assert [v for v, _ in got] == ["粤语", "葡萄牙语"]
    got = closed_list(attr, "I speak English but not French", False, [("English", 0.5)])
    assert [v for v, _ in got] == ["English"]


def test_a_diet_word_in_a_liked_object_fills_no_diet_slot() -> None:
    # the diet kind constrains model readings only: "vegan burgers" is a food liked
    assert kind_of("vegan burgers") is None
    assert kind_of("Coke Zero") == ("beverage", "coke")


@pytest.mark.parametrize(
    ("value", "airline"),
    [
        ("United", True),
        ("Southwest", True),
        ("吉祥航空", True),
        ("东航", True),
        ("United States", False),
        ("the third time", False),
        ("a lot", False),
        ("Denver", False),
    ],
)
def test_an_airline_by_its_name(value: str, airline: bool) -> None:
    assert names_kind("airline", value) is airline


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("my airline changed my flight times for the third time", None),  # names no airline
        ("I fly a lot and Delta is my go-to these days", "Delta"),  # "a lot" is no LOT
        ("现在出差都坐东航了", "东航"),
    ],
)
def test_an_airline_reading_holds_an_airlines_name(said: str, value: str | None) -> None:
    zh = not said.isascii()
    assert kind_value("airline", said.split()[-1] if not zh else "出差", said, zh) == value


@pytest.mark.parametrize(
    ("key", "value", "said", "expected"),
    [
        (
            "employer",
            "Telstra",
            "Ok I've switched to Telstra, will porting my number break 2FA?",
            "mobile_carrier",
        ),
        (
            "employer",
            "TekSavvy",
            "so I switched to TekSavvy, how do I set up my own router?",
            "internet_provider",
        ),
        ("employer", "Telstra", "Telstra's internet keeps dropping, my phone is fine", "internet_provider"),
        ("employer", "电信", "家里宽带换成电信了，网速快多了", "internet_provider"),
        ("employer", "移动", "上周携号转网到移动了，流量便宜", "mobile_carrier"),
        ("sport", "United", "Flying United again, the open seating was chaos", "airline"),
        ("employer", "Telstra", "Telstra had record profits this year", None),  # no domain word
        ("employer", "Verizon", "I work at Verizon on the network team", None),  # its own domain word
        ("employer", "中国移动", "我在中国移动上班，做网络优化", None),
        ("employer", "Three", "three of us share a phone plan", None),  # cased: not as said
        ("mobile_carrier", "Optus", "switched my phone to Optus", None),  # already the kind's
    ],
)
def test_a_kind_word_in_its_domain_is_that_kind(
    key: str, value: str, said: str, expected: str | None
) -> None:
    """A closed kind's word in a clause that says one of its domain words fills the kind's
    attribute; two kinds claiming it (Telstra: phone and internet) go to the nearer word; a
    reading whose own attribute's words the clause says (``own_context``) keeps its attribute."""
    assert domain_kind(key, value, said) == expected


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("我老公在治肺癌，最近总跑医院。", True),
        ("I've got a bit of a betting habit I keep meaning to kick.", True),
        ("我没有糖尿病，只是体检血糖有点高。", False),  # negated
        ("I don't have diabetes, just watching my sugar.", False),
        ("今天好累，想早点睡。", False),
        ("I love cooking Thai food.", False),
    ],
)
def test_a_condition_is_named_only_when_said_and_not_denied(text: str, named: bool) -> None:
    assert condition_named(text) is named
