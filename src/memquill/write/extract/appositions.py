"""A person named beside their relation: "my wife Jess", "my boss, Gretchen,", "我闺蜜邝诗雨".

A clause that introduces someone by relation and name in passing ("my colleague Rashid is a
die-hard Arsenal fan", "我同事吕梓萌从下周开始休产假") states two facts: the name, and what
the rest of it says. The rule that takes the clause (or the attribute model) reads the
second; the name was lost — on the blind dev sets it was the most frequent missing fact of
person subjects. The name is filed under ``person:<relation>`` (relation words from the
catalogue), where entity linking (``write/entities.py``) finds it when the name is used
alone later. Honorifics the name keeps ("Dr. Anjali Menon") and the words a Chinese name
stops before are data (``data/value_kinds.json``).
"""

from __future__ import annotations

import re
from functools import cache

from memquill.catalogue import load
from memquill.model import Candidate, MemoryType
from memquill.write.extract import providers, value_kinds
from memquill.write.extract.clause import Clause
from memquill.write.extract.patterns_common import blocked
from memquill.write.extract.subjects import relation_alternations
from memquill.write.extract.value_kinds import thing_word
from memquill.write.extract.values import pos_cut

_CJK = r"\u4e00-\u9fff"
# Capitalised words that follow "my <relation>" without naming anyone ("my mom Facetimed…"
# is rare; "my boss I think" and a weekday are not).
_NOT_NAMES = frozenset(
    """I I'm I've I'd I'll Im The A An And But So Or If On In At For From To With Monday Tuesday
    Wednesday Thursday Friday Saturday Sunday Today Tomorrow Yesterday Tonight Lol Haha Ok Okay
    This That These Those It He She They We You There Here Who What Which Someone Everyone
    Nobody Anyone Mine Yours""".split()
)
# "my" before a relation word with no word saying which kind of it
_PLAIN_MY = re.compile(r"(?i:my|our)\s+(?i:(?:new|current|old|dear)\s+)?")
# Pronouns, a function word or a verb first: "我妈叫我回家" names no one.
_ZH_NOT_NAME_START = re.compile(r"^(?:我|你|他|她|它|咱|这|那|大家|自己|了|过|着|不|没|也|都|去|来|要)")
_NOT_NAME_FLAGS = ("t", "d", "p", "f", "r", "u", "c", "m", "q", "v", "z", "y", "e")
_NOT_NAMED_FLAGS = ("t", "d", "p", "f", "r", "u", "c", "v", "y", "e")


