"""Scanning a text with the language rules, joining pieces, resolving them; the jionlp fallback."""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import os
import re
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from memquill import gatherings
from memquill.clock import as_utc, zone
from memquill.text import detect_language, is_cjk, jieba_posseg
from memquill.write.timenorm.base import (
    _DAY,
    _MIDNIGHT,
    _PARTS,
    _PREP,
    _WD_NOTE,
    TimeMention,
    _around,
    _closest,
    _Ctx,
    _Handler,
    _hour,
    _mid,
    _period,
    _Piece,
)
from memquill.write.timenorm.en import _EN_RULES
from memquill.write.timenorm.zh import _ZH_RULES, _ZPARTS

_SHARED_RULES: list[tuple[str, _Handler]] = [
    (
        r"(?<!\d)(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?!\d)" + _WD_NOTE,
        lambda m, c: _Piece(day=date(int(m[1]), int(m[3]), int(m[4]))),
    ),
    (
        r"(?<![A-Za-z0-9])[Qq]([1-4])(?:\s*(\d{4}))?(?![A-Za-z0-9])",
        lambda m, c: _period("quarter", 0, _closest(c.today, 3 * int(m[1]) - 2, None, m[2])),
    ),
]


_RULES = {
    "zh": [(re.compile(p), h) for p, h in _ZH_RULES + _SHARED_RULES],
    "en": [(re.compile(p, re.I), h) for p, h in _EN_RULES + _SHARED_RULES],
}


_GAP = {"zh": re.compile(r"\s*的?\s*"), "en": re.compile(r"[\s,]*(?:on\s+)?", re.I)}


_ZH_BEFORE = re.compile(r"\s*(?:之前|以前|前)(?![往进面后])")


_EN_BEFORE = re.compile(r"\b(by|before|until|till)\s+$", re.I)


_EN_PREP = re.compile(
    r"\b(?:on|at|by|before|after|until|till|from|since|for|of|in|to|through"
    r"|thru|between|and|or|during|over|around|than|except)\s+$",
    re.I,
)


_EN_WORD_BEFORE = re.compile(r"[^\W\u3400-\u9fff\uf900-\ufaff]\s+$")  # a Latin word, a space


# "on"/"in" is added only where the phrase ends the clause or a connective follows it: never
# inside a verb phrase ("taking Friday off") or before a noun ("the next Friday meeting")
_EN_CLAUSE_GOES_ON = re.compile(
    r"\s*(?:$|[,.;:!?)\]\"”—–]|-\s)|\s+(?:at|with|for|to|and|or|but|so|if|when|then|because|unless"
    r"|after|before|until|till|since|while|in|on|from|around|about|as|via|by|near|once)\b",
    re.I,
)


# habits: a bare weekday in such a clause is no date ("我周六一般不工作", "I usually rest on Sunday")
_HABIT = {
    "zh": re.compile(
        r"一般|通常|都|每|总是|总会|经常|常常|往往|平时|平常|向来|一向|老是|习惯|喜欢"
        r"|如果是|若是|凡是|只要是|逢"
    ),
    "en": re.compile(
        r"\b(?:usually|always|often|normally|generally|typically|sometimes|never"
        r"|rarely|seldom|mostly|every|each|whenever|tend\s+to|used\s+to)\b"
        r"|\b(?:if|when)\s+it(?:'s|\s+is)\b|\ban?\s+\x00"
        r"|\x00\s*(?:mornings|afternoons|evenings|nights)\b",
        re.I,
    ),
}


_RECURRING = re.compile(
    r"生日|纪念日|周年|忌日|每年|年年|寿辰|(?i:\b(?:birthdays?|b-?day|"
    r"anniversar(?:y|ies)|every\s+year|each\s+year|annually|yearly)\b)"
)


_SENTENCE_END = re.compile(r"[。；！？;!?\n]|\.(?!\d)")


_CLAUSE_END = re.compile(r"[，。；！？,;!?\n]|\.(?!\d)")


_SPACES = re.compile(r"\s*")


# the other script's stretches of a mixed turn: English words (with digits: "3pm") in a Chinese
# text, CJK runs (with digits: "5月8日", "下午3点") in an English one
_STRETCH = {
    "en": re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9\s,.:'’/&-]*[A-Za-z0-9.])?"),
    "zh": re.compile(
        r"[0-9]*[\u3400-\u9fff\uf900-\ufaff](?:[\u3400-\u9fff\uf900-\ufaff"
        r"0-9:：\s]*[\u3400-\u9fff\uf900-\ufaff0-9])?"
    ),
}


_LATIN_WORD = re.compile(r"[A-Za-z]{2}")


_TRIGGER = re.compile(
    r"[天日周月年季点晚早午夜底晨节旦夕旬]|[\d一二两三四五六七八九十]号|星期|礼拜|小时|钟头|分钟"
    r"|\d[:：]\d|\d{4}[-/]\d|[Qq][1-4]"
    r"|(?i:\b(?:to(?:day|night|morrow)|yesterday|(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"|week|month|quarter|year|morning|afternoon|evening|night|noon|midday|minute|hour|day"
    r"|ago|later|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\d\s*[ap]\.?m\b|\d(?:st|nd|rd|th)\b)"
)


# jionlp (~2.5 ms) only for what our rules miss: not for 手机号/账号/型号, 细节/节目, 小时候
_ZH_FALLBACK = re.compile(
    r"(?<![细环章关情季调礼音小])节(?![目省奏约能点课拍制食气俭])|元旦|除夕"
    r"|[\d一二两三四五六七八九十]号|旬|小时(?!候)|钟头"
)


