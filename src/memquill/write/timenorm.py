"""Relative time expressions -> absolute instants in the user's timezone (DESIGN §4 rule 4).

A memory that says "next Wednesday" is wrong a week later, so every relative phrase is
resolved against the *event's* instant (never the wall clock) in the *user's* zone and
rewritten to an absolute label; the mention keeps the original wording.

Own compiled regexes cover the frequent Chinese and English patterns with the semantics of
docs/decisions/0002-time-normalisation.md; jionlp is a lazy fallback for the Chinese long
tail (festivals, "下个月15号"). dateparser is not used: ms per call, and it reads "may",
"we" and "now" as dates.
"""

from __future__ import annotations

import calendar
import contextlib
import functools
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any, NamedTuple

from memquill.clock import as_utc, zone
from memquill.text import detect_language, is_cjk

__all__ = ["TimeMention", "detect_language", "find_times", "may_contain_time", "rewrite"]

# fmt: off
_DAY, _MIDNIGHT = timedelta(days=1), time()
_WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December")
# part of day -> (start hour, end hour, zh label, en label); labels are found by start hour
_PARTS = {"early": (0, 6, "凌晨", "early morning"), "morning": (6, 12, "上午", "morning"),
          "noon": (11, 14, "中午", "noon"), "afternoon": (12, 18, "下午", "afternoon"),
          "evening": (18, 24, "晚上", "evening")}
_PART_BY_START = {v[0]: k for k, v in _PARTS.items()}
_PREP = {"week": "in", "month": "in", "quarter": "in", "year": "in", "span": "from"}
# fmt: on


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


# ---------------------------------------------------------------- calendar arithmetic


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


def _weekday(wd: int, k: int | None, t: date) -> _Piece:
    """k=None: next occurrence on/after t; else weekday wd of the week k weeks away."""
    if k is None:
        return _Piece(day=t + timedelta(days=(wd - t.weekday()) % 7), bare=True)
    return _Piece(day=_monday(t) + timedelta(weeks=k, days=wd))


def _yearless(t: date, month: int, day: int, year: str | None) -> _Piece:
    return _Piece(day=_closest(t, month, day, year), yearless=not year)


def _closest(t: date, month: int, day: int | None, year: str | None) -> date:
    """Without a year, the occurrence nearest the anchor: "1月5日" said on 28 Dec is January."""
    if year:
        return date(_int(year), month, day or 1)
    best = min((date(t.year + dy, month, day or 15) for dy in (-1, 0, 1)),
               key=lambda d: abs((d - t).days))  # fmt: skip
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
_EN_NUM = {w: i + 1 for i, w in enumerate("one two three four five six seven eight nine ten "
                                          "eleven twelve".split(" "))}  # fmt: skip


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


# ---------------------------------------------------------------- rules

# fmt: off
_ZN = r"(\d{1,4}|[零〇一二两三四五六七八九十]{1,5})"
_ZREL = r"(?<!一)(上上|下下|上|下|本|这)个?"  # "一下周报" is 一下 + 周报
_ZK = {"上上": -2, "上": -1, "本": 0, "这": 0, "下": 1, "下下": 2,
       "今": 0, "明": 1, "去": -1, "前": -2, "后": 2}
_ZUNIT = {"天": "day", "周": "week", "星期": "week", "礼拜": "week", "月": "month", "年": "year",
          "季": "quarter", "季度": "quarter", "小时": "hour", "钟头": "hour", "分钟": "minute"}
_ZWD = {c: i for i, c in enumerate("一二三四五六日")} | {"天": 6, "7": 6}
_ZWD |= {str(i + 1): i for i in range(6)}
_ZDAYS = {"大后天": (3, None), "大前天": (-3, None), "今天": (0, None), "今日": (0, None),
          "明天": (1, None), "明日": (1, None), "后天": (2, None), "昨天": (-1, None),
          "昨日": (-1, None), "前天": (-2, None), "今早": (0, "morning"), "今晨": (0, "morning"),
          "今晚": (0, "evening"), "今夜": (0, "evening"), "明早": (1, "morning"),
          "明晚": (1, "evening"), "昨晚": (-1, "evening"), "昨夜": (-1, "evening")}