@cache
def _data() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Honorifics, the words a Chinese name stops before, and the titles a surname takes."""
    raw = value_kinds.data()
    return (
        tuple(raw.get("honorifics", [])),
        tuple(raw.get("zh_name_ends", [])),
        tuple(raw.get("zh_titles", [])),
    )


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    zh, en = relation_alternations()
    titles, ends, zh_titles = _data()
    title = _alternation(titles)
    word = r"[A-Z\u00c0-\u00de][^\W\d_]*(?:['’-][^\W\d_]+)*"
    # "my sister Amy" ("my sister in Boston, Amy"), a new one opening the clause without "my"
    # ("new gp, Dr Nguyen at the clinic…", chat drops it), and a new one someone got ("got a spot with a
    # new family doctor finally, Dr. Lavoie", "we hired a permanent manager, Marisol"), not one
    # wished for ("I need a new…"), or one signed up with ("Registered with a huisarts…, Dr. Visser")
    got = (
        r"(?:got|have|has|hired|found|assigned|with|welcomed|met)\s+(?:a|an|our)\s+(?:new|permanent)|"
        r"(?:registered|signed\s+up|enrolled)\s+with\s+(?:a|an)(?:\s+new)?"
    )
    en_rx = re.compile(
        rf"(?:\b(?:(?i:my|our)\s+(?i:(?:new|current|old|dear)\s+)?|(?i:{got})\s+)|^\W*(?i:new)\s+)"
        rf"(?:[A-Za-z][A-Za-z-]*\s+){{0,2}}?((?i:"
        + en
        + r"))(?:\s+(?i:finally|now))?(?:\s+(?:in|at)\s+[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2}(?=\s*,))?"
        + r"(?:\s*,\s*|\s+(?:is\s+)?(?:named|called)\s+|\s+)"
        + rf"((?:(?:{title})\s+)?{word}(?:\s+{word}){{0,2}})(?![\w'’])"
    )
    stop = _alternation(ends)
    # a Latin name, or a nickname of one ("阿May", "小K"; 阿/小/老 open nicknames)
    latin = r"((?:[阿小老](?=[A-Z]))?[A-Z][A-Za-z'’-]*(?:\s+[A-Z][A-Za-z'’-]*){0,2})"
    cjk = rf"([{_CJK}]{{2,3}}?)(?={stop}|$|[，,。；;！!？?、\s\d])"
    # "新领导郑凯第一次一对一…", "…，新来的领导叫黄敏": a relation opening the clause, or a new
    # one opening a segment, one changed to or arrived ("换了新医生陈医生", "来了个新同事小王"),
    # or said to ("写封邮件给新领导阿May"), without "我" is the user's too
    # ("，医生叫少吃盐" names no doctor)
    # …and one a word of what kind says which ("研究生导师周教授", "大学室友小林"; not "朋友的领导")
    kind = rf"(?:(?:(?![的他她你它我])[{_CJK}]){{2,3}}?)??"
    lead = (
        rf"(?:(?:(?:我|我的|我们|我家|咱)(?:的)?|^\W*){kind}(?:新来的|新|现在的)?|[，,；;]\s*(?:新来的|新)"
        r"|(?:换了个?|换成了?|来了个?)(?:新来的|新的?)|(?:(?:新)?找了个|新找的)(?:新的?)?"
        r"|(?:给|跟|向|替)(?:新来的|新|现在的))(" + zh + ")"
    )
    titled = rf"[{_CJK}](?:{_alternation(zh_titles)})"  # a surname and a title: "周教授", "陈总"
    # "我的家庭医生是刘医生", "新领导会是陈总": 是 only before a surname and a title ("我老婆是老师"
    # names no one); 叫 may open the next comma segment ("换了个发型师 叫Kevin"); one changed to
    # a surname and a title is named too ("家庭医生换成了王大夫")
    said = rf"((?:[，,]\s*)?叫|(?:会|将)?是(?={titled})|(?:换成|改成|换)了?(?={titled}))?"
    zh_rx = re.compile(lead + said + rf"\s*(?:{latin}|({titled})|{cjk}|([小老阿][{_CJK}]))")
    return en_rx, zh_rx, re.compile(lead)


# the copula of "my new manager is Marcus", said of one to come too ("is going to be Marcus")
_BECOMES = r"(?:is|will\s+be|(?:is|'s)\s+(?:going\s+to|gonna)\s+be)"


@cache
def _copulas() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The name said as the subject or the predicate of the relation: "Amy is my sister",
    "my sister's name is Amy", "小雨是我妹妹", "Dr Osei as my main supervisor", "周教授作为我的新导师"."""
    zh, en = relation_alternations()
    title = _alternation(_data()[0])
    word = r"[A-Z\u00c0-\u00de][^\W\d_]*(?:['’-][^\W\d_]+)*"
    name = rf"((?:(?:{title})\s+)?{word}(?:\s+{word}){{0,2}})"
    kin = r"(?:(?:new|current|old|dear|little|big|older|younger|baby|best|closest)\s+)?"
    en_rx = re.compile(
        rf"(?:^|[,;:—–]\s*|\b(?i:and|so|but|honestly|actually)\s+){name}\s+is\s+(?i:my|our)\s+{kin}((?i:{en}))\b(?!['’])"
        rf"|\b(?i:my|our)\s+{kin}((?i:{en}))(?:['’]s\s+name)?(?:\s+(?i:here|now|these\s+days))?\s+{_BECOMES}\s+(?:now\s+)?{name}(?![\w'’])"
        rf"|{name}\s*[(,]\s*(?i:my|our)\s+{kin}((?i:{en}))\b(?!['’])"  # "Anand (our new EM)"
        # "first meeting with Dr Osei as main supervisor", "Priya as my new manager"
        rf"|{name}\s+as\s+(?:(?i:my|our)\s+)?{kin}(?:(?i:main|primary|official|permanent|acting)\s+)?((?i:{en}))\b(?!['’])"
        # "Amara Osei is stepping up to be my primary supervisor", "Kim will take over as our manager"
        rf"|{name}\s+(?:is|'s|will)\s+(?:stepping\s+(?:up|in)|step\s+(?:up|in)|taking\s+over|take\s+over)\s+"
        rf"(?:to\s+be|as)\s+(?i:my|our)\s+{kin}(?:(?i:main|primary|official|permanent|acting|new)\s+)?((?i:{en}))\b(?!['’])"
        # "the flat got sold, new landlord is Sandra": a new one opening a segment, without "my"
        rf"|(?:^|[,;:—–]\s*)(?i:(?:the|our)\s+)?(?i:new)\s+((?i:{en}))\s+{_BECOMES}\s+{name}(?![\w'’])"
    )
    zh_rx = re.compile(
        rf"^\W*([{_CJK}]{{2,3}}?)(?:是我(?:的)?(?:亲)?({zh})(?![{_CJK}])|作为我(?:的)?(?:新)?({zh}))"
    )
    return en_rx, zh_rx


