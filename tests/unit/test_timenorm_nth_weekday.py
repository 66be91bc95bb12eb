"""An ordinal weekday of a month (DESIGN §4 rule 4): "4月的第一个周一", "the last Friday of next
month" are one date; "每个月最后一个周四", "the first Tuesday of the month" are a rhythm, kept
as said. Before, the weekday alone was resolved and the ordinal left dangling ("the first
2024-03-12 (Tuesday) of the month", "2024年4月的第一个2024年3月11日（周一）")."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from memquill.write.timenorm import find_times, rewrite

SH = "Asia/Shanghai"
MAR6 = datetime(2024, 3, 6, 9, 0, tzinfo=ZoneInfo(SH))  # a Wednesday


def _days(text: str) -> list[date]:
    return [m.begin.astimezone(ZoneInfo(SH)).date() for m in find_times(text, MAR6, SH)]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("4月的第一个周一去体检", date(2024, 4, 1)),
        ("下个月第一个周一交报告", date(2024, 4, 1)),
        ("下个月的第二个星期三开家长会", date(2024, 4, 10)),
        ("这个月的最后一个周五聚餐", date(2024, 3, 29)),
        ("月底最后一个周五团建", date(2024, 3, 29)),
        ("上个月最后一个周日去了趟杭州", date(2024, 2, 25)),
        ("see you on the first Monday in April", date(2024, 4, 1)),
        ("the last Friday of next month works for the offsite", date(2024, 4, 26)),
        ("the second Tuesday of May 2025 is the review", date(2025, 5, 13)),
        ("we met on the third Saturday of last month", date(2024, 2, 17)),
    ],
)
def test_an_ordinal_weekday_of_a_named_month_is_that_date(text: str, day: date) -> None:
    assert _days(text) == [day], rewrite(text, find_times(text, MAR6, SH), "en" if text.isascii() else "zh")


@pytest.mark.parametrize(
    "text",
    [
        "读书会定在每个月最后一个周四",
        "每月的第一个周六去做志愿者",
        "开学后第一个周一要交材料",
        "book club is the first tuesday of the month and it's my pick",
        "we've moved book club to the last Thursday of the month",
        "the board meets the 3rd Wednesday of each month",
        "every second Saturday of the month we clean the beach",
    ],
)
def test_a_monthly_rhythm_stays_as_said(text: str) -> None:
    found = find_times(text, MAR6, SH)
    assert found == [], [m.text for m in found]
    assert rewrite(text, found, "en" if text.isascii() else "zh") == text


@pytest.mark.parametrize(
    ("text", "day"),
    [("we met last thursday", date(2024, 2, 29)), ("下周一开会", date(2024, 3, 11))],
)
def test_a_plain_relative_weekday_still_resolves(text: str, day: date) -> None:
    assert _days(text) == [day]


def test_no_fifth_weekday_in_a_short_month_is_no_date() -> None:
    # February 2025 has four Mondays
    assert _days("the fifth Monday of February 2025") == []