_ZPARTS = {"凌晨": "early", "半夜": "early", "早上": "morning", "早晨": "morning",
           "清晨": "morning", "上午": "morning", "中午": "noon", "下午": "afternoon",
           "傍晚": "evening", "晚上": "evening", "夜里": "evening"}
_EN_DAYS = {"the day after tomorrow": (2, None), "the day before yesterday": (-2, None),
            "today": (0, None), "tonight": (0, "evening"), "tomorrow": (1, None),
            "yesterday": (-1, None), "last night": (-1, "evening"),
            "this morning": (0, "morning"), "this afternoon": (0, "afternoon"),
            "this evening": (0, "evening")}
_EN_K = {"next": 1, "last": -1, "past": -1, "this": None, "coming": None, "the": 0}
_EN_N = (r"(\d{1,3}|half\s+an?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
         r"|(?:a\s+)?couple\s+of)")
_EN_UNIT = r"(minute|hour|day|week|month|year)s?"
_MON = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|(?-i:May|MAY)|june?|july?|aug(?:ust)?"
        r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")
_ORD = r"(\d{1,2})(?:st|nd|rd|th)?\b"
_NOT_NUM = r"(?<![\d零〇一二两三四五六七八九十几每])"
# a label's own weekday ("2026年12月2日（周三）") is part of the date: rewriting stays idempotent
_WD_NOTE = r"(?:（周[一二三四五六日]）| \((?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\))?"
# fmt: on
_Handler = Callable[[re.Match[str], _Ctx], _Piece | None]


def _day(c: _Ctx, offset: int, part: str | None = None) -> _Piece:
    return _Piece(day=c.today + offset * _DAY, part=part)


def _zh_offset(m: re.Match[str], c: _Ctx) -> _Piece | None:
    n, half, unit, way = m.group(1, 3, 4, 5)
    if not (n or half) or (unit == "月" and "个" not in m[0]):
        return None  # "3月前" is "before March", not "three months ago"
    amount = (_int(n) if n else 0) + (0.5 if half else 0)
    return _offset(amount, _ZUNIT[unit], -1 if way == "前" else 1, c)


def _zh_clock(m: re.Match[str], c: _Ctx) -> _Piece | None:
    h, frac, mi = m.group(1, 2, 3)
    minute = {"半": 30, "一刻": 15, "三刻": 45}.get(frac or "", _int(mi) if mi else 0)
    return _Piece(clock=(_int(h), minute, None)) if _int(h) <= 24 and minute < 60 else None


def _en_n(s: str) -> float:
    return 0.5 if s.lower().startswith("half") else _int(s)


def _mon(s: str) -> int:
    return [n[:3] for n in _MONTHS_EN].index(s[:3].title()) + 1


def _en_period(m: re.Match[str], c: _Ctx) -> _Piece | None:
    k, unit = _EN_K[m[1].split()[-1].lower()], m[2].lower()
    if k == 0:
        return None  # "the month" is no time; "(over) the weekend" may be the last or the next
    return _weekend(k or 0, c.today) if unit == "weekend" else _period(unit, k or 0, c.today)


def _en_weekday(m: re.Match[str], c: _Ctx) -> _Piece:
    """ "since Monday" is the last Monday (today counts); other bare weekdays the next one."""
    wd, rel = _WEEKDAYS_EN.index(m[2].title()), (m[1] or "").lower()
    if not rel and _EN_SINCE.search(m.string, max(0, m.start() - 10), m.start()):
        return _Piece(day=c.today - timedelta(days=(c.today.weekday() - wd) % 7), bare=True)
    return replace(_weekday(wd, _EN_K[rel or "this"], c.today), bare=not rel)


def _en_clock(m: re.Match[str], c: _Ctx) -> _Piece | None:
    h, mi, mer = int(m[1]), int(m[2] or 0), (m[3] or "").lower() or None
    return _Piece(clock=(h, mi, mer)) if h <= (12 if mer else 23) else None


