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
def test_next_and_last_weekday_use_monday_start_weeks(text: str, anchor: datetime, expected: date) -> None:
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
def test_end_of_month_week_year_is_its_last_day(text: str, anchor: datetime, expected: date) -> None:
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
    assert rewrite(text, find_times(text, SUN, SH), "en") == ("I fly to Paris on 2026-12-02 (Wednesday)")
    text = "The review is on May 8, 2023"
    assert rewrite(text, find_times(text, SUN, SH), "en") == "The review is on 2023-05-08 (Monday)"


def test_rewrite_english_periods_and_deadlines() -> None:
    text = "We launch next month, send it before 5pm today"
    out = rewrite(text, find_times(text, SUN, SH), "en")
    assert out == "We launch in December 2026, send it before 2026-11-29 17:00"
    text = "Tomorrow I fly"
    assert rewrite(text, find_times(text, SUN, SH), "en") == "2026-11-30 (Monday) I fly"


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("税前年薪38万，算啥档次", "税前年薪38万，算啥档次"),  # pre-tax salary, not the year before last
        ("婚后年收入翻了一倍", "婚后年收入翻了一倍"),
        ("我前年去过北京", "我2024年去过北京"),
        ("后年打算回老家", "2028年打算回老家"),
    ],
)
def test_a_relative_year_inside_another_word_is_no_time(text: str, stored: str) -> None:
    assert rewrite(text, find_times(text, SUN, SH), "zh") == stored


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


# ------------------------------------------------------------ regressions: Chinese compounds


def rewritten(text: str, anchor: datetime = SUN, language: str | None = None) -> str:
    found = find_times(text, anchor, SH, language)
    return rewrite(text, found, language or detect_language(text))


def _mid(d: date) -> datetime:
    return datetime.combine(d, time())


@pytest.mark.parametrize(
    "text",
    ["讨论了一下周报的格式", "这周报告写完了吗", "买了一本周刊", "这周边有什么好吃的", "下周期的预算"],
)
def test_week_words_inside_compounds_are_no_week(text: str) -> None:
    assert find_times(text, SUN, SH) == []
    assert rewritten(text) == text


@pytest.mark.parametrize(
    ("text", "mention"),
    [
        ("下周一开会", "下周一"),
        ("看一下周三的安排", "周三"),  # 一下 + a bare 周三, not 下周三
        ("等一下下周再说", "下周"),
        ("这周报名截止", "这周"),  # 报名 is "sign up": this week
        ("下周会很忙", "下周"),  # 会 is "will"
        ("看一下月底的数据", "月底"),
    ],
)
def test_week_words_next_to_compounds_still_resolve(text: str, mention: str) -> None:
    assert one(text).text == mention


def test_yixia_before_a_weekday_is_the_bare_weekday() -> None:
    assert day_of(one("看一下周三的安排")) == date(2026, 12, 2)
    assert day_of(one("下周一开会", MON)) == date(2026, 12, 7)


# ------------------------------------------------------------ regressions: habits


@pytest.mark.parametrize(
    "text",
    [
        "我周末喜欢去爬山",
        "如果是周末，就不要给我发工作消息",
        "我周六一般不工作",
        "周六都要加班",
        "我通常周日下午去游泳",
        "I go hiking on weekends",
        "we meet every Monday",
        "we meet every other Monday",
        "on Fridays I play chess",
        "I usually rest on Sunday",
        "I go out on Friday nights",
        "I never work on a Saturday",
        "If it's Saturday, don't send me work messages",
        "I fixed it over the weekend",
    ],
)
def test_habitual_weekdays_and_weekends_are_not_pinned(text: str) -> None:
    assert find_times(text, SUN, SH) == []
    assert rewritten(text) == text


@pytest.mark.parametrize(
    ("text", "begin"),
    [
        ("这周末去爬山", date(2026, 12, 5)),
        ("本周末加班", date(2026, 12, 5)),
        ("下周末去爬山", date(2026, 12, 12)),
        ("上周末去了趟杭州", date(2026, 11, 28)),
        ("this weekend we hike", date(2026, 12, 5)),
        ("next weekend we hike", date(2026, 12, 12)),
    ],
)
def test_deictic_weekends_resolve(text: str, begin: date) -> None:
    m = one(text, MON)
    assert m.granularity == "span"
    assert (local(m.begin), local(m.until)) == (_mid(begin), _mid(begin + timedelta(days=2)))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我周六去看牙", date(2026, 12, 5)),  # a bare weekday in a plan: the next one
        ("这周六去看牙", date(2026, 12, 5)),
        ("下周六去看牙", date(2026, 12, 12)),
        ("我下周六都要加班", date(2026, 12, 12)),  # deictic wins over a habit word
        ("I'm seeing the dentist on Saturday", date(2026, 12, 5)),
        ("this Saturday works", date(2026, 12, 5)),
    ],
)
def test_single_occurrence_weekdays_resolve(text: str, expected: date) -> None:
    assert day_of(one(text, MON)) == expected


