"""Helpers shared by the pattern families: guards, subjects, keys, sub-clauses."""

from __future__ import annotations

import re

from memquill.model.scope import Level
from memquill.write.extract.lexicon import EXCLUSIVE, classify, slug
from memquill.write.extract.phrasing import clean_object, ensure_subject
from memquill.write.extract.rules import Clause

I = re.IGNORECASE  # noqa: E741
# The end of a captured phrase: punctuation, or an English conjunction starting a new part.
END = r"(?=$|[，,。.;；!！?？]|\s+(?:and|but|because|so|since|as|while|though)\b)"

# Talk about options is not a statement: "要不要", "maybe", "not sure yet" (rules.py already
# drops the strongest hedges; these are the ones a single family must still respect).
_TENTATIVE = re.compile(
    r"还没定|没有结论|不(?:太)?确定|还没决定|待定|再看看|再说吧|讨论一下|在讨论|商量一下|在想|想想|是否|还是.{1,12}[好呢]|"
    r"\b(?:not sure|undecided|whether|how about|what about|could|would it|shall we|"
    r"let'?s discuss|tbd|wondering|or not)\b",
    I,
)
_ZH_QUESTION = re.compile(r"[吗呢么]\s*$|什么(?![都也])|哪[个些里儿种]|谁|多少|怎么|如何|为什么|有没有|能不能|是不是")
_EN_QUESTION = re.compile(
    r"^(?:do|does|did|can|could|would|will|is|are|was|were|should|shall|have|has|what|which|who|"
    r"whom|where|why|how)\b",
    I,
)
_UNRESOLVED = re.compile(r"(?<![其吉])[他她](?![们人])|\b(?:he|she|him|his|her)\b", I)


def tentative(text: str) -> bool:
    return bool(_TENTATIVE.search(text))


def question(c: Clause) -> bool:
    """An interrogative clause ("你还记得我喜欢喝什么吗", "Do you know my favourite colour?")."""
    if c.language == "zh":
        return bool(_ZH_QUESTION.search(c.text))
    asked = "?" in c.event.content
    return asked and bool(_EN_QUESTION.match(c.text) or re.search(r"\bwhat\b|\bwhich\b", c.text, I))


def blocked(c: Clause) -> bool:
    """Neither a question nor tentative talk may become a statement."""
    return question(c) or tentative(c.text)


def flags(c: Clause) -> dict[str, object]:
    """Attributes every candidate of the clause carries (an unresolved pronoun lowers worth)."""
    return {"unresolved_reference": True} if _UNRESOLVED.search(c.text) else {}


def say(c: Clause, text: str | None = None) -> str:
    """The clause in third person, prefixed "The user asked:" when it names no actor
    (imperatives: "For now, point the client at staging", "回复里不要用表情符号")."""
    return ensure_subject(c.said(text), c.language, "用户要求：" if c.language == "zh" else "The user asked: ")


def project_subject(c: Clause) -> tuple[str, Level]:
    """Project facts bind to the event's project; without one, to the user's current project."""
    return (f"project:{c.project}", Level.PROJECT) if c.project else ("project", Level.USER)


def pref_key(obj: str, negative: bool = False) -> str:
    """``<category>`` for an exclusive positive choice, ``<category>:<head>`` otherwise;
    ``likes:<slug>`` when the object names no known category."""
    found = classify(obj)
    if found is None:
        return f"likes:{slug(clean_object(obj))}"
    cat, head = found
    return cat if cat in EXCLUSIVE and not negative else f"{cat}:{head}"


def parts(text: str) -> list[str]:
    """Sub-clauses split at commas and "and/but/以及": for families that read several facts."""
    pieces = re.split(r"[，,、]|\s+(?:and|but)\s+(?=I\b|i\b|my\b|we\b|our\b)|以及|而且|并且", text)
    return [p.strip() for p in pieces if p and p.strip()]


def first(m: re.Match[str]) -> str:
    """The first non-empty group of a match."""
    return next((g for g in m.groups() if g), "").strip()
