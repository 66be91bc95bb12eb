"""A bare weekday in a clause told in the past is the last one, not the next (DESIGN §4 rule 4):
"Started at Tidepool on Monday" said on a Wednesday is two days ago, and a memory that dated
it to the coming Monday would be wrong from the start."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from memquill.write.timenorm import find_times
from memquill.write.timenorm.tense import en_past, zh_past

SH = "Asia/Shanghai"
WED = datetime(2026, 12, 2, 10, 0, tzinfo=ZoneInfo(SH))  # a Wednesday


def days(text: str) -> list[date]:
    return [m.begin.astimezone(ZoneInfo(SH)).date() for m in find_times(text, WED, SH)]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Started at Tidepool on Monday", date(2026, 11, 30)),
        ("Had a final-round interview at Carver Health on Friday. Fingers crossed.", date(2026, 11, 27)),
        ("New roommate Tobias moved in Saturday.", date(2026, 11, 28)),
        ("Friday tips were insane because of some concert", date(2026, 11, 27)),
        ("I wasn't there on Monday", date(2026, 11, 30)),
        ("Got married on Saturday!", date(2026, 11, 28)),
        ("I went there on Wednesday", date(2026, 11, 25)),  # said on a Wednesday: a week ago
        ("this Monday I went to the gym", date(2026, 11, 30)),
        ("周一入职了", date(2026, 11, 30)),
        ("周五下午去了医院", date(2026, 11, 27)),
        ("材料周五已经交了", date(2026, 11, 27)),
        ("周三去看了牙", date(2026, 11, 25)),
    ],
)
def test_a_weekday_in_a_past_clause_is_the_last_one(text: str, day: date) -> None:
    assert days(text) == [day]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("I start at Dell on Monday", date(2026, 12, 7)),
        ("I'm starting on Monday", date(2026, 12, 7)),
        ("I'm excited about Monday", date(2026, 12, 7)),  # an adjective, not a past verb
        ("The Jenkins box gets decommissioned Friday", date(2026, 12, 4)),  # a present passive
        ("Mortgage signed, keys on Friday.", date(2026, 12, 4)),  # the past is another clause
        ("I booked the dentist for Tuesday", date(2026, 12, 8)),  # arranged: the day to come
        ("She said she'd come on Friday", date(2026, 12, 4)),
        ("I cancelled the Saturday game", date(2026, 12, 5)),  # the weekday labels the game
        ("我周一入职", date(2026, 12, 7)),
        ("周六约了同事打羽毛球", date(2026, 12, 5)),  # 约了: arranged
        ("我就把周六的球局退了", date(2026, 12, 5)),  # 周六的: a label
        ("周一就要走了", date(2026, 12, 7)),  # 要…了 is about to
        ("周一刚好有空", date(2026, 12, 7)),  # 刚好 is "happens to"
    ],
)
def test_a_weekday_anywhere_else_is_the_next_one(text: str, day: date) -> None:
    assert days(text) == [day]


def test_two_clauses_keep_their_own_tense() -> None:
    assert days("I moved on Saturday and start work on Monday") == [date(2026, 11, 28), date(2026, 12, 7)]


def test_the_tense_reading_sees_only_the_weekday_clause() -> None:
    text = "I moved last year, but I start at Dell on Monday"
    at = text.index("Monday")
    assert not en_past(text, at, at + len("Monday"))
    text = "去年搬的家，周一入职了"
    at = text.index("周一")
    assert zh_past(text, at, at + 2)
