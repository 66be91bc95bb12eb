"""A pet's or belonging's name: "the dog's called Admiral now", "家里的猫叫糯米", "领了只小橘猫，叫它芝麻".

Routing sends "dog's name?" / "猫现在叫啥" to ``item:<name>``/``name`` (``retrieve/asked.py``,
``data/items.json``), but the write path filed such a name under the user's own ``name`` (the
classifier reads "猫叫芝士" as a name, and the subject reader finds no person) or nowhere. The
same data now drives the write side: a clause that names a thing of ``data/items.json`` and says
what it is called gives ``item:<subject>``/``name``, the subject being the group's first name in
the clause's language (the one routing tries first: ``item:dog``, ``item:猫``). A later name of
the same pet supersedes the earlier one (``name`` is single-valued), so a renamed pet answers
with its new name. A thing someone else owns ("Toffee is my sister's dog", "我妈家那只猫叫…"),
a question or a supposition names nothing of the user's.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

from memquill.model import Candidate, MemoryType
from memquill.write.extract.appositions import zh_name
from memquill.write.extract.clause import Clause
from memquill.write.extract.patterns_common import blocked
from memquill.write.extract.subjects import relation_alternations

_CJK = r"\u4e00-\u9fff"
# a Chinese name stops at punctuation, a particle, or a word that goes on with the sentence
_ZH_END = rf"(?=$|[^{_CJK}A-Za-z0-9]|了|啦|吧|呢|哈|呀|的|现在|以后|之后|特别|非常|很|也|都|还|又|就)"
_ZH_NAME = rf"([A-Za-z][\w-]*|[{_CJK}]{{1,4}}?)"
_EN_NAME = r"['\"‘“]?([A-Z][\w'’-]*(?:\s[A-Z][\w'’-]*)?)['\"’”]?"
# naming words: "叫", "叫做", "名叫", "名字是", "改名叫", "改叫" (a pronoun may stand for the thing)
_ZH_NAMING = (
    rf"(?:改名(?:字)?叫做?|改叫|叫做?|名叫|名字(?:是|叫)|取名(?:叫)?)(?:它|他|她)?\s*{_ZH_NAME}{_ZH_END}"
)
_EN_PRONOUN_NAMING = re.compile(
    rf"\b(?:call(?:ing|ed|s)?|nam(?:e|ed|ing)|renam(?:e|ed|ing))\s+(?:him|her|it|them)\s+{_EN_NAME}"
)
_NOT_NAMES = frozenset(
    "I The A An And But So Or If On In At For From To With It He She Now Again Instead Too".split()
)
_SUPPOSED = re.compile(r"如果|假如|要是|万一|想给|打算|\b(?:if|what if|maybe|thinking of|should)\b", re.I)


_Group = tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str], str, str]


@cache
def groups() -> tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...]:
    """``data/items.json`` as (subjects, English words, Chinese words) per group: the one
    reading of it, for the write side here and routing's (``retrieve/asked.py``)."""
    raw = json.loads(resources.files("memquill").joinpath("data/items.json").read_text("utf-8"))
    return tuple((tuple(g["subjects"]), tuple(g["en"]), tuple(g["zh"])) for g in raw["items"])


@cache
def owned_as() -> dict[str, tuple[str, ...]]:
    """The reader's attribute a kind of belonging answers → that kind's subjects ("vehicle" →
    ``car``, ``车``): "what car do I drive" may be stated as the user's ``vehicle`` or as the
    car's own ``model``, so routing asks both (``retrieve/asked.py``)."""
    raw = json.loads(resources.files("memquill").joinpath("data/items.json").read_text("utf-8"))
    return {g["owned_as"]: tuple(g["subjects"]) for g in raw["items"] if "owned_as" in g}


