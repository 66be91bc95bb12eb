"""Which gathering a text names and the day it is held on (``gatherings.py``), zh + en: the
catalogue of gatherings is data; a day said of something else, an occasion or a span that only
looks like a gathering's word is none."""

from __future__ import annotations

import pytest

from memquill import gatherings


@pytest.mark.parametrize(
    ("text", "gathering", "day"),
    [
        ("老板说周会改到周四下午了", "weekly meeting", "周四下午"),
        ("部门例会每月第一个周一开", "weekly meeting", "每月第一个周一"),
        ("不是周四，读书会是每周三晚上", "book club", "每周三晚上"),
        ("每周一和周三晚上七点上瑜伽课，这两个时间别排会", "瑜伽课", "每周一和周三晚上七点"),
        ("站会改到十点了", "standup", "十点"),
        ("Karen moved our 1:1 to Thursdays because Mondays are always full", "1:1", "Thursdays"),
        ("our book club meets every second Tuesday", "book club", "every second Tuesday"),
        ("joined the local running club, we meet on Thursdays", "running club", "Thursdays"),
        ("My boss insists on 8am standups and I'm dying", "standup", "8am"),
        (
            "my pottery class is every other Wednesday evening",
            "pottery class",
            "every other Wednesday evening",
        ),
    ],
)
def test_a_gatherings_standing_day(text: str, gathering: str, day: str) -> None:
    found = gatherings.schedule(text)
    assert found is not None and (found.gathering.id, found.day) == (gathering, day), found


@pytest.mark.parametrize(
    "text",
    [
        "家庭聚餐两周一次",  # every two weeks, no Monday
        "My lunch break is 12:30 to 1:15 and I guard it.",  # "1:1" is not in "1:15"
        "这周周会挪到周三",  # this week's
        "明早8点要去医院抽血，别给我排早会",  # tomorrow's appointment, not the meeting's time
        "First 1:1 with her on Thursday",  # an occasion
        "Draft an agenda for Monday's staff meeting.",  # one Monday's
        "周五去医院，周会照常",  # Friday is the hospital's
        "I take piano lessons",  # no day
        "每周三晚上去见心理咨询师",  # the counsellor is a person, not a gathering
        "周六晚上七点在望京那边有个读书会，我报名了",  # one book club evening
    ],
)
def test_no_standing_day(text: str) -> None:
    assert gatherings.schedule(text) is None


def test_a_gatherings_weekday_is_no_date_only_in_its_own_part() -> None:
    text = "周五去医院，周会照常"
    assert not gatherings.standing(text, 0, 2)  # 周五 is the hospital's: a date
    text = "周会改到周一了"
    assert gatherings.standing(text, 4, 6)


@pytest.mark.parametrize(
    ("query", "gathering"),
    [
        ("我们组周会现在是周几", "weekly meeting"),
        ("what time is standup these days?", "standup"),
        ("周会上讲了什么", None),
    ],
)
def test_the_day_asked(query: str, gathering: str | None) -> None:
    assert gatherings.asked_day(query) == gathering
