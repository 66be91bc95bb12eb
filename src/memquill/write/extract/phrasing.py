"""Turning a user's first-person clause into a self-contained statement.

"我不喝咖啡" → "用户不喝咖啡"; "I'm allergic to peanuts" → "The user is allergic to peanuts".
A stored memory must read correctly with no conversation around it (DESIGN §3 content):
the speaker becomes "the user"/"用户", "you" the assistant, and "we" the user too — or, in a
project's conversation, the project, unless the statement is about the user's own household or
circle (``data/we.json``). "We" was once always "the team": "Gran was diagnosed with Parkinson's,
so we're adjusting" became "so the team is adjusting", "我们两口子在做试管" "团队两口子在做试管".
Negation words and conditions are never removed here.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

from memquill.catalogue import load
from memquill.write.extract.lexicon import english_words

_EN_SUBS = (
    (re.compile(r"\bI am\b|\bI'm\b|\bIm\b|\bi'm\b|\bi am\b"), "the user is"),
    (re.compile(r"\bI was\b", re.I), "the user was"),
    (re.compile(r"\bI've\b|\bI have\b", re.I), "the user has"),
    (re.compile(r"\bI'd\b", re.I), "the user would"),
    (re.compile(r"\bI'll\b|\bI will\b", re.I), "the user will"),
    (re.compile(r"\bI won't\b|\bI will not\b", re.I), "the user will not"),
    (re.compile(r"\bI don't\b|\bI do not\b|\bI dont\b", re.I), "the user does not"),
    (re.compile(r"\bI didn't\b|\bI did not\b", re.I), "the user did not"),
    (re.compile(r"\bI haven't\b|\bI have not\b", re.I), "the user has not"),
    (re.compile(r"\bI can't\b|\bI cannot\b", re.I), "the user cannot"),
    (re.compile(r"\bwe're\b|\bwe are\b", re.I), "the team is"),
    (re.compile(r"\bwe don't\b|\bwe do not\b", re.I), "the team does not"),
    (re.compile(r"\bwe didn't\b|\bwe did not\b", re.I), "the team did not"),
    (re.compile(r"\bwe won't\b|\bwe will not\b", re.I), "the team will not"),
    (re.compile(r"\bwe'll\b|\bwe will\b|\blet's\b|\blet us\b", re.I), "the team will"),
    (re.compile(r"\bwe'd\b", re.I), "the team would"),
    (re.compile(r"\bwe've\b|\bwe have\b", re.I), "the team has"),
    (re.compile(r"\bour (?:company|startup|business)\b", re.I), "the user's company"),
    (re.compile(r"\byou're\b|\byou are\b", re.I), "the assistant is"),
    (re.compile(r"\byou were\b", re.I), "the assistant was"),
    (re.compile(r"\byou've\b|\byou have\b", re.I), "the assistant has"),
    (re.compile(r"\byou'll\b|\byou will\b", re.I), "the assistant will"),
    (re.compile(r"\byou'd\b", re.I), "the assistant would"),
    (re.compile(r"\byou don't\b|\byou do not\b", re.I), "the assistant does not"),
    (re.compile(r"\byou didn't\b|\byou did not\b", re.I), "the assistant did not"),
    (re.compile(r"\byou can't\b|\byou cannot\b", re.I), "the assistant cannot"),
)
_EN_PRONOUNS = (
    (re.compile(r"\bmyself\b", re.I), "themselves"),
    (re.compile(r"\bmine\b", re.I), "the user's"),
    (re.compile(r"\bme\b", re.I), "the user"),
    (re.compile(r"\bours\b", re.I), "the team's"),
    (re.compile(r"\bour\b", re.I), "the team's"),
    (re.compile(r"\bwe\b", re.I), "the team"),
    (re.compile(r"(?<![Bb]etween )\bus\b(?!-)"), "the team"),
    (re.compile(r"\byour\b", re.I), "the assistant's"),
    (re.compile(r"\byou\b", re.I), "the assistant"),
)
# "we" as the speaker: rewritten as "I" before the rest, so "the user" takes its verb ("we need"
# → "the user needs"); "between us" keeps its "us" (a discretion cue), "US" is a country
_WE_AS_I = (
    (re.compile(r"\bwe're\b|\bwe are\b", re.I), "I'm"),
    (re.compile(r"\bwe were\b", re.I), "I was"),
    (re.compile(r"\bwe've\b", re.I), "I've"),
    (re.compile(r"\blet's\b|\blet us\b", re.I), "I'll"),
    (re.compile(r"\b(all|both|each|most|some|none|either|neither|two|three) of us\b", re.I), r"\1 of them"),
    (re.compile(r"\bourselves\b", re.I), "myself"),
    (re.compile(r"\bours\b", re.I), "mine"),
    (re.compile(r"\bour\b", re.I), "my"),
    (re.compile(r"\bwe\b", re.I), "I"),
    (re.compile(r"(?<![Bb]etween )\b[Uu]s\b(?!-)"), "me"),
)
_ADVERBS = (
    r"also|always|never|usually|often|really|only|still|just|sometimes|rarely|mostly|now|"
    r"already|actually|generally|normally|typically|no longer|mainly|primarily|currently|"
    r"totally|absolutely|strongly|definitely|all|both|kinda|sorta|kind of|sort of"
)
_I_VERB = re.compile(rf"\b(I|i|we|We)\s+((?:(?:{_ADVERBS})\s+)*)([a-z]+)\b")
# "you" is a subject only before a verb, at the start of a clause or after a conjunction
# ("you love hiking", "because you work nights"); "I told you so" keeps its "you"
_YOU_VERB = re.compile(
    rf"(^|[,;:] |\b(?:and|but|because|so|since|if|when) )([Yy]ou)\s+((?:(?:{_ADVERBS})\s+)*)([a-z]+)\b"
)
_NO_S = frozenset("can could will would should may might must did had was were ought shall".split())
# past tenses WordNet also lists as verbs of their own ("to saw", "to found", "to fell")
_PAST_LEMMAS = frozenset("saw found felt fell ground wound bound lay shed".split())


def _third_person_verb(verb: str) -> str:
    """The verb after "the user"/"the team": a base form takes -s; a past tense ("went",
    "saw"), a modal or a word that is no verb ("wanna") stays as said."""
    v = verb.lower()
    if v in _NO_S or _past(v) or v in _PAST_LEMMAS or v not in english_words("verbs"):
        return verb
    if v in ("have", "do", "go"):
        return {"have": "has", "do": "does", "go": "goes"}[v]
    if v.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if v.endswith("y") and len(v) > 1 and v[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _past(verb: str) -> bool:
    """A regular past tense: "-ed" on a verb's stem ("moved", "wanted", "stopped", "tried"),
    not a verb that merely ends so ("we need" is "the user needs", "feed", "proceed")."""
    if not verb.endswith("ed"):
        return False
    stem = verb[:-2]
    stems = [stem, verb[:-1]]  # "wanted", "moved"
    if len(stem) > 2 and stem[-1] == stem[-2]:
        stems.append(stem[:-1])  # "stopped"
    if verb.endswith("ied"):
        stems.append(verb[:-3] + "y")  # "tried"
    return any(s in english_words("verbs") for s in stems)


# verbs whose past is their base form: in a clause about the past ("I quit caffeine last year",
# normalised "…in 2025") they take no -s ("the user quit", not "quits")
_SAME_PAST = frozenset(
    "quit put set cut hit let hurt cost shut spread split bet cast burst upset read".split()
)
_PAST_TIME = re.compile(
    r"\b(?:yesterday|ago|last (?:night|week|month|year|spring|summer|autumn|fall|winter|time)|earlier|"
    r"in (?:19|20)\d\d|back in|on \d{4}-\d\d-\d\d)\b",
    re.IGNORECASE,
)

_WHO = {"i": "the user", "we": "the team", "you": "the assistant"}


def _conjugate_past(m: re.Match[str]) -> str:
    """``_conjugate`` in a clause about the past: a verb whose past is its base stays."""
    return m.group(0) if m.group(m.lastindex or 0).lower() in _SAME_PAST else _conjugate(m)


def _conjugate(m: re.Match[str]) -> str:
    """ "the user", "the team" and "the assistant" take the third person singular; a match
    of ``_YOU_VERB`` keeps what led to the "you"."""
    *lead, pronoun, adverbs, verb = m.groups()
    return f"{''.join(lead)}{_WHO[pronoun.lower()]} {adverbs}{_third_person_verb(verb)}"


def _possessive(text: str) -> str:
    """ "my" is "the user's" the first time, "their" once the user has been named."""
    out, pos = [], 0
    for m in re.finditer(r"\bmy\b", text, re.I):
        before = text[: m.start()]
        out += [text[pos : m.start()], "their" if "the user" in before.lower() else "the user's"]
        pos = m.end()
    return "".join(out) + text[pos:]


# 我 and 你 inside a word are no pronoun: 自我介绍, 忘我, 迷你, 你好 ("先自我介绍一下" is not
# "先自用户介绍", "你好" is not "助手好")
_ZH_I = re.compile(r"(?<![自忘无唯本超])我")
_ZH_YOU = re.compile(r"(?<!迷)[你您](?![们好])")  # "你好" greets; it names no assistant


@cache
def _home() -> re.Pattern[str]:
    """A word of the speaker's own household or circle (``data/we.json`` and the catalogue's
    relations outside work), in either language."""
    raw = json.loads(resources.files("memquill").joinpath("data/we.json").read_text("utf-8"))["home"]
    words = sorted({*raw["en"], *raw["zh"], *load().circle_words()}, key=len, reverse=True)
    parts = (rf"\b{re.escape(w)}s?\b" if w.isascii() else re.escape(w) for w in words)
    return re.compile("|".join(parts), re.I)


def _we(text: str, team: str | None) -> str | None:
    """The project a "we" names, or None when it is the speaker (no project, or a statement
    about the speaker's household: "we're two months behind on the mortgage")."""
    return team if team and not _home().search(text) else None


def we_are(text: str, language: str, team: str | None) -> str:
    """Who "we" is in ``text``, as a subject: the project, or the user (``_we``)."""
    return (_we(text, team) or ("用户" if language == "zh" else "the user")).strip()


def _zh(text: str, team: str | None) -> str:
    text = re.sub(r"我们公司|我司|咱们公司", "用户的公司", text)
    text = re.sub(r"我们团队|咱们团队|我们组", "用户的团队", text)
    text = re.sub(r"(?:我们|咱们|咱)(?=全家|一家|家)", "用户", text)  # "我们全家搬到杭州" is no team
    text = re.sub(r"(?:我们|咱们|咱|我)(?:俩|两个人?|两人)", "用户和对方", text)
    text = re.sub(r"我们|咱们", we_are(text, "zh", team), text)
    text = _ZH_YOU.sub("助手", text)
    return _ZH_I.sub("用户", text)


def third_person(clause: str, language: str, team: str | None = None) -> str:
    """Rewrite the speaker's first person as "the user" (zh: 用户), keeping everything else."""
    text = clause.strip()
    if language == "zh":
        return _zh(text, team)
    team = _we(text, team)
    if team is None:
        text = substitute(text, _WE_AS_I)
    conj = _conjugate_past if _PAST_TIME.search(text) else _conjugate
    text = _YOU_VERB.sub(conj, _I_VERB.sub(conj, substitute(text, _EN_SUBS)))
    text = substitute(re.sub(r"\bI\b", "the user", text), _EN_PRONOUNS)
    text = _possessive(text)
    if team:
        text = re.sub(r"\bthe team\b", team, text)
    return text[:1].upper() + text[1:]


Table = tuple[tuple[re.Pattern[str], str], ...]

# the stored wording back in the user's voice: the inverse of ``third_person``, for readers that
# learnt from what people say of themselves (the sensitivity head)
_FIRST = (
    (re.compile(r"\bthe user's\b", re.IGNORECASE), "my"),
    (re.compile(r"\bthe user is\b", re.IGNORECASE), "I am"),
    (re.compile(r"\bthe user has\b", re.IGNORECASE), "I have"),
    (re.compile(r"\bthe user\b", re.IGNORECASE), "I"),
    (re.compile(r"用户的?(?=[爸妈父母哥姐弟妹儿女老公婆丈妻爷奶外孩家朋])"), "我"),
    (re.compile(r"用户"), "我"),
)


def substitute(text: str, table: Table) -> str:
    """Apply a table of (pattern, replacement) rewrites in order."""
    for pattern, repl in table:
        text = pattern.sub(repl, text)
    return text


def first_person(text: str) -> str:
    """A record's wording as the user said it ("The user's dad died" → "my dad died",
    "用户姐在闹离婚" → "我姐在闹离婚")."""
    return substitute(text, _FIRST)


_LOWER_FIRST = frozenset(
    "the a an by for until till don't do use please always never no stop if when unless only week "
    "call keep point roll merge answer reply write send going monorepo".split()
)


def said_of(content: str, subject: str) -> str:
    """A statement about someone named bare, worded about them: "乐乐这学期开始学钢琴了",
    not "用户乐乐这学期…" (``say`` gives a Chinese clause without a first person the user as
    its actor)."""
    name = subject.partition(":")[2]
    named = subject.startswith(("person:", "item:")) and name
    return content[2:] if named and content.startswith(f"用户{name}") else content


_ZH_ACTOR = re.compile(r"^(?:用户|团队|助手|公司|项目 \S+ )")
_EN_ACTOR = re.compile(r"^(?:the user|the team|the assistant|project \w+)\b", re.I)


def ensure_subject(text: str, language: str, lead: str) -> str:
    """Prefix ``lead`` ("用户要求：", "The user asked: ") unless the statement starts with its
    actor (after any leading time: "2026年12月1日（周二）晚上用户要参加…" names the user)."""
    body = after_time(text)
    if (_ZH_ACTOR if language == "zh" else _EN_ACTOR).match(body):
        return text
    if language == "zh":
        return lead + text
    word = text.split(" ", 1)[0].lower()
    return lead + (text[:1].lower() + text[1:] if word in _LOWER_FIRST else text)


# Absolute labels written by the time-normalisation stage (timenorm.TimeMention.label).
_ZH_LABEL = (
    r"\d{4}年(?:第[一二三四]季度|第\d+周)?(?:\d{1,2}月(?:\d{1,2}日)?)?(?:（[^）]*）)?"
    r"(?:\s*\d{1,2}:\d{2})?(?:凌晨|上午|中午|下午|晚上)?(?:至\d{4}年[^，,。\s]*?日(?:（周.）)?)?前?"
)
_EN_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_EN_LABEL = (
    rf"(?:week \d+ of \d{{4}}|Q[1-4] \d{{4}}|(?:{_EN_MONTHS}) \d{{4}}|\d{{4}}-\d{{2}}-\d{{2}})"
    r"(?: \([^)]*\))?(?: \d{2}:\d{2})?(?: (?:early morning|morning|noon|afternoon|evening))?"
    r"(?: to \d{4}-\d{2}-\d{2}(?: \(\w+\))?(?: \d{2}:\d{2})?)?"
)
TIME_LABEL = re.compile(
    rf"(?:\b(?i:in|on|by|from|since|at|until|till|before|after|through)\s+)?(?:{_EN_LABEL})|{_ZH_LABEL}"
)


def after_time(text: str) -> str:
    """The statement after the absolute time it opens with, if any ("2026年12月1日（周二）晚上用户
    要参加…" → "用户要参加…")."""
    return TIME_LABEL.sub("", text, count=1).lstrip(" ，,") if TIME_LABEL.match(text) else text


def strip_times(text: str) -> str:
    """The text without the absolute time labels (for slot keys and objects)."""
    return re.sub(r"\s{2,}", " ", TIME_LABEL.sub(" ", text)).strip(" ，,")


_LEAD = re.compile(
    r"^(?:(?:to|using|use|drinking|drink|eating|eat|having|the|a|an|some|my|your|being)\b\s*|"
    r"(?:喝|吃|用|使用|玩|看|听|穿|去)\s*)+",
    re.I,
)
# chat asides a value never ends with ("switched to black coffee btw", "vegan now tbh")
CHAT_FILLER = frozenset("btw lol lmao haha hahaha tbh imo ngl fyi honestly though anyway then".split())
_TAIL = re.compile(
    r"(?:\s*(?:了|啦|的|吧|呢|啊|呀|给我|给用户|就行|就好)|\s+(?:anymore|any more|at all|very much|a lot|"
    r"so much|now|these days|please|to me|to the user|for me|either|too|as well|"
    + "|".join(sorted(CHAT_FILLER))
    + r")\b)+\s*$",
    re.I,
)


def clean_object(text: str) -> str:
    """Trim a preference object: leading verbs and articles, trailing filler and times."""
    t = strip_times(text.strip())
    t = _TAIL.sub("", _LEAD.sub("", t))
    return t.strip(" ，,。.!！?？:：")


def strip_terminal(text: str) -> str:
    return text.strip().rstrip("。.!！?？;；,，~～ ")


def sentence(text: str, language: str) -> str:
    body = strip_terminal(text)
    return body + ("。" if language == "zh" else ".")
