"""Stage 3: reference resolution. "那个项目/this project" becomes the project's name and
"他/她/he/she" the most recent person named in the session, so a stored record never says
"he". What cannot be resolved keeps its wording and lowers confidence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memquill.model import Event
from memquill.text import is_cjk
from memquill.write.extract.appositions import en_name, relation_names, zh_name

_PROJECT_REF = re.compile(
    r"(?:这个|那个|该|本|我们的|咱们的)项目|"
    r"\b(?:this|that|the|our) (?:project|repo(?:sitory)?|codebase)\b",
    re.I,
)
_PERSON_ZH = re.compile(r"(?<![其吉])[他她](?![们人])")
_PERSON_EN = re.compile(r"\b(?:he|she|him)\b", re.I)
# "her" is possessive before a noun ("her birthday") and an object otherwise ("call her").
_HER_OBJECT = re.compile(
    r"\bher\b(?=\s*(?:$|[,.;:!?)]|(?:about|at|in|on|to|for|with|and|or|that|this|tomorrow|today|"
    r"tonight|yesterday|now|again|back|up|down|out|off|later|soon|please|know|if|when|before|after)\b))",
    re.I,
)
_POSSESSIVE_EN = re.compile(r"\b(?:his|her)\b", re.I)
_NAME_ZH = re.compile(
    r"(?:同事|朋友|老板|经理|领导|老师|客户|妻子|丈夫|老婆|老公|女朋友|男朋友|儿子|女儿|同学|室友|妈妈|爸爸)"
    r"(叫|名叫)?([\u4e00-\u9fff]{2,3}?)(?=[，,。\s说是在要会的和跟下上明今昨也都去来想不没已]|$)"
)
_NAME_EN = re.compile(
    r"\b(?i:my (?:colleague|coworker|friend|boss|manager|client|wife|husband|partner|son|daughter|"
    r"brother|sister|mom|dad|teammate|roommate))\s+([A-Z][a-z]+)"
)


@dataclass(frozen=True)
class Rewritten:
    text: str
    unresolved: bool  # a pronoun stayed as is


def recent_person(texts: Sequence[str]) -> str | None:
    """The last person named beside a relation in these texts (newest last): the catalogue's
    relation words and name forms (``appositions``: "我男朋友叫阿杰" is 阿杰, not "叫阿杰"),
    else the short list above."""
    for text in reversed(texts):
        if named := relation_names(text, is_cjk(text)):
            return named[-1][1]
        # a span after a relation word is a name only if it reads as one ("朋友问我要不要…"
        # and "my boss Thursday…" name nobody to put in place of 他 or "he")
        found = [n for said, n in _NAME_ZH.findall(text) if zh_name(n, bool(said))]
        found += [n for n in _NAME_EN.findall(text) if en_name(n)]
        if found:
            return str(found[-1])
    return None


def _has_pronoun(text: str) -> bool:
    return bool(_PERSON_ZH.search(text) or _PERSON_EN.search(text) or _POSSESSIVE_EN.search(text))


def _replace_people(text: str, name: str) -> str:
    out = _PERSON_ZH.sub(name, text)
    out = _HER_OBJECT.sub(name, out)
    out = _PERSON_EN.sub(name, out)
    return _POSSESSIVE_EN.sub(f"{name}'s", out)


def rewrite(text: str, project: str | None, context: Sequence[Event]) -> Rewritten:
    out = text
    if project:
        zh = bool(re.search(r"[\u4e00-\u9fff]", text))
        out = _PROJECT_REF.sub(f"项目 {project} " if zh else f"project {project}", out)
    if not _has_pronoun(out):
        return Rewritten(out, False)
    name = recent_person([*(e.content for e in context), out])
    if name is None:
        return Rewritten(out, True)
    return Rewritten(_replace_people(out, name), False)
