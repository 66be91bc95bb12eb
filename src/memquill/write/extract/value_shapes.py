"""Values with a shape of their own: a measurement with its units, a contact as matched,
a title between its marks.

The span ranker chooses among a clause's n-grams by how labelled values looked; for some
attributes the value has a shape any reader recognises, and the ranker's token-level
choice can only cut it wrong:

* **measurements** (``data/value_kinds.json`` ``measures``: height, weight): the number
  *with* its units, compound ones included ("5 foot 4", "5'10\\"", "1米75", "6斤2两",
  "68 kg"); a count or an age keeps its bare number ("3 cats" → 3, "6岁" → 6), so this is
  per attribute, not per value type;
* **contacts** (email, phone, URL): the whole regex match ("07911 204558", never its last
  digit group);
* **Chinese organisations** (``org_heads``): a name ends with the word that says what it is
  ("杭州外国语学校", "协和医院"), which the typed extractors then propose whole;
* **joined words**: a value never ends inside a hyphenated compound ("24" of "24-hour",
  "lo" of "lo-fi", "jitsu" of "jiu-jitsu"): the ranker's English tokens end at a hyphen;
* **model names** (``model_names``: devices, vehicles…): a product's name runs on over
  its model's parts after it — a word with a digit that is no year, a model word of the
  data ("ThinkPad X1" of "ThinkPad X1 Carbon", "Pixel 8" of "Pixel 8 Pro");
* **schools** (``school_heads``): a name ending with the word that says it is a school
  ("Maple Grove Montessori", "蒲公英幼儿园") is where someone studies, not where they live;
* **titles** (``titled``: books, films and shows, games, music): a name between title or
  quotation marks (《请回答1988》, “Dune”) is the work the clause is about, whatever other
  words the clause has ("前前后后看了三遍" is no film).

Word lists are data: a new unit or a new kind of work is a new entry, not a new rule.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from memquill.errors import ConfigError
from memquill.text import EN_CALENDAR, jieba_frequency
from memquill.write.extract import values

KINDS_FILE = "data/value_kinds.json"
# value types whose value is exactly what their regex matched
WHOLE = frozenset({"email", "phone", "url"})

_NUM = r"(?:\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百几]+)"
_EN_NUM = r"\d+(?:\.\d+)?"
# a name between a pair of title or quotation marks, not empty, no clause punctuation inside
_TITLE = re.compile(
    r"《([^《》]{1,40})》|“([^“”，。！？]{1,40})”|「([^「」]{1,40})」|\"([^\"，。!?]{1,40})\""
)


@dataclass(frozen=True)
class Shapes:
    measures: dict[str, re.Pattern[str]]
    titled: frozenset[str]
    org_heads: tuple[str, ...]
    school_en: frozenset[str] = frozenset()
    school_zh: tuple[str, ...] = ()


def _unit_rx(units: list[str]) -> str:
    return "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True))


def _measure_rx(spec: dict[str, list[str]]) -> re.Pattern[str]:
    """A number and its unit; a compound unit may take a second number of its sub-unit
    ("5 foot 4", "1米75", "6斤2两", "一米八三"); feet also as marks ("5'10\\"")."""
    en, zh = _unit_rx(spec.get("en", [])), _unit_rx(spec.get("zh", []))
    en2, zh2 = _unit_rx(spec.get("en_compound", [])), _unit_rx(spec.get("zh_compound", []))
    en_sub, zh_sub = _unit_rx(spec.get("en_sub", [])), _unit_rx(spec.get("zh_sub", []))
    word_end = r"(?![A-Za-z])"
    parts = []
    if en2:
        sub = rf"(?:\s?(?:{en_sub}){word_end})?" if en_sub else ""
        parts.append(rf"(?<![\w.]){_EN_NUM}\s?(?:{en2}){word_end}(?:\s?{_EN_NUM}{sub}(?![\d.]))?")
        parts.append(rf"(?<![\w.]){_EN_NUM}\s?['′]\s?{_EN_NUM}(?:\s?(?:\"|''|″|”))?")
    if en:
        parts.append(rf"(?<![\w.]){_EN_NUM}\s?(?:{en}){word_end}")
    if zh2:
        sub = rf"(?:{zh_sub})?" if zh_sub else ""
        parts.append(rf"{_NUM}\s?多?\s?(?:{zh2})(?:{_NUM}{sub})?")
    if zh:
        parts.append(rf"{_NUM}\s?多?\s?(?:{zh})")
    if not parts:
        raise ConfigError(f"{KINDS_FILE}: a measure needs unit words")
    return re.compile("|".join(parts), re.IGNORECASE)


@cache
def shapes() -> Shapes:
    """The measured and titled attributes, from the package data."""
    raw = json.loads(resources.files("memquill").joinpath(KINDS_FILE).read_text("utf-8"))
    measures = raw.get("measures", {}) if isinstance(raw, dict) else None
    titled = raw.get("titled", []) if isinstance(raw, dict) else None
    heads = raw.get("org_heads", []) if isinstance(raw, dict) else None
    if not isinstance(measures, dict) or not isinstance(titled, list) or not isinstance(heads, list):
        raise ConfigError(
            f"{KINDS_FILE}: expected measures by attribute key and lists of titled keys, org heads"
        )
    schools = raw.get("school_heads", {})
    if not isinstance(schools, dict):
        raise ConfigError(f"{KINDS_FILE}: expected school heads by language")
    return Shapes(
        {k: _measure_rx(v) for k, v in measures.items()},
        frozenset(titled),
        tuple(heads),
        frozenset(w.casefold() for w in schools.get("en", [])),
        tuple(schools.get("zh", [])),
    )


# a place said as a landmark: "near Lincoln Elementary", "育才中学旁边" is where something is
_NEAR_EN = re.compile(
    r"\b(?:near|next to|close to|by|opposite|across from|behind|beside|around|past)\s+(?:the\s+)?$", re.I
)
_NEAR_ZH = re.compile(r"^(?:附近|旁边|对面|边上|周边|周围|门口|后面|那边|那块)")


def landmark(value: str, said: str) -> bool:
    """Is ``value`` said as a landmark something is near, not a place of its own?"""
    at = said.find(value)
    if at < 0:
        return False
    before, after = said[:at], said[at + len(value) :]
    return bool(_NEAR_EN.search(before) or _NEAR_ZH.match(after) or before.endswith(("靠近", "挨着")))


def names_school(value: str) -> bool:
    """Does ``value`` end with the word that says it is a school ("Lincoln Elementary",
    "育才中学")? A bare head ("school", "幼儿园") names none."""
    found = shapes()
    words = value.split()
    if len(words) > 1 and words[-1].casefold() in found.school_en:
        return True
    return any(value.endswith(h) and len(value) > len(h) for h in found.school_zh)


# jieba tags a Chinese organisation's name is made of: nouns, names, abbreviations, Latin
# words, distinguishing words ("实验" vn, "附属" b); a verb, preposition or pronoun ends it
_NAME_POS = (
    "n",
    "j",
    "eng",
    "vn",
    "b",
    "g",
    "zg",
)  # g, zg: a rare character jieba leaves alone ("琅/琊", "玳瑁/湾")
# a verb or preposition jieba's guessing joins to a name's first character it does not know
# ("转/到琅/琊/路/小学", "要/上琅/琊…"): not part of the name
_GLUED = re.compile(r"[到上在去进于从读念]")
MAX_NAME_WORDS = 5


def zh_orgs(text: str) -> list[str]:
    """Chinese organisation names by the word they end with (``org_heads``): "在杭州外国语
    学校" → 杭州外国语学校, "实验小学读三年级" → 实验小学, whatever jieba tags the name
    (it knows few schools and hospitals as ``nt``)."""
    heads = shapes().org_heads
    toks = values.pos_cut(text)
    out: list[str] = []
    for i, (word, _) in enumerate(toks):
        # the head ends the word, or starts a word jieba joined to what follows ("银行利率")
        head = next((h for h in heads if word.endswith(h)), None) or next(
            (h for h in heads if word.startswith(h)), None
        )
        if head is None:
            continue
        j = i
        while j > 0 and i - j + 1 < MAX_NAME_WORDS and toks[j - 1][1].startswith(_NAME_POS):
            j -= 1
        last = word if word.endswith(head) else head
        name = "".join(w for w, _ in toks[j:i]) + last
        if j < i and (glued := _GLUED.match(toks[j][0])) and jieba_frequency(toks[j][0]) == 0:
            name = name[glued.end() :]  # "转到琅琊路小学": jieba glued 到 to the name's first character
        if len(name) > len(head) and name not in out:
            out.append(name)
    return out


def measured(key: str, text: str) -> list[str]:
    """The measurements of attribute ``key`` in ``text`` with their units, in order; empty
    when ``key`` is no measure or the clause gives a bare number ("我身高175")."""
    rx = shapes().measures.get(key)
    return [m.group(0).strip() for m in rx.finditer(text)] if rx else []


def titles(key: str, text: str) -> list[str]:
    """The names between title or quotation marks in ``text`` for a titled attribute."""
    if key not in shapes().titled:
        return []
    return [next(g for g in m.groups() if g is not None).strip() for m in _TITLE.finditer(text)]


def typed(key: str, value_type: str, text: str, zh: bool, found: list[str]) -> list[str]:
    """The typed extractor's spans of ``value_type`` (``found``) with the shaped values of
    ``key`` first: its measurements or its titles."""
    shaped = measured(key, text) or titles(key, text)
    if zh and value_type == "organisation":
        shaped += zh_orgs(text)
    return [*shaped, *(s for s in found if s not in shaped)]


def exact(key: str, value_type: str, text: str, zh: bool) -> list[str] | None:
    """The only spans a value of ``key`` may be, when its shape fixes them (measurements,
    contacts, titles); None when the ranker's choice among n-grams is free."""
    if value_type in WHOLE:
        return values.spans(value_type, text, zh) or None
    return measured(key, text) or titles(key, text) or None


# A schedule, a procedure or an address is said in parts ("晚上十一点睡，早上六点半起",
# "先打tag，再在Jenkins上点发布", "42 Elm Street, Apt 3B, Somerville"): its value runs on
# across a comma into a part of the same kind — a step that a sequence word begins, a time
# of the schedule, a unit or town of the address — up to the end of the sentence; not into
# a remark about it ("…, CI rejects anything else", "…，以后快递都寄这个") nor the
# alternative it is not ("rebase and merge, no merge commits").
_SENTENCE_END = re.compile(r"[。.!?！？；;—…\n]")
_PART = re.compile(r"\s*[，,]\s*")
_STEP = re.compile(
    r"(?:再|然后|接着|之后|随后|最后|完了)|(?i:(?:and then|then|after that|afterwards|finally|next)\b)"
)
_TIME_PART = re.compile(
    r"(?:早上|上午|中午|下午|晚上|夜里|凌晨|周[一二三四五六日天末]|星期|礼拜|工作日|每[天周月]|\d|"
    r"[一二两三四五六七八九十]+点)|(?i:(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|weekdays?\b|weekends?\b)|"
    r"(?i:[a-z ]{0,20}\b\d{1,2}(?::\d\d)?\s*(?:am|pm)?\b)"
)
_ADDRESS_PART = re.compile(
    r"(?i:(?:apt|apartment|suite|unit|flat|floor|fl|room|building|bldg|block|#|no\.?)\b|\d)|"
    r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}\s*$|[^，,]{0,12}[号室楼栋单元座层区路街巷弄]$"
)