# fmt: off
_ZH_RULES: list[tuple[str, _Handler]] = [
    (_NOT_NUM + "(" + "|".join(_ZDAYS) + ")", lambda m, c: _day(c, *_ZDAYS[m[1]])),
    (_NOT_NUM + f"(?:{_ZREL})?(?:周|星期|礼拜)([一二三四五六日天1-7])(?![次个])",
     lambda m, c: _weekday(_ZWD[m[2]], None if m[1] is None else _ZK[m[1]], c.today)),
    # not 周期/周报/周刊/周边/周围 (but 周报名 is "sign up this week")
    (_ZREL + "(周|星期|礼拜|月|季度|季)(?![期节末底边围]|报(?![名销到考])|刊(?!登))",
     lambda m, c: _period(_ZUNIT[m[2]], _ZK[m[1]], c.today)),
    (_ZREL + "周末", lambda m, c: _weekend(_ZK[m[1]], c.today)),  # a bare 周末 is a habit
    (f"(?:{_ZREL})?月[底末]", lambda m, c: _end_of("month", _ZK.get(m[1] or "本", 0), c.today)),
    (r"(今|明|去)?年年?[底末]", lambda m, c: _end_of("year", _ZK.get(m[1] or "今", 0), c.today)),
    (r"(今|明|去|前|后)年(?![底末])", lambda m, c: _period("year", _ZK[m[1]], c.today)),
    (rf"(?<!\d)(?:{_ZN}年)?{_ZN}月{_ZN}[日号]{_WD_NOTE}",
     lambda m, c: _yearless(c.today, _int(m[2]), _int(m[3]), m[1])),
    (rf"(?<!\d)(?:{_ZN}年)?{_ZN}月份?(?![\d零〇一二两三四五六七八九十底末初])",
     lambda m, c: replace(_period("month", 0, _closest(c.today, _int(m[2]), None, m[1])),
                          yearless=not m[1])),
    (rf"(?<!\d)(?:{_ZN}年)?{_ZN}月[底末]",
     lambda m, c: _end_of("month", 0, _closest(c.today, _int(m[2]), None, m[1]))),
    (r"(?<!\d)(\d{4}|[零〇一二三四五六七八九]{4})年(?!年?[底末])",
     lambda m, c: _period("year", 0, date(_int(m[1]), 1, 1))),
    (rf"(?:{_ZN}年)?第([一二三四1-4])个?季度",
     lambda m, c: _period("quarter", 0, _closest(c.today, 3 * _int(m[2]) - 2, None, m[1]))),
    (_NOT_NUM + _ZN + r"?(个)?(半)?个?(天|周|星期|礼拜|月|年|小时|钟头|分钟)[以之]?([后前])",
     _zh_offset),
    ("(" + "|".join(_ZPARTS) + ")", lambda m, c: _Piece(part=_ZPARTS[m[1]])),
    (rf"(?<![\d.]){_ZN}点(?:(半|一刻|三刻)|{_ZN}分?)?", _zh_clock),
    (r"(?<!\d)([01]?\d|2[0-3])[:：]([0-5]\d)(?!\d)",
     lambda m, c: _Piece(clock=(int(m[1]), int(m[2]), None))),
]
_EN_RULES: list[tuple[str, _Handler]] = [
    (r"\b(" + "|".join(k.replace(" ", r"\s+") for k in _EN_DAYS) + r")\b",
     lambda m, c: _day(c, *_EN_DAYS[" ".join(m[1].lower().split())])),
    (r"(?<!every\s)\b(?:(next|last|this|coming|past)\s+)?(" + "|".join(_WEEKDAYS_EN) + r")\b",
     _en_weekday),
    (r"\b(next|last|this|(?:the\s+)?coming|(?:the\s+)?past|the)\s+"
     r"(week|month|quarter|year|weekend)\b", _en_period),
    (r"\b(?:the\s+)?end\s+of\s+(?:(the|this|next|last)\s+)?(week|month|quarter|year)\b",
     lambda m, c: _end_of(m[2].lower(), _EN_K.get((m[1] or "").lower()) or 0, c.today)),
    (rf"\bin\s+{_EN_N}\s+{_EN_UNIT}(?:'?\s+time)?\b",
     lambda m, c: _offset(_en_n(m[1]), m[2].lower(), 1, c)),
    (rf"\b{_EN_N}\s+{_EN_UNIT}\s+(ago|from\s+now|later)\b",
     lambda m, c: _offset(_en_n(m[1]), m[2].lower(), -1 if m[3].lower() == "ago" else 1, c)),
    (rf"\b{_ORD}\s+(?:of\s+)?{_MON}(?:,?\s+(\d{{4}})\b)?",
     lambda m, c: _yearless(c.today, _mon(m[2]), int(m[1]), m[3])),
    (rf"\b{_MON}\s+{_ORD}(?:,?\s+(\d{{4}})\b)?",
     lambda m, c: _yearless(c.today, _mon(m[1]), int(m[2]), m[3])),
    (rf"\b{_MON},?\s+(\d{{4}})\b",
     lambda m, c: _period("month", 0, date(int(m[2]), _mon(m[1]), 1))),
    (r"\b(?:in\s+the\s+)?(morning|afternoon|evening|night)\b",
     lambda m, c: _Piece(part=m[1].lower().replace("night", "evening"))),
    (r"\b(?:at\s+)?(\d{1,2})(?::([0-5]\d))?\s*([ap])\.?m\b", _en_clock),
    (r"\b(?:at\s+)?([01]?\d|2[0-3]):([0-5]\d)()\b", _en_clock),
    (r"\bat\s+(\d{1,2})()()\b(?![:.]\d)", _en_clock),
    (r"\b(?:at\s+)?(?:noon|midday)\b", lambda m, c: _Piece(clock=(12, 0, "p"))),
]
_SHARED_RULES: list[tuple[str, _Handler]] = [
    (r"(?<!\d)(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?!\d)" + _WD_NOTE,
     lambda m, c: _Piece(day=date(int(m[1]), int(m[3]), int(m[4])))),
    (r"(?<![A-Za-z0-9])[Qq]([1-4])(?:\s*(\d{4}))?(?![A-Za-z0-9])",
     lambda m, c: _period("quarter", 0, _closest(c.today, 3 * int(m[1]) - 2, None, m[2]))),
]
_RULES = {"zh": [(re.compile(p), h) for p, h in _ZH_RULES + _SHARED_RULES],
          "en": [(re.compile(p, re.I), h) for p, h in _EN_RULES + _SHARED_RULES]}
