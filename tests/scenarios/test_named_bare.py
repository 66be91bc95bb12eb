"""People and pets named bare: a clause that opens with someone's name and says nothing of the
speaker is about them ("果果吃芒果会过敏", "小杨在超级猩猩办了次卡", "Bailey eats Purina Pro
Plan"), so the fact is theirs — never the user's — and a question naming them is answered
from it. Someone who only speaks ("老周说下周二要开会", "Tom reckons…") gets nothing (Chinese
and English, both backends).

Before: a Chinese nickname or doubled name opening a clause was read as the user's ("用户果果
吃芒果会过敏" — an allergy the user does not have), a brand read by the kind rules was the
user's whoever opened the clause, and a pet known only by its name lost its food to the user."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from tests.support.sessions import held, say

THEIRS = [  # (turn, whose, key, value): read by the attribute model
    ("果果吃芒果会过敏，嘴巴一圈都红", "person:果果", "allergy", "芒果"),
    ("悦悦下学期转到玳瑁湾小学", "person:悦悦", "school", "玳瑁湾小学"),
    ("上周老周查出来痛风了，医生让他少喝啤酒", "person:老周", "medical_condition", "痛风"),
    (
        "Bailey eats Purina Pro Plan, is that ok for an older dog?",
        "item:Bailey",
        "pet_food",
        "Purina Pro Plan",
    ),
    ("Theo moved to Brookfield Elementary in the fall", "person:Theo", "school", "Brookfield Elementary"),
]


def _theirs_alone(mem: Memory, clock: FixedClock, turn: str, whose: str, key: str, value: str) -> None:
    """The turn leaves ``value`` under ``whose`` and no record of ``key`` under the user."""
    say(mem, clock, [turn], "s1")
    found = held(mem, (key,))
    assert (whose, key, value) in found, found
    assert all(s != "user" for s, _, _ in found), found  # the user is not allergic to mango


@pytest.mark.parametrize(("turn", "whose", "key", "value"), THEIRS)
def test_a_fact_about_someone_named_bare_is_theirs_not_the_users(
    mem_e5: Memory, clock: FixedClock, turn: str, whose: str, key: str, value: str
) -> None:
    _theirs_alone(mem_e5, clock, turn, whose, key, value)


RULED = [  # (turn, whose, key, value): read by the kind rules, with or without the model
    ("小杨在超级猩猩办了次卡，一周练三回", "person:小杨", "gym", "超级猩猩"),
    ("Leo banks with Monzo now, says the app is way better", "person:Leo", "bank", "Monzo"),
]


@pytest.mark.parametrize(("turn", "whose", "key", "value"), RULED)
def test_a_brand_read_of_someone_named_bare_is_theirs(
    mem_modes: Memory, clock: FixedClock, turn: str, whose: str, key: str, value: str
) -> None:
    _theirs_alone(mem_modes, clock, turn, whose, key, value)


@pytest.mark.parametrize(
    ("turn", "question", "value"),
    [
        ("果果吃芒果会过敏，嘴巴一圈都红", "果果对什么过敏？", "芒果"),
        ("小杨在超级猩猩办了次卡，一周练三回", "小杨在哪家健身房练？", "超级猩猩"),
        (
            "Bailey eats Purina Pro Plan, is that ok for an older dog?",
            "what food is Bailey on?",
            "Purina Pro Plan",
        ),
    ],
    ids=["zh-allergy", "zh-gym", "en-pet-food"],
)
def test_a_question_naming_them_is_answered_from_their_record(
    mem_e5: Memory, clock: FixedClock, turn: str, question: str, value: str
) -> None:
    say(mem_e5, clock, [turn, "nice weather today" if question.isascii() else "天气不错"], "s1")
    top = mem_e5.search(question, user="u", k=1)[0].memory
    assert top.value == value and top.subject != "user", (top.subject, top.key, top.value)


@pytest.mark.parametrize(
    ("turn", "name"),
    [
        ("老周说下周二要开会，让我先把材料准备好", "老周"),
        ("Tom reckons the bus strike will drag on into next week", "Tom"),
    ],
    ids=["zh-reported", "en-opinion"],
)
def test_someone_who_only_speaks_gets_no_record(
    mem_e5: Memory, clock: FixedClock, turn: str, name: str
) -> None:
    say(mem_e5, clock, [turn], "s1")
    theirs = [r for r in mem_e5.records(user="u", statuses=["active", "candidate"]) if name in r.subject]
    assert not theirs, [(r.subject, r.key, r.value) for r in theirs]
