"""A safety need the classifier is unsure of, Chinese and English, both backends: "an
adrenaline pen always in my bag" reads as a medication at 0.2, below the bar that names a
sentence's attribute, while the sensitivity head calls it a safety need. It is still that
attribute's line: a profile line for a trip (which bears on medications), cut from the
episodes a code task is shown. It was no one's line: never in the profile, never cut."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memquill import FixedClock, Memory
from tests.support.sessions import say


class Case(NamedTuple):
    turns: list[str]
    word: str  # a word of the unsure safety line
    trip: str
    task: str


CASES = [
    Case(
        [
            "我在一家动物医院当助理。",
            "我对芒果过敏。",
            "我包里常年揣着一支肾上腺素笔，以防不测。",
            "我周末喜欢爬山。",
        ],
        "肾上腺素",
        "plan a five-day trip to Bangkok in April for me",
        "给这个接口加个分页参数",
    ),
    Case(
        [
            "I work as a veterinary assistant.",
            "I'm allergic to mango.",
            "There's always a glucagon kit in my backpack, just in case.",
            "I like hiking at the weekend.",
        ],
        "glucagon",
        "帮我规划一下下个月去曼谷的五天旅行",
        "add a page-size parameter to this endpoint",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=["zh", "en"])
def test_an_unsure_safety_line_is_shown_for_a_trip_and_cut_from_a_code_task(
    mem_read: Memory, clock: FixedClock, case: Case
) -> None:
    say(mem_read, clock, case.turns, "s1")
    trip = mem_read.context(case.trip, user="u", budget_tokens=300)
    shown = [it for it in trip.items if case.word in it.text]
    assert shown and shown[0].section == "profile", trip.text
    assert shown[0].why.get("safety_critical"), shown[0].why
    task = mem_read.context(case.task, user="u", budget_tokens=300)
    assert case.word not in task.text, task.text


class Trip(NamedTuple):
    turns: list[str]
    word: str  # a word of the allergy
    trip: str  # a trip no situation's cue word names; the old head read it 0.6–0.8 as a safety need


TRIPS = [
    Trip(["我在一家动物医院当助理。", "我对芒果过敏。"], "芒果", "下个月去曼谷玩五天，帮我规划一下"),
    Trip(
        ["I work as a veterinary assistant.", "I'm allergic to mango."],
        "mango",
        "off to Lisbon for four days next month, help me plan it",
    ),
]


@pytest.mark.parametrize("case", TRIPS, ids=["zh", "en"])
def test_a_trip_no_cue_names_still_brings_the_allergy(
    mem_read: Memory, clock: FixedClock, case: Trip
) -> None:
    """The bar the head's reading of a request must reach (``REQUEST_SAFETY``) was 0.8; on the
    tuning specs 0.6 opens a third more of the requests a safety-critical fact bears on and no
    fact a request must not see; 0.7 since the request head learnt the near misses (0016i)."""
    say(mem_read, clock, case.turns, "s1")
    ctx = mem_read.context(case.trip, user="u", budget_tokens=300)
    assert case.word in ctx.text, ctx.text
