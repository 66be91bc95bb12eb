"""Turning a user's first-person clause into a self-contained statement.

"我不喝咖啡" → "用户不喝咖啡"; "I'm allergic to peanuts" → "The user is allergic to peanuts".
A stored memory must read correctly with no conversation around it (DESIGN §3 content).
"""

from __future__ import annotations

import re

_EN_SUBS = (
    (re.compile(r"\bI am\b|\bI'm\b|\bIm\b", re.I), "the user is"),
    (re.compile(r"\bI was\b", re.I), "the user was"),
    (re.compile(r"\bI've\b|\bI have\b", re.I), "the user has"),
    (re.compile(r"\bI'd\b", re.I), "the user would"),
    (re.compile(r"\bI'll\b|\bI will\b", re.I), "the user will"),
    (re.compile(r"\bI don't\b|\bI do not\b|\bI dont\b", re.I), "the user does not"),
    (re.compile(r"\bI can't\b|\bI cannot\b", re.I), "the user cannot"),
    (re.compile(r"\bwe're\b|\bwe are\b", re.I), "the team is"),
    (re.compile(r"\bwe don't\b|\bwe do not\b", re.I), "the team does not"),
    (re.compile(r"\bwe've\b|\bwe have\b", re.I), "the team has"),
)
_EN_PRONOUNS = (
    (re.compile(r"\bmyself\b", re.I), "themselves"),
    (re.compile(r"\bmine\b", re.I), "the user's"),
    (re.compile(r"\bmy\b", re.I), "the user's"),
    (re.compile(r"\bme\b", re.I), "the user"),
    (re.compile(r"\bour\b", re.I), "the team's"),
    (re.compile(r"\bwe\b", re.I), "the team"),
    (re.compile(r"\bus\b", re.I), "the team"),
)
_I_VERB = re.compile(r"\b(I|we)\s+([a-z]+)\b", re.I)
_NO_S = frozenset("can could will would should may might must did had was".split())


def _third_person_verb(verb: str) -> str:
    v = verb.lower()
    if v in _NO_S or v.endswith("ed"):
        return verb
    if v == "have":
        return "has"
    if v == "do":
        return "does"
    if v.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if v.endswith("y") and len(v) > 1 and v[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def third_person(clause: str, language: str, team: str | None = None) -> str:
    """Rewrite the speaker's first person as "the user" (zh: 用户), keeping everything else."""
    text = clause.strip()
    if language == "zh":
        text = re.sub(r"我们(?:团队|公司)?", team or "团队", text)
        text = re.sub(r"咱们", team or "团队", text)
        text = text.replace("我", "用户")
        return text
    for pattern, repl in _EN_SUBS:
        text = pattern.sub(repl, text)
    text = _I_VERB.sub(
        lambda m: f"{'the user' if m.group(1) == 'I' else 'the team'} "
        f"{_third_person_verb(m.group(2))}",
        text,
    )
    text = re.sub(r"\bI\b", "the user", text)
    for pattern, repl in _EN_PRONOUNS:
        text = pattern.sub(repl, text)
    if team:
        text = text.replace("the team", team)
    text = re.sub(r"\bthe user is\s+not\b", "the user is not", text)
    return text[:1].upper() + text[1:]


def strip_terminal(text: str) -> str:
    return text.strip().rstrip("。.!！?？;；,，~～ ")


def sentence(text: str, language: str) -> str:
    body = strip_terminal(text)
    return body + ("。" if language == "zh" else ".")