def relation_names(text: str, zh: bool) -> list[tuple[str, str]]:
    """(relation key, name) for each person the clause names beside their relation; a kind
    word is no one's name ("a phone plan with Vodafone, my wife and two kids": a carrier)."""
    return [(key, name) for key, name in _relation_names(text, zh) if not thing_word(name)]


def _relation_names(text: str, zh: bool) -> list[tuple[str, str]]:
    en_rx, zh_rx, _ = _patterns()
    cat = load()
    out: list[tuple[str, str]] = []
    if not zh:
        for m in en_rx.finditer(text):
            name = re.sub(r"['’]s$", "", m.group(2))  # "my niece Poppy's birthday"
            first = name.split()[0]
            if first in _NOT_NAMES or (key := cat.relation(m.group(1))) is None:
                continue
            if m.group(1).casefold() == "partner" and not _PLAIN_MY.fullmatch(text[m.start() : m.start(1)]):
                continue  # a climbing, lab or tennis partner is no partner
            out.append((key, name))
        for m in _copulas()[0].finditer(text):
            pairs = (
                (1, 2),
                (4, 3),
                (5, 6),
                (7, 8),
                (9, 10),
                (12, 11),
            )  # (name, relation) of each alternative
            name, word = next((m.group(i), m.group(j)) for i, j in pairs if m.group(i))
            if name.split()[0] not in _NOT_NAMES and (key := cat.relation(word)) is not None:
                out.append((key, name))
        return out + [(key, name) for key, name in _named_by(text, zh) if name.split()[0] not in _NOT_NAMES]
    said = _copulas()[1].match(text)  # "小雨是我妹妹", "周教授作为我的新导师"
    if said and (key := cat.relation(said.group(2) or said.group(3))) and _zh_named(said.group(1)):
        return [(key, said.group(1))]
    for m in zh_rx.finditer(text):
        key = cat.relation(m.group(1))
        if key is not None and m.group(4) and surname(m.group(4)[0]):
            out.append((key, m.group(4)))
            continue
        name = m.group(3) or m.group(5) or m.group(6)
        if key is None or not name or (not m.group(3) and not zh_name(name, bool(m.group(2)))):
            continue
        out.append((key, name))
    return out or _zh_tagged_name(text) or _named_by(text, zh)


@cache
def _named_by_patterns() -> tuple[tuple[str, bool, re.Pattern[str]], ...]:
    """The catalogue's ``named_by`` phrases as (relation, zh, pattern with the name's group)."""
    word = r"[A-Z\u00c0-\u00de][^\W\d_]*"
    out: list[tuple[str, bool, re.Pattern[str]]] = []
    for rel in load().relations:
        for zh, phrases in ((False, rel.named_by.en), (True, rel.named_by.zh)):
            for phrase in phrases:
                head, tail = (re.escape(x) for x in phrase.split("X", 1))
                if zh:  # a name the phrase opens with is cut by jieba (``_named_by``), not here
                    name = rf"([{_CJK}]{{2,3}}?)" if head else rf"([{_CJK}]{{1,3}})"
                    out.append((rel.key, zh, re.compile(f"{head}{name}{tail}")))
                    continue
                head, tail = (f"(?i:{x})" if x else "" for x in (head, tail))  # the name capitalised
                name = rf"({word}(?:\s+{word}){{0,2}})"
                out.append((rel.key, zh, re.compile(rf"(?<![\w'’]){head}{name}{tail}")))
    return tuple(out)


