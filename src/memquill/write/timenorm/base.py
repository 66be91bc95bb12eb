"""Time mentions, their labels and the calendar arithmetic the language rules build on."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from typing import NamedTuple

from memquill.clock import zone

_DAY, _MIDNIGHT = timedelta(days=1), time()


_WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


_MONTHS_EN = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


# part of day -> (start hour, end hour, zh label, en label); labels are found by start hour
_PARTS = {
    "early": (0, 6, "凌晨", "early morning"),
    "morning": (6, 12, "上午", "morning"),
    "noon": (11, 14, "中午", "noon"),
    "afternoon": (12, 18, "下午", "afternoon"),
    "evening": (18, 24, "晚上", "evening"),
}


_PART_BY_START = {v[0]: k for k, v in _PARTS.items()}


_PREP = {"week": "in", "month": "in", "quarter": "in", "year": "in", "span": "from"}


@dataclass(frozen=True)
class TimeMention:
    """One resolved time expression; ``bound`` "by"/"before" marks a deadline.

    ``recurring``: a yearless date that comes back every year (a birthday); ``begin`` is its
    nearest occurrence, and ``rewrite`` leaves the wording alone. ``language``: set when the
    phrase is in the other language of a mixed turn; its label is then always in that one.
    """

    text: str
    start: int
    end: int
    begin: datetime
    until: datetime | None
    granularity: str
    timezone: str
    bound: str | None = None
    recurring: bool = False
    language: str | None = None

    def label(self, language: str) -> str:
        """Absolute wording in the user's zone, stored instead of the relative phrase."""
        tz, zh = zone(self.timezone), (self.language or language) == "zh"
        b = self.begin.astimezone(tz).replace(tzinfo=None)
        u = None if self.until is None else self.until.astimezone(tz).replace(tzinfo=None)
        if self.bound and u is not None:
            last = u.date() - (_DAY if self.bound == "by" else timedelta())
            x = _fmt_day(last, zh) if u.time() == _MIDNIGHT else _fmt_dt(u, zh)
            return f"{x}前" if zh else f"{self._word()} {x}"
        return _label(b, u, self.granularity, zh)

    def _word(self) -> str:
        """The English deadline word as written ("until", "By"): only the date is replaced.
        Chinese 前/之前/以前 all say the same and are written "前" (downstream reads "日前")."""
        w = _EN_BOUND_WORD.match(self.text)
        return w[0] if w else str(self.bound)


def _fmt_day(d: date, zh: bool) -> str:
    if zh:
        return f"{d.year}年{d.month}月{d.day}日（周{'一二三四五六日'[d.weekday()]}）"
    return f"{d.isoformat()} ({_WEEKDAYS_EN[d.weekday()]})"


def _fmt_dt(dt: datetime, zh: bool) -> str:
    return f"{dt.year}年{dt.month}月{dt.day}日 {dt:%H:%M}" if zh else f"{dt:%Y-%m-%d %H:%M}"


def _label(b: datetime, u: datetime | None, g: str, zh: bool) -> str:
    d = b.date()
    if u is None or g in ("minute", "hour"):
        return _fmt_dt(b, zh)
    last = (u - _DAY).date() if u.time() == _MIDNIGHT else u.date()  # inclusive last day
    md, iso = f"{d.month}月{d.day}日–{last.month}月{last.day}日", f"{d} to {last}"
    if g == "day":
        return _fmt_day(d, zh)
    if g == "part_of_day":
        zh_name, en_name = _PARTS[_PART_BY_START.get(b.hour, "evening")][2:]
        return _fmt_day(d, zh) + (zh_name if zh else f" {en_name}")
    if g == "week":
        y, w, _ = d.isocalendar()
        return f"{y}年第{w}周（{md}）" if zh else f"week {w} of {y} ({iso})"
    if g == "month":
        return f"{d.year}年{d.month}月" if zh else f"{_MONTHS_EN[d.month - 1]} {d.year}"
    if g == "quarter":
        q = (d.month - 1) // 3 + 1
        return f"{d.year}年第{'一二三四'[q - 1]}季度（{md}）" if zh else f"Q{q} {d.year} ({iso})"
    if g == "year":
        return f"{d.year}年" if zh else str(d.year)
    days = b.time() == _MIDNIGHT and u.time() == _MIDNIGHT
    a, c = (_fmt_day(d, zh), _fmt_day(last, zh)) if days else (_fmt_dt(b, zh), _fmt_dt(u, zh))
    return f"{a}至{c}" if zh else f"{a} to {c}"