_GAP = {"zh": re.compile(r"\s*的?\s*"), "en": re.compile(r"[\s,]*(?:on\s+)?", re.I)}
_ZH_BEFORE = re.compile(r"\s*(?:之前|以前|前)(?![往进面后])")
_EN_BEFORE = re.compile(r"\b(by|before|until|till)\s+$", re.I)
_EN_BOUND_WORD = re.compile(r"(?i:by|before|until|till)\b")
_EN_SINCE = re.compile(r"\bsince\s+$", re.I)
_EN_PREP = re.compile(r"\b(?:on|at|by|before|after|until|till|from|since|for|of|in|to|through"
                      r"|thru|between|and|or|during|over|around|than|except)\s+$", re.I)
_EN_WORD_BEFORE = re.compile(r"[^\W\u3400-\u9fff\uf900-\ufaff]\s+$")  # a Latin word, a space
# "on"/"in" is added only where the phrase ends the clause or a connective follows it: never
# inside a verb phrase ("taking Friday off") or before a noun ("the next Friday meeting")
_EN_CLAUSE_GOES_ON = re.compile(
    r"\s*(?:$|[,.;:!?)\]\"”—–]|-\s)|\s+(?:at|with|for|to|and|or|but|so|if|when|then|because|unless"
    r"|after|before|until|till|since|while|in|on|from|around|about|as|via|by|near|once)\b", re.I)
# habits: a bare weekday in such a clause is no date ("我周六一般不工作", "I usually rest on Sunday")
_HABIT = {
    "zh": re.compile(r"一般|通常|都|每|总是|总会|经常|常常|往往|平时|平常|向来|一向|老是|习惯|喜欢"
                     r"|如果是|若是|凡是|只要是|逢"),
    "en": re.compile(r"\b(?:usually|always|often|normally|generally|typically|sometimes|never"
                     r"|rarely|seldom|mostly|every|each|whenever|tend\s+to|used\s+to)\b"
                     r"|\b(?:if|when)\s+it(?:'s|\s+is)\b|\ban?\s+\x00"
                     r"|\x00\s*(?:mornings|afternoons|evenings|nights)\b", re.I)}