def _named_by(text: str, zh: bool) -> list[tuple[str, str]]:
    """(relation, name) for a person a relation's phrase names without the relation word
    ("我们组以后归宋一鸣管", "so Meera has taken over the team")."""
    out = []
    for key, lang_zh, rx in _named_by_patterns():
        if lang_zh != zh:
            continue
        for m in rx.finditer(text):
            name = m.group(1)
            if zh and m.start(1) == m.start():  # the name ends where the phrase begins
                name = next(
                    (n for n in (text[max(0, m.end(1) - k) : m.end(1)] for k in (3, 2)) if zh_name(n, False)),
                    "",
                )
            if name:
                out.append((key, name))
    return out


def _zh_tagged_name(text: str) -> list[tuple[str, str]]:
    """ "新领导郑凯第一次一对一…": a name jieba tags as one ('nr') right after the relation
    word names that person even when no stop word or punctuation ends it."""
    m = _patterns()[2].match(text)
    key = load().relation(m.group(1)) if m else None
    cut = pos_cut(text[m.end() :]) if m and key else ()
    if key and cut and cut[0][1] == "nr" and 2 <= len(cut[0][0]) <= 3 and zh_name(cut[0][0], False):
        return [(key, cut[0][0])]
    return []


def zh_titles() -> tuple[str, ...]:
    """The titles a Chinese surname takes ("总", "老师", "医生": "陈总", "王老师")."""
    return _data()[2]


def surname(char: str) -> bool:
    """Does jieba read ``char`` as a surname ("周某" is one name; "研某" is not)? 小, 老 and 大
    open nicknames and titles, not names."""
    cut = pos_cut(char + "某")
    return char not in "小老大阿" and len(cut) == 1 and cut[0][1].startswith("nr")


def en_name(word: str) -> bool:
    """Is a capitalised word after "my <relation>" a name ("my boss Thursday" names no one)?"""
    return word not in _NOT_NAMES


def _zh_named(name: str) -> bool:
    """A Chinese name said as the subject of its relation: a name, or a surname and a title."""
    titles = _data()[2]
    return zh_name(name, False) or (len(name) >= 2 and surname(name[0]) and name[1:] in titles)


def zh_name(name: str, introduced: bool) -> bool:
    """Is a Chinese span after a relation word a person's name? After 叫 any word that is no
    pronoun or function word; right after the relation word ("我同事吕梓萌") only one that
    jieba reads as a name, or 小/老 + a surname ("小刘", "老吴")."""
    if _ZH_NOT_NAME_START.match(name) or load().relation(name):
        return False
    cut = pos_cut(name)
    if not cut:
        return False
    if introduced:  # reduplicated pet names read as measure words ("朵朵")
        return not cut[0][1].startswith(_NOT_NAMED_FLAGS)
    if cut[0][1].startswith(_NOT_NAME_FLAGS):
        return False
    if cut[0][1].startswith("nr"):
        return True
    return len(cut) == 2 and cut[0][0] in ("小", "老", "阿") and cut[1][1].startswith("nr")


_CONTENT = {"zh": "{rel}叫{name}", "en": "The user's {rel} is named {name}"}


def named_relations(c: Clause, taken: list[Candidate]) -> list[Candidate]:
    """Name facts of the people the clause names beside their relation or by the service the
    user sees them for (``providers.py``), unless the clause's other candidates already name them."""
    if blocked(c):
        return []
    zh = c.language == "zh"
    have = {(x.subject, x.key) for x in taken}
    out = []
    # …and the person the user now goes to for a service ("first cleaning with Dr. Alvarez")
    for key, name in [*relation_names(c.text, zh), *providers.seen(c.text, zh, c.event.content)]:
        subject = f"person:{key}"
        if (subject, "name") in have:
            continue
        have.add((subject, "name"))
        rel = load().relation_of(key)
        words = (rel.zh if zh else rel.en) if rel else ()
        # the word as said ("妹妹", not the relation's first label "姐姐"), longest first
        said = [w for w in sorted(words, key=len, reverse=True) if w.lower() in c.text.lower()]
        word = said[0] if said else words[0] if words else key
        content = _CONTENT["zh" if zh else "en"].format(rel=f"用户的{word}" if zh else word, name=name)
        rule = "profile.relation_name"
        out.append(c.make(MemoryType.FACT, subject, "name", content, value=name, rule=rule))
    return out
