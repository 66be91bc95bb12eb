"""A gathering held on an ordinal weekday of every month, or moved to a new day by whoever
runs it, is a standing day that supersedes the old one; a day said as the gathering's own is
its day even in a request; and an ordinal weekday of a named month is one date (zh + en, every
backend, rules only and with the attribute model).

Before: "the first Tuesday of the month" became "the first 2024-…(Tuesday) of the month" and no
day; "瑜伽馆把课调到周六上午了" stored next Saturday's date in an episode and left the old
day the answer; "周四下午的周会能不能改成…" said no day; "4月的第一个周一" was rewritten
as "4月的第一个<this week's Monday>"."""

from __future__ import annotations

import calendar
from datetime import date

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, held, say, say_apart

CHANGES = [
    (
        [
            "我们读书会定在每个月第一个周二晚上，这次轮到我选书",
            "读书会改到每个月最后一个周四了，周二大家都有事",
        ],
        "读书会现在哪天聚",
        "event:book club",
        "每个月最后一个周四",
    ),
    (
        ["每周三晚上的陶艺课最近总是赶不上", "陶艺工作室把课调到周日下午了，这下终于能去了"],
        "我的陶艺课现在排在什么时候",
        "event:陶艺课",
        "周日下午",
    ),
    (
        [
            "Our book club meets the first Tuesday of the month and I'm hosting this round.",
            "we've shifted book club to the last Thursday of the month, Tuesdays stopped working for everyone",
        ],
        "when does book club meet these days?",
        "event:book club",
        "the last Thursday of the month",
    ),
    (
        [
            "pottery class is every Tuesday evening, my one sane hour of the week",
            "the studio moved my pottery class to Saturday mornings, which honestly suits me better",
        ],
        "when is my pottery class now?",
        "event:pottery class",
        "Saturday mornings",
    ),
]


@pytest.mark.parametrize(
    ("turns", "question", "subject", "day"),
    CHANGES,
    ids=["zh-monthly", "zh-moved-by-the-studio", "en-monthly", "en-moved-by-the-studio"],
)
def test_a_monthly_or_moved_day_supersedes_and_answers(
    mem_modes: Memory, clock: FixedClock, turns: list[str], question: str, subject: str, day: str
) -> None:
    say_apart(mem_modes, clock, turns, gap_days=30)
    days = active_values(mem_modes, "recurrence")
    assert {k: {v.casefold() for v in vs} for k, vs in days.items()}.get(subject) == {day.casefold()}, days
    top = mem_modes.search(question, user="u", k=1)[0]
    assert (top.memory.subject, top.memory.key) == (subject, "recurrence"), top.memory
    assert (top.memory.value or "").casefold() == day.casefold(), top.memory
    assert top.why.get("path") == "slot", top.why


@pytest.mark.parametrize(
    ("turn", "subject", "day"),
    [
        ("周四下午的周会能不能改成线上 帮我写个提议", "event:weekly meeting", "周四下午"),
        (
            "could our Wednesday book club go online this winter? draft a poll for the group",
            "event:book club",
            "Wednesday",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_day_said_as_the_gatherings_own_is_its_day_in_a_request(
    mem_modes: Memory, clock: FixedClock, turn: str, subject: str, day: str
) -> None:
    say(mem_modes, clock, [turn], "s0")
    assert active_values(mem_modes, "recurrence").get(subject) == {day}, held(mem_modes, ("recurrence",))


@pytest.mark.parametrize(
    ("turn", "month", "nth", "weekday", "said"),
    [
        ("下个月的第一个周一要去医院复查", 1, 1, calendar.MONDAY, "zh"),
        ("I have a dentist appointment on the last Friday of next month", 1, -1, calendar.FRIDAY, "en"),
    ],
    ids=["zh", "en"],
)
def test_an_ordinal_weekday_of_next_month_is_stored_as_that_date(
    mem_modes: Memory, clock: FixedClock, turn: str, month: int, nth: int, weekday: int, said: str
) -> None:
    now = clock.now().date()
    first = date(now.year + (now.month == 12), now.month % 12 + 1, 1)
    days = [d for d in calendar.Calendar().itermonthdates(first.year, first.month) if d.month == first.month]
    want = [d for d in days if d.weekday() == weekday][0 if nth == 1 else -1]
    label = f"{want.year}年{want.month}月{want.day}日" if said == "zh" else want.isoformat()
    say(mem_modes, clock, [turn], "s0")
    contents = [r.content for r in mem_modes.records(user="u", statuses=None)]
    assert any(label in c for c in contents), contents
    assert not any(
        "第一个" in c or "last 20" in c.casefold() or "last friday" in c.casefold() for c in contents
    ), contents


@pytest.mark.parametrize(
    "turn",
    ["我每次都起不来，周会太早了", "every time I try I can't get up that early, standup is brutal"],
    ids=["zh", "en"],
)
def test_what_the_user_cannot_do_is_no_instruction(mem_modes: Memory, clock: FixedClock, turn: str) -> None:
    say(mem_modes, clock, [turn], "s0")
    kept = [(r.key, r.content) for r in mem_modes.records(user="u", statuses=["active", "candidate"])]
    assert not [k for k, _ in kept if k.startswith("instruction:")], kept
