"""A change that names the held value it leaves takes that slot: "现在改去一兆韦德了 乐刻太挤",
"ditched telstra for Optus", "went back to telstra, optus coverage was rubbish", "moved
everything from anz to ING" — no attribute word, often a value no lexicon types, but the value
left is what an open record holds, so the new one is that slot's (zh + en, every backend,
rules only and with the attribute model). Someone else's change, a held value kept beside a
change, or a trip from the city the user lives in changes nothing.

Before: the gym and the carrier stayed the old value ("改去" was no change cue, lower-case
"telstra" no carrier), "ditched telstra for Optus" ended Telstra and stored nothing new, and a
restated held value in the same turn ("optus coverage was rubbish") kept it current."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, say_apart, switched_and_answered

SWAPS = [
    (
        ["我在乐刻办了月卡，一般下班去", "现在改去一兆韦德了 乐刻太挤"],
        "我现在去哪个健身房",
        "gym",
        "一兆韦德",
    ),
    (
        ["我家宽带是电信的，用了好几年", "电信宽带太慢 前几天换去了长城宽带 速度还行"],
        "家里宽带现在是哪家的",
        "internet_provider",
        "长城宽带",
    ),
    (
        ["my phone plan is with Telstra", "ditched telstra for Optus last week, how do I check my data"],
        "who's my phone carrier now",
        "mobile_carrier",
        "Optus",
    ),
    (
        ["my phone's with Optus", "went back to telstra, optus coverage was rubbish out west"],
        "who's my phone carrier now",
        "mobile_carrier",
        "Telstra",
    ),
    (
        ["my bank is ANZ", "moved everything from anz to ING last month, no fees"],
        "which bank am I with now",
        "bank",
        "ING",
    ),
]


@pytest.mark.parametrize(
    ("turns", "question", "key", "now"),
    SWAPS,
    ids=["zh-gym-by-改去", "zh-broadband-by-换去", "en-ditched-for", "en-back-to-lower-case", "en-from-to"],
)
def test_a_change_naming_the_held_value_takes_its_slot(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, key: str, now: str
) -> None:
    switched_and_answered(mem_e5, clock, turns, question, key, now)


@pytest.mark.parametrize(
    ("turns", "question", "key", "now"), [SWAPS[0], SWAPS[3]], ids=["zh-gym", "en-carrier"]
)
def test_a_change_naming_the_held_value_in_both_modes(
    mem_modes: Memory, clock: FixedClock, turns: list[str], question: str, key: str, now: str
) -> None:
    switched_and_answered(mem_modes, clock, turns, question, key, now)


@pytest.mark.parametrize(
    ("turns", "key", "held"),
    [
        (["我手机是联通的卡", "我弟把联通换成了电信 他说信号好"], "mobile_carrier", "联通"),
        (
            ["I'm with Telstra for my phone", "my brother dumped Telstra for Optus, won't shut up about it"],
            "mobile_carrier",
            "Telstra",
        ),
        (
            [
                "I live in Sydney and my phone's with Telstra",
                "moved to Melbourne last month, still with Telstra though",
            ],
            "mobile_carrier",
            "Telstra",
        ),
        (["I live in Sydney", "flew from sydney to Perth for a conference, any food tips"], "city", "Sydney"),
    ],
    ids=["zh-brother-switched", "en-brother-switched", "en-kept-beside-a-move", "en-trip-from-home"],
)
def test_a_held_value_named_beside_another_stays(
    mem_e5: Memory, clock: FixedClock, turns: list[str], key: str, held: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=45)
    assert active_values(mem_e5, key).get("user") == {held}, active_values(mem_e5, key)


@pytest.mark.parametrize(
    ("role", "text"),
    [
        ("assistant", "Noted: you ditched telstra for Optus."),
        ("tool", "account note: 乐刻 → 一兆韦德 改去一兆韦德了"),
    ],
    ids=["assistant", "tool"],
)
def test_an_assistant_or_tool_turn_swaps_nothing(
    mem_e5: Memory, clock: FixedClock, role: str, text: str
) -> None:
    say_apart(mem_e5, clock, ["my phone plan is with Telstra", "我在乐刻办了月卡"], gap_days=30)
    clock.advance(minutes=3)
    mem_e5.add(text, role=role, user="u", session="s9")
    mem_e5.end_session(user="u", session="s9")
    mem_e5.flush()
    assert active_values(mem_e5, "mobile_carrier").get("user") == {"Telstra"}
    assert active_values(mem_e5, "gym").get("user") == {"乐刻"}


def test_a_swap_changes_only_its_own_users_record(mem_e5: Memory, clock: FixedClock) -> None:
    for user in ("u", "v"):
        clock.advance(minutes=3)
        mem_e5.add("my phone plan is with Telstra", user=user, session=f"{user}0")
        mem_e5.end_session(user=user, session=f"{user}0")
    mem_e5.flush()
    clock.advance(days=30)
    mem_e5.add("ditched telstra for Optus last week", user="v", session="v1")
    mem_e5.end_session(user="v", session="v1")
    mem_e5.flush()
    assert active_values(mem_e5, "mobile_carrier", "u").get("user") == {"Telstra"}
    assert active_values(mem_e5, "mobile_carrier", "v").get("user") == {"Optus"}


@pytest.mark.parametrize(
    ("turns", "question", "now"),
    [
        (
            ["我的牙医是李医生，在口腔医院", "李医生退休了 现在换成周医生看了"],
            "我现在看牙找哪个医生",
            "周医生",
        ),
        (
            ["my dentist is Dr Nguyen in Parramatta", "switched from dr nguyen to Dr Patel, closer to work"],
            "who's my dentist these days?",
            "Dr Patel",
        ),
    ],
    ids=["zh-dentist", "en-dentist"],
)
def test_a_change_naming_the_person_held_names_the_new_one(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, now: str
) -> None:
    switched_and_answered(mem_e5, clock, turns, question, "name", now)


def test_the_manager_named_in_a_change_is_replaced(mem_e5: Memory, clock: FixedClock) -> None:
    say_apart(mem_e5, clock, ["我们组长是老周，人挺好", "老周调去北京了 现在组长换成陈姐了"], gap_days=45)
    assert active_values(mem_e5, "name").get("person:manager") == {"陈姐"}, active_values(mem_e5, "name")


@pytest.mark.parametrize(
    "turns",
    [
        ["my sister Amy lives nearby", "switched from amy to Beth for the school run, amy's too busy"],
        ["我同事小林人很好", "项目从小林换成小王负责了"],
    ],
    ids=["en-family", "zh-one-of-several"],
)
def test_a_name_of_family_or_of_one_of_several_is_not_swapped(
    mem_e5: Memory, clock: FixedClock, turns: list[str]
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=45)
    names = {v for vs in active_values(mem_e5, "name").values() for v in vs}
    assert {"Amy", "小林"} & names, active_values(mem_e5, "name")


def test_forgetting_a_swapped_value_erases_it_and_its_turn(mem_e5: Memory, clock: FixedClock) -> None:
    say_apart(
        mem_e5, clock, ["my phone plan is with Telstra", "ditched telstra for Optus last week"], gap_days=30
    )
    swapped = [r for r in mem_e5.records(user="u", statuses=["active"]) if r.key == "mobile_carrier"]
    assert [r.value for r in swapped] == ["Optus"]
    mem_e5.forget(swapped[0].id)
    mem_e5.flush()  # the worker re-reads nothing: the turn is tombstoned with the record
    values = [r.value for r in mem_e5.records(user="u", statuses=None) if r.key == "mobile_carrier"]
    assert "Optus" not in values, values
    assert not any(
        "Optus" in h.memory.content for h in mem_e5.search("who's my phone carrier now", user="u", k=5)
    )
