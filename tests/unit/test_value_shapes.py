"""Values with a shape of their own and values that are no value of a slot, zh + en
(``value_shapes``, ``model_gates.only_time`` / ``foil`` / ``runs_on`` / ``acceptable``)."""

from __future__ import annotations

import pytest

from memquill.catalogue import load
from memquill.write.extract import value_shapes
from memquill.write.extract.model_gates import acceptable, foil, now_and_then, only_time, runs_on, usual
from memquill.write.extract.rules import _CLAUSES
from memquill.write.extract.span_scorer import bundled


@pytest.mark.parametrize(
    ("key", "text", "expected"),
    [
        ("height", "I'm 5 foot 6, so most hire bikes fit me", ["5 foot 6"]),
        ("height", "I'm 5'10\" in socks", ["5'10\""]),
        ("height", "I'm 168 cm tall", ["168 cm"]),
        ("height", "我身高一米八三，体重八十公斤", ["一米八三"]),
        ("height", "我儿子已经1米4了", ["1米4"]),
        ("height", "我身高175", []),  # a bare number is the number
        ("weight", "我身高一米八三，体重八十公斤", ["八十公斤"]),
        ("weight", "小外甥出生了，7斤1两", ["7斤1两"]),
        ("weight", "I'm around 11 stone", ["11 stone"]),
        ("weight", "down to 160 lbs!!", ["160 lbs"]),
        ("age", "我儿子今年6岁", []),  # an age keeps its bare number: no measure
    ],
)
def test_a_measurement_keeps_its_units(key: str, text: str, expected: list[str]) -> None:
    assert value_shapes.measured(key, text) == expected


@pytest.mark.parametrize(
    ("key", "text", "expected"),
    [
        ("film_tv", "我最爱的剧是《漫长的季节》，刷了好几遍", ["漫长的季节"]),
        ("reading", "最近在看《白夜行》和《解忧杂货店》", ["白夜行", "解忧杂货店"]),
        ("game", 'we play "Spirit Island" every Friday', ["Spirit Island"]),
        ("city", "我住在《繁花》里写的那条街", []),  # no work: no title
    ],
)
def test_titles_of_works(key: str, text: str, expected: list[str]) -> None:
    assert value_shapes.titles(key, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我侄女在南京外国语学校，住校", ["南京外国语学校"]),
        ("我儿子在育才小学读二年级", ["育才小学"]),
        (
            "我在上海交通大学医学院附属瑞金医院实习",
            ["上海交通大学", "上海交通大学医学院", "上海交通大学医学院附属瑞金医院"],
        ),
        ("我喜欢去学校跑步", []),  # a bare head word names no organisation
        # jieba joins the head to the next word ("银行利率"): the name still ends at the head
        ("房贷批下来了，宁波银行利率最低", ["宁波银行"]),
        ("银行利率又降了", []),
    ],
)
def test_chinese_organisations_by_their_head_word(text: str, expected: list[str]) -> None:
    assert value_shapes.zh_orgs(text) == expected


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [
        ("height", "I'm 5 foot 6, so most hire bikes fit me", "5 foot 6"),
        ("weight", "小外甥出生了！是个男孩，7斤1两", "7斤1两"),
        ("phone", "if I go missing call my brother, Sami Aziz, 07700 900123", "07700 900123"),
        ("film_tv", "我最爱的剧是《漫长的季节》，刷了好几遍", "漫长的季节"),
        ("game", "我和同事每周五都玩《卡坦岛》，桌游里最喜欢它", "卡坦岛"),
    ],
)
def test_the_ranker_keeps_a_shaped_value_whole(key: str, text: str, value: str) -> None:
    """Before: "5", "2", "204558", "前前后后看了三遍", "室友"."""
    ranker = bundled()
    assert ranker is not None
    attr = load().get(key)
    assert attr is not None
    zh = not text.isascii()
    assert ranker.pick_all(text, zh, attr)[0][0] == value


@pytest.mark.parametrize(
    ("value", "value_type", "key", "expected"),
    [
        ("March", "organisation", "previous_employer", True),
        ("three times a week", "text", "sport", True),
        ("spring", "tech", "stack:framework", True),
        ("两次", "text", "favorite_food", True),
        ("每天", "text", "hobby", True),
        ("朵朵", "person", "name", False),  # jieba's measure word, no time
        ("post office", "organisation", "previous_employer", False),
        ("afternoon", "text", "meeting_time", False),  # a time is this slot's value
        ("Friday night poker", "text", "hobby", False),
    ],
)
def test_a_time_alone_is_no_value_of_a_timeless_slot(
    value: str, value_type: str, key: str, expected: bool
) -> None:
    assert only_time(value, value_type, key) is expected


