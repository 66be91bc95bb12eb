"""Private but not safety-critical: the sensitive flag, discretion cues and what opens them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memquill.catalogue import load
from memquill.model import MemoryRecord, MemoryType, Scope, Source
from memquill.retrieve import attributes
from memquill.retrieve.confided import CONFIDED, Request, about, discreet, turn_labels
from memquill.retrieve.privacy import shown_because
from memquill.text import query_terms

NOW = datetime(2026, 11, 29, tzinfo=UTC)


def rec(content: str, key: str, evidence: list[str], type_: MemoryType = MemoryType.FACT) -> MemoryRecord:
    return MemoryRecord(
        id=f"m-{key}-{hash(content) % 999}",
        type=type_,
        scope=Scope(user="u"),
        subject="user",
        key=key,
        content=content,
        confidence=0.9,
        source=Source.EXPLICIT,
        evidence=evidence,
        created_at=NOW,
        updated_at=NOW,
    )


def test_sensitive_is_catalogue_data_and_apart_from_safety_critical() -> None:
    strict = {a.key: a for a in load().attributes}
    read = attributes.bundled().attributes
    for key in ("salary", "marital_status", "religion"):
        assert strict[key].sensitive and read[key].sensitive
        assert not strict[key].safety_critical
    assert not read["allergy"].sensitive and read["allergy"].safety_critical
    assert not read["occupation"].sensitive


@pytest.mark.parametrize(
    ("text", "private"),
    [
        ("这事你知道就行，别跟别人提。", True),
        ("我是做前端开发的，月薪两万五，这个别跟我同事说。", True),
        ("我们领导完全不知道。", True),
        ("Keep that between us.", True),
        ("My boss doesn't know yet.", True),
        ("Don't tell my sister.", True),
        ("别跟我客气，直接说。", False),
        ("I don't know yet which hotel we'll pick.", False),
        ("She doesn't know how to swim.", False),
        ("We sent the kids to a private school.", False),
        # someone in the user's life not knowing is the user keeping it from them
        ("Started dating Marco in June; my parents have no idea.", True),
        ("Sent off an application to the museum, manager doesn't know.", True),
        ("我在偷偷考研，爸妈还不知道。", True),
        ("My boss has no idea how Kubernetes works.", False),
        ("My dad doesn't know what a podcast is.", False),
        ("老板不知道怎么想的，又改需求了。", False),
    ],
)
def test_discretion_cues_in_both_languages(text: str, private: bool) -> None:
    assert discreet(text) is private


@pytest.mark.parametrize(
    ("content", "bears_on", "query", "shown"),
    [
        ("用户月薪两万五。", {"self_intro"}, "帮我写一段自我介绍", False),
        ("用户月薪两万五。", {"salary"}, "帮我算算每个月能存多少", True),
        ("The user's salary is 41k.", set(), "Draft a short bio for the website", False),
        # named: two of the request's own words are in it
        ("The user's salary is 41k.", set(), "Is a 41k salary fair for a nurse?", True),
    ],
)
def test_a_sensitive_record_needs_the_request_to_bear_on_it_or_name_it(
    content: str, bears_on: set[str], query: str, shown: bool
) -> None:
    r = rec(content, "salary", ["e1"])
    request = Request.of(query, bears_on, query_terms(query), [])
    assert (shown_because(r, request) is not None) is shown
    assert shown_because(rec("用户是护士。", "occupation", ["e2"]), request) == ""  # not private at all


def _episode(turns: list[tuple[str, str]]) -> MemoryRecord:
    ep = rec(" ".join(t for _, t in turns), "episode:e", [e for e, _ in turns], MemoryType.EPISODE)
    ep.attributes["statements"] = [{"text": t, "event": e} for e, t in turns]
    return ep


@pytest.mark.parametrize(
    ("turn", "other", "trip", "unrelated"),
    [
        (
            "我爸有早期阿尔茨海默，出门得有人跟着，这事我没跟外人讲。",
            "我周末喜欢钓鱼。",
            "下个月带我爸去杭州玩，帮我规划一下",
            "给我推荐一周的晚饭菜单",
        ),
        (
            "My dad has early dementia and needs someone with him. I don't talk about it much.",
            "I like fishing at the weekend.",
            "I'm taking my dad to the coast next month, plan the trip",
            "Suggest a week of dinners",
        ),
    ],
)
def test_a_confided_fact_about_a_parent_opens_only_to_a_request_naming_them(
    turn: str, other: str, trip: str, unrelated: str
) -> None:
    ep = _episode([("e1", turn), ("e2", other)])
    assert turn_labels(ep) == {turn: frozenset({CONFIDED})}
    fact = rec(turn, "medical_condition", ["e1"])
    fact = fact.model_copy(update={"subject": "person:father"})
    # a meal bears on medical conditions, a trip too; only the trip names the father
    for query, shown in ((trip, True), (unrelated, False)):
        request = Request.of(query, {"medical_condition"}, query_terms(query), [ep])
        assert request.labels(fact, attributes.attribute_of(fact)) >= {CONFIDED, "medical_condition"}
        assert (shown_because(fact, request) is not None) is shown, query
        assert request.labels(ep, attributes.attribute_of(ep)) == frozenset()  # episodes are trimmed instead


def test_a_listener_named_by_place_or_a_telling_not_yet_done_is_a_cue() -> None:
    from memquill.retrieve.confided import discreet

    assert discreet("Had a second interview today, nobody at the yard knows I'm looking")
    assert discreet("No one in the band knows yet")
    assert discreet("怀孕十周了，学校那边我还没说")
    assert discreet("这事我还没跟我妈讲")
    assert not discreet("我还没说完呢")
    assert not discreet("周末去哪还没说好")
    assert not discreet("Nobody knew the answer at the quiz")


@pytest.mark.parametrize(
    ("text", "whose"),
    [
        ("Gran was diagnosed with early-stage Parkinson's, so we're adjusting to that.", "grandmother"),
        ("Grandad's knee op is on Friday.", "grandfather"),
        ("外祖母上个月住院了，还在观察。", "grandmother"),
    ],
)
def test_a_grandparent_said_the_family_way_is_theirs(text: str, whose: str) -> None:
    assert about(text) == frozenset([whose])


@pytest.mark.parametrize(
    ("query", "text", "named"),
    [
        # "月" (of "这个月" and of the date) and "做" are no names: a budget is not about chemo
        (
            "这个月想控制开销，帮我做个简单的预算表",
            "2026年9月3日请了半天假陪我妈去医院做化疗，整个人都很累。",
            False,
        ),
        ("帮我给猫约个医生", "猫每天都要吃药，是医生开的。", True),  # one-character nouns still name
        ("帮我做个还款计划", "信用卡还款压力很大，每个月都在做计划。", True),
        ("Is a 41k salary fair for a nurse?", "The user's salary is 41k.", True),
    ],
)
def test_a_one_character_chinese_word_names_only_as_a_noun(query: str, text: str, named: bool) -> None:
    assert Request.of(query, set(), query_terms(query), []).named(text) is named
