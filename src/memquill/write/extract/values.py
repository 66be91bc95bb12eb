"""Typed value extractors: the span of a clause that holds an attribute's value.

The classifier says *what* a clause is about (``city``, ``employer``); these say *which
words* are the value, by the attribute's value type: regexes for email, phone, URL, money,
numbers and durations; jieba part-of-speech tags for Chinese person (nr), place (ns) and
organisation (nt) names; capitalised spans for English names; the tech and language
lexicons; and for free text the object after the clause's verb, with fillers trimmed.
Every function returns spans exactly as written (the stored value keeps the wording;
``normalise`` compares them), best first, possibly none.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from memquill.text import is_cjk, jieba_posseg, word_cache
from memquill.write.extract.lexicon import TECH

I = re.IGNORECASE  # noqa: E741
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# "(617) 555-0142", "+1 (415) 555-2671": an area code in brackets is part of the number
# a full stop right after the number ends the sentence, not the number ("…0217 5530.")
PHONE = re.compile(r"(?<![\w.])(?:\+\d{1,3}[\s-]?)?(?:\(\d{2,4}\)\s?)?\d[\d\s-]{6,18}\d(?!\w|\.\d)")
URL = re.compile(
    r"https?://[^\s，,。；;）)]+|git@[\w.-]+:[\w./-]+|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|cn|app|ai|co|me)"
    r"(?::\d+)?(?:/[^\s，,。；;]*)?|\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?|\blocalhost:\d+",
    I,
)
_ZH_NUM = "零〇一二两三四五六七八九十百千万"
_EN_NUM = (
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty)\b"
)
NUMBER = re.compile(rf"\d+(?:\.\d+)?|[{_ZH_NUM}]+(?=[个只位名岁斤公人条台辆套次年月天小周])|{_EN_NUM}", re.I)
MONEY = re.compile(
    rf"(?:[¥￥$€£]|RMB|USD)\s?\d[\d,]*(?:\.\d+)?\s?[kKwW万千]?|"
    rf"(?:\d[\d,]*(?:\.\d+)?|[{_ZH_NUM}]+)\s?(?:[kKwW万千]|多)?\s?"
    r"(?:元|块钱?|美元|美金|欧元|英镑|人民币|dollars?|bucks|euros?|pounds?|yuan)",
    I,
)
DURATION = re.compile(
    rf"(?:\d+(?:\.\d+)?|[{_ZH_NUM}半]+|{_EN_NUM})[\s-]?(?:个)?(?:多)?\s?"
    r"(?:分钟|小时|天|周|星期|个?月|年|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)",
    I,
)
LANGUAGES = re.compile(
    r"(?:普通话|粤语|广东话|闽南话|四川话|上海话|客家话|中文|汉语|英语|英文|日语|日文|韩语|法语|德语|"
    r"西班牙语|意大利语|俄语|葡萄牙语|阿拉伯语|泰语|越南语|荷兰语|瑞典语|挪威语|丹麦语|芬兰语|波兰语|"
    r"土耳其语|希伯来语|希腊语|波斯语|印地语|乌尔都语|孟加拉语|马来语|印尼语|菲律宾语|他加禄语|"
    r"斯瓦希里语|乌克兰语|捷克语|匈牙利语|罗马尼亚语|蒙古语|藏语|维吾尔语|手语|世界语|拉丁语)|"
    r"\b(?:Mandarin|Cantonese|Chinese|English|Japanese|Korean|French|German|Spanish|Italian|Russian|"
    r"Portuguese|Arabic|Hindi|Thai|Vietnamese|Dutch|Swedish|Polish|Turkish|Hebrew|Greek|Farsi|Persian|"
    r"Urdu|Bengali|Punjabi|Tamil|Telugu|Malay|Indonesian|Tagalog|Filipino|Swahili|Norwegian|Danish|"
    r"Finnish|Czech|Ukrainian|Hungarian|Romanian|Catalan|Basque|Irish|Welsh|Icelandic|Serbian|"
    r"Croatian|Bulgarian|Amharic|Yoruba|Zulu|Hokkien|Shanghainese|Esperanto|Latin)\b",
)
_CAPS = re.compile(
    r"(?<![\w@.])(?:[A-Z][\w&'.-]*|\d+[A-Za-z][\w-]*)(?:\s+(?:of\s+|de\s+|&\s+)?[A-Z][\w&'.-]*){0,3}"
)
_SENTENCE_WORDS = frozenset(
    """I I'm I've I'd I'll My We We're Our The A An It It's This That These Those He She They
    His Her Their You Your Also And But So Just Actually Oh Well Yeah Yes No Now Last Next
    Every Since Then When If Because Remember Note Please Btw Anyway Honestly Basically
    Mom Dad Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March
    April May June July August September October November December""".split()
)
_VERBISH = re.compile(r"^(?:[A-Z][a-z]+ed|Left|Got|Went|Took|Made|Quit|Sold|Bought|Finally)$")
# Words that end a free-text value: time adverbs, hedges, discourse fillers.
_EN_TAIL = re.compile(
    r"\s*(?:,.*|\b(?:now|these days|nowadays|lately|recently|currently|at the moment|right now|"
    r"anymore|any more|again|too|as well|every (?:day|morning|night|week|weekend)|on weekends|"
    r"most days|mostly|mainly|though|actually|already|for now|for (?:a|the) (?:while|moment)|"
    r"since .*|for \d+ .*|full[- ]time|these past .*)\b.*)$",
    I,
)
_ZH_TAIL = re.compile(r"(?:了|啦|的|呢|吧|呀|啊|哦|嘛|哈|咯|喔|哟|这几年|这些年|最近|现在|目前|而已)+$")
_EN_VERB = re.compile(
    r"\b(?:am|is|are|was|'m|'s|'re|became|become|becoming|work(?:s|ing)? as|like|love|enjoy|prefer|"
    r"into|play|plays|playing|use|uses|using|drive|drives|have|has|got|own|speak|speaks|learn|"
    r"learning|studying|study|studied|take|taking|drink|drinking|eat|eating|read|reading|watch|"
    r"watching|listen(?:ing)? to|called|named|switched to|moved to|went back to|picked up|"
    r"started|start|doing|does|do|wear|keep|follow|run|runs|runs on|on|at|in|to|with|about)\s+",
    I,
)
_ZH_VERB = re.compile(
    r"(?:是|叫|做|当|干|喜欢|爱|迷上了?|在学|学|养了?|有|用|开|喝|吃|玩|看|听|去|住在|住|搬到|换成|改成|改用|"
    r"换了|定在|约在|在|到|为|对|得了|患有|确诊了?|过敏的是|属于|信|练|跑|打|踢|骑|穿|戴|追|考了?|读|念|修)"
)
_ZH_CUT = re.compile(r"[，,。；;！!？?、]|\s+(?=[\u4e00-\u9fff])")
_ZH_LEAD = re.compile(
    r"^(?:了|的|着|过|一下|一直|都|也|还|就|又)?(?:[一两三四五六七八九十几]?[只个位条件台辆本部家杯双])?"
)
# "it's mostly decaf": an adverb before the object is no end of it
_EN_ADVERB = re.compile(r"^(?:mostly|mainly|usually|basically|pretty much|largely|now)\s+(?=\w)", I)
_LEAD_ARTICLE = re.compile(r"^(?:a|an|the|my|our|some|really|very|big|huge|pretty|kind of)\s+", I)


def _first_group(pattern: re.Pattern[str], text: str) -> list[str]:
    return [m.group(0).strip() for m in pattern.finditer(text)]


@cache
def _posseg() -> Callable[[str], tuple[tuple[str, str], ...]]:
    """jieba's POS cut, once per clause: the typed extractors ask it once per flag set."""
    pseg = jieba_posseg()

    @word_cache(maxsize=64)
    def cut(text: str) -> tuple[tuple[str, str], ...]:
        return _whole_names(tuple((w.word, w.flag) for w in pseg.cut(text)))

    return cut


