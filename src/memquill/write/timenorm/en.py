"""English time expressions: word tables and the rules that read them."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta

from memquill.write.timenorm.base import (
    _EN_SINCE,
    _MONTHS_EN,
    _WEEKDAYS_EN,
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
from memquill.write.timenorm.tense import en_past

# fmt: off
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
    """ "since Monday" is the last Monday (today counts), and so is "this Monday" in a past
    clause; a bare weekday in a past clause ("Started at Tidepool on Monday") is the last one
    before today; other bare weekdays the next one."""
    wd, rel = _WEEKDAYS_EN.index(m[2].title()), (m[1] or "").lower()
    since = not rel and _EN_SINCE.search(m.string, max(0, m.start() - 10), m.start())
    if since or (rel == "this" and en_past(m.string, m.start(), m.end())):
        return _Piece(day=c.today - timedelta(days=(c.today.weekday() - wd) % 7), bare=not rel)
    if not rel and en_past(m.string, m.start(), m.end()):
        return _Piece(day=_before(wd, c.today), bare=True)
    return replace(_weekday(wd, _EN_K[rel or "this"], c.today), bare=not rel)


# "on the 15th", "by the 3rd": a day of the month only where nothing names what is counted
# ("the 2nd floor", "the 5th time"): the ordinal must end the clause or meet a function word.
_EN_DAY_OF_MONTH = (
    r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b"
    r"(?=\s*(?:$|[,.;:!?)\-—]|(?:at|in|and|or|for|to|so|but|because|when|then|morning|afternoon"
    r"|evening|night|please|right|okay|ok|i|we|you|he|she|they)\b))"
)


_EN_DAY_WAY = re.compile(r"\b(on|by|until|till|before|after|from|due|since)\s+$", re.I)
_EN_DUE = re.compile(r"\b(?:due|deadline)\s+(?:is\s+)?$", re.I)  # "due on the 15th" looks forward


def _en_day_of_month(m: re.Match[str], c: _Ctx) -> _Piece | None:
    """A deadline ("by/until/due the 15th") is the next such day, "since the 3rd" the last
    one; "on the 7th" the nearest (last, this or next month; ties go forward)."""
    way = _EN_DAY_WAY.search(m.string, 0, m.start())
    if way is None:
        return None
    n = int(m[1])
    first = c.today.replace(day=1)
    months = [first - timedelta(days=1), first, first + timedelta(days=32)]
    options = []
    for mo in months:
        try:
            options.append(mo.replace(day=n))
        except ValueError:
            continue  # the 31st in a 30-day month
    if way[1].lower() in ("by", "until", "till", "before", "due") or _EN_DUE.search(m.string, 0, way.start()):
        options = [d for d in options if d >= c.today]
    elif way[1].lower() == "since":
        options = [d for d in options if d <= c.today]
    if not options:
        return None
    return _Piece(day=min(options, key=lambda d: (abs((d - c.today).days), d < c.today)))


_EN_NTH = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
           "fifth": 5, "5th": 5, "last": -1}


def _en_nth_weekday(m: re.Match[str], c: _Ctx) -> _Piece | None:
    """ "the first Monday in April", "the last Friday of next month" are one date; "the first
    Tuesday of the month" (or of every month, or with no month said) is a rhythm, kept as said.
    "last Monday" alone is the one before: the weekday rule reads it."""
    n, wd, rel, mon, year = m[1].lower(), _WEEKDAYS_EN.index(m[2].title()), m[3], m[4], m[5]
    if rel is None and mon is None and n == "last":
        return None
    if mon is not None:
        month: date | None = _closest(c.today, _mon(mon), None, year)
    elif rel is None or rel.lower() in ("the", "each", "every"):
        month = None
    else:
        month = _add_months(c.today.replace(day=1), _EN_K[rel.lower()] or 0)
    return _nth_weekday(month, _EN_NTH[n], wd)


def _en_clock(m: re.Match[str], c: _Ctx) -> _Piece | None:
    h, mi, mer = int(m[1]), int(m[2] or 0), (m[3] or "").lower() or None
    return _Piece(clock=(h, mi, mer)) if h <= (12 if mer else 23) else None


_EN_RULES: list[tuple[str, _Handler]] = [
    (r"\b(" + "|".join(k.replace(" ", r"\s+") for k in _EN_DAYS) + r")\b",
     lambda m, c: _day(c, *_EN_DAYS[" ".join(m[1].lower().split())])),
    (r"(?<!every\s)\b(?:(next|last|this|coming|past)\s+)?(" + "|".join(_WEEKDAYS_EN) + r")\b",
     _en_weekday),
    (r"\b(?:the\s+)?(" + "|".join(_EN_NTH) + r")\s+(" + "|".join(_WEEKDAYS_EN) + r")s?\b"
     r"(?:\s+(?:of|in)\s+(?:(the|each|every|this|next|last)\s+month\b|" + _MON + r"(?:,?\s+(\d{4})\b)?))?",
     _en_nth_weekday),
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
    (_EN_DAY_OF_MONTH, _en_day_of_month),
    (rf"\b{_MON},?\s+(\d{{4}})\b",
     lambda m, c: _period("month", 0, date(int(m[2]), _mon(m[1]), 1))),
    (r"\b(?:in\s+the\s+)?(morning|afternoon|evening|night)\b",
     lambda m, c: _Piece(part=m[1].lower().replace("night", "evening"))),
    (r"\b(?:at\s+)?(\d{1,2})(?::([0-5]\d))?\s*([ap])\.?m\b", _en_clock),
    (r"\b(?:at\s+)?([01]?\d|2[0-3]):([0-5]\d)()\b", _en_clock),
    (r"\bat\s+(\d{1,2})()()\b(?![:.]\d)", _en_clock),
    (r"\b(?:at\s+)?(?:noon|midday)\b", lambda m, c: _Piece(clock=(12, 0, "p"))),
]
# fmt: on
