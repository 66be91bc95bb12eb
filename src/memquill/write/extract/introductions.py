"""A turn that opens with the speaker's bare name: "Ben Fischer. let's get to it", "徐若溪".

People introduce themselves mostly without "my name is" or "我叫": a full name alone,
between a greeting and the rest of the turn ("Hi，李佳慧，以后多多关照", "Sofia Martinez, hi!",
"Hannah Kim — hi there", "Rebecca Stone's the full name"). The profile rules read only the
worded forms, so the name stayed in an episode, and a bio or a signature had no name to use.

A name is recognised by its shape, not by a list of sentences: in Chinese a surname jieba
knows (or a compound one) and one or two characters more, that jieba does not read as some
other word ("周末" is a time, "马上" an adverb); in English two or three capitalised words
whose first is a given name (``data/given_names.json``) or none of which is an English word
or a place ("Oluwafemi Adeyemi-Holt"). Only the turn's opening counts — greetings and an
announcement ("先自我介绍一下", "I never introduced myself") may come first — and not when
the next part says whose name it is ("徐若溪，我同事" names a colleague).
"""

from __future__ import annotations

import re
from functools import cache

from memquill.retrieve import places
from memquill.text import word_cache
from memquill.write.extract import value_kinds
from memquill.write.extract.appositions import surname, zh_titles
from memquill.write.extract.lexicon import everyday_word, given_name, only_verb
from memquill.write.extract.values import pos_cut
from memquill.write.noise import filler

# surnames of two characters (jieba reads most of them as places or words: "欧阳" ns, "司马" nr)
COMPOUND_SURNAMES = (
    "欧阳 司马 诸葛 上官 东方 司徒 尉迟 宇文 皇甫 令狐 慕容 夏侯 公孙 长孙 钟离 端木 轩辕 独孤 南宫 西门 "
    "申屠 澹台 公冶 呼延 万俟 闻人 赫连 第五"
).split()
# a part that only announces or greets before the name: skipped ("先自我介绍一下", "兄弟你好",
# "Oh, I never introduced myself", "Kia ora"); interjections are skipped as whole parts only
_ANNOUNCE = re.compile(
    r"自我介绍|介绍一下|报个名|你好|您好|introduc|^(?:对了|哦|噢|嗨|哈喽|哈罗|亲|兄弟|各位|大家好)$|"
    r"^(?:oh|ok|okay|so|right|well|anyway|hey there|hi there|hello there|kia ora|g'?day|salut|hola|"
    r"howdy|morning|evening|afternoon|greetings)$",
    re.IGNORECASE,
)
# words that open a line addressing someone ("Anytime Nate!", "Congrats Joanna")
_ADDRESSING = frozenset(
    "anytime congrats congratulations woah whoa woohoo wow thanks cheers sorry welcome dear yay".split()
)
# what may wrap the name inside its own part: "it's X", "name's X", "X here", "X's the name"
_LEAD = re.compile(
    r"^(?:(?:oh,?\s+)?(?:and\s+)?(?:it'?s|it is|this is|(?:my\s+|the\s+|full\s+)?name'?s|"
    r"(?:my\s+|full\s+)?name is|i'?m|i am)\s+)",
    re.IGNORECASE,
)
_TRAIL = re.compile(
    r"(?:\s+(?:here|by the way|officially|on paper|hi|hello)|'s\s+(?:the\s+)?(?:full\s+)?name)\s*[!.]*$",
    re.IGNORECASE,
)
# a capitalised word in Latin letters with lower case in it: "O'Brien", "McAllister",
# "Adeyemi-Holt", "Joaquín"; not "SIM", "GP", "VS Code怎么装"
_LOWER = "a-z\u00df-\u00ff"
_EN_WORD = re.compile(rf"^(?:[A-Z\u00c0-\u00de][{_LOWER}]*['’-]?)+[{_LOWER}]$")
_CJK = re.compile(r"^[\u4e00-\u9fff]{2,5}$")
_PARTICLE = re.compile(r"[了吗呢吧啊呀的么嘛哦]")
_SPLIT = re.compile(r"\s*([，,、。.!！?？;；~～]|\s[—–-]\s|——|—)\s*")
_JOINED = frozenset("，,、—–-")  # a part joined to the name by these may be an apposition


