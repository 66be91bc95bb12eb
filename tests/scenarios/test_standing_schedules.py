"""A recurring gathering's day is a single-valued fact of that event: the day said last
supersedes the one before, the question naming the gathering is answered from its slot, and
an occasion, someone else's gathering or a question is no standing day (zh + en, every
backend, rules only and with the attribute model).

Before: "周会改到周一了" became a plan dated next Monday ("2024年2月12日（周一）") and the
question "我们组周会现在是周几" reached no slot; "Karen moved our 1:1 to Thursdays" became the
user's working hours; four questions of the knowledge-update tuning sets asked such a day."""

from __future__ import annotations

import re

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, held, say, say_apart

CHANGES = [
    (
        ["我们组周会定在每周二上午十点", "老板说周会改到周一了，大家周末的单太多"],
        "我们组周会现在是周几",
        "event:weekly meeting",
        "周一",
    ),
    (
        ["每周三晚上去上瑜伽课，最近腰有点酸", "瑜伽课换到每周六早上了，工作日实在赶不上"],
        "瑜伽课现在是星期几上",
        "event:瑜伽课",
        "每周六早上",
    ),
    (
        ["站会每天早上九点，挺早的", "站会改到十点了，终于能睡个懒觉"],
        "站会现在几点开",
        "event:standup",
        "十点",
    ),
    (
        [
            "Standup at Tidewell is at 9:15, nobody sits down.",
            "standup moved to 10am since the US team joined",
        ],
        "what time is standup these days?",
        "event:standup",
        "10am",
    ),
    (
        [
            "my 1:1 with Karen is every Monday 9am and I always forget what to bring",
            "Karen moved our 1:1 to Thursdays because Mondays are always full of incidents",
        ],
        "which day is my one-on-one with Karen these days",
        "event:1:1",
        "Thursdays",
    ),
    (
        [
            "Book club is Thursdays and it's my turn to pick.",
            "book club moved to Sundays bc half of us have weird schedules lol",
        ],
        "what day does my book club meet now?",
        "event:book club",
        "Sundays",
    ),
]


@pytest.mark.parametrize(
    ("turns", "question", "subject", "day"),
    CHANGES,
    ids=["zh-weekly-meeting", "zh-class", "zh-daily-time", "en-daily-time", "en-1:1", "en-book-club"],
)
def test_a_gatherings_new_day_supersedes_and_answers(
    mem_modes: Memory, clock: FixedClock, turns: list[str], question: str, subject: str, day: str
) -> None:
    say_apart(mem_modes, clock, turns, gap_days=30)
    assert active_values(mem_modes, "recurrence").get(subject) == {day}, active_values(
        mem_modes, "recurrence"
    )
    top = mem_modes.search(question, user="u", k=1)[0]
    assert (top.memory.subject, top.memory.key, top.memory.value) == (subject, "recurrence", day), top.memory
    assert top.why.get("path") == "slot", top.why


@pytest.mark.parametrize(
    ("said", "question", "day"),
    [
        (
            "周会改到周四下午了，周一大家都在处理周末的单",
            "what day is our weekly meeting on now?",
            "周四下午",
        ),
        (
            "Our team standup moved to Tuesdays and Thursdays only.",
            "站会现在是周几开",
            "Tuesdays and Thursdays",
        ),
    ],
    ids=["zh-said-en-asked", "en-said-zh-asked"],
)
def test_the_day_asked_in_the_other_language_reaches_the_slot(
    mem_modes: Memory, clock: FixedClock, said: str, question: str, day: str
) -> None:
    say(mem_modes, clock, [said, "ok" if said.isascii() else "好的"], "s0")
    top = mem_modes.search(question, user="u", k=1)[0].memory
    assert (top.key, top.value) == ("recurrence", day), (top.key, top.value, top.content)


@pytest.mark.parametrize(
    "turn",
    [
        "这周周会挪到周三了，周二全员培训",  # this week's meeting only
        "我朋友的读书会每周一都在咖啡馆",  # someone else's
        "周会是周几来着？",  # a question
        "如果周会改到周一的话我就得早起",  # a supposition
        "First 1:1 with her on Thursday, what should I ask?",  # an occasion
        "my friend's book club meets Mondays and they only read thrillers",
        "Is book club on Sundays now?",
    ],
    ids=["zh-this-week", "zh-friend", "zh-question", "zh-if", "en-first", "en-friend", "en-question"],
)
def test_an_occasion_someone_elses_or_a_question_is_no_standing_day(
    mem_modes: Memory, clock: FixedClock, turn: str
) -> None:
    say(mem_modes, clock, [turn], "s0")
    assert not held(mem_modes, ("recurrence",)), held(mem_modes, ("recurrence",))


@pytest.mark.parametrize(
    ("turn", "weekday"),
    [("老板说周会改到周一了", "周一"), ("Karen moved our 1:1 to Thursday, Mondays are chaos", "Thursday")],
    ids=["zh", "en"],
)
def test_a_standing_day_is_no_date(mem_modes: Memory, clock: FixedClock, turn: str, weekday: str) -> None:
    """The time stage leaves a gathering's weekday a weekday: "改到周一" is every Monday, not
    next Monday's date written into the record."""
    say(mem_modes, clock, [turn], "s0")
    recs = [r for r in mem_modes.records(user="u", statuses=None) if r.key == "recurrence"]
    assert recs and all(weekday in r.content for r in recs), [r.content for r in recs]
    dated = re.compile(r"\d{4}年\d+月\d+日|\d{4}-\d{2}-\d{2}")
    assert not any(dated.search(r.content) for r in mem_modes.records(user="u", statuses=None)), [
        r.content for r in mem_modes.records(user="u", statuses=None)
    ]


@pytest.mark.parametrize(
    ("turn", "subject", "day"),
    [
        (
            "组里周会定在周一上午九点半 我每次都起不来 有没有快速清醒的办法",
            "event:weekly meeting",
            "周一上午九点半",
        ),
        (
            "book club is every Thursday now, any short novels you'd recommend?",
            "event:book club",
            "every Thursday",
        ),
    ],
    ids=["zh-spaced", "en"],
)
def test_a_day_said_before_a_request_is_still_the_day(
    mem_modes: Memory, clock: FixedClock, turn: str, subject: str, day: str
) -> None:
    """A Chinese turn typed with spaces is one clause of parts: the question after the day
    asks something else, and once blocked the whole turn."""
    say(mem_modes, clock, [turn], "s0")
    assert active_values(mem_modes, "recurrence").get(subject) == {day}, held(mem_modes, ("recurrence",))


@pytest.mark.parametrize(
    "turn",
    ["周会是不是改到周一了 我有点懵", "book club is on Sundays now?"],
    ids=["zh-spaced-question", "en-question"],
)
def test_the_gatherings_own_part_asking_is_no_day(mem_modes: Memory, clock: FixedClock, turn: str) -> None:
    say(mem_modes, clock, [turn], "s0")
    assert not held(mem_modes, ("recurrence",)), held(mem_modes, ("recurrence",))