def in_parts(attr_key: str, memory_type: str, single: bool) -> bool:
    """Is the attribute's value one said in parts (a schedule, a procedure, an address)?"""
    return single and (memory_type == "procedure" or "schedule" in attr_key or attr_key == "address")


def _part_of(attr_key: str, part: str) -> bool:
    """Is ``part`` (after a comma) more of a value of ``attr_key``, not a remark about it?"""
    if attr_key == "address":
        return bool(_ADDRESS_PART.match(part))
    if "schedule" in attr_key and _TIME_PART.match(part):
        return True
    return bool(_STEP.match(part))


def through_parts(text: str, value: str, attr_key: str) -> str:
    """``value`` run on across the comma-separated parts that follow it in its sentence
    while each is more of the same value (``_part_of``)."""
    at = text.find(value)
    if at < 0:
        return value
    end = at + len(value)
    stop = _SENTENCE_END.search(text, end)
    limit = stop.start() if stop else len(text)
    while (m := _PART.match(text, end)) is not None and m.end() < limit:
        nxt = re.search(r"[，,]", text[m.end() : limit])
        part_end = m.end() + nxt.start() if nxt else limit
        if not _part_of(attr_key, text[m.end() : part_end].strip()):
            break
        end = part_end
    return text[at:end].rstrip()