def _pieces(turn: str) -> list[tuple[str, str]]:
    """The turn's parts, each with the mark that ends it, greetings and announcements kept."""
    cut = _SPLIT.split(turn.strip())  # part, mark, part, mark, …
    pieces = [
        (p.strip(), cut[i + 1].strip() if i + 1 < len(cut) else "") for i, p in enumerate(cut) if not i % 2
    ]
    return [(p, mark) for p, mark in pieces if p]


def _opening(pieces: list[tuple[str, str]]) -> int | None:
    """The index of the first part that is no greeting or announcement (among the first four)."""
    return next(
        (i for i, (p, _) in enumerate(pieces[:4]) if not (_ANNOUNCE.search(p) or filler(p))),
        None,
    )


@word_cache(maxsize=4096)
def opening_name(turn: str) -> str | None:
    """The speaker's full name when the turn opens with it alone (see the module doc).
    Memoised: the profile rules ask it for every clause of the turn."""
    pieces = _pieces(turn)
    if (i := _opening(pieces)) is not None:
        piece, mark = pieces[i]
        span = _TRAIL.sub("", _LEAD.sub("", piece)).strip()
        after = pieces[i + 1][0] if i + 1 < len(pieces) else ""
        # "It's Grace, Grace Kim": a given name said alone, then in full
        fuller = _name(_TRAIL.sub("", after).strip(), False) if " " not in span else None
        if fuller and fuller.split()[0] == span:
            return fuller
        name = _name(span, bool(_LEAD.match(piece)))
        if name is None or mark in ("?", "？") or _owned(after, (mark or " ")[-1] in _JOINED):  # "车型号？"
            return None
        return name
    return None


# A job said alone the same way: "急诊科护士，昨晚又抢救到凌晨", "高中英语老师一枚", "Data scientist
# at a fintech here", "Structural civil engineer, mostly bridges". The head is a job word of
# ``data/value_kinds.json`` (``job_heads``); a bare head ("老师，请问…", "Doctor, quick question")
# addresses someone, so a Chinese job needs three characters and an English one a word before
# the head or a workplace after it.
_ROLE_TAIL_ZH = re.compile(r"(?:一枚|一名|一个|在读)$")
_ROLE_LEAD_EN = re.compile(r"^(?:(?:by day|day job|by trade)[:,]?\s+)?(?:an?\s+)?", re.IGNORECASE)
_ROLE_TAIL_EN = re.compile(r"\s+(?:here|by day|by trade)$", re.IGNORECASE)


_NOT_NOMINAL = ("v", "p", "r", "d", "c", "u", "y", "e", "t", "m", "q")
_FUNCTION_EN = frozenset(
    "i i'm im we you he she they it my our your his her their the this that what which who "
    "something anything a an being "
    "should would could can will to with vs and or but of for at in on as if so not no".split()
)


@cache
def _job_heads() -> tuple[re.Pattern[str], re.Pattern[str]]:
    heads = value_kinds.data()["job_heads"]
    zh = "|".join(sorted(map(re.escape, heads["zh"]), key=len, reverse=True))
    en = "|".join(sorted(map(re.escape, heads["en"]), key=len, reverse=True))
    return (
        re.compile(rf"^[\u4e00-\u9fffA-Za-z]{{0,8}}?(?:{zh})$"),
        re.compile(
            rf"^(?P<role>(?:[A-Za-z][\w&.'-]*\s+){{0,3}}?(?:{en})s?)(?:\s+(?:at|for|with|in)\s+(?P<where>.{{2,40}}))?$",
            re.IGNORECASE,
        ),
    )


@word_cache(maxsize=4096)
def opening_role(turn: str) -> str | None:
    """The speaker's job when the turn opens with it alone (see above); memoised likewise."""
    pieces = _pieces(turn)
    if (i := _opening(pieces)) is None or pieces[i][1] in ("?", "？"):
        return None
    piece = pieces[i][0]
    zh, en = _job_heads()
    if re.search(r"[\u4e00-\u9fff]", piece):  # nouns and adjectives only: not "帮我写个朋友圈文案"
        span = _ROLE_TAIL_ZH.sub("", piece)
        nominal = all(not f.startswith(_NOT_NOMINAL) for _, f in pos_cut(span))
        return span if len(span) >= 3 and zh.match(span) and nominal else None
    span = _ROLE_TAIL_EN.sub("", _ROLE_LEAD_EN.sub("", piece))
    if not (m := en.match(span)):
        return None
    role = m.group("role")
    *before, _ = role.split()
    if any(w.casefold() in _FUNCTION_EN or only_verb(w.casefold()) for w in before):
        return None  # "We went with Clerk", "what should I cook"
    return role if before or m.group("where") else None


