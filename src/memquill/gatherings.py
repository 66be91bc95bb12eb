"""Recurring gatherings and their day: the weekly meeting, a 1:1, book club, a yoga class.

"周会改到周一了", "Book club moved to Sundays", "my 1:1 with Karen is every Monday 9am": a
standing schedule is a fact about an event (``event:<id>``, key ``recurrence``, single-valued,
so the new day supersedes the old), and a bare weekday said with a gathering that comes back
is its day, not next Monday's date — the time stage asks ``standing`` before resolving one.
Which gatherings come back by their very word (周会 is a weekly meeting, a standup is
daily) and how each is said in both languages is data (``data/gatherings.json``): an id
names the gathering in either language, so "周会" said and "weekly meeting" asked meet in one
slot. Any other class or practice ("瑜伽课", "piano lessons") needs "every"/"每" or a plural
weekday to be a schedule.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources

from memquill.errors import ConfigError
from memquill.text import ZH_SPACE, dictionary_words
from memquill.text import comma_part as _comma_part

FILE = "data/gatherings.json"


@dataclass(frozen=True)
class Gathering:
    """A gathering said in a text: its id (the event subject's name), whether its word says
    it comes back, and where it was said."""

    id: str
    standing: bool
    start: int
    end: int
    name: str = ""  # how to say it, when not as at start:end ("瑜伽课" for the 课 of "瑜伽馆把课")


@dataclass(frozen=True)
class Schedule:
    """A gathering's standing day: the recurrence record's value."""

    gathering: Gathering
    day: str  # the day and time as said ("每周四下午", "Thursdays", "every other Tuesday", "9:15")
    part: str  # the part of the text the day was said in


_ZH_NOT_NAME = frozenset(
    "上 下 加 值 换 排 早 晚 夜 中 白 选 听 讲 备 逃 翘 补 开 去 报 约 的 个 节 堂 门 有 要 点 午 "
    "每 周 日 天 一 二 三 四 五 六 在 和 跟 带 了 坐 轮 接 送 是 都 也 还 那 这".split()
)
_EN_NOT_NAME = frozenset(
    "a an the my our your his her their this that next last first every each one some any no "
    "of in at on for to with and or s".split()
)


@cache
def _table() -> tuple[re.Pattern[str], dict[str, tuple[str, bool]], re.Pattern[str], re.Pattern[str]]:
    """(named gatherings, their word → (id, standing), English heads, Chinese heads)."""
    raw = json.loads(resources.files("memquill").joinpath(FILE).read_text("utf-8"))
    if not isinstance(raw, dict) or not isinstance(raw.get("gatherings"), list):
        raise ConfigError(f"{FILE}: expected an object with a list of gatherings")
    words: dict[str, tuple[str, bool]] = {}
    for g in raw["gatherings"]:
        for w in (*g.get("en", ()), *g.get("zh", ())):
            words[w.casefold()] = (str(g["id"]), bool(g.get("standing")))
    latin = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True) if w.isascii())
    cjk = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True) if not w.isascii())
    # an English word whole ("1:1" is not in "1:15"), a Chinese one anywhere but inside the name
    # of who runs it ("心理咨询师", "读书会长")
    named = re.compile(rf"(?<![\w:-])(?:{latin})s?(?![\w:-])|(?:{cjk})(?![师员者长])", re.IGNORECASE)
    heads = raw.get("heads", {})
    en = "|".join(re.escape(h) for h in sorted(heads.get("en", ()), key=len, reverse=True))
    zh = "|".join(re.escape(h) for h in sorted(heads.get("zh", ()), key=len, reverse=True))
    en_head = re.compile(rf"\b([a-z][\w-]*)\s+(?:{en})\b", re.IGNORECASE)
    zh_head = re.compile(rf"([\u4e00-\u9fff]{{1,4}}?)(?:{zh})")
    return named, words, en_head, zh_head


def find(text: str) -> Gathering | None:
    """The first gathering a text names: a listed one, else a class or practice named by
    what is done there (never standing)."""
    named, words, en_head, zh_head = _table()
    if m := named.search(text):
        said = m.group(0).casefold()
        gid, standing = words.get(said) or words[said[:-1]]  # "standups": the plural of one
        return Gathering(gid, standing, m.start(), m.end())
    for m in en_head.finditer(text):
        mod = m.group(1).casefold()
        if mod not in _EN_NOT_NAME:
            head = m.group(0).split()[-1].casefold()
            head = head[:-2] if head.endswith("sses") else head.rstrip("s") if head.endswith("ons") else head
            return Gathering(f"{mod} {head}", False, m.start(), m.end())
    for m in zh_head.finditer(text):
        name, head = m.group(1), text[m.end(1) : m.end()]
        if (moved := _ZH_MOVER.search(name)) is not None:
            # "瑜伽馆把课调到周六": the class is the place's (瑜伽课); "老师把钢琴课…": the one after 把
            after = name[moved.end() :]
            name = after if len(after) >= 2 else _doer_stem(text[: m.start(1) + moved.start()])
            if len(name) >= 2:
                return Gathering(name + head, False, m.end(1), m.end(), name + head)
            continue
        name = name.rpartition("的")[2]  # "我的陶艺课": whose it is, not its name
        while name and name[0] in _ZH_NOT_NAME:  # "上课", "去上瑜伽课": the doing, not the class
            name = name[1:]
        if len(name) >= 2 and name[-1] not in _ZH_NOT_NAME:
            return Gathering(name + head, False, m.end(1) - len(name), m.end())
    return None


_ZH_MOVER = re.compile("[把将]")
_ZH_DOER = re.compile("(?:馆|房|室|中心|工作室|教室|会所|俱乐部|学校|机构|老师|教练)(?:那边|那里)?$")


def _doer_stem(before: str) -> str:
    """What is taught, from who moved the class ("陶艺工作室" → 陶艺, "钢琴老师" → 钢琴): the last
    dictionary word before the place or teacher word, or nothing."""
    run = re.search(r"[\u4e00-\u9fff]+$", before)
    stem = _ZH_DOER.sub("", run[0]) if run and _ZH_DOER.search(run[0]) else ""
    words = dictionary_words(stem) if stem else ()
    return words[-1] if words else ""


_ZH_DAY = "[一二三四五六日天]"
_ZH_CLOCK = (
    r"(?:[零一二两三四五六七八九十\d]{1,3}(?:点|[:：]\d{2})(?:半|[零一二三四五六七八九十\d]{1,2}分?)?)"
)
_ZH_PART = r"(?:上午|下午|晚上|早上|中午|傍晚|晚|早)"
ZH_SCHEDULE = re.compile(
    rf"(每(?:个)?月的?(?:第[一二三四]个|最后一个)|每(?:个)?|隔|双)?(?<![两几三四五六七八九十\d])(?:周|星期|礼拜)"
    rf"({_ZH_DAY}(?:[、和跟与及到至]?(?:周|星期)?{_ZH_DAY})*)(?![次遍趟])"
    rf"(?:的)?({_ZH_PART}?{_ZH_CLOCK}?)"
)
_ZH_CLOCK_WORD = re.compile(r"点|[:：]")
_EN_DAYS = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekday)"
EN_WEEKDAY = re.compile(_EN_DAYS, re.IGNORECASE)  # a day said as one ("Thursdays", not "every …")
_EN_NTH = r"(?:first|second|third|fourth|last|1st|2nd|3rd|4th)\s+"
EN_SCHEDULE = re.compile(
    rf"\b(every\s+(?:other\s+|{_EN_NTH})?|each\s+|alternate\s+|(?:the\s+)?{_EN_NTH})?"
    rf"({_EN_DAYS}(s?)(?!'s)(?:\s*(?:,|and|&|or)\s*{_EN_DAYS}s?)*)(?:\s+(?:of|in)\s+(?:the|each|every)\s+month\b)?"
    r"((?:\s+(?:morning|afternoon|evening|night)s?)?(?:\s+(?:at\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?\b)?)",
    re.IGNORECASE,
)
# "the last Thursday of the month" is a rhythm, not last week's Thursday
_EN_MONTHLY = re.compile(
    rf"\b(?:the\s+)?{_EN_NTH}{_EN_DAYS}s?\s+(?:of|in)\s+(?:the|each|every)\s+month\b", re.IGNORECASE
)
# An occasion, not the standing day: this week's, the next one, the first, one attended
# ("这周周会挪到周三", "First 1:1 with her on Thursday", "went to book club on Friday") —
# unless it says from when on ("从这周起", "starting next week").
ONE_OFF = re.compile(
    r"(?:这周|本周|下周|这星期|下星期|这礼拜|下礼拜)(?!起|开始|以后)|这次|下次|这一次|明天|今天|后天|昨天|"
    r"第一次|首次|上周|上次|明早|明晚|今早|今晚|(?:去|参加|开|翘|错过|缺)了|"
    r"\b(?:went|attended|missed|skipped|was at|were at|had (?:a|my|our|the|his|her))\b|"
    r"(?<!starting )(?<!from )\b(?:this|next)\s+(?:week|time|one|month)\b|\b(?:tomorrow|today|tonight|"
    r"yesterday|first|last)\b|\b(?:this|next|last)\s+" + _EN_DAYS + r"\b",
    re.IGNORECASE,
)
# the gathering moved to a day said after it: the new standing day, not one occasion, even of
# a class whose word does not say it comes back ("瑜伽馆把课调到周六上午了", "pottery moved to Wednesday")
_MOVED = re.compile(
    r"(?:改|调|挪|换|移|推)(?:到|成|在)|\b(?:moved|switched|changed|shifted|pushed|bumped)\b(?:\s+[\w']+){0,4}\s+to\b",
    re.IGNORECASE,
)


def _own(text: str, start: int, end: int) -> str:
    """The part of a text around a span (``text.comma_part``), a Chinese turn typed with spaces
    cut at them too: "瑜伽馆把课调到周六上午了 我反而能去了" — what was gone to is not the class's day."""
    return _comma_part(ZH_SPACE.sub(lambda m: "，" * len(m[0]), text), start, end)


def _occasion(part: str) -> bool:
    """Does a part of a text say one occasion (``ONE_OFF``), its monthly rhythm aside?"""
    return ONE_OFF.search(_EN_MONTHLY.sub(" ", part)) is not None


# a time of day alone: the day of a gathering that meets daily or whose day goes unsaid
# ("standup is at 9:15 now", "站会改到十点了")
ZH_CLOCK = re.compile(rf"(每天|每日)?({_ZH_PART}?{_ZH_CLOCK})(?![\d号日月年])")
EN_CLOCK = re.compile(
    r"\b(daily\s+|every\s+day\s+)?(?:at\s+)?(\d{1,2}(?::\d{2})\s*(?:am|pm)?|\d{1,2}\s*(?:am|pm))(?![\w:])",
    re.IGNORECASE,
)
# one occasion said as such, without a rhythm ("有个读书会", "there's a book club meeting on Saturday")
_ONE = re.compile(r"有个|有一个|有场|有一场|\bthere(?:'s| is) an?\b", re.IGNORECASE)
_EVERY = re.compile(
    r"每|隔周|双周|\b(?:every|each|weekly|biweekly|fortnightly|usually|always)\b", re.IGNORECASE
)


def standing(sentence: str, start: int, end: int) -> bool:
    """Is the bare weekday at ``start:end`` of a sentence the day of a gathering's standing
    schedule ("周会改到周一了", "book club is on Sunday now"), not one date?"""
    own = _own(sentence, start, end)
    g = find(own)
    if g is None or _occasion(own):
        return False
    return g.standing or _EVERY.search(sentence) is not None or _MOVED.search(own) is not None


# a part that says when "we" meet carries the day of the gathering said just before it
# ("joined the local running club, we meet on Thursdays")
_MEET = re.compile(r"\b(?:we|they) meet\b|\bmeets\b|\bmeeting\b|聚一次|见面|碰头", re.IGNORECASE)


def _days(text: str, g: Gathering) -> Iterator[re.Match[str]]:
    """The days or times said in the gathering's own part of the text (or in a part saying
    when it meets), weekdays first, then times of day: a day said of something else in the
    sentence is not its day ("不是周四，读书会是每周三晚上")."""
    said = text[g.start : g.end]
    for rx in (ZH_SCHEDULE, EN_SCHEDULE, ZH_CLOCK, EN_CLOCK):
        for m in rx.finditer(text):
            if rx is ZH_CLOCK and not _ZH_CLOCK_WORD.search(m.group(2)):
                continue
            own = _own(text, m.start(), m.end())
            if said in own or (_MEET.search(own) and m.start() > g.end):
                yield m


def schedule(text: str) -> Schedule | None:
    """The gathering a clause names and the day it is held on now, when the clause says
    one: a standing gathering with any weekday, another with "every"/"每"/a plural."""
    g = find(text)
    if g is None:
        return None
    m = next(_days(text, g), None)
    if m is None:
        return None
    if m.re is ZH_SCHEDULE:
        every = bool(m.group(1)) or "每" in text
    elif m.re is EN_SCHEDULE:
        every = bool(m.group(1) or m.group(3)) or _EVERY.search(text) is not None
    else:
        every = bool(m.group(1))
    own = _own(text, m.start(), m.end())
    every = every or _MOVED.search(own) is not None
    if _occasion(own) or not (g.standing or every) or (not every and _ONE.search(own)):
        return None  # an occasion's day ("周六晚上七点在望京那边有个读书会")
    return Schedule(g, " ".join(text[m.start() : m.end()].split()), own)


_WHEN_ASKED = re.compile(
    r"周几|星期几|礼拜几|哪天|哪一天|几号|几点|什么时候|啥时候|什么时间|哪个时间|定在|改到|"
    r"\b(?:what|which)\s+(?:day|days|time|night|evening|morning)\b|\bwhen\b|\bhow often\b",
    re.IGNORECASE,
)


def asked_day(query: str) -> str | None:
    """The gathering whose day a question asks ("我们组周会现在是周几", "what day does my book
    club meet now?"): its id, the event subject's name."""
    g = find(query)
    return g.id if g is not None and _WHEN_ASKED.search(query) else None
