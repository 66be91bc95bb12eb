"""Two rules of the safety-critical predicate, in Chinese and English on both backends:

- someone else's diagnosis (a parent's Parkinson's) is that person's private matter, not the
  user's safety-critical fact: a hike, which bears on medical conditions, does not see it; a
  request naming that person does, and says why;
- a request the sensitivity head reads as bearing on the user's safety (a trip no cue word
  names) reaches the user's own safety-critical facts.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memquill import FixedClock, Memory
from tests.support.sessions import say


class Case(NamedTuple):
    turns: list[str]
    theirs: str  # in the relative's diagnosis
    outing: str  # bears on medical conditions, names nobody
    naming: str  # names the relative
    own: str  # in the user's own safety-critical fact
    trip: str  # a trip without a cue word of the situation table


CASES = [
    Case(
        [
            "我在一家设计院做桥梁结构工程师。",
            "我爸去年查出帕金森，现在手抖得厉害，医生让多做康复训练。",
            "我对花生严重过敏，随身带着肾上腺素笔。",
        ],
        "帕金森",
        "周六去爬山，帮我列一下要带的东西",
        "给我爸找点在家能做的锻炼",
        "花生",
        "春天去首尔四天，帮我规划一下",
    ),
    Case(
        [
            "I work as a bridge engineer at a design firm.",
            "My dad was diagnosed with Parkinson's last year and his hands shake a lot now.",
            "I'm severely allergic to peanuts and always carry an EpiPen.",
        ],
        "Parkinson",
        "Day hike on Saturday, what should I pack?",
        "Find some exercises my dad can do at home",
        "peanut",
        "Off to Seoul for four days in spring, help me map it out",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=["zh", "en"])
def test_a_relatives_diagnosis_opens_only_to_a_request_naming_them(
    mem_read: Memory, clock: FixedClock, case: Case
) -> None:
    say(mem_read, clock, case.turns, "s1")
    outing = mem_read.context(case.outing, user="u", budget_tokens=800)
    assert case.theirs not in outing.text, outing.text
    naming = mem_read.context(case.naming, user="u", budget_tokens=800)
    assert case.theirs in naming.text, naming.text
    why = [i.why.get("private", "") for i in naming.items if case.theirs in i.text]
    assert any("names father" in w for w in why), [(i.text, i.why) for i in naming.items]


@pytest.mark.parametrize("case", CASES, ids=["zh", "en"])
def test_a_request_read_as_bearing_on_safety_reaches_the_users_own_safety_facts(
    mem_read: Memory, clock: FixedClock, case: Case
) -> None:
    say(mem_read, clock, case.turns, "s1")
    trip = mem_read.context(case.trip, user="u", budget_tokens=800)
    assert case.own in trip.text, trip.text
    assert case.theirs not in trip.text, trip.text
    bio = mem_read.context("Write the release notes for version 3", user="u", budget_tokens=800)
    assert case.own not in bio.text, bio.text


PARTNER = [
    (
        ["我女朋友阿溪在一家法式甜品店当主厨。", "我在一家设计院做桥梁结构工程师。"],
        ["词典项目用 Python 3.12 和 SQLite。"],
        "甜品",
        "给词典加一个按词条搜索的功能，要支持模糊匹配",
        "给我女朋友挑个生日礼物",
    ),
    (
        ["My girlfriend Ana is head chef at a French patisserie.", "I work as a bridge engineer."],
        ["The dictionary project uses Python 3.12 and SQLite."],
        "patisserie",
        "Add fuzzy search by headword to the dictionary",
        "Pick a birthday present for my girlfriend",
    ),
]


@pytest.mark.parametrize(("personal", "work", "word", "task", "naming"), PARTNER, ids=["zh", "en"])
def test_a_standing_line_about_someone_else_stays_out_of_a_project_task(
    mem_modes: Memory,
    clock: FixedClock,
    personal: list[str],
    work: list[str],
    word: str,
    task: str,
    naming: str,
) -> None:
    say(mem_modes, clock, personal, "s1")
    say(mem_modes, clock, work, "s2", project="dict")
    ctx = mem_modes.context(task, user="u", project="dict", budget_tokens=800)
    assert word not in ctx.text, ctx.text
    mine = mem_modes.context(naming, user="u", budget_tokens=800)
    assert word in mine.text, mine.text