# A name is not cut at an initial's full stop ("Ursula K" of "Ursula K. Le Guin") nor
# without its title ("Patel" of "Dr. Patel"): the ranker's tokens end at every full stop.
_INITIAL_ON = re.compile(r"\.(?:\s+[A-Z]\.)*(?:\s+[A-Z][\w'-]*)+")
_TITLE_BEFORE = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|St)\.\s+$")


def whole_name(text: str, value: str) -> str:
    """``value`` extended over an initial's full stop and the names after it, over a
    title's abbreviation before it, and over the rest of the capitalised name it starts or
    ends inside (``capitalised_run``)."""
    at = text.find(value)
    if at < 0:
        return value
    start, end = capitalised_run(text, at, at + len(value))
    if not text[start:end].isascii():
        return text[start:end]
    value = text[start:end]
    if re.search(r"[A-Z][a-z]+\s[A-Z]$", value) and (m := _INITIAL_ON.match(text, end)):
        end = m.end()
    if value[:1].isupper() and (t := _TITLE_BEFORE.search(text[:start])):
        start = t.start()
    return text[start:end]


# Lowercase words inside a name ("University *of* Edinburgh", "Flour *&* Fury", "Vincent
# *van* Gogh"), and capitalised words that are no part of one: the speaker, generic tech
# acronyms said after a product ("GraphQL API").
_NAME_JOINERS = frozenset("of de la le du da di van von der del den y & al bin".split())
_NOT_NAMES = frozenset("I I'm I've I'd I'll API APIs SDK CLI UI URL PR PRs OK".split())
# weekdays and months, and weekdays in the plural ("Mondays"): times, never part of a name
_CALENDAR = EN_CALENDAR | {f"{d}s" for d in EN_CALENDAR if d.endswith("day")}
_WORD = re.compile(r"[A-Za-z0-9\u00c0-\u024f'’&-]+")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;—–-]\s*|\s[-–—]\s)$")