_RECURRING = re.compile(r"生日|纪念日|周年|忌日|每年|年年|寿辰|(?i:\b(?:birthdays?|b-?day|"
                        r"anniversar(?:y|ies)|every\s+year|each\s+year|annually|yearly)\b)")
_SENTENCE_END = re.compile(r"[。；！？;!?\n]|\.(?!\d)")
_CLAUSE_END = re.compile(r"[，。；！？,;!?\n]|\.(?!\d)")
_SPACES = re.compile(r"\s*")
# the other script's stretches of a mixed turn: English words (with digits: "3pm") in a Chinese
# text, CJK runs (with digits: "5月8日", "下午3点") in an English one
_STRETCH = {"en": re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9\s,.:'’/&-]*[A-Za-z0-9.])?"),
            "zh": re.compile(r"[0-9]*[\u3400-\u9fff\uf900-\ufaff](?:[\u3400-\u9fff\uf900-\ufaff"
                             r"0-9:：\s]*[\u3400-\u9fff\uf900-\ufaff0-9])?")}
_LATIN_WORD = re.compile(r"[A-Za-z]{2}")
_TRIGGER = re.compile(
    r"[天日周月年季点晚早午夜底晨节旦夕旬]|[\d一二两三四五六七八九十]号|星期|礼拜|小时|钟头|分钟"
    r"|\d[:：]\d|\d{4}[-/]\d|[Qq][1-4]"
    r"|(?i:\b(?:to(?:day|night|morrow)|yesterday|(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"|week|month|quarter|year|morning|afternoon|evening|night|noon|midday|minute|hour|day"
    r"|ago|later|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\d\s*[ap]\.?m\b)")
# jionlp (~2.5 ms) only for what our rules miss: not for 手机号/账号/型号, 细节/节目, 小时候
_ZH_FALLBACK = re.compile(r"(?<![细环章关情季调礼音小])节(?![目省奏约能点课拍制食气俭])|元旦|除夕"
                          r"|[\d一二两三四五六七八九十]号|旬|小时(?!候)|钟头")
_WEEKDAY_WORD = re.compile(r"(?:周|星期|礼拜)[一二三四五六日天1-7末]")
_ZH_NO_DAY = re.compile("(?:" + "|".join(_ZPARTS)
                        + r"|[早晚\d零〇一二两三四五六七八九十点半分刻钟整:：\s])+")
# fmt: on


# ---------------------------------------------------------------- public API


def may_contain_time(text: str) -> bool:
    """One compiled search; False means no rule could match, so no parser runs at all."""
    return _TRIGGER.search(text) is not None


def find_times(text: str, anchor: datetime, timezone: str, language: str | None = None) -> list[TimeMention]:
    """All time expressions in ``text``, resolved against ``anchor`` in ``timezone``.

    ``language`` (default: detected) picks the rules for the whole text; stretches in the
    other script of a mixed turn get their own language's rules too (``TimeMention.language``).
    """
    tz, utc = zone(timezone), as_utc(anchor)
    if not isinstance(text, str) or not may_contain_time(text):
        return []
    now = utc.astimezone(tz).replace(tzinfo=None)
    c = _Ctx(now.date(), now, utc, tz, timezone)
    lang = "zh" if (language or detect_language(text)) == "zh" else "en"
    found = _scan(text, c, lang)
    if _ZH_FALLBACK.search(text) and (lang == "zh" or is_cjk(text)):
        found = _merge_fallback(found, _jionlp_mentions(text, c, None if lang == "zh" else "zh"))
    return found


def rewrite(text: str, mentions: list[TimeMention], language: str) -> str:
    """Each mention replaced by its absolute label: stored content never says "next Wednesday".

    A recurring date ("我的生日是5月20日") keeps its wording: no single year is right.
    """
    out, pos = [], 0
    for m in sorted(mentions, key=lambda x: x.start):
        if m.start < pos or text[m.start : m.end] != m.text or m.recurring:
            continue  # overlapping or stale mention: keep the original wording
        out += [text[pos : m.start], _replacement(text, m, m.language or language)]
        pos = m.end
    return "".join(out) + text[pos:]