def test_jionlp_does_not_bring_a_habit_back() -> None:
    found = find_times("周六都要加班，下个月15号交房租", SUN, SH)
    assert [m.text for m in found] == ["下个月15号"]
    assert find_times("我周六一般不工作，15号再说", SUN, SH)[0].text == "15号"  # not "六一"


def test_since_a_weekday_is_the_last_one() -> None:
    assert day_of(one("since Monday nothing works", datetime(2026, 12, 2, 9, tzinfo=ZoneInfo(SH)))) == (
        date(2026, 11, 30)
    )


# ------------------------------------------------------------ regressions: prepositions


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Anna is on vacation until Dec 15", "Anna is on vacation until 2026-12-15 (Tuesday)"),
        ("Until Friday, all PRs need two approvals", "Until 2026-12-04 (Friday), all PRs need two approvals"),
        ("I'm on leave till next Monday", "I'm on leave till 2026-11-30 (Monday)"),
        ("send it by Friday", "send it by 2026-12-04 (Friday)"),
        ("send it before Dec 15", "send it before 2026-12-15 (Tuesday)"),
        ("after Dec 15 I am free", "after 2026-12-15 (Tuesday) I am free"),
        ("since Dec 1 nothing works", "since 2026-12-01 (Tuesday) nothing works"),
        ("Anna is out through Friday", "Anna is out through 2026-12-04 (Friday)"),
        ("from Dec 1 to Dec 15 I am away", "from 2026-12-01 (Tuesday) to 2026-12-15 (Tuesday) I am away"),
        ("他直到12月15日都在休假", "他直到2026年12月15日（周二）都在休假"),
        ("12月15日以后再说", "2026年12月15日（周二）以后再说"),
        ("从12月1日到12月15日我在休假", "从2026年12月1日（周二）到2026年12月15日（周二）我在休假"),
        ("12月15日之前交", "2026年12月15日（周二）前交"),  # 之前 = 以前 = 前: one label
    ],
)
def test_rewrite_keeps_the_users_preposition(text: str, expected: str) -> None:
    assert rewritten(text) == expected


def test_until_keeps_its_deadline_semantics() -> None:
    m = one("Anna is on vacation until Dec 15")
    assert m.text == "until Dec 15" and m.bound == "by"
    assert local(m.until) == datetime(2026, 12, 16)  # through the end of 15 Dec
    assert m.label("en") == "until 2026-12-15 (Tuesday)"
    assert m.label("zh") == "2026年12月15日（周二）前"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm taking Friday off", "I'm taking 2026-12-04 (Friday) off"),
        ("I'm taking next week off", "I'm taking week 49 of 2026 (2026-11-30 to 2026-12-06) off"),
        ("the next Friday meeting is cancelled", "the 2026-12-04 (Friday) meeting is cancelled"),
        ("I fly to Paris next Wednesday", "I fly to Paris on 2026-12-02 (Wednesday)"),
        ("See you next Wednesday at the airport", "See you on 2026-12-02 (Wednesday) at the airport"),
        ("The meeting is next Friday.", "The meeting is on 2026-12-04 (Friday)."),
        ("I'm free Monday and Friday", "I'm free on 2026-11-30 (Monday) and 2026-12-04 (Friday)"),
        ("We launch next month, ok?", "We launch in December 2026, ok?"),
    ],
)
def test_on_is_added_only_where_the_clause_goes_on(text: str, expected: str) -> None:
    assert rewritten(text) == expected


def test_rewriting_day_labels_again_changes_nothing() -> None:
    for text in ("我下周三和明天下午3点都要去杭州", "meet me next Wednesday at 3pm, and tomorrow evening"):
        once = rewritten(text)
        assert rewritten(once) == once


# ------------------------------------------------------------ regressions: recurring dates


@pytest.mark.parametrize(
    ("text", "mention"),
    [
        ("我的生日是5月20日", "5月20日"),
        ("5月20日是我们的结婚纪念日", "5月20日"),
        ("每年5月20日我们都去吃饭", "5月20日"),
        ("我的生日是5月20号", "5月20号"),
        ("my birthday is May 20", "May 20"),
        ("our anniversary is on 3 March", "3 March"),
    ],
)
def test_birthdays_and_anniversaries_are_recurring_and_not_rewritten(text: str, mention: str) -> None:
    m = one(text)
    assert m.text == mention and m.recurring and m.granularity == "day"
    assert day_of(m).month in (3, 5)  # the nearest occurrence, for retrieval
    assert rewritten(text) == text


