"""Chinese time expressions: word tables and the rules that read them."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

from memquill.text import jieba_posseg
from memquill.write.timenorm.base import (
    _NOT_NUM,
    _WD_NOTE,
    _ZWD,
    _add_months,
    _before,
    _closest,
    _Ctx,
    _day,
    _end_of,
    _Handler,
    _int,
    _nth_weekday,
    _offset,
    _period,
    _Piece,
    _weekday,
    _weekend,
    _yearless,
)
from memquill.write.timenorm.tense import zh_past

# fmt: off
_ZN = r"(\d{1,4}|[零〇一二两三四五六七八九十]{1,5})"


_ZREL = r"(?<!一)(上上|下下|上|下|本|这)个?"  # "一下周报" is 一下 + 周报


_ZK = {"上上": -2, "上": -1, "本": 0, "这": 0, "下": 1, "下下": 2,
       "今": 0, "明": 1, "去": -1, "前": -2, "后": 2}


_ZUNIT = {"天": "day", "周": "week", "星期": "week", "礼拜": "week", "月": "month", "年": "year",
          "季": "quarter", "季度": "quarter", "小时": "hour", "钟头": "hour", "分钟": "minute"}


_ZDAYS = {"大后天": (3, None), "大前天": (-3, None), "今天": (0, None), "今日": (0, None),
          "明天": (1, None), "明日": (1, None), "后天": (2, None), "昨天": (-1, None),
          "昨日": (-1, None), "前天": (-2, None), "今早": (0, "morning"), "今晨": (0, "morning"),
          "今晚": (0, "evening"), "今夜": (0, "evening"), "明早": (1, "morning"),
          "明晚": (1, "evening"), "昨晚": (-1, "evening"), "昨夜": (-1, "evening")}


_ZPARTS = {"凌晨": "early", "半夜": "early", "早上": "morning", "早晨": "morning",
           "清晨": "morning", "上午": "morning", "中午": "noon", "下午": "afternoon",
           "傍晚": "evening", "晚上": "evening", "夜里": "evening"}


_ZY = r"(今|明|去|前|后)年\s*"


def _rel_year(m: re.Match[str], c: _Ctx) -> int:
    return c.today.year + _ZK[m[1]]


def _word_part(m: re.Match[str]) -> bool:
    """Does the match start inside a word jieba reads across it? "税前年薪" is 税前 + 年薪
    (pre-tax salary, not the year before last); "我前年去过" is 我 + 前年."""
    at = 0
    for word in jieba_posseg().cut(m.string):
        if at < m.start() < at + len(word.word):
            return True
        at += len(word.word)
    return False


def _zh_offset(m: re.Match[str], c: _Ctx) -> _Piece | None:
    n, half, unit, way = m.group(1, 3, 4, 5)
    if not (n or half) or (unit == "月" and "个" not in m[0]):
        return None  # "3月前" is "before March", not "three months ago"
    amount = (_int(n) if n else 0) + (0.5 if half else 0)
    return _offset(amount, _ZUNIT[unit], -1 if way == "前" else 1, c)


def _zh_weekday(m: re.Match[str], c: _Ctx) -> _Piece:
    """上周三/下周三/本周三 as said; a bare 周三 is the next one, or the last one before today in a
    clause told in the past ("周一入职了")."""
    wd = _ZWD[m[2]]
    if m[1] is None and zh_past(m.string, m.start(), m.end()):
        return _Piece(day=_before(wd, c.today), bare=True)
    return _weekday(wd, None if m[1] is None else _ZK[m[1]], c.today)


def _zh_clock(m: re.Match[str], c: _Ctx) -> _Piece | None:
    h, frac, mi = m.group(1, 2, 3)
    minute = {"半": 30, "一刻": 15, "三刻": 45}.get(frac or "", _int(mi) if mi else 0)
    return _Piece(clock=(_int(h), minute, None)) if _int(h) <= 24 and minute < 60 else None


def _zh_nth_weekday(m: re.Match[str], c: _Ctx) -> _Piece:
    """ "4月的第一个周一", "下个月最后一个周五" are one date; "每月第一个周二" (or no month
    said: "第一个周一") is a rhythm, kept as said."""
    rel, year, mon, end, nth, wd = m.group(1, 2, 3, 4, 5, 6)
    n = -1 if nth is None else _int(nth)
    if mon is not None:
        month: date | None = _closest(c.today, _int(mon), None, year)
    elif end is not None:
        month = c.today.replace(day=1)
    elif rel is None or rel.startswith("每"):
        month = None
    else:
        month = _add_months(c.today.replace(day=1), _ZK[rel.rstrip("个")])
    return _nth_weekday(month, n, _ZWD[wd])


_ZH_RULES: list[tuple[str, _Handler]] = [
    (_NOT_NUM + "(" + "|".join(_ZDAYS) + ")", lambda m, c: _day(c, *_ZDAYS[m[1]])),
    (_NOT_NUM + f"(?:{_ZREL})?(?:周|星期|礼拜)([一二三四五六日天1-7])(?![次个])",
     _zh_weekday),
    (r"(?:(每个?|上上个?|下下个?|上个?|下个?|这个?|本)月|(?<!\d)(?:(\d{4}|[零〇一二三四五六七八九]{4})年)?"
     r"(\d{1,2}|十[一二]?|[一二三四五六七八九])月份?|(月[底末]))?的?(?:第([一二三四五1-5])个|最后一个)"
     r"(?:周|星期|礼拜)([一二三四五六日天1-7])", _zh_nth_weekday),
    # not 周期/周报/周刊/周边/周围 (but 周报名 is "sign up this week")
    (_ZREL + "(周|星期|礼拜|月|季度|季)(?![期节末底边围]|报(?![名销到考])|刊(?!登))",
     lambda m, c: _period(_ZUNIT[m[2]], _ZK[m[1]], c.today)),
    (_ZREL + "周末", lambda m, c: _weekend(_ZK[m[1]], c.today)),  # a bare 周末 is a habit
    (f"(?:{_ZREL})?月[底末]", lambda m, c: _end_of("month", _ZK.get(m[1] or "本", 0), c.today)),
    (r"(今|明|去)?年年?[底末]", lambda m, c: _end_of("year", _ZK.get(m[1] or "今", 0), c.today)),
    # a month (and day) of a relative year is one date in that year ("今年3月" was 今年 and the
    # nearest March apart: "2026年2027年3月")
    (rf"{_ZY}{_ZN}月{_ZN}[日号]{_WD_NOTE}",
     lambda m, c: None if _word_part(m) else _Piece(day=date(_rel_year(m, c), _int(m[2]), _int(m[3])))),
    (rf"{_ZY}{_ZN}月份?(?![\d零〇一二两三四五六七八九十底末初日号])",
     lambda m, c: None if _word_part(m) else _period("month", 0, date(_rel_year(m, c), _int(m[2]), 1))),
    (rf"{_ZY}{_ZN}月[底末]",
     lambda m, c: None if _word_part(m) else _end_of("month", 0, date(_rel_year(m, c), _int(m[2]), 1))),
    # not an age said after it ("我今年28，在杭州…", "今年五岁了"): 今年 there is no date
    (r"(今|明|去|前|后)年(?![底末])(?!\s*(?:\d{1,3}|[一二两三四五六七八九十]{1,3})(?:周?岁|了|[，,。！!？?]|$))",
     lambda m, c: None if _word_part(m) else _period("year", _ZK[m[1]], c.today)),
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
# fmt: on