# what a one-character word after a name may be for the two to be one name: not a particle,
# verb, preposition, conjunction, pronoun, adverb, measure word, locality word or punctuation
_NOT_GIVEN_NAME = ("u", "y", "v", "p", "c", "r", "d", "q", "f", "x", "e", "o", "z")


def _whole_names(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """jieba ends some three- and four-character names a character early and tags that character
    apart ("甘雨/nr 桐/ns", "欧阳明/nr 月/m"). A name of two or three characters followed by one
    content character that ends the clause (or stands before punctuation) is one name with it;
    a Chinese given name is one or two characters, so the name grows to four at most."""
    out = list(pairs)
    for i in range(len(out) - 1, 0, -1):
        (name, flag), (char, tag) = out[i - 1], out[i]
        ends = i + 1 == len(out) or out[i + 1][1] == "x"
        if (
            ends
            and flag.startswith("nr")
            and 2 <= len(name) <= 3
            and len(char) == 1
            and not tag.startswith(_NOT_GIVEN_NAME)
            and "\u4e00" <= char <= "\u9fff"
        ):
            out[i - 1 : i + 1] = [(name + char, "nr")]
    return tuple(out)


def pos_cut(text: str) -> tuple[tuple[str, str], ...]:
    """(word, jieba POS flag) of a clause, memoised."""
    return _posseg()(text)


def zh_tagged(text: str, flags: tuple[str, ...]) -> list[str]:
    """Runs of adjacent tokens whose jieba POS tag starts with one of ``flags``."""
    out: list[str] = []
    run = ""
    for word, flag in _posseg()(text):
        if flag.startswith(flags) and (len(word) > 1 or run):
            run += word
        elif run:
            out.append(run)
            run = ""
    if run:
        out.append(run)
    return out


def en_names(text: str) -> list[str]:
    """Capitalised spans that are not just a sentence-initial word."""
    out = []
    for m in _CAPS.finditer(text):
        words = m.group(0).split()
        while words and words[0] in _SENTENCE_WORDS:
            words = words[1:]
        if m.start() == 0 and words and _VERBISH.match(words[0]):
            words = words[1:]  # "Dropped zsh, …", "Left Dell after …": a verb, not a name
        if words:
            out.append(" ".join(words).rstrip(".'"))
    return [w for w in out if w]


def free_text(text: str, zh: bool) -> list[str]:
    """The object after the last content verb, trimmed of fillers ("做护士" → "护士")."""
    if zh:
        tail = ""
        for m in _ZH_VERB.finditer(text):
            rest = _ZH_CUT.split(text[m.end() :].strip(" ，,。"), maxsplit=1)[0]
            rest = _ZH_TAIL.sub("", _ZH_LEAD.sub("", rest)).strip()
            if rest:
                tail = rest
        return [tail] if tail else []
    spans = []
    for m in _EN_VERB.finditer(text):
        rest = _EN_TAIL.sub("", _EN_ADVERB.sub("", text[m.end() :])).strip(" .,!")
        rest = _LEAD_ARTICLE.sub("", _LEAD_ARTICLE.sub("", rest))
        if rest:
            spans.append(rest)
    return sorted(spans, key=len)[:3]


def _tech(text: str) -> list[str]:
    """Known technologies and other product-like names, in order of appearance."""
    found = [(m.start(), m.group(0).strip()) for m in TECH.finditer(text)]
    found += [(text.find(n), n) for n in en_names(text) if n not in {f for _, f in found}]
    return [name for _, name in sorted(found)]


# Product-like names the tech lexicon may not know: a Latin-script run inside Chinese
# ("都用Podman", "换成bun"), an English identifier with an inner capital ("jOOQ", "gRPC") or
# joined by hyphens or dots ("vanilla-extract", "socket.io").
_ZH_LATIN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9_.+#-]*(?:\s?\d[A-Za-z0-9_.]*)?")
_EN_CODE = re.compile(r"(?<![\w@.-])(?:[a-z]+[A-Z][\w.-]*|[a-z][a-z0-9]*(?:[-.][a-z0-9]+)+)(?![\w@-])")


def tech_shaped(text: str, zh: bool) -> list[str]:
    """Known technologies, then names shaped like products or code, in order of appearance:
    when the lexicon knows only the value a clause retires ("之前MySQL", "no Tailwind"), the
    one it keeps is often a name it does not know ("TiDB", "vanilla-extract")."""
    known = _tech(text)
    shaped = _ZH_LATIN if zh else _EN_CODE
    found = [(text.find(k), k) for k in known]
    for m in shaped.finditer(text):
        name = m.group(0).rstrip(".-")
        if not any(name.casefold() in k.casefold() or k.casefold() in name.casefold() for k in known):
            found.append((m.start(), name))
    return [n for _, n in sorted(found) if n]


# Words jieba's dictionary tags as places that people say as something else: "一堆东西" (things)
_ZH_NOT_PLACES = frozenset({"东西", "南北", "东南西北", "中外", "上下"})


def _places(text: str, zh: bool, fallback: bool = True) -> list[str]:
    if zh:
        found = [p for p in zh_tagged(text, ("ns",)) if p not in _ZH_NOT_PLACES]
        return found or (free_text(text, zh) if fallback else [])
    after = re.findall(r"\b(?:in|to|from|at|near)\s+((?:[A-Z][\w'.-]*)(?:\s+[A-Z][\w'.-]*){0,2})", text)
    return after + en_names(text)


def _persons(text: str, zh: bool) -> list[str]:
    if zh:
        named = re.findall(r"(?:叫|是|找|和|跟|给)([\u4e00-\u9fff]{2,3})(?=$|[，,。的也是在])", text)
        return zh_tagged(text, ("nr",)) + named
    return en_names(text)


def _orgs(text: str, zh: bool) -> list[str]:
    if zh:
        return _ORG_CUE.findall(text) + zh_tagged(text, ("nt", "nz"))
    return en_names(text)


_ORG_CUE = re.compile(
    r"(?:在|去|进了?|加入了?|入职|跳槽到|换到)([^，,。在去]{2,14}?)(?:工作|上班|报到|实习|任职|当|做|干|待|呆|读书|上学|了|$)"
)


# an English organisation brought in by where one is, works, banks or joined ("at Stripe",
# "bank with monzo", "joined Canva")
_EN_ORG_CUE = r"\b(?:at|for|with|joined|join|joining|from|to|into)\s+(?:the\s+)?"


def org_introduced(value: str, text: str) -> bool:
    """Does the clause bring ``value`` in as where someone works, studies or is a customer
    ("在小米上班", "去网易报到", "joined Stripe", "I bank with monzo")?"""
    if is_cjk(value):
        return any(m.group(1) == value for m in _ORG_CUE.finditer(text))
    return re.search(_EN_ORG_CUE + re.escape(value) + r"\b", text, I) is not None


_CHANGE = re.compile(
    r"换成了?|改成了?|改用了?|改喝|改吃|改玩|切到了?|换到了?|迁到了?|迁移到了?|搬到了?|转到了?|"
    r"\b(?:switched to|moved to|relocated to|changed to|migrated to|now (?:at|on|in|it's|using)|"
    r"went back to|nowadays it's|these days it's|instead|I'?m (?:at|on|in|using)|start(?:ed)? at|"
    r"joined)\b|跳到|跳槽到|调去|迁到了?|用上了?|上了",
    I,
)
_LATIN_RUN = re.compile(r"[A-Za-z@][\w.@/:+#-]*(?:\s+[A-Za-z][\w.@/:+#-]*)*")
_MONEY_BARE = re.compile(rf"(?:\d[\d,]*(?:\.\d+)?|[{_ZH_NUM}]+)\s?(?:[kKwW万千]|元|块)(?:\s?RMB|\s?USD)?")


def spans(value_type: str, text: str, zh: bool) -> list[str]:
    """Candidate value spans of one type in one clause, best first; after a change marker
    ("换成", "switched to") the new value comes first."""
    found = _spans(value_type, text, zh)
    m = _CHANGE.search(text)
    if m and len(found) > 1:
        after = [f for f in found if text.find(f, m.start()) >= 0]
        found = after + [f for f in found if f not in after]
    return found


def named_spans(value_type: str, text: str, zh: bool) -> list[str]:
    """The spans a typed extractor finds as names of ``value_type``, without the free-text
    fallback an organisation, a tech value or a Chinese place takes when it finds none: does
    the clause name one at all?"""
    if value_type == "organisation":
        return _orgs(text, zh)
    if value_type == "tech":
        return _tech(text)
    if value_type == "place":
        return _places(text, zh, fallback=False)
    return spans(value_type, text, zh)


def _fallback(text: str, zh: bool) -> list[str]:
    """No verb to anchor on: a Latin run inside Chinese ("按 Conventional Commits 写"), else
    the last noun."""
    if zh:
        latin = _LATIN_RUN.findall(text)
        if latin:
            return [latin[-1].strip()]
        nouns = zh_tagged(text, ("n", "nz", "eng"))
        return [nouns[-1]] if nouns else []
    return []


def _spans(value_type: str, text: str, zh: bool) -> list[str]:
    simple = {"email": EMAIL, "phone": PHONE, "url": URL, "duration": DURATION}
    if value_type == "money":
        return _first_group(MONEY, text) or _first_group(_MONEY_BARE, text)
    if value_type in simple:
        return _first_group(simple[value_type], text)
    if value_type == "number":
        return _first_group(NUMBER, text)
    if value_type == "language":
        return _first_group(LANGUAGES, text)
    if value_type == "tech":
        return _tech(text) or _fallback(text, zh) or free_text(text, zh)
    if value_type == "place":
        return _places(text, zh)
    if value_type == "person":
        return _persons(text, zh)
    if value_type == "organisation":
        return _orgs(text, zh) or free_text(text, zh)
    return free_text(text, zh) or _fallback(text, zh)