def test_a_yearless_date_in_a_plan_is_still_dated() -> None:
    m = one("5月8日开会")
    assert not m.recurring and day_of(m) == date(2027, 5, 8)
    assert rewritten("5月8日开会") == "2027年5月8日（周六）开会"
    text = "my birthday is May 20, the party is on May 22"
    assert [m.recurring for m in find_times(text, SUN, SH)] == [True, False]
    assert rewritten(text) == "my birthday is May 20, the party is on 2027-05-22 (Saturday)"
    assert not one("我的生日是2023年5月20日").recurring  # a year was said


def test_new_fields_default_for_existing_callers() -> None:
    m = TimeMention("明天", 0, 2, SUN, None, "day", SH)
    assert m.recurring is False and m.language is None and m.bound is None


# ------------------------------------------------------------ regressions: the jionlp trigger


@pytest.mark.parametrize("text", ["我的手机号是13800138000", "账号被锁了", "这个型号不错", "号码是多少"])
def test_hao_without_a_number_fails_the_precheck(text: str) -> None:
    assert not may_contain_time(text)


def test_non_date_hao_jie_and_xiaoshi_never_import_jionlp() -> None:
    code = (
        "import sys\n"
        "from datetime import datetime, UTC\n"
        "from memquill.write.timenorm import find_times\n"
        "a = datetime(2026, 11, 29, tzinfo=UTC)\n"
        "for t in ['明天把编号和型号发我', '今天的节目很好看', '这周细节再对一下', '小时候我住在北京',\n"
        "          '我的手机号是13800138000，明天打给我']:\n"
        "    find_times(t, a, 'Asia/Shanghai')\n"
        "assert 'jionlp' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# ------------------------------------------------------------ regressions: mixed languages


def test_english_stretches_of_a_chinese_turn_are_read_as_english() -> None:
    text = "下个月的 meeting 改到 next Friday 3pm"
    found = find_times(text, SUN, SH)
    assert [(m.text, m.language) for m in found] == [("下个月", None), ("next Friday 3pm", "en")]
    for m in found:
        assert text[m.start : m.end] == m.text
    assert local(found[1].begin) == datetime(2026, 12, 4, 15, 0)
    assert rewrite(text, found, "zh") == "2026年12月的 meeting 改到 2026-12-04 15:00"
    assert found[1].label("zh") == "2026-12-04 15:00"  # its own language, whatever is asked


def test_chinese_stretches_of_an_english_turn_are_read_as_chinese() -> None:
    text = "the deadline is 下周三, see you tomorrow"
    found = find_times(text, SUN, SH, "en")
    assert [(m.text, m.language) for m in found] == [("下周三", "zh"), ("tomorrow", None)]
    assert text[found[0].start : found[0].end] == "下周三"
    assert rewrite(text, found, "en") == (
        "the deadline is 2026年12月2日（周三）, see you on 2026-11-30 (Monday)"
    )


def test_mixed_fragments_separated_by_a_space_merge() -> None:
    m = one("明天 at 3pm 开会")
    assert m.text == "明天 at 3pm" and local(m.begin) == datetime(2026, 11, 30, 15, 0)
    assert m.language is None and m.label("zh") == "2026年11月30日 15:00"


def test_mixed_turn_with_this_week_in_english() -> None:
    text = "记住：this week use the old API"
    m = one(text, MON)
    assert (m.text, m.language, m.granularity) == ("this week", "en", "week")
    assert rewrite(text, [m], "zh") == "记住：week 49 of 2026 (2026-11-30 to 2026-12-06) use the old API"
    assert find_times("我们用 Python 3.11 写的", SUN, SH) == []


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("我今年28，在杭州写前端", "我今年28，在杭州写前端"),  # an age, not "2026年28"
        ("女儿今年五岁了", "女儿今年五岁了"),
    ],
)
def test_this_year_before_an_age_is_no_time(text: str, stored: str) -> None:
    assert rewrite(text, find_times(text, SUN, SH), "zh") == stored


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("今年3月去了北京", "2026年3月去了北京"),  # was "2026年2027年3月": 今年 and the nearest March
        ("明年3月去北京", "2027年3月去北京"),
        ("我今年3月15号去了北京", "我2026年3月15日（周日）去了北京"),
        ("去年12月底离职", "2025年12月31日（周三）离职"),
        ("税前年薪38万", "税前年薪38万"),
    ],
)
def test_a_month_of_a_relative_year_is_one_date(text: str, stored: str) -> None:
    assert rewrite(text, find_times(text, SUN, SH), "zh") == stored