@cache
def _patterns() -> tuple[_Group, ...]:
    """Per item group: the English naming pattern, the Chinese one, a bare mention of the
    thing (for a pronoun that names it), someone else's thing, and the subjects (en, zh)."""
    zh_rel, en_rel = relation_alternations()
    out = []
    for subjects, en, zh in groups():
        ew = "|".join(map(re.escape, sorted(en, key=len, reverse=True)))
        zw = "|".join(map(re.escape, sorted(zh, key=len, reverse=True)))
        en_rx = re.compile(
            rf"(?<!'s )(?<!’s )\b(?i:{ew})(?:'s|’s|\s+is|\s+was)?\s+(?:(?:now|officially|actually)\s+)?"
            rf"(?:called|named|renamed)\s+{_EN_NAME}"
            rf"|\b(?i:{ew})(?:'s|’s)\s+name\s+is\s+(?:(?:now|officially|actually)\s+)?{_EN_NAME}"
            rf"|\b(?i:renam(?:e|ed|ing)|call(?:ed|ing)?)\s+(?i:the|our|my)\s+(?i:{ew})\s+{_EN_NAME}"
        )
        zh_rx = re.compile(rf"(?:{zw})(?:现在|已经|正式|从此)?(?:就)?{_ZH_NAMING}")
        mention = re.compile(rf"\b(?:{ew})\b|(?:{zw})", re.I)
        # someone else's: "my sister's dog", "我妈家那只猫", "我姐的猫"
        other = re.compile(
            rf"\b(?i:{en_rel})(?:'s|’s)\s+(?:[\w-]+\s+)?(?i:{ew})\b|(?:{zh_rel})(?:家|的|家的)?(?:那只|这只|那条|这条)?(?:{zw})"
        )
        en_subject = next((s for s in subjects if s.isascii()), subjects[0])
        zh_subject = next((s for s in subjects if not s.isascii()), subjects[0])
        out.append((en_rx, zh_rx, mention, other, en_subject, zh_subject))
    return tuple(out)


def item_names(text: str, turn: str, zh: bool) -> list[tuple[str, str]]:
    """(item subject, name) for each of the user's things the clause names; ``turn`` is the
    whole turn, where the thing a pronoun names ("叫它芝麻", "calling him Toffee") is said."""
    if _SUPPOSED.search(text) or re.search(r"[?？]\s*$", text):
        return []
    out: list[tuple[str, str]] = []
    for en_rx, zh_rx, mention, other, en_subject, zh_subject in _patterns():
        subject = zh_subject if zh else en_subject
        if zh:
            found = [m.group(1) for m in zh_rx.finditer(text)]
            if not found and mention.search(turn) and "它" in text:  # "站里给它起的名叫小七"
                found = [m.group(1) for m in re.finditer(_ZH_NAMING, text)]
        else:
            found = [next(g for g in m.groups() if g) for m in en_rx.finditer(text)]
            if not found and mention.search(turn):
                found = [m.group(1) for m in _EN_PRONOUN_NAMING.finditer(text)]
        found = [n.strip() for n in found if n and n.strip() and n.split()[0] not in _NOT_NAMES]
        if found and not other.search(text):
            out.append((f"item:{subject}", found[-1]))  # "the shelter called him Pixel, we named him Biscuit"
    return out[:1]


_RENAMED_EN = re.compile(
    rf"\b(?:renam(?:e|ed|ing)\s+(?:him|her|it|them)|call(?:ing)?\s+(?:him|her|it|them)|"
    rf"(?:is|'s|’s)\s+(?:now\s+)?called)\s+(?:(?:now|officially|actually)\s+)?{_EN_NAME}"
)


def renamed(text: str, zh: bool) -> str | None:
    """The name a clause gives something without saying what ("小七这名字越叫越不顺口，改叫
    煤球了", "we're calling her Olive now"): the entity linker knows what by an earlier name
    the clause says (``entities.link``)."""
    rx = re.compile(_ZH_NAMING) if zh else _RENAMED_EN
    found = [n for m in rx.finditer(text) if (n := m.group(1).strip()) and n.split()[0] not in _NOT_NAMES]
    if zh:  # "越叫越不顺口", "没人叫了": 叫 before no name
        found = [n for n in found if zh_name(n, True)]
    return found[-1] if found else None


def mentions(subject: str, text: str) -> bool:
    """Does ``text`` name the thing ``subject`` (``item:dog``) is, in a word of its group?"""
    name = subject.split(":", 1)[-1]
    return any(
        mention.search(text) is not None
        for _, _, mention, _, en_subject, zh_subject in _patterns()
        if name in (en_subject, zh_subject)
    )


_CONTENT = {"zh": "用户的{thing}叫{name}", "en": "The user's {thing} is named {name}"}


def content(subject: str, name: str, zh: bool) -> str:
    """A name fact's content: "用户的猫叫煤球", "The user's dog is named Mochi"."""
    return _CONTENT["zh" if zh else "en"].format(thing=subject.split(":", 1)[1], name=name)


def named_items(c: Clause) -> list[Candidate]:
    """Name facts of the user's pets and belongings the clause names."""
    if blocked(c):
        return []
    zh = c.language == "zh"
    out = []
    for subject, name in item_names(c.text, c.event.content, zh):
        out.append(
            c.make(
                MemoryType.FACT,
                subject,
                "name",
                content(subject, name, zh),
                value=name,
                rule="profile.item_name",
                confidence=0.85,
            )
        )
    return out
