"""Routing cases the router missed on text nobody had seen (issue #11, dev9): a bank and a gym
had no slot; a data-store question said "we" but named no project; a word-overlap route
("living" in an occupation form) came before the learned reading; "what car do I drive" may
be stated as the user's ``vehicle`` or as the car's ``model``; "US" was read as "us" (zh + en)."""

from __future__ import annotations

import pytest

from memquill.catalogue import load
from memquill.retrieve import asked


def test_bank_and_gym_are_catalogue_slots_of_users_and_people() -> None:
    for key in ("bank", "gym"):
        attr = load().get(key)
        assert attr is not None and attr.single
        assert load().allows(key, "user") and load().allows(key, "person:father")
        assert attr.questions.en and attr.questions.zh


@pytest.mark.parametrize(
    ("query", "slot"),
    [
        ("which bank holds my current account these days?", ("user", "bank")),
        ("我现在的工资卡是哪家银行", ("user", "bank")),
        ("which bank does my dad keep his money at", ("person:father", "bank")),
        ("我爸现在用哪家银行", ("person:father", "bank")),
        ("what gym am I going to at the moment", ("user", "gym")),
        ("我最近在哪个健身房锻炼", ("user", "gym")),
    ],
)
def test_bank_and_gym_questions_reach_their_slot(route_with_model, query: str, slot: tuple[str, str]) -> None:  # type: ignore[no-untyped-def]
    assert route_with_model(query)[0] == slot


@pytest.mark.parametrize("query", ["what database are we using for orders now?", "我们现在的数据库用的啥"])
def test_a_data_store_question_speaking_for_a_group_reaches_the_project(route_with_model, query: str) -> None:  # type: ignore[no-untyped-def]
    assert ("project", "stack:database") in route_with_model(query)


@pytest.mark.parametrize(
    "query", ["Keybindings you suggest should be for which tool?", "你建议的快捷键该按哪个工具来配？"]
)
def test_a_project_key_read_without_a_group_stays_out(route_with_model, query: str) -> None:  # type: ignore[no-untyped-def]
    assert not any(subject.startswith("project") for subject, _ in route_with_model(query))


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("what time do I usually start and finish work", "work_schedule"),  # word overlap: "occupation"
        ("我一般几点上班几点下班", "work_schedule"),
    ],
)
def test_the_learned_reading_comes_before_word_overlap(route_with_model, query: str, first: str) -> None:  # type: ignore[no-untyped-def]
    assert route_with_model(query)[0] == ("user", first)


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("what car do I drive now", "item:car"),
        ("我现在开的啥车", "item:车"),
        ("what model is my car", "item:car"),
        ("我的车是什么型号", "item:车"),
    ],
)
def test_the_readers_vehicle_and_the_cars_model_are_asked_together(
    route_with_model, query: str, item: str
) -> None:  # type: ignore[no-untyped-def]
    slots = route_with_model(query)
    assert ("user", "vehicle") in slots and (item, "model") in slots


@pytest.mark.parametrize("query", ["what car does my dad drive", "我爸开什么车"])
def test_a_relatives_car_is_not_the_readers(route_with_model, query: str) -> None:  # type: ignore[no-untyped-def]
    slots = route_with_model(query)
    assert ("person:father", "vehicle") in slots
    assert not any(subject.startswith("item:") or subject == "user" for subject, _ in slots)


def test_belonging_slots_pair_by_language() -> None:
    assert asked.belonging_slots("user", "vehicle", zh=False) == (("item:car", "model"),)
    assert asked.belonging_slots("user", "vehicle", zh=True) == (("item:车", "model"),)
    assert asked.belonging_slots("item:车", "model", zh=True) == (("user", "vehicle"),)
    assert asked.belonging_slots("person:father", "vehicle", zh=False) == ()
    assert asked.belonging_slots("item:dog", "model", zh=False) == ()


@pytest.mark.parametrize(
    ("query", "group"),
    [("which DB are we on", True), ("咱们组CI用的啥", True), ("我们订单库跑在啥上面", True),
     ("which DB do I use", False), ("我用的什么库", False), ("Which US states might Tim be in?", False)],
)  # fmt: skip
def test_speaking_for_a_group(query: str, group: bool) -> None:
    assert asked.for_group(query) is group


@pytest.mark.parametrize(
    "query",
    [
        "Which US states might Tim be in during September 2023?",
        "When did Caroline go to the LGBTQ support group?",
    ],
)
def test_locomo_style_questions_reach_no_readers_slot(route_with_model, query: str) -> None:  # type: ignore[no-untyped-def]
    assert not asked.about_reader(query)
    assert not any(subject == "user" for subject, _ in route_with_model(query))


@pytest.mark.parametrize(
    ("query", "item"),
    [("我那辆车是什么牌子", "item:车"), ("停车场找不到车了，我车是什么颜色来着", "item:车"),
     ("我那台笔记本什么型号", "item:笔记本"), ("what colour is my car again", "item:car")],
)  # fmt: skip
def test_a_belonging_named_with_a_measure_word_or_bare_is_the_readers(query: str, item: str) -> None:
    assert asked.owned_item(query)[0] == item


@pytest.mark.parametrize("query", ["我妈的车是什么车", "我开车去哪上班"])
def test_someone_elses_car_or_driving_is_no_owned_car(query: str) -> None:
    assert asked.owned_item(query) == ()