def _replacement(text: str, m: TimeMention, language: str) -> str:
    """English needs a preposition where the relative phrase had none ("next Wednesday")."""
    label, before = m.label(language), text[max(0, m.start - 16) : m.start]
    if language == "zh" or m.bound or text.startswith("'s", m.end) or label == m.text:
        return label
    if not _EN_WORD_BEFORE.search(before) or _EN_PREP.search(before):
        return label  # sentence start, after punctuation, or already "on"/"by"/...
    if not _EN_CLAUSE_GOES_ON.match(text, m.end):
        return label  # the object of a verb or a modifier: "taking Friday off"
    return f"{_PREP.get(m.granularity, 'on')} {label}"


# ---------------------------------------------------------------- engine


def _mention(text: str, start: int, end: int, rng: tuple[Any, ...], c: _Ctx, **kw: Any) -> TimeMention:
    b, u, g, *bound = rng
    b = b.replace(tzinfo=c.tz).astimezone(UTC)
    u = None if u is None else u.replace(tzinfo=c.tz).astimezone(UTC)
    return TimeMention(text[start:end], start, end, b, u, g, c.tz_name, *bound, **kw)


def _scan(text: str, c: _Ctx, lang: str) -> list[TimeMention]:
    """Match every rule, keep the longest non-overlapping fragments, merge neighbours."""
    pieces, other = _pieces(text, 0, c, lang, None), "en" if lang == "zh" else "zh"
    for st in _STRETCH[other].finditer(text):
        if other == "zh" or _LATIN_WORD.search(st[0]):
            pieces += _pieces(st[0], st.start(), c, other, other)
    pieces.sort(key=lambda p: (p.start, p.start - p.end, p.lang is None))  # a tie: the stretch's
    kept: list[_Piece] = []
    for p in pieces:
        if kept and p.start < kept[-1].end:
            continue
        if kept and (j := _join(text, kept[-1], p, lang)):
            kept[-1] = j
        else:
            kept.append(p)
    return [s for p in kept if (s := _resolve(text, p, c, p.lang or lang)) is not None]


def _pieces(text: str, offset: int, c: _Ctx, lang: str, tag: str | None) -> list[_Piece]:
    """Every rule's fragments in ``text`` (a stretch starting at ``offset``), in text offsets."""
    out = []
    for rx, handler in _RULES[lang]:
        for m in rx.finditer(text):
            try:
                p = handler(m, c)
            except (ValueError, OverflowError, KeyError, IndexError, TypeError):
                p = None  # an impossible date ("2月30日") is no mention
            if p is not None:
                out.append(replace(p, start=offset + m.start(), end=offset + m.end(), lang=tag))
    return out


def _join(text: str, a: _Piece, b: _Piece, lang: str) -> _Piece | None:
    """Neighbours merge across their language's gap; across languages, only across spaces."""
    same = a.lang == b.lang
    if not (_GAP[a.lang or lang] if same else _SPACES).fullmatch(text, a.end, b.start):
        return None
    clash = any(None not in (x, y) and x != y
                for x, y in ((a.day, b.day), (a.part, b.part), (a.clock, b.clock)))  # fmt: skip
    if a.whole or b.whole or clash:
        return None
    return _Piece(a.day or b.day, a.part or b.part, a.clock or b.clock, None, a.start, b.end,
                  a.bare or b.bare, a.yearless or b.yearless, a.lang if same else None)  # fmt: skip