def _name(span: str, worded: bool) -> str | None:
    """``span`` when it is a person's full name (a single given name too after "it's",
    "I'm", "name's": ``worded``)."""
    if _CJK.match(span):
        return span if zh_full_name(span) else None
    words = span.split()
    if not words or not all(_EN_WORD.match(w) for w in words):
        return None
    if len(words) == 1:
        return span if worded and given_name(words[0]) and not everyday_word(words[0].casefold()) else None
    if len(words) > 3 or span in places.cities(span):  # "New York"; not "Sofia Martinez"
        return None
    first = words[0].casefold()  # an interjection or an adverb before a name addresses someone
    if filler(first) or first in _ADDRESSING or (first.endswith("ly") and not given_name(first)):
        return None
    # a given name first ("Ben Fischer"), or no word an English one ("Oluwafemi Adeyemi-Holt",
    # "Liam Carter"; not "Leaning Starling")
    if given_name(words[0]) or not any(_english(w.casefold()) for w in words):
        return span
    return None


def _english(w: str) -> bool:
    """An English word, inflected too ("leaning", "proposed")."""
    stems = [w] + [w[: -len(end)] for end in ("ing", "ed", "es", "s") if w.endswith(end)]
    return any(everyday_word(x) or everyday_word(x + "e") for x in stems)


def zh_full_name(span: str) -> bool:
    """A surname and one or two characters ("徐若溪", "马琳"), or a compound surname and one or
    two ("欧阳澜"), that jieba does not read as one other word ("周末", "马上", "黄色")."""
    if not _CJK.match(span):
        return False
    compound = span[:2] in COMPOUND_SURNAMES
    rest = span[2:] if compound else span[1:]
    if not 1 <= len(rest) <= 2 or not (compound or surname(span[0])) or span.endswith(zh_titles()):
        return False  # a surname and a title ("陈总", "王老师") is someone addressed, not a name
    if _PARTICLE.search(rest):  # "太棒了" (jieba: a name), "怀孕了"
        return False
    if compound:
        return True
    # jieba reads it as a name, or the surname alone then names ("马/天宇", "邓/凯文"); not
    # "太长/了", "明天/聊", "怀孕/了"
    cut = pos_cut(span)
    head, *tail = cut
    if len(span) == 3 and head[0] == span[0] and head[1].startswith(("nr", "zg")) and len(tail) == 1:
        return True  # jieba's surname alone, then a given name it reads as a word ("周/浩然")
    return (
        (head[0] == span[0] or head[1].startswith("nr"))
        and all(f.startswith(("nr", "nz")) for _, f in tail)
        and (len(cut) > 1 or head[1].startswith("nr"))
    )


# a part after the name that describes someone else: "Emma Watson, she's a big supporter",
# "Maya Chen, the new PM, wants…", "Tom Lee, my daughter's teacher", "徐若溪，我同事"
_THIRD = re.compile(r"^(?:the|his|her|their)\b", re.IGNORECASE)
_PRONOUN = re.compile(r"^(?:(?:she|he|they)\b|[他她])", re.IGNORECASE)
_MINE = re.compile(r"^(?:我|my\b|our\b)", re.IGNORECASE)  # "徐若溪，我同事"; not "…，朋友都叫我…"


def _owned(after: str, joined: bool) -> bool:
    """The part after the name says it is someone else: in the third person, or by a
    relation word ("我同事", "my manager", "my daughter's teacher") — in an apposition
    (``joined``: after a comma or a dash, not a full stop: "Rafael Quispe. The Quispe is
    Quechua")."""
    if _PRONOUN.match(after):
        return True
    if not joined:
        return False
    if _THIRD.match(after):
        return True
    return bool(_MINE.match(after) and places.people(after))
