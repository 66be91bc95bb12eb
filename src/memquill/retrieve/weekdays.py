"""The days of the week a text names, in either language: enough to tell whether a request's
day can meet a standing weekly slot ("Tuesdays at 4 I have therapy" and "café on Saturday
morning?" cannot). Relative days (today, tomorrow, 明天) name none: no clock is read here, and
a text naming no day is unknown rather than disjoint."""

from __future__ import annotations

import re

from memquill.text import word_cache

WEEKEND = frozenset({5, 6})
WORKWEEK = frozenset(range(5))
_EN = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_EN_DAY = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b", re.IGNORECASE)
# abbreviations only as written with a capital ("Thu 6pm", "Mon/Wed"): "I sat down", "the sun"
_EN_SHORT = re.compile(r"\b(Mon|Tue|Tues|Wed|Weds|Thu|Thur|Thurs|Fri|Sat|Sun)s?\b\.?")
_ZH_NUM = "一二三四五六日天"
# 周一、三、五 / 周二和周四 / 星期六: a day, then more of them joined by 、和及跟或/
# not a count: 一周三次, 两个星期, 周三个人 (a numeral before, 个/次/天/遍 after); 周一周四 is two days
_ZH_DAY = re.compile(
    r"(?:(?<=[周期拜][一二三四五六日天])|(?<![一二两三四五六七八九十几0-9]))(?:周|星期|礼拜)([一二三四五六日天])(?![个次天遍])"
    r"(?:[、和及跟或/,，](?:周|星期|礼拜)?[一二三四五六日天](?![个次天遍]))*"
)
_ZH_MORE = re.compile(r"[、和及跟或/,，](?:周|星期|礼拜)?([一二三四五六日天])")


@word_cache(maxsize=4096)
def weekdays(text: str) -> frozenset[int]:
    """Monday = 0 … Sunday = 6; a weekend is Saturday and Sunday, a workday Monday to Friday."""
    low = text.casefold()
    out = {_EN.index(m[1][:3].casefold()) for m in (*_EN_DAY.finditer(text), *_EN_SHORT.finditer(text))}
    if re.search(r"\bweekends?\b", low) or "周末" in text:
        out |= WEEKEND
    if re.search(r"\bweekdays?\b|\bworkdays?\b", low) or "工作日" in text:
        out |= WORKWEEK
    for m in _ZH_DAY.finditer(text):
        out.add(_zh(m[1]))
        out.update(_zh(x) for x in _ZH_MORE.findall(m[0]))
    return frozenset(out)


def _zh(ch: str) -> int:
    return min(_ZH_NUM.index(ch), 6)