class _Ctx(NamedTuple):
    today: date
    now: datetime  # naive wall time in the user's zone
    anchor: datetime  # aware UTC
    tz: tzinfo
    tz_name: str


@dataclass
class _Piece:
    """A fragment; neighbouring day/part/clock fragments merge ("明天" "下午" "三点")."""

    day: date | None = None
    part: str | None = None
    clock: tuple[int, int, str | None] | None = None  # hour, minute, "a"/"p" meridiem
    whole: tuple[datetime, datetime | None, str] | None = None  # resolved, never merges
    start: int = 0
    end: int = 0
    bare: bool = False  # a weekday without this/next/下/本: dropped in a habitual clause
    yearless: bool = False  # a date without a year: recurring in a birthday clause
    lang: str | None = None  # set for a phrase found in an other-language stretch
    kept: bool = False  # said as a rhythm ("the first Tuesday of the month"): no date, no merge


def _mid(d: date) -> datetime:
    return datetime.combine(d, _MIDNIGHT)


def _monday(d: date) -> date:
    return d - timedelta(days=d.weekday())


def _add_months(d: date, n: int) -> date:
    y, m = divmod(d.month - 1 + n, 12)
    return date(d.year + y, m + 1, min(d.day, calendar.monthrange(d.year + y, m + 1)[1]))


def _period(unit: str, k: int, t: date) -> _Piece:
    """The week (Monday start), month, quarter or year ``k`` periods from the one holding t."""
    if unit == "week":
        b = _monday(t) + timedelta(weeks=k)
        return _Piece(whole=(_mid(b), _mid(b + timedelta(weeks=1)), "week"))
    n = {"month": 1, "quarter": 3, "year": 12}[unit]
    b = _add_months(date(t.year, t.month - (t.month - 1) % n, 1), n * k)
    return _Piece(whole=(_mid(b), _mid(_add_months(b, n)), unit))


def _end_of(unit: str, k: int, t: date) -> _Piece:
    """ "End of the month/week/year" is its last day: one day a memory can be checked on."""
    whole = _period(unit, k, t).whole
    assert whole is not None and whole[1] is not None
    return _Piece(day=(whole[1] - _DAY).date())


def _weekend(k: int, t: date) -> _Piece:
    sat = _monday(t) + timedelta(weeks=k, days=5)
    return _Piece(whole=(_mid(sat), _mid(sat + timedelta(days=2)), "span"))


def _nth_weekday(month: date | None, n: int, wd: int) -> _Piece:
    """The ``n``-th (1-based; -1 the last) weekday ``wd`` of the month holding ``month``: "4月的
    第一个周一", "the last Friday of next month". Without a month it is a rhythm ("每月第一个周二",
    "the first Tuesday of the month"), kept as said: no one date is right."""
    if month is None:
        return _Piece(kept=True)
    first = month.replace(day=1)
    if n < 0:
        last = _add_months(first, 1) - _DAY
        return _Piece(day=last - timedelta(days=(last.weekday() - wd) % 7))
    day = first + timedelta(days=(wd - first.weekday()) % 7, weeks=n - 1)
    return _Piece(day=day) if day.month == first.month else _Piece(kept=True)


def _weekday(wd: int, k: int | None, t: date) -> _Piece:
    """k=None: next occurrence on/after t; else weekday wd of the week k weeks away."""
    if k is None:
        return _Piece(day=t + timedelta(days=(wd - t.weekday()) % 7), bare=True)
    return _Piece(day=_monday(t) + timedelta(weeks=k, days=wd))