def _resolve(text: str, p: _Piece, c: _Ctx, lang: str) -> TimeMention | None:
    """A fragment group becomes a mention; a clock or part of day without a day is dropped,
    and so is a bare weekday in a habitual sentence ("我周六一般不工作")."""
    try:
        rng = _range(p)
    except (ValueError, OverflowError):
        return None
    if rng is None or (p.bare and _HABIT[lang].search(_around(text, p, _SENTENCE_END))):
        return None
    start, end, bound = p.start, p.end, None
    if lang == "zh" and (z := _ZH_BEFORE.match(text, end)):
        end, bound = z.end(), "by"
    elif lang == "en" and (e := _EN_BEFORE.search(text, max(0, start - 8), start)):
        start, bound = e.start(), "before" if e[1].lower() == "before" else "by"
    if bound is None:
        again = p.yearless and _RECURRING.search(_around(text, p, _CLAUSE_END)) is not None
        return _mention(text, start, end, rng, c, recurring=again, language=p.lang)
    b, u, _ = rng
    target = b if u is None or bound == "before" else u
    begin = c.now if c.now < target else _mid((target - timedelta(microseconds=1)).date())
    return _mention(text, start, end, (begin, target, "span", bound), c, language=p.lang)


def _around(text: str, p: _Piece, boundary: re.Pattern[str]) -> str:
    """The sentence or clause holding the fragment (up to 200 characters either side, so a
    long text stays linear), the fragment itself replaced by NUL."""
    a = max((m.end() for m in boundary.finditer(text, max(0, p.start - 200), p.start)), default=0)
    z = boundary.search(text, p.end, p.end + 200)
    return f"{text[max(a, p.start - 200) : p.start]}\x00{text[p.end : z.start() if z else p.end + 200]}"


def _range(p: _Piece) -> tuple[datetime, datetime | None, str] | None:
    if p.whole or p.day is None:
        return p.whole
    d0 = _mid(p.day)
    if p.clock:
        h, mi, mer = p.clock
        at = d0 + timedelta(hours=_hour(h, mer, p.part), minutes=mi)
        return at, None, "minute" if mi else "hour"
    if p.part:
        h0, h1 = _PARTS[p.part][:2]
        return d0 + timedelta(hours=h0), d0 + timedelta(hours=h1), "part_of_day"
    return d0, d0 + _DAY, "day"


@functools.cache
def _jionlp() -> Any:
    """Imported on first need only: ~0.4 s, and a stdout banner that must not leak."""
    with contextlib.redirect_stdout(io.StringIO()):
        import jionlp
    return jionlp


def _jionlp_mentions(text: str, c: _Ctx, language: str | None) -> list[TimeMention]:
    """Chinese long tail; a library failure means "no mention", never an exception."""
    base = {k: getattr(c.now, k) for k in ("year", "month", "day", "hour", "minute", "second")}
    try:
        found = _jionlp().ner.extract_time(text, time_base=base)
    except Exception:
        return []
    ours = [w.span() for w in _WEEKDAY_WORD.finditer(text)]  # jionlp pins habits ("周六都")
    out = []
    for f in found:
        try:
            if f["type"] not in ("time_point", "time_span") or _ZH_NO_DAY.fullmatch(f["text"]):
                continue  # periods, deltas, and a bare "晚上八点" (no day said) are not stored
            start, end = f["offset"]
            if f["detail"]["definition"] != "accurate" or any(a < end and start < z for a, z in ours):
                continue
            lo, hi = (datetime.strptime(t, "%Y-%m-%d %H:%M:%S") for t in f["detail"]["time"])
            rng = _classify(lo, hi + timedelta(seconds=1))
            out.append(_mention(text, start, end, rng, c, language=language))
        except (KeyError, TypeError, ValueError, IndexError):
            continue  # "-inf" bounds and malformed items
    return out


def _classify(b: datetime, u: datetime) -> tuple[datetime, datetime | None, str]:
    if u - b == timedelta(hours=1) and b.minute == 0:
        return b, None, "hour"
    if u - b == _DAY and b.time() == _MIDNIGHT:
        return b, u, "day"
    return b, u, "span"


def _merge_fallback(mine: list[TimeMention], extra: list[TimeMention]) -> list[TimeMention]:
    """Own rules win; a jionlp mention joins if it overlaps none or strictly contains them."""
    out = list(mine)
    for e in extra:
        hit = [s for s in out if s.start < e.end and e.start < s.end]
        if all(e.start <= s.start and s.end <= e.end and s.text != e.text for s in hit):
            out = [s for s in out if s not in hit] + [e]
    return sorted(out, key=lambda s: s.start)
