"""Relative time normalisation (DESIGN §4 rule 4): every case has an injected anchor."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from memquill.errors import NaiveDatetimeError, ValidationError
from memquill.write.timenorm import (
    TimeMention,
    detect_language,
    find_times,
    may_contain_time,
    rewrite,
)

SH = "Asia/Shanghai"
NY = "America/New_York"
SUN = datetime(2026, 11, 29, 10, 0, tzinfo=ZoneInfo(SH))  # a Sunday
MON = datetime(2026, 11, 30, 10, 0, tzinfo=ZoneInfo(SH))  # the Monday after


def one(text: str, anchor: datetime = SUN, tz: str = SH) -> TimeMention:
    found = find_times(text, anchor, tz)
    assert len(found) == 1, found
    return found[0]


def local(dt: datetime | None, tz: str = SH) -> datetime | None:
    return None if dt is None else dt.astimezone(ZoneInfo(tz)).replace(tzinfo=None)


def day_of(m: TimeMention, tz: str = SH) -> date:
    """The local calendar day of a day-granular mention, checking it spans exactly that day."""
    b, u = local(m.begin, tz), local(m.until, tz)
    assert m.granularity == "day" and b is not None and u is not None
    assert b.time() == time() and u == b + timedelta(days=1)
    return b.date()


# ------------------------------------------------------------ Chinese


def test_tomorrow_afternoon_three_is_a_point_at_15h_local() -> None:
    m = one("明天下午三点开会")
    assert (m.text, m.start, m.end) == ("明天下午三点", 0, 6)
    assert local(m.begin) == datetime(2026, 11, 30, 15, 0) and m.until is None
    assert m.granularity == "hour" and m.timezone == SH
    assert m.begin.tzinfo == UTC


def test_day_after_tomorrow_is_a_whole_local_day() -> None:
    m = one("后天")
    assert day_of(m) == date(2026, 12, 1)
    assert m.begin == datetime(2026, 11, 30, 16, 0, tzinfo=UTC)
    assert m.until == datetime(2026, 12, 1, 16, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "anchor", "expected"),
    [
        ("下周三", SUN, date(2026, 12, 2)),
        ("下周三", MON, date(2026, 12, 9)),
        ("上周五", SUN, date(2026, 11, 20)),
        ("上周五", MON, date(2026, 11, 27)),
        ("next Wednesday", SUN, date(2026, 12, 2)),
        ("next Wednesday", MON, date(2026, 12, 9)),
        ("last Friday", SUN, date(2026, 11, 20)),
        ("last Friday", MON, date(2026, 11, 27)),
    ],
)
def test_next_and_last_weekday_use_monday_start_weeks(
    text: str, anchor: datetime, expected: date
) -> None:
    assert day_of(one(text, anchor)) == expected


@pytest.mark.parametrize(
    ("text", "anchor", "expected"),
    [
        ("周三", SUN, date(2026, 12, 2)),
        ("on Wednesday", MON, date(2026, 12, 2)),
        ("this Wednesday", MON, date(2026, 12, 2)),
        ("Monday", MON, date(2026, 11, 30)),  # today counts
        ("this Sunday", MON, date(2026, 12, 6)),
    ],
)
def test_bare_and_this_weekday_is_next_occurrence_on_or_after_today(
    text: str, anchor: datetime, expected: date
) -> None:
    assert day_of(one(text, anchor)) == expected


def test_chinese_this_week_weekday_stays_in_this_week() -> None:
    thursday = datetime(2026, 12, 3, 9, tzinfo=ZoneInfo(SH))
    assert day_of(one("本周三", thursday)) == date(2026, 12, 2)  # yesterday: 本周 is literal
    assert day_of(one("周三", thursday)) == date(2026, 12, 9)


@pytest.mark.parametrize(("text", "anchor"), [("本周", SUN), ("this week", SUN)])
def test_this_week_on_sunday_is_the_week_that_ends_today(text: str, anchor: datetime) -> None:
    m = one(text, anchor)
    assert m.granularity == "week"
    assert (local(m.begin), local(m.until)) == (datetime(2026, 11, 23), datetime(2026, 11, 30))


def test_this_week_on_monday_starts_today() -> None:
    m = one("本周", MON)
    assert (local(m.begin), local(m.until)) == (datetime(2026, 11, 30), datetime(2026, 12, 7))
    assert m.label("zh") == "2026年第49周（11月30日–12月6日）"
    assert one("this week", MON).label("en") == "week 49 of 2026 (2026-11-30 to 2026-12-06)"


@pytest.mark.parametrize("text", ["三个月后", "in three months", "3 months from now"])
def test_in_three_months_is_one_day_clamped_to_month_end(text: str) -> None:
    # 29 Nov + 3 months = "29 Feb 2027", which does not exist: the last day of February
    m = one(text)
    assert day_of(m) == date(2027, 2, 28)


def test_quarters_next_and_this() -> None:
    nxt, this = one("下个季度"), one("本季度")
    assert nxt.granularity == this.granularity == "quarter"
    assert (local(nxt.begin), local(nxt.until)) == (datetime(2027, 1, 1), datetime(2027, 4, 1))
    assert (local(this.begin), local(this.until)) == (datetime(2026, 10, 1), datetime(2027, 1, 1))
    assert nxt.label("zh") == "2027年第一季度（1月1日–3月31日）"
    assert one("next quarter").label("en") == "Q1 2027 (2027-01-01 to 2027-03-31)"


def test_next_quarter_from_the_last_day_of_a_quarter() -> None:
    m = one("next quarter", datetime(2026, 3, 31, 23, 0, tzinfo=ZoneInfo(SH)))
    assert (local(m.begin), local(m.until)) == (datetime(2026, 4, 1), datetime(2026, 7, 1))


def test_this_afternoon_is_a_part_of_day_interval() -> None:
    m = one("我今天下午有空")
    assert m.text == "今天下午" and m.granularity == "part_of_day"
    assert (local(m.begin), local(m.until)) == (
        datetime(2026, 11, 29, 12),
        datetime(2026, 11, 29, 18),
    )
    assert m.label("zh") == "2026年11月29日（周日）下午"


@pytest.mark.parametrize(
    ("text", "anchor", "expected"),
    [
        ("月底", SUN, date(2026, 11, 30)),
        ("月底", datetime(2026, 12, 10, 9, tzinfo=ZoneInfo(SH)), date(2026, 12, 31)),
        ("月底", datetime(2028, 2, 3, 9, tzinfo=ZoneInfo(SH)), date(2028, 2, 29)),
        ("end of the month", datetime(2027, 2, 3, 9, tzinfo=ZoneInfo(SH)), date(2027, 2, 28)),
        ("下个月底", datetime(2027, 1, 31, 9, tzinfo=ZoneInfo(SH)), date(2027, 2, 28)),
        ("end of next month", datetime(2026, 12, 10, 9, tzinfo=ZoneInfo(SH)), date(2027, 1, 31)),
        ("年底", SUN, date(2026, 12, 31)),
        ("end of the week", SUN, date(2026, 11, 29)),
    ],
)
def test_end_of_month_week_year_is_its_last_day(
    text: str, anchor: datetime, expected: date
) -> None:
    assert day_of(one(text, anchor)) == expected


def test_before_five_today_is_an_interval_ending_at_17h() -> None:
    m = one("他说今天下午五点前给我")
    assert m.text == "今天下午五点前" and m.granularity == "span" and m.bound == "by"
    assert local(m.until) == datetime(2026, 11, 29, 17, 0)
    assert m.begin == SUN.astimezone(UTC)  # from when it was said
    assert m.label("zh") == "2026年11月29日 17:00前"


def test_next_month_crosses_the_year() -> None:
    m = one("下个月", datetime(2026, 12, 15, 9, tzinfo=ZoneInfo(SH)))
    assert m.granularity == "month"
    assert (local(m.begin), local(m.until)) == (datetime(2027, 1, 1), datetime(2027, 2, 1))
    assert m.label("zh") == "2027年1月" and m.label("en") == "January 2027"


def test_tonight_and_tomorrow_morning_with_clock() -> None:
    assert local(one("今晚八点").begin) == datetime(2026, 11, 29, 20, 0)
    assert local(one("明早八点半").begin) == datetime(2026, 11, 30, 8, 30)
    m = one("tonight")
    assert (local(m.begin), local(m.until)) == (datetime(2026, 11, 29, 18), datetime(2026, 11, 30))


def test_several_mentions_are_sorted_and_non_overlapping() -> None:
    found = find_times("明天下午三点开会，后天休息", SUN, SH)
    assert [m.text for m in found] == ["明天下午三点", "后天"]
    assert found[0].end <= found[1].start


def test_habits_and_counts_are_not_dates() -> None:
    assert find_times("我每周一健身，一周三次", SUN, SH) == []
    assert find_times("we meet every Monday", SUN, SH) == []


def test_a_clock_without_a_day_is_not_normalised() -> None:
    assert find_times("I usually wake up at 7am", SUN, SH) == []
    assert find_times("我一般晚上八点吃饭", SUN, SH) == []


def test_jionlp_fallback_covers_the_chinese_long_tail(capsys: pytest.CaptureFixture[str]) -> None:
    m = one("下个月15号交房租")
    assert m.text == "下个月15号" and day_of(m) == date(2026, 12, 15)
    assert capsys.readouterr().out == ""  # jionlp's import banner is swallowed


# ------------------------------------------------------------ English


def test_tomorrow_at_3pm() -> None:
    m = one("call me tomorrow at 3pm")
    assert m.text == "tomorrow at 3pm" and local(m.begin) == datetime(2026, 11, 30, 15, 0)
    assert m.label("en") == "2026-11-30 15:00" and m.label("zh") == "2026年11月30日 15:00"


def test_clock_before_day_and_minutes() -> None:
    m = one("3:30 pm on Friday")
    assert local(m.begin) == datetime(2026, 12, 4, 15, 30) and m.granularity == "minute"


def test_the_day_after_tomorrow_wins_over_tomorrow() -> None:
    m = one("the day after tomorrow")
    assert m.text == "the day after tomorrow" and day_of(m) == date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "anchor", "expected", "mention"),
    [
        ("I met her on 8 May, 2023", SUN, date(2023, 5, 8), "8 May, 2023"),
        ("May 8, 2023", SUN, date(2023, 5, 8), "May 8, 2023"),
        ("2023年5月8日我入职了", SUN, date(2023, 5, 8), "2023年5月8日"),
        ("deadline 2023-05-08", SUN, date(2023, 5, 8), "2023-05-08"),
        ("May 8", datetime(2026, 4, 1, tzinfo=UTC), date(2026, 5, 8), "May 8"),
        ("5月8日", datetime(2026, 4, 1, tzinfo=UTC), date(2026, 5, 8), "5月8日"),
        ("5月8日", SUN, date(2027, 5, 8), "5月8日"),  # the nearest 8 May to 29 Nov 2026
        ("1月5日", datetime(2026, 12, 28, tzinfo=UTC), date(2027, 1, 5), "1月5日"),
    ],
)
def test_absolute_dates(text: str, anchor: datetime, expected: date, mention: str) -> None:
    m = one(text, anchor)
    assert m.text == mention and day_of(m) == expected


def test_impossible_dates_are_no_mention() -> None:
    assert find_times("2月30日", SUN, SH) == []
    assert find_times("2023-13-45", SUN, SH) == []


def test_in_two_hours_is_a_minute_point_from_the_anchor() -> None:
    m = one("remind me in 2 hours")
    assert m.granularity == "minute" and m.until is None
    assert m.begin == datetime(2026, 11, 29, 4, 0, tzinfo=UTC)


def test_this_weekend_is_saturday_and_sunday() -> None:
    m = one("this weekend", datetime(2026, 12, 2, 9, tzinfo=ZoneInfo(SH)))
    assert (local(m.begin), local(m.until)) == (datetime(2026, 12, 5), datetime(2026, 12, 7))


# ------------------------------------------------------------ timezone and midnight


def test_midnight_utc_is_already_tomorrow_in_shanghai() -> None:
    anchor = datetime(2026, 11, 29, 23, 30, tzinfo=UTC)  # 07:30 on 30 Nov in Shanghai
    for text in ("明天", "tomorrow"):
        m = one(text, anchor, SH)
        assert m.begin == datetime(2026, 11, 30, 16, 0, tzinfo=UTC)
        assert m.until == datetime(2026, 12, 1, 16, 0, tzinfo=UTC)


def test_the_users_zone_not_the_anchors_offset_decides_the_day() -> None:
    anchor = datetime.fromisoformat("2026-11-30T07:30:00+08:00")  # 29 Nov 18:30 in New York
    m = one("tomorrow", anchor, NY)
    assert day_of(m, NY) == date(2026, 11, 30) and m.timezone == NY
    assert m.begin == datetime(2026, 11, 30, 5, 0, tzinfo=UTC)


def test_a_dst_day_is_23_hours_long() -> None:
    m = one("tomorrow", datetime(2026, 3, 7, 12, tzinfo=ZoneInfo(NY)), NY)
    assert m.begin == datetime(2026, 3, 8, 5, 0, tzinfo=UTC)
    assert m.until == datetime(2026, 3, 9, 4, 0, tzinfo=UTC)


def test_naive_anchor_and_unknown_zone_are_typed_errors() -> None:
    with pytest.raises(NaiveDatetimeError):
        find_times("明天", datetime(2026, 11, 29, 10), SH)
    with pytest.raises(ValidationError):
        find_times("明天", SUN, "Mars/Olympus")


# ------------------------------------------------------------ rewrite


def test_rewrite_chinese() -> None:
    text = "我下周三要去杭州出差"
    assert rewrite(text, find_times(text, SUN, SH), "zh") == "我2026年12月2日（周三）要去杭州出差"


def test_rewrite_english_adds_on_once() -> None:
    text = "I fly to Paris next Wednesday"
    assert rewrite(text, find_times(text, SUN, SH), "en") == (
        "I fly to Paris on 2026-12-02 (Wednesday)"
    )
    text = "The review is on May 8, 2023"
    assert rewrite(text, find_times(text, SUN, SH), "en") == "The review is on 2023-05-08 (Monday)"


def test_rewrite_english_periods_and_deadlines() -> None:
    text = "We launch next month, send it before 5pm today"
    out = rewrite(text, find_times(text, SUN, SH), "en")
    assert out == "We launch in December 2026, send it before 2026-11-29 17:00"
    text = "Tomorrow I fly"
    assert rewrite(text, find_times(text, SUN, SH), "en") == "2026-11-30 (Monday) I fly"


def test_rewrite_chinese_deadline_and_end_of_month() -> None:
    text = "我们月底前交付"
    assert rewrite(text, find_times(text, SUN, SH), "zh") == "我们2026年11月30日（周一）前交付"


def test_rewrite_without_mentions_is_identity() -> None:
    assert rewrite("nothing here", [], "en") == "nothing here"


# ------------------------------------------------------------ fast path and robustness


@pytest.mark.parametrize(
    "text", ["好的明白了", "我喜欢喝咖啡，不加糖", "ok thanks", "I prefer tabs over spaces", ""]
)
def test_no_time_words_fail_the_precheck(text: str) -> None:
    assert not may_contain_time(text)
    assert find_times(text, SUN, SH) == []


def test_the_fast_path_never_imports_the_heavy_parsers() -> None:
    code = (
        "import sys\n"
        "from datetime import datetime, UTC\n"
        "from memquill.write.timenorm import find_times\n"
        "a = datetime(2026, 11, 29, tzinfo=UTC)\n"
        "for t in ['好的明白了', 'ok thanks', '我下周三要去杭州出差', 'see you tomorrow at 3pm']:\n"
        "    find_times(t, a, 'Asia/Shanghai')\n"
        "assert 'jionlp' not in sys.modules and 'dateparser' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(
    "text",
    [
        "\x00\ud800节号",
        "99999天后",
        "in 999 years",
        "第五季度",
        "下下下下周",
        "号" * 500,
        "May 99, 2023 at 99pm",
        "2026-02-30 and Q9",
        "😀明天😀",
    ],
)
def test_garbage_never_raises(text: str) -> None:
    for m in find_times(text, SUN, SH):
        assert text[m.start : m.end] == m.text
        m.label("zh")
        m.label("en")


def test_detect_language() -> None:
    assert detect_language("我下周三要去杭州") == "zh"
    assert detect_language("next Wednesday") == "en"
    assert detect_language("meeting 明天") == "zh"
