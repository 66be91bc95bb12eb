"""Transcript lines: who says a line, and to whom.

"Caroline: I went to a support group" is said by Caroline, not by the user; and its "you"
("you're so brave") is whom Caroline speaks to — a speaker of the session she calls by name,
else the session's one other speaker — never the assistant. Stored facts must read right with
no conversation around them (DESIGN §3), so both are named in the record.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memquill.model import Candidate, Event
from memquill.text import detect_language
from memquill.write.extract.lexicon import everyday_word
from memquill.write.extract.patterns_common import ordered

_SPEAKER = re.compile(r"^\s*([A-Z][a-z'\-]{1,20}(?: [A-Z][a-z'\-]{1,20})?)\s*:\s+(?=\S)")
NOT_SPEAKERS = frozenset(
    """Remember Note Notes Correction Decision Decided Update Reminder Todo Done Next Fyi Ps
    Important Warning Summary Action Actions Question Answer Context Background Goal Status
    Result Results Update Edit Re Subject Title Agenda Tldr Nb Tip Hint Example Error Task
    Please Also Plus Btw Ok Okay Sure Yes No Actually Well So""".split()
)
_CALLED = re.compile(r"\b[A-Z][a-z]{2,}\b")
_VOCATIVE = re.compile(
    r"\s*(?:(?:[Hh]ey|[Hh]i|[Oo]h|[Ww]ow|[Tt]hanks|[Tt]hank you)\s+)?"
    r"([A-Z][a-z]{2,}|[\u4e00-\u9fff]{2,4})\s*[,，!！:：]\s*"
)
# capitalised words that open sentences: no nickname ("The" is not "Theo")
_NO_NICKNAME = frozenset("the this that then there they them their what when where who how thanks".split())
_ASSISTANT = re.compile(r"\b([Tt])he assistant\b|助手")
_USER = re.compile(r"\b[Tt]he user\b|用户")


def speaker(event: Event, text: str) -> tuple[str | None, str]:
    """The line's speaker and the line without its label.

    ``metadata["speaker"]`` names the speaker explicitly; otherwise an English "Name: " prefix
    counts unless the word is a label ("Remember:", "Note:"). Chinese prefixes ("背景：") are
    too ambiguous to guess and need the metadata.
    """
    named = event.metadata.get("speaker")
    m = _SPEAKER.match(text)
    if named:
        if m and m.group(1) == named:
            text = text[m.end() :]
        return str(named), text
    if m and m.group(1).split()[0] not in NOT_SPEAKERS:
        return m.group(1), text[m.end() :]
    return None, text


def speakers(events: Sequence[Event]) -> list[str]:
    """The session's speakers, in the order they first speak."""
    out: list[str] = []
    for e in events:
        who, _ = speaker(e, e.content)
        if who and who not in out:
            out.append(who)
    return out


def addressee(event: Event, text: str, who: str, session: Sequence[str]) -> str | None:
    """Whom ``who`` speaks to in ``text``: ``metadata["addressee"]``; else a speaker of the
    session the line calls by name (or by the start of it: "Mel" for "Melanie"; a Chinese name as
    written); else the
    session's one other speaker; else nobody known (a group, or the line opens the session)."""
    named = event.metadata.get("addressee")
    if named:
        return str(named)
    others = [s for s in session if s != who]
    called = [s for s in others if not s.isascii() and s in text]  # "小林，你…": a Chinese name
    if called:
        return called[0]
    for word in _CALLED.findall(text):
        for other in others:
            first = other.split()[0]
            if word == first or (first.startswith(word) and _nickname(word)):
                return other
    return others[0] if len(others) == 1 else None


def without_vocative(text: str, to: str | None) -> str:
    """The line without the addressee called at its start ("Bob, I love…", "小林，我很喜欢…"):
    a name said to get attention is no part of the statement."""
    if not to:
        return text
    m = _VOCATIVE.match(text)
    called = m is not None and (m.group(1) == to or (m.group(1).isascii() and to.startswith(m.group(1))))
    return text[m.end() :] if m and called and text[m.end() :].strip() else text


def _nickname(word: str) -> bool:
    """A shortened name ("Mel"), not a word that happens to start one ("The", "Can")."""
    w = word.lower()
    return w not in _NO_NICKNAME and not everyday_word(w)


def as_said_by(c: Candidate, who: str, event: Event, to: str | None = None) -> Candidate | None:
    """A transcript line's candidate in its speakers' names, or None.

    "The user" is the speaker; "the assistant" (the line's "you") is the addressee, or "the
    other speaker" / 对方 when nobody is known — never the assistant. What a speaker says only
    about the other ("you've got drive", "you'll be a great mom", "Instagram can help you reach
    a younger crowd") is their opinion or advice, not the other's fact: the other's own lines
    say what is theirs, so it is no memory (None); nor is an order ("keep going and never give
    up", "加油，别放弃"), said to the other person. Another subject (a relation: "my daughter")
    keeps its key; its wording names whose relation it is."""
    if ordered(c.content):
        return None  # "keep going and never give up" is said to a friend, not to the assistant
    addressed = bool(_ASSISTANT.search(c.content))
    if addressed and not _USER.search(c.content):
        return None
    if c.subject != "user" and not addressed and not _USER.search(c.content):
        return c
    other = to or ("对方" if detect_language(c.content) == "zh" else "the other speaker")

    def named(m: re.Match[str]) -> str:
        return other[:1].upper() + other[1:] if m.group(1) == "T" else other

    update: dict[str, object] = {"content": _USER.sub(who, _ASSISTANT.sub(named, c.content))}
    if c.subject == "user":
        update["subject"] = f"person:{who.lower()}"
    update["attributes"] = {**c.attributes, "speaker": who, **({"addressee": to} if to else {})}
    return c.model_copy(update=update)