_WEEKDAY_WORD = re.compile(r"(?:周|星期|礼拜)[一二三四五六日天1-7末]")


_ZH_NO_DAY = re.compile("(?:" + "|".join(_ZPARTS) + r"|[早晚\d零〇一二两三四五六七八九十点半分刻钟整:：\s])+")


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
    clash = any(
        None not in (x, y) and x != y for x, y in ((a.day, b.day), (a.part, b.part), (a.clock, b.clock))
    )
    if a.whole or b.whole or a.kept or b.kept or clash:
        return None
    return _Piece(
        a.day or b.day,
        a.part or b.part,
        a.clock or b.clock,
        None,
        a.start,
        b.end,
        a.bare or b.bare,
        a.yearless or b.yearless,
        a.lang if same else None,
    )


def _habit(text: str, start: int, end: int, lang: str) -> bool:
    """Is the bare weekday at ``start:end`` a day of every week: in a habit ("我周六一般不工作")
    or a gathering's standing schedule ("周会改到周一了", ``gatherings.standing``)?"""
    if _HABIT[lang].search(_around(text, start, end, _SENTENCE_END)):
        return True
    a = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    z = _SENTENCE_END.search(text, end)
    return gatherings.standing(text[a : z.start() if z else len(text)], start - a, end - a)


def _resolve(text: str, p: _Piece, c: _Ctx, lang: str) -> TimeMention | None:
    """A fragment group becomes a mention; a clock or part of day without a day is dropped,
    and so is a bare weekday in a habitual sentence ("我周六一般不工作") or a gathering's
    standing day ("周会改到周一了")."""
    try:
        rng = _range(p)
    except (ValueError, OverflowError):
        return None
    if rng is None:
        return None
    if p.bare and _habit(text, p.start, p.end, lang):
        return None
    start, end, bound = p.start, p.end, None
    if lang == "zh" and (z := _ZH_BEFORE.match(text, end)):
        end, bound = z.end(), "by"
    elif lang == "en" and (e := _EN_BEFORE.search(text, max(0, start - 8), start)):
        start, bound = e.start(), "before" if e[1].lower() == "before" else "by"
    if bound is None:
        again = p.yearless and _RECURRING.search(_around(text, p.start, p.end, _CLAUSE_END)) is not None
        return _mention(text, start, end, rng, c, recurring=again, language=p.lang)
    b, u, _ = rng
    target = b if u is None or bound == "before" else u
    begin = c.now if c.now < target else _mid((target - timedelta(microseconds=1)).date())
    return _mention(text, start, end, (begin, target, "span", bound), c, language=p.lang)


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
    """Imported on first need only: ~0.4 s, and a stdout banner that must not leak. It also
    logs every fragment it cannot parse as an ERROR with a traceback on the *root* logger
    ("我基本每个月回去一趟" → "exception string `本`"): for us that is "no mention", so
    those records are filtered out (other root records pass)."""
    with contextlib.redirect_stdout(io.StringIO()):
        import jionlp
    logging.getLogger().addFilter(_not_jionlp)
    return jionlp


def _not_jionlp(record: logging.LogRecord) -> bool:
    return f"{os.sep}jionlp{os.sep}" not in record.pathname


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
            if _BARE_DAY.fullmatch(f["text"]) and _numbered_label(text, start, end):
                continue
            lo, hi = (datetime.strptime(t, "%Y-%m-%d %H:%M:%S") for t in f["detail"]["time"])
            rng = _classify(lo, hi + timedelta(seconds=1))
            out.append(_mention(text, start, end, rng, c, language=language))
        except (KeyError, TypeError, ValueError, IndexError):
            continue  # "-inf" bounds and malformed items
    return out


_BARE_DAY = re.compile(r"[\d零〇一二两三四五六七八九十]{1,3}[号日]")
_NOUN = frozenset({"n", "nz", "ng", "ns", "nt", "nrt"})
# One-character nouns that a number + 号 labels (jieba tags 交 in "8号交" a noun too).
_NUMBERED = frozenset("楼线门房室床位厅馆口车机台柜窗站码院街路店桌座舱厢道场园栋幢层间球种字箱包坑")
# "项目叫天狼七号", "代号七号": a name, whatever comes after it.
_NAMING = re.compile(r"(?:叫|名叫|名为|称为|代号|型号|编号|番号)[^，。！？,.!?;；\s]{0,8}$")


def _numbered_label(text: str, start: int, end: int) -> bool:
    """A bare "七号" that names or numbers something is not the 7th: 七号线, 5号楼, 一号粉丝
    (a noun follows: jieba's tag for a word of two characters or more, a short list of
    one-character ones, since jieba tags single characters unreliably), 项目叫天狼七号
    (it follows a naming verb), 天狼七号 (a proper noun precedes)."""
    before = list(jieba_posseg().cut(text[:start]))
    if _NAMING.search(text[:start]) or (before and before[-1].flag == "nz"):
        return True
    pos = 0
    for w in jieba_posseg().cut(text[start:]):
        if pos >= end - start:
            return w.flag in _NOUN and (len(w.word) > 1 or w.word in _NUMBERED)
        if pos + len(w.word) > end - start:
            return w.word[end - start - pos] in _NUMBERED  # 号楼 segmented as one word
        pos += len(w.word)
    return False


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
