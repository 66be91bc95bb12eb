"""Whom a question asks about, when it does not say "my".

People ask a memory terse questions: "city?", "IDE now", "早上喝啥", "上班咋走" drop the
pronoun (Chinese leaves it out as a rule, English notes do), and "老公现在做啥", "wife's
job now?", "sis doing what these days" name a relative without "my". Routing used to send a
question to the reader's own slots only when it said "I/my/我", so these reached no slot.

The rule here: a *short* question that names nobody else (no capitalised name after its
first word, no "he/she/他/她") is about the reader; a family word in it without "my" (at
the start in Chinese, anywhere in English) names that relative. A long question without a
first person ("When did Caroline move to Sweden?", "what causes inflation in winter") keeps
going to no user slot, as before.
"""

from __future__ import annotations

import re
from functools import cache

from memquill.catalogue import load
from memquill.text import is_cjk
from memquill.write.extract import item_names, subjects

TERSE_WORDS = 6  # an English question of at most this many words is terse…
TERSE_HAN = 12  # …a Chinese one of at most this many characters
# Family is named without "my" ("老公又换了工作", "wife's job now?", "grandpa's age?"); other
# relations ("friend", "coach", "老师") are too often generic words to count without it in a
# turn or anywhere in a question — but a question *opening* with one in Chinese ("闺蜜生日是
# 哪天来着", "老板业余喜欢啥") or naming one as an owner in English ("boss's email?") asks
# about that person (``relative``).
FAMILY = frozenset(
    "partner husband wife father mother parents son daughter child brother sister grandfather "
    "grandmother grandchild uncle aunt cousin nephew niece father_in_law mother_in_law sibling_in_law".split()
)
# The partner named by no relation word: "我家那位", "我那位", "那口子", "my other half"
_PARTNER = re.compile(r"我家那位|我那位|那口子|\b(?:other|better) half\b|\bsignificant other\b", re.I)
# "us", not "US" ("Which US states might Tim be in" names no reader)
_FIRST = re.compile(r"我|咱|\b(?i:i|i'm|i've|i'd|me|my|mine|myself|we|we're|we've|our|ours)\b|\b[Uu]s\b")
# The reader speaking for a group ("which DB are we on", "我们订单库跑在啥上面", "咱们组CI用的啥"):
# a key only projects have, read from such a question, is the reader's project's.
_GROUP = re.compile(r"我们|咱们|\b(?i:we|we're|we've|our|ours)\b|\bus\b")  # "US states" is no group
_PRONOUN = re.compile(r"(?<!其)他|她|\b(?:he|she|him|his|her|hers|they|them|their)\b", re.I)
# An interrogative ("city?", "上班咋走", "where's mum staying"); a chat line ("need more
# coffee", "ttyl") is no question about anyone, however short.
_ASKS = re.compile(
    r"[?？]|啥|什么|哪|谁|几|多少|多久|怎么|怎样|如何|咋|干嘛|吗|\b(?:what|what's|which|who|who's|whose|where|where's|"
    r"when|how|how's|how many|how much)\b",
    re.I,
)
# "IDE now", "usual cuppa", "bf's work": a question by its shape ("gn", "it worked!" are none)
NOUN_PHRASE = 3
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_CLAUSE = re.compile(r"[，,;；。.!?！？:：]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def terse(query: str) -> bool:
    """A short question: a handful of words or Chinese characters."""
    if is_cjk(query):
        return len(_HAN.findall(query)) <= TERSE_HAN
    return len(_WORD.findall(query)) <= TERSE_WORDS


# "What's our dog called?" opens with a contraction, not a name's possessive ("Ines's job?")
_CONTRACTED = frozenset(
    "what's who's where's when's how's why's which's it's that's there's here's let's".split()
)


def names_other(query: str) -> bool:
    """The question names someone: a pronoun, or a capitalised word after its first
    ("When did Caroline…", "what's Ines's job") or the first with "'s" ("Ines's job?")."""
    if _PRONOUN.search(query):
        return True
    words = _WORD.findall(query)
    if words and re.fullmatch(r"[A-Z][a-z]+'s", words[0]) and words[0].casefold() not in _CONTRACTED:
        return True
    return any(re.fullmatch(r"[A-Z][a-z]+(?:'s)?", w) for w in words[1:])


def asks(query: str) -> bool:
    """Is it a question: an interrogative, or a bare noun phrase of a few English words?"""
    if _ASKS.search(query):
        return True
    words = len(_WORD.findall(query))
    return not is_cjk(query) and 2 <= words <= NOUN_PHRASE and not re.search(r"[!.]\s*$", query)


def for_group(query: str) -> bool:
    """Does the question speak for the reader's group ("we", "our", "我们", "咱们")?"""
    return bool(_GROUP.search(query))


def about_reader(query: str) -> bool:
    """Does the question ask about the reader (or the reader's family)? It says "I/my/我",
    or it is a terse question that names nobody else."""
    if _FIRST.search(query):
        return True
    return terse(query) and asks(query) and not names_other(query)


@cache
def _family_words() -> tuple[re.Pattern[str], re.Pattern[str]]:
    cat = load()
    words = sorted((w for w in cat.relation_words() if cat.relation(w) in FAMILY), key=len, reverse=True)
    zh = [w for w in words if not w.isascii()]
    en = [w for w in words if w.isascii()]
    en_rx = "(" + "|".join(map(re.escape, en)) + r")(?:'s)?\b"
    return (
        re.compile(r"^\W*(?:(" + "|".join(map(re.escape, zh)) + r")|" + en_rx + ")", re.I),
        re.compile(r"\b" + en_rx, re.I),
    )


def opening(text: str) -> tuple[str, str] | None:
    """(relation key, word) of a family word opening a turn without "my" ("老公又换了…",
    "Mum's staying in Nairobi", "Sis says they've settled in Cairns"), or opening a later
    clause of a turn with no first person."""
    m = _family_words()[0].search(text)
    if not m and not _FIRST.search(text):  # "体校那边离家太远，老公又申请调回学校了"
        m = next(filter(None, (_family_words()[0].search(c) for c in _CLAUSE.split(text)[1:])), None)
    if not m:
        return None
    word = m.group(1) or m.group(2)
    key = load().relation(word)
    return (key, word) if key else None


def opening_relative(text: str) -> str | None:
    found = opening(text)
    return found[0] if found else None


def relative(query: str) -> str | None:
    """The relation a question names without "my": by a family word ("老公现在做啥", "what's
    dad up to work-wise"), or by any relation word opening a Chinese question ("闺蜜生日是哪天")
    or owning something in an English one ("boss's email?"), when it names nobody else and
    has no first person (with one, "my sister" is read by ``subjects.relation``)."""
    if _FIRST.search(query) or names_other(query) or not asks(query):
        return None
    if key := opening_relative(query):
        return key
    m = _family_words()[1].search(query)
    if m:
        return load().relation(m.group(1))
    zh_any, en_owner = _any_relation()
    m = zh_any.match(query) or en_owner.search(query)
    return load().relation(m.group(1)) if m else None


@cache
def _any_relation() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Any relation word opening a Chinese question; any English one with "'s" (an owner)."""
    zh, en = subjects.relation_alternations()
    return (
        re.compile(r"^\W*(" + zh + ")"),
        re.compile(r"(?:^|\b(?:the|a)\s+)\W*(" + en + r")'s\b", re.I),
    )


@cache
def _my_loose() -> tuple[re.Pattern[str], re.Pattern[str]]:
    en = subjects.relation_alternations()[1]
    return (
        re.compile(r"\b(?:my|our)\s+(?:[\w-]+\s+){1,2}?(" + en + r")\b(?!'s)", re.I),
        re.compile(r"\b(?:my|our)\s+(?:[\w-]+\s+)?(?:" + en + r")'s\s+(?:[\w-]+\s+)?(" + en + r")\b", re.I),
    )


def named_relative(query: str, relation: str | None) -> str | None:
    """The relation a question asks about when the first "my <relation>" (``relation``, from
    ``subjects.relation``) does not say it: the partner named by no relation word ("我家那位
    现在干哪行", "my other half's job"), the owned one of "my <relation>'s <relation>" ("what's
    my kid's teacher called"), or "my <word> <relation>" ("who's my Spanish teacher now")."""
    if _PARTNER.search(query):
        return "partner"
    loose, chain = _my_loose()
    m = chain.search(query) if relation else loose.search(query)
    return load().relation(m.group(1)) if m else relation


# --- whom a turn is about ----------------------------------------------------------------
# "我妈打电话说，我姐辞职了", "My brother says mum moved to Nakuru": the one who reports is not
# the one reported on; "My wife told me she's leaving" reports on herself.
_SAYS = re.compile(
    r"^[^，,。.!?！？]{0,24}?(?:说|讲|告诉我|\b(?:says|said|told me|tells me|rang|called)\b)", re.I
)
MALE = frozenset("husband father brother son grandfather".split())
FEMALE = frozenset("wife mother sister daughter grandmother".split())
_HE = re.compile(r"(?<!其)他(?!们)|\b(?:he|he's|him|his)\b", re.I)
_SHE = re.compile(r"她(?!们)|\b(?:she|she's|her|hers)\b", re.I)
# A turn without "I/my/我" whose subject is a pronoun anywhere ("The truck got sold; he's a
# pastry student now", "Her boss liked her so much that she's been promoted") is about a
# person named before.
_PRONOUN_SUBJECT = re.compile(r"(?<!其)(?:他|她)(?!们)|\b(?:he|she)\b|^\W*(?:his|her)\b", re.I)


def reported(text: str, rel: str, word: str) -> str | None:
    """The relative a relation ``word`` reports on ("我妈…说，我姐…" → ``sister``), when a
    speech verb follows it and another family word comes after; ``None`` otherwise."""
    i = text.find(word)
    rest = text[i + len(word) :] if i >= 0 else ""
    m = _SAYS.search(rest)
    if not m:
        return None
    after = rest[m.end() :].lstrip(" ，,:：")
    if (said := subjects.relation(after)) and said[0] != rel:
        return said[0]
    key = opening_relative(after)
    if key is None and (e := _family_words()[1].search(after)):
        key = load().relation(e.group(1))
    return key if key != rel else None


def by_pronoun(text: str) -> bool:
    """Is a turn without "I/my/我" about someone it calls he/she?"""
    return not _FIRST.search(text) and bool(_PRONOUN_SUBJECT.search(text))


def gender(text: str) -> str:
    """ "male" / "female" by the turn's pronouns, "any" when they do not say."""
    he, she = bool(_HE.search(text)), bool(_SHE.search(text))
    return "male" if he and not she else "female" if she and not he else "any"


def fits(relation: str, gender: str) -> bool:
    """Can a pronoun of ``gender`` refer to the relative ``relation``?"""
    if gender == "male":
        return relation not in FEMALE
    if gender == "female":
        return relation not in MALE
    return True


# --- a belonging or pet the question names ------------------------------------------------
# "dog's name?", "what's the pup called again?", "猫现在叫啥": the name asked for is the pet's
# (``item:<name>``), not the reader's own ``name``. The words and the subject names the
# write path gives such things (``subjects.item_name``) are data (``data/items.json``).
_NAME_Q = re.compile(r"叫啥|叫什么|叫做?什么|名字|\b(?:name|named|called|call)\b", re.I)


@cache
def _items() -> tuple[tuple[re.Pattern[str], re.Pattern[str], tuple[str, ...]], ...]:
    out = []
    for names, en_words, zh_words in item_names.groups():
        en = "|".join(map(re.escape, sorted(en_words, key=len, reverse=True)))
        zh = "|".join(map(re.escape, sorted(zh_words, key=len, reverse=True)))
        # English: owned or definite ("my dog", "the pup", "our kelpie") or opening it ("dog's name?")
        en_rx = re.compile(rf"(?:\b(?:my|our|the)\s+(?:[\w-]+\s+)?|^\W*)(?:{en})(?:'s)?\b", re.I)
        # Chinese: opening the question or after 我(家/的)/咱家/家里的 ("猫现在叫啥", "我家狗狗叫什么")
        # ("我家那只毛孩子", "我那辆车": a demonstrative and measure word may stand between; "我车…" none)
        zh_rx = re.compile(
            rf"(?:^\W*|我的|我家的?|我们家的?|咱家的?|家里的?|我养的|我)(?:[那这][只条个头辆台部把匹])?(?:{zh})"
        )
        out.append((en_rx, zh_rx, names))
    return tuple(out)


def belonging_slots(subject: str, key: str, zh: bool) -> tuple[tuple[str, str], ...]:
    """The other slot that may state the same answer about the reader's belonging (``data/items.json``
    "owned_as"): the user's ``vehicle`` ↔ the car's ``model`` ("what car do I drive", "我家现在开的是啥车",
    "what model is my car"). Which one the write path filled depends on how it was said ("I drive a
    Civic" vs "提了台轩逸"); an empty slot costs nothing. Empty for anything else."""
    kinds = item_names.owned_as()
    if subject == "user" and key in kinds:
        names = [n for n in kinds[key] if n.isascii() != zh]
        return ((f"item:{names[0]}", "model"),) if names else ()
    if subject.startswith("item:") and key == "model":
        thing = subject.removeprefix("item:")
        return tuple(("user", k) for k, names in kinds.items() if thing in names)
    return ()


def named_item(query: str) -> tuple[str, ...]:
    """Item subjects (``item:dog``, ``item:猫``) whose name a question asks, most likely first;
    empty when it asks no name or names no belonging."""
    if not _NAME_Q.search(query):
        return ()
    return owned_item(query)


def owned_item(query: str) -> tuple[str, ...]:
    """Item subjects of a pet or belonging a question names as owned or definite ("what breed
    is my dog", "where did I lock up my bike", "我家猫几岁了"), most likely first; empty when
    it names none or names someone else."""
    if names_other(query):
        return ()
    for en_rx, zh_rx, names in _items():
        if is_cjk(query):
            if zh_rx.search(query):
                return tuple(f"item:{n}" for n in names if not n.isascii())
        elif m := en_rx.search(query):
            word = re.sub(r"'s$", "", m.group(0).split()[-1].casefold())
            ascii_names = [n for n in names if n.isascii()]
            first = [word] if word in ascii_names else []
            return tuple(f"item:{n}" for n in dict.fromkeys([*first, *ascii_names]))[:2]
    return ()
