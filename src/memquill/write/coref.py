"""Stage 3: reference resolution. "那个项目/this project" becomes the project's name and
"他/她/he/she" the most recent person named in the session, so a stored record never says
"he". What cannot be resolved keeps its wording and lowers confidence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memquill.model import Event

_PROJECT_REF = re.compile(r"(?:这个|那个|该|本)项目|\b(?:this|that|the) (?:project|repo(?:sitory)?)\b", re.I)
_PERSON_ZH = re.compile(r"(?<![其吉])[他她](?![们人])")
_PERSON_EN = re.compile(r"\b(?:he|she|him|her)\b", re.I)
_POSSESSIVE_EN = re.compile(r"\bhis\b", re.I)
_NAME_ZH = re.compile(r"(?:同事|朋友|老板|经理|领导|老师|客户|妻子|丈夫|老婆|老公|女朋友|男朋友|儿子|女儿)([\u4e00-\u9fff]{2,3}?)(?=[，,。\s说是在要会的]|$)")
_NAME_EN = re.compile(r"\b(?i:my (?:colleague|friend|boss|manager|client|wife|husband|partner|son|daughter|brother|sister))\s+([A-Z][a-z]+)")


@dataclass(frozen=True)
class Resolved:
    text: str
    unresolved: bool  # a pronoun stayed as is


def recent_person(texts: Sequence[str]) -> str | None:
    """The last person named in these texts (newest last)."""
    for text in reversed(texts):
        for rx in (_NAME_ZH, _NAME_EN):
            found = rx.findall(text)
            if found:
                return str(found[-1])
    return None


def resolve(text: str, project: str | None, context: Sequence[Event]) -> Resolved:
    out = text
    if project:
        zh = bool(re.search(r"[\u4e00-\u9fff]", text))
        out = _PROJECT_REF.sub(f"项目 {project} " if zh else f"project {project}", out)
    unresolved = False
    if _PERSON_ZH.search(out) or _PERSON_EN.search(out) or _POSSESSIVE_EN.search(out):
        name = recent_person([*(e.content for e in context), out])
        if name:
            out = _PERSON_ZH.sub(name, out)
            out = _PERSON_EN.sub(name, out)
            out = _POSSESSIVE_EN.sub(f"{name}'s", out)
        else:
            unresolved = True
    return Resolved(out, unresolved)
