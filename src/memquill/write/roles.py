"""Who said it decides what it may become (rule 6: trust and source priority).

- The user's own turns are the only first-hand source of facts about the user.
- An assistant turn speaks for the assistant: its first person is the assistant (an agent's
  own finding or note, kept as it is today), and what it says *about the user* ("you live
  in Paris", "你对花生过敏") is read from the user's side but stays a candidate until the
  user confirms it.
- Tool and external output is evidence, not testimony: an instruction in it to remember
  something, or a claim about the user, is at most a candidate; an injected instruction is
  nothing at all.
"""

from __future__ import annotations

import re

from memquill.model import Candidate, Event, Role, Trust
from memquill.write import noise
from memquill.write.extract.phrasing import substitute

_SENTENCES = re.compile(r"(?<=[.!?。！？；;\n])\s*")
_FIRST = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me|my|mine|myself|we|our)\b|我", re.IGNORECASE)
_SECOND = re.compile(r"\b(?:you|your|yours|you're|yourself)\b|你|您", re.IGNORECASE)
_SWAP = (
    (re.compile(r"\byou are\b", re.IGNORECASE), "I am"),
    (re.compile(r"\byou're\b", re.IGNORECASE), "I'm"),
    (re.compile(r"\byou were\b", re.IGNORECASE), "I was"),
    (re.compile(r"\byou've\b", re.IGNORECASE), "I've"),
    (re.compile(r"\byourself\b", re.IGNORECASE), "myself"),
    (re.compile(r"\byours\b", re.IGNORECASE), "mine"),
    (re.compile(r"\byour\b", re.IGNORECASE), "my"),
    (re.compile(r"\byou\b", re.IGNORECASE), "I"),
    (re.compile(r"你们|您们"), "我们"),
    (re.compile(r"[你您]"), "我"),
)
UNTRUSTED = frozenset({Trust.TOOL, Trust.EXTERNAL})


def voiced(event: Event) -> bool:
    """An assistant turn without a named transcript speaker: pronouns are the assistant's."""
    return event.role is Role.ASSISTANT and not event.metadata.get("speaker")


def to_user_side(text: str) -> str:
    """ "You live in Paris" → "I live in Paris": the claim as the user would state it."""
    return substitute(text, _SWAP)


def split_assistant(text: str) -> tuple[str, str, str]:
    """An assistant turn as (its own first-person part, claims about the user restated from
    the user's side, everything else)."""
    own, about_user, other = [], [], []
    for s in (x.strip() for x in _SENTENCES.split(text)):
        if not s:
            continue
        if _FIRST.search(s):
            own.append(s)
        elif _SECOND.search(s):
            about_user.append(to_user_side(s))
        else:
            other.append(s)
    return " ".join(own), " ".join(about_user), " ".join(other)


def needs_confirmation(c: Candidate, why: str) -> Candidate:
    attributes = {**c.attributes, "needs_confirmation": True, "unconfirmed": why}
    return c.model_copy(update={"attributes": attributes})


def as_assistant(c: Candidate, event: Event) -> Candidate:
    """A first-person statement of the assistant is about the assistant, never the user."""
    if c.subject != "user":
        return c
    who = event.scope.agent or "assistant"
    named = "" if who == "assistant" else f" {who}"
    content = re.sub(  # in the content's own language: "助手搬到了北京", not "The assistant搬到了北京"
        r"\bThe user\b|\bthe user\b|用户",
        lambda m: f"助手{named}" if m.group(0) == "用户" else f"The assistant{named}",
        c.content,
    )
    return c.model_copy(
        update={"subject": f"agent:{who}", "content": content, "attributes": {**c.attributes, "speaker": who}}
    )


# Subjects of the user's own life: the user, the people in it, its events and belongings. A
# claim about any of them is a claim about the user ("book club moved to Sundays" in a calendar
# sync, "your dentist is Dr. Patel" in a scraped page); a project's or an organisation's facts
# may come from tool output (a build log names the CI).
PERSONAL = frozenset({"user", "person", "event", "item"})


def gate(c: Candidate, event: Event) -> Candidate | None:
    """The trust gate for one candidate of ``event``: drop, demote to candidate, or keep."""
    if event.source in UNTRUSTED or event.role is Role.TOOL:
        if noise.injected(event.content):
            return None
        if c.subject.split(":", 1)[0] in PERSONAL or c.attributes.get("explicit"):
            return needs_confirmation(c, f"said by {event.role.value} output, not the user")
    return c