def _capital(word: str) -> bool:
    return (
        word[:1].isupper()
        and word not in _NOT_NAMES
        and not word.endswith(("'s", "’s"))
        and word.lower() not in _CALENDAR
    )


def capitalised_run(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` widened to the whole run of capitalised words (joined by a name's
    lowercase joiners) it starts or ends inside: "Bhriain" of "Siobhan Ní Bhriain",
    "University of" of "University of Edinburgh", "Yarn" of "Yarn Berry". Of the training
    corpus's capitalised labelled values inside such a run, all but a handful ("GraphQL" of
    "GraphQL API", "Stripe" of "Stripe's Dublin") are the whole run. A word that
    opens its sentence is capitalised by position, not as a name, and is not taken; a
    possessive ends the run ("Stripe's Dublin office")."""
    words = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text)]
    inside = [i for i, (a, b, _) in enumerate(words) if a < end and b > start]
    if not inside:
        return start, end
    lo, hi = inside[0], inside[-1]
    if not (_capital(words[lo][2]) or _capital(words[hi][2]) or words[hi][2] in _NAME_JOINERS):
        return start, end

    def adjacent(i: int, j: int) -> bool:  # words i < j with only spaces between them
        return not text[words[i][1] : words[j][0]].strip()

    while hi + 1 < len(words) and adjacent(hi, hi + 1):
        nxt = words[hi + 1][2]
        if _capital(nxt) and (_capital(words[hi][2]) or words[hi][2] in _NAME_JOINERS):
            hi += 1
        elif (
            nxt in _NAME_JOINERS
            and hi + 2 < len(words)
            and adjacent(hi + 1, hi + 2)
            and _capital(words[hi + 2][2])
        ):
            hi += 2
        else:
            break
    while lo > 0 and adjacent(lo - 1, lo) and _capital(words[lo][2]):
        prev = words[lo - 1]
        joined = prev[2] in _NAME_JOINERS and lo > 1 and adjacent(lo - 2, lo - 1)
        k = lo - 2 if joined else lo - 1
        if not _capital(words[k][2]) or _SENTENCE_START.search(text[: words[k][0]]):
            break
        lo = k
    if words[hi][2] in _NAME_JOINERS:  # "University of" with no name after it
        return start, end
    return min(start, words[lo][0]), max(end, words[hi][1])


# A range's second end after a value that ends with its first ("March 12" of "March 12-14",
# "7" of "7 to 5:30", "12月20号" of "12月20号到1月3号"): a number, with a month or unit.
_ZH_NUM = "零〇一二两三四五六七八九十"
_RANGE_FROM = re.compile(
    rf"(?:\d|[{_ZH_NUM}])(?:[:.]\d+)?\s*(?:am|pm|st|nd|rd|th|[号日点月年])?$", re.IGNORECASE
)
_RANGE_ON = re.compile(
    rf"\s*(?:[-–—~～]|\s(?:to|through|thru)\s|到|至)\s*"
    rf"(?:(?:{'|'.join(sorted(_CALENDAR, key=len, reverse=True))})\s+)?"
    rf"(?:(?:\d+月)?\d+[号日点]|[{_ZH_NUM}]+[号日点月]|\d+(?:[:.]\d+)?(?:\s?(?:am|pm|st|nd|rd|th)\b)?)",
    re.IGNORECASE,
)


def ranged(text: str, value: str) -> str:
    """``value`` extended over the second end of a range it is the first end of."""
    at = text.find(value)
    if at < 0 or not _RANGE_FROM.search(value):
        return value
    m = _RANGE_ON.match(text, at + len(value))
    return text[at : m.end()] if m else value


# A lowercase word saying which one of the user's things, not what it is ("an *old* Kindle
# Paperwhite", "my *new* Pixel 9", "the *spare* ThinkPad"): before a capitalised name it is no
# part of the name ("New Balance", "Old Navy" are capitalised and kept).
_QUALIFIER = re.compile(
    r"^(?:old|new|former|current|previous|latest|spare|backup|second-hand|used|brand-new|trusty)\s+(?=[A-Z0-9])"
)


def unqualified(value: str) -> str:
    """``value`` without a lowercase qualifier before a capitalised name."""
    out = _QUALIFIER.sub("", value)
    return out if out.strip() else value


# the rest of a hyphenated compound after a value's last character / before its first
_JOINED_ON = re.compile(r"(?:-[A-Za-z0-9]+)+(?![A-Za-z0-9])")
_JOINED_BACK = re.compile(r"(?<![A-Za-z0-9-])(?:[A-Za-z0-9]+-)+$")


def joined(text: str, value: str) -> str:
    """``value`` extended to the whole of a hyphenated compound it starts or ends inside
    ("24" → "24-hour", "lo" → "lo-fi", "jitsu" → "jiu-jitsu"); unchanged otherwise."""
    at = text.find(value)
    if at < 0 or not value:
        return value
    start, end = at, at + len(value)
    if value[-1].isascii() and value[-1].isalnum() and (m := _JOINED_ON.match(text, end)):
        end = m.end()
    if value[0].isascii() and value[0].isalnum() and (b := _JOINED_BACK.search(text[:start])):
        start = b.start()
    return text[start:end]


@dataclass(frozen=True)
class ModelNames:
    attributes: frozenset[str]
    words: frozenset[str]


@cache
def _model_names() -> ModelNames:
    raw = json.loads(resources.files("memquill").joinpath(KINDS_FILE).read_text("utf-8"))
    spec = raw.get("model_names") or {}
    return ModelNames(frozenset(spec.get("attributes", [])), frozenset(spec.get("words", [])))


_MODEL_PART = re.compile(r"[ \t]+([A-Za-z0-9][A-Za-z0-9+]*)(?![A-Za-z0-9'’-])")
_YEAR = re.compile(r"(?:19|20)\d\d")


def model_name(key: str, text: str, value: str) -> str:
    """``value`` of a product attribute (``model_names``) run on over the parts of its model
    name said right after it: a word with a digit that is no year ("X1", "14", "M2") or a
    model word ("Pro", "Carbon", "mini") — "ThinkPad X1" → "ThinkPad X1 Carbon"."""
    spec = _model_names()
    at = text.find(value)
    if key not in spec.attributes or at < 0 or not value[-1:].isascii() or not value[-1:].isalnum():
        return value
    end = at + len(value)
    while (m := _MODEL_PART.match(text, end)) is not None:
        word = m.group(1)
        if word not in spec.words and not (any(c.isdigit() for c in word) and not _YEAR.fullmatch(word)):
            break
        end = m.end()
    return text[at:end]


@cache
def _kind_heads() -> dict[str, tuple[re.Pattern[str], re.Pattern[str]]]:
    raw = json.loads(resources.files("memquill").joinpath(KINDS_FILE).read_text("utf-8"))
    out = {}
    for key, spec in (raw.get("kind_heads") or {}).items():
        en = "|".join(re.escape(w) for w in sorted(spec.get("en", []), key=len, reverse=True))
        zh = "|".join(re.escape(w) for w in sorted(spec.get("zh", []), key=len, reverse=True))
        out[key] = (re.compile(rf"\s+(?:{en})s?\b", re.IGNORECASE), re.compile(rf"\s*(?:{zh})"))
    return out


def with_head(key: str, text: str, value: str, zh: bool) -> str:
    """``value`` with the word after it that says what it is, for the attributes whose
    labelled values keep it (``kind_heads``: "Kraken" → "Kraken team", "飞书文档" → "飞书文档组");
    a Chinese one named after its organisation ("字节的飞书文档组") without the organisation."""
    heads = _kind_heads().get(key)
    at = text.find(value)
    if heads is None or at < 0:
        return value
    en, zh_rx = heads
    m = (zh_rx if zh else en).match(text, at + len(value))
    out = text[at : m.end()] if m else value
    if zh and "的" in out and len(tail := out.rsplit("的", 1)[1]) >= 2:
        out = tail
    return out