@pytest.mark.parametrize(
    ("value", "said", "expected"),
    [
        ("公交", "我每天骑电动车上班，比挤公交强多了", True),
        ("coffee", "I prefer tea over coffee", True),
        ("Vim", "I'd rather use Emacs than Vim", True),
        ("电动车", "我每天骑电动车上班，比挤公交强多了", False),
        ("tea", "I prefer tea over coffee", False),
        ("乌龙茶", "我比较爱喝乌龙茶", False),
    ],
)
def test_a_comparison_foil(value: str, said: str, expected: bool) -> None:
    assert foil(value, said) is expected


@pytest.mark.parametrize(
    ("value", "value_type", "expected"),
    [
        ("Leeds office is just", "place", True),
        ("ThinkPad是我2020年", "tech", True),
        ("Leeds", "place", False),
        ("max line length is 100", "text", False),  # free text may say something
    ],
)
def test_a_name_runs_on_into_a_clause(value: str, value_type: str, expected: bool) -> None:
    assert runs_on(value, value_type) is expected


def test_no_place_or_company_is_one_character() -> None:
    said = "我之前在美团干了两年"
    assert not acceptable("美", "organisation", "previous_employer", said, None)
    assert acceptable("美团", "organisation", "previous_employer", said, None)


@pytest.mark.parametrize(
    ("text", "value", "key", "expected"),
    [
        (
            "我一般晚上十一点半睡，早上七点起",
            "晚上十一点半睡",
            "sleep_schedule",
            "晚上十一点半睡，早上七点起",
        ),
        (
            "发布流程是先跑冒烟测试，再切一半流量",
            "先跑冒烟测试",
            "deploy_process",
            "先跑冒烟测试，再切一半流量",
        ),
        (
            "my new address is 18 Quarry Lane, Flat 2, Leeds",
            "18 Quarry Lane",
            "address",
            "18 Quarry Lane, Flat 2, Leeds",
        ),
        ("I work 8 to 4, Monday to Thursday", "8 to 4", "work_schedule", "8 to 4, Monday to Thursday"),
        # a remark about the value, or the alternative it is not, is no part of it
        ("幸福路8号2单元，以后快递都寄这里", "幸福路8号2单元", "address", "幸福路8号2单元"),
        ("我们周四发版，周三下班前封板，别拖", "周四发版", "release_schedule", "周四发版，周三下班前封板"),
        (
            "we release every Friday, QA signs off the day before",
            "every Friday",
            "release_schedule",
            "every Friday",
        ),
        ("we squash-merge, never rebase shared branches", "squash-merge", "convention:merge", "squash-merge"),
        ("分支策略是主干开发，不要开长期分支", "主干开发", "convention:branching", "主干开发"),
    ],
)
def test_a_value_said_in_parts_runs_on_through_parts_of_its_kind(
    text: str, value: str, key: str, expected: str
) -> None:
    assert value_shapes.through_parts(text, value, key) == expected


def test_which_values_are_said_in_parts() -> None:
    cat = load()
    parts = {a.key for a in cat.attributes if value_shapes.in_parts(a.key, a.memory_type, a.single)}
    assert {"sleep_schedule", "work_schedule", "deploy_process", "address"} <= parts
    assert not {"convention:naming", "city", "employer"} & parts  # lists and names stop at a comma


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("I love Iain M. Banks, I reread his books", "Iain M", "Iain M. Banks"),
        ("Dr. Patel is running the workshop", "Patel", "Dr. Patel"),
        ("I work with Sam", "Sam", "Sam"),
    ],
)
def test_a_name_keeps_its_initials_and_title(text: str, value: str, expected: str) -> None:
    assert value_shapes.whole_name(text, value) == expected


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("My name's Siobhan Ní Bhriain, and yes, nobody spells it right", "Bhriain", "Siobhan Ní Bhriain"),
        ("研究生去了University of Edinburgh", "University of", "University of Edinburgh"),
        ("we use Yarn Berry with Plug'n'Play", "Yarn", "Yarn Berry"),
        ("I'm moving to the Risk Platform team", "Platform team", "Risk Platform team"),
        ("a bakery in Stirling called Flour & Fury", "Flour", "Flour & Fury"),
        # a possessive, a sentence's first word, the speaker, a generic acronym end the run
        ("I work out of Stripe's Dublin office", "Dublin", "Dublin"),
        ("Tried Fleet for a week", "Fleet", "Fleet"),
        ("I'm Daniel, by the way", "Daniel", "Daniel"),
        ("we expose a GraphQL API", "GraphQL", "GraphQL"),
        ("Mike, Jess and I are going", "Jess", "Jess"),
        ("we meet on Tuesday", "Tuesday", "Tuesday"),
    ],
)
def test_a_name_is_the_whole_capitalised_run(text: str, value: str, expected: str) -> None:
    assert value_shapes.whole_name(text, value) == expected


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("The team offsite is March 5-7 in Lake Tahoe", "March 5", "March 5-7"),
        ("the offsite is March 12–14 in Tahoe", "March 12", "March 12–14"),
        ("I work four tens, 7 to 5:30", "7", "7 to 5:30"),
        ("我12月20号到1月3号休年假", "12月20号", "12月20号到1月3号"),
        ("每天十点到十二点开会", "十点", "十点到十二点"),
        ("I have 3 cats", "3", "3"),
        ("I was born in 1990 to parents who farmed", "1990", "1990"),
    ],
)
def test_a_range_keeps_its_second_end(text: str, value: str, expected: str) -> None:
    assert value_shapes.ranged(text, value) == expected