def _around(text: str, start: int, end: int, boundary: re.Pattern[str]) -> str:
    """The sentence or clause holding ``text[start:end]`` (up to 200 characters either side, so
    a long text stays linear), the fragment itself replaced by NUL."""
    a = max((m.end() for m in boundary.finditer(text, max(0, start - 200), start)), default=0)
    z = boundary.search(text, end, end + 200)
    return f"{text[max(a, start - 200) : start]}\x00{text[end : z.start() if z else end + 200]}"


def _before(wd: int, t: date) -> date:
    """The last weekday ``wd`` strictly before t: said on a Monday, "on Monday" in the past
    is a week ago (today would be "today")."""
    return t - timedelta(days=(t.weekday() - wd - 1) % 7 + 1)


def _yearless(t: date, month: int, day: int, year: str | None) -> _Piece:
    return _Piece(day=_closest(t, month, day, year), yearless=not year)


def _closest(t: date, month: int, day: int | None, year: str | None) -> date:
    """Without a year, the occurrence nearest the anchor: "1月5日" said on 28 Dec is January."""
    if year:
        return date(_int(year), month, day or 1)
    best = min((date(t.year + dy, month, day or 15) for dy in (-1, 0, 1)), key=lambda d: abs((d - t).days))
    return best if day else best.replace(day=1)


def _offset(n: float, unit: str, sign: int, c: _Ctx) -> _Piece:
    """ "In three months" is that day, clamped (30 Nov + 3 months = 28 Feb); hours a minute."""
    if unit in ("month", "year"):
        months = n * (12 if unit == "year" else 1)
        day = _add_months(c.today, sign * int(months)) + sign * round((months % 1) * 30) * _DAY
        return _Piece(day=day)
    minutes = n * {"minute": 1, "hour": 60, "day": 1440, "week": 10080}[unit]
    if minutes % 1440 == 0:
        return _Piece(day=c.today + timedelta(minutes=sign * minutes))
    at = (c.anchor + timedelta(minutes=sign * minutes)).astimezone(c.tz)
    return _Piece(whole=(at.replace(tzinfo=None, second=0, microsecond=0), None, "minute"))


def _hour(h: int, meridiem: str | None, part: str | None) -> int:
    """A bare 1-6 o'clock means afternoon ("明天三点开会"); a part of day shifts the hour."""
    if meridiem:
        return h % 12 + (12 if meridiem == "p" else 0)
    if (part == "evening" and h <= 12) or (part in ("afternoon", "noon", None) and 1 <= h <= 6):
        return h + 12
    return h % 24 if part == "early" else h


_ZH_NUM = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"〇": 0, "两": 2}


_EN_NUM = {
    w: i + 1
    for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split(" "))
}


def _int(s: str) -> int:
    """Digits, Chinese numerals below 100 (or digit-wise years), English number words."""
    s = " ".join(s.lower().split())
    if s.isascii() and s.isdigit():
        return int(s)
    if s in ("a", "an") or "couple" in s:
        return 2 if "couple" in s else 1
    if s in _EN_NUM:
        return _EN_NUM[s]
    if "十" in s:
        hi, _, lo = s.partition("十")
        return (_ZH_NUM[hi] if hi else 1) * 10 + (_ZH_NUM[lo] if lo else 0)
    return int("".join(str(_ZH_NUM[ch]) for ch in s))


_ZWD = {c: i for i, c in enumerate("一二三四五六日")} | {"天": 6, "7": 6}


_ZWD |= {str(i + 1): i for i in range(6)}


_NOT_NUM = r"(?<![\d零〇一二两三四五六七八九十几每])"


# a label's own weekday ("2026年12月2日（周三）") is part of the date: rewriting stays idempotent
_WD_NOTE = r"(?:（周[一二三四五六日]）| \((?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\))?"


_Handler = Callable[[re.Match[str], _Ctx], _Piece | None]


def _day(c: _Ctx, offset: int, part: str | None = None) -> _Piece:
    return _Piece(day=c.today + offset * _DAY, part=part)


_EN_BOUND_WORD = re.compile(r"(?i:by|before|until|till)\b")


_EN_SINCE = re.compile(r"\bsince\s+$", re.I)