def test_an_accented_english_name_is_no_empty_value() -> None:
    said = "My name's Siobhan Ní Bhriain, and yes, nobody ever spells it right"
    assert acceptable("Siobhan Ní Bhriain", "person", "name", said, None)


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("my favourite author is Iain M. Banks", 1),
        ("the workshop is organised by Dr. Patel. She is great", 2),
        ("I moved. Then I left", 2),
    ],
)
def test_a_sentence_does_not_end_at_an_initial_or_a_title(text: str, parts: int) -> None:
    assert len(_CLAUSES.split(text)) == parts


@pytest.mark.parametrize(
    ("key", "text", "values"),
    [
        ("device", "I'm on a Galaxy S23 and an old Kindle Paperwhite", ["Galaxy S23", "Kindle Paperwhite"]),
        ("stack:monitoring", "监控用 Prometheus 和一个自建的 Grafana 面板", ["Prometheus", "Grafana"]),
    ],
)
def test_a_listed_name_is_the_name_not_its_neighbourhood(key: str, text: str, values: list[str]) -> None:
    """Before: "an old Kindle Paperwhite", "一个自建的 Grafana 面板"."""
    ranker = bundled()
    attr = load().get(key)
    assert ranker is not None and attr is not None
    assert [v for v, _ in ranker.pick_all(text, not text.isascii(), attr)] == values


@pytest.mark.parametrize(
    ("value", "said", "expected"),
    [
        ("Python", "我平时主要写Go，偶尔写点Python脚本", True),
        ("Go", "我平时主要写Go，偶尔写点Python脚本", False),
        ("coffee", "I mostly drink tea, sometimes coffee", True),
        ("tea", "I mostly drink tea, sometimes coffee", False),
    ],
)
def test_what_holds_now_and_then(value: str, said: str, expected: bool) -> None:
    assert now_and_then(value, said) is expected


@pytest.mark.parametrize(
    ("key", "text", "value", "zh", "expected"),
    [
        ("team", "got moved onto the Atlas team last spring", "Atlas", False, "Atlas team"),
        (
            "team",
            "I'm on the Checkout Platform squad, we own carts",
            "Checkout Platform",
            False,
            "Checkout Platform squad",
        ),
        ("team", "I'm on the payments team", "payments team", False, "payments team"),
        ("team", "我在美团的到店营销组，负责优惠券", "美团的到店营销", True, "到店营销组"),
        ("team", "我在支付组", "支付", True, "支付组"),
        ("city", "I live in Austin team town", "Austin", False, "Austin"),
    ],
)
def test_with_head(key: str, text: str, value: str, zh: bool, expected: str) -> None:
    """A team keeps the word that says it is one; a Chinese team drops its organisation."""
    assert value_shapes.with_head(key, text, value, zh) == expected


@pytest.mark.parametrize(
    ("value", "said", "expected"),
    [
        ("Go", "我平时主要写Go，偶儿写点Python", True),
        ("Python", "我平时主要写Go，偶儿写点Python", False),
        ("Haskell", "I mostly write Haskell at work, Bash for glue", True),
        ("Bash", "I mostly write Haskell at work, Bash for glue", False),
    ],
)
def test_usual(value: str, said: str, expected: bool) -> None:
    """The value said as the usual one, in its own part of the clause; not one after it."""
    assert usual(value, said) is expected


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("use 24-hour time please", "24", "24-hour"),
        ("I listen to lo-fi hip hop when I work", "lo", "lo-fi"),
        ("I train Brazilian jiu-jitsu twice a week", "jitsu", "jiu-jitsu"),
        ("我练巴西柔术，英文叫jiu-jitsu", "jiu", "jiu-jitsu"),
        ("我用Wi-Fi 6路由器", "Wi", "Wi-Fi"),
        ("I'm a full-stack developer", "full-stack developer", "full-stack developer"),  # whole already
        ("我住在杭州", "杭州", "杭州"),  # no hyphen: unchanged
    ],
)
def test_a_value_does_not_end_inside_a_hyphenated_word(text: str, value: str, expected: str) -> None:
    assert value_shapes.joined(text, value) == expected


@pytest.mark.parametrize(
    ("key", "text", "value", "expected"),
    [
        ("device", "My laptop is a ThinkPad X1 Carbon, love it", "ThinkPad X1", "ThinkPad X1 Carbon"),
        ("device", "我的手机是Pixel 8 Pro用了两年", "Pixel 8", "Pixel 8 Pro"),
        ("device", "我买了台Mac mini放在家里", "Mac", "Mac mini"),
        ("vehicle", "I drive a Toyota Corolla Hybrid", "Toyota Corolla", "Toyota Corolla Hybrid"),
        ("device", "I got a MacBook Pro 2021 I think", "MacBook", "MacBook Pro"),  # a year is no model
        ("device", "My iPad Air I use for notes", "iPad Air", "iPad Air"),  # "I" is no model part
        ("employer", "I work at Acme Pro now", "Acme", "Acme"),  # no product attribute
    ],
)
def test_a_model_name_keeps_its_parts(key: str, text: str, value: str, expected: str) -> None:
    assert value_shapes.model_name(key, text, value) == expected


@pytest.mark.parametrize(
    ("value", "expected"), [("24-hour", False), ("24 hours", True), ("twice-weekly", False)]
)
def test_a_hyphenated_compound_is_no_time_alone(value: str, expected: bool) -> None:
    assert only_time(value, "enum", "units") is expected


@pytest.mark.parametrize(
    ("value", "out"),
    [
        ("old Kindle Paperwhite", "Kindle Paperwhite"),
        ("new Pixel 9", "Pixel 9"),
        ("spare ThinkPad X1", "ThinkPad X1"),
        ("New Balance", "New Balance"),
        ("Old Navy", "Old Navy"),
        ("old friend", "old friend"),
    ],
)
def test_a_lowercase_qualifier_is_no_part_of_a_name(value: str, out: str) -> None:
    assert value_shapes.unqualified(value) == out


@pytest.mark.parametrize(
    ("value", "said", "ok"),
    [
        ("直接打电话", "回来以后钉钉群都退了，急事直接打电话，文字消息我经常漏看。", False),
        ("call me", "in an emergency just call me, not my wife", False),
        ("我妈", "紧急联系人填我妈", True),
        ("小刘", "紧急联系人是小刘", True),
        ("Dana", "my emergency contact is Dana", True),
    ],
)
def test_a_person_valued_attribute_takes_someone_not_an_action(value: str, said: str, ok: bool) -> None:
    assert acceptable(value, "person", "emergency_contact", said, None) is ok


def test_a_conjunct_the_ranker_ended_early_becomes_the_whole_name_starting_in_it() -> None:
    from memquill.write.extract.span_features import Span
    from memquill.write.extract.span_scorer import _named_inside

    text = "I'm on a Galaxy S23 and an old Kindle Paperwhite"
    at = text.index("an old Kindle")
    cut = Span(at, at + len("an old Kindle"), "an old Kindle", -1, -1)
    assert _named_inside(cut, ["Galaxy S23", "Kindle Paperwhite"], text).text == "Kindle Paperwhite"
    zh = "监控用 Prometheus 和一个自建的 Grafana 面板"
    at = zh.index("一个自建的 Graf")
    part = Span(at, at + len("一个自建的 Graf"), "一个自建的 Graf", -1, -1)
    assert _named_inside(part, ["Prometheus", "Grafana"], zh).text == "Grafana"
    before = Span(0, 4, "I'm ", -1, -1)
    assert _named_inside(before, ["Galaxy S23"], text) == before  # no name starts inside it


@pytest.mark.parametrize(
    ("value", "school"),
    [
        ("Maple Grove Montessori", True),
        ("Lincoln Elementary", True),
        ("蒲公英幼儿园", True),
        ("育才中学", True),
        ("幼儿园", False),  # the head alone names no school
        ("High", False),
        ("Portland", False),
        ("望京", False),
    ],
)
def test_a_school_by_its_head_word(value: str, school: bool) -> None:
    assert value_shapes.names_school(value) is school


@pytest.mark.parametrize(
    ("value", "said", "near"),
    [
        ("Lincoln Elementary", "I live near Lincoln Elementary", True),
        ("实验小学", "我家就在实验小学旁边", True),
        ("育才中学", "我家靠近育才中学", True),
        ("Maple Grove Montessori", "moving Maya to Maple Grove Montessori", False),
        ("蒲公英幼儿园", "新的叫蒲公英幼儿园，离我家近", False),
    ],
)
def test_a_place_said_as_a_landmark(value: str, said: str, near: bool) -> None:
    assert value_shapes.landmark(value, said) is near
