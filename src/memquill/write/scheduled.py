"""A change said for a later date holds from that date, not from the turn.

"下个月搬去深圳", "I start at Stripe next Monday", "下周一入职拼多多": the slot's new value holds
from the day the clause names; until then the old value still does. Stored as said, the new
value superseded the old one at once, and a question asked the same evening ("where do I
live?") was answered with a city the user has not moved to yet.

The time normaliser has resolved the clause's time and written its label into the
candidate's content ("2027年1月搬去深圳"). A positive value of a single-valued catalogue
attribute of the user, a person or the project whose content holds the label of a time that
begins on a later day than the turn gets that beginning as ``valid_from``. Reconcile then
ends the old value there (``supersede`` with the candidate's start), so reads at "now" keep
finding it, and the new value takes over on its day. Dates themselves (a birthday, a
deadline, an event's time) and passing states (``temporary``) are what they are, not
changes, and keep no start.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from memquill.catalogue import load
from memquill.clock import zone
from memquill.model import Candidate, Event, MemoryType, Polarity
from memquill.write.timenorm.base import TimeMention

_CHANGES = frozenset({MemoryType.FACT, MemoryType.PREFERENCE})
_DATED = frozenset({"date", "datetime", "duration"})
# attributes whose value is itself a time or a schedule: a later date is the value, not its start
_TIMED = ("time", "date", "schedule", "availability", "deadline", "since", "birthday", "anniversary")


def _owner(subject: str) -> bool:
    return subject in ("user", "project") or subject.startswith("person:")


def _changes_later(c: Candidate) -> bool:
    """Is ``c`` a value of a slot whose value a later date can start?"""
    attr = load().get(c.key)
    return (
        attr is not None
        and attr.single
        and attr.value_type not in _DATED
        and not any(w in c.key for w in _TIMED)
        and c.type in _CHANGES
        and c.polarity is Polarity.POSITIVE
        and c.valid_from is None
        and not c.attributes.get("ends")
        and _owner(c.subject)
    )


def _later(m: TimeMention, said: datetime) -> bool:
    """Does the time begin on a later day than the turn (in the turn's zone)?"""
    if m.bound or m.recurring:
        return False  # "by Friday" is a deadline, a yearly date is no start
    tz = zone(m.timezone)
    return m.begin.astimezone(tz).date() > said.astimezone(tz).date()


_SEGMENT = re.compile(r"[，。；！？]|[,.;!?](?=\s|$)")


def _said_with(content: str, value: str | None) -> str:
    """The part of the content that says the value: its comma segment when the value is in
    it ("用户住在杭州，2027年1月去北京出差" dates the trip, not the city), else all of it."""
    for part in _SEGMENT.split(content):
        if value and value in part:
            return part
    return content


def starts(c: Candidate, event: Event, mentions: Sequence[TimeMention], language: str) -> datetime | None:
    """The later day ``c``'s clause names for its value to start, if any."""
    if not _changes_later(c):
        return None
    said = _said_with(c.content, c.value)
    found = [m for m in mentions if _later(m, event.occurred_at) and m.label(language) in said]
    return min(m.begin for m in found) if found else None


def scheduled(
    candidates: Sequence[Candidate],
    events: Mapping[str, Event],
    times: Mapping[str, Sequence[TimeMention]],
    language: Callable[[Event], str],
) -> list[Candidate]:
    """Each candidate, with ``valid_from`` set where its clause dates the change later."""
    out = []
    for c in candidates:
        event = events.get(c.evidence[0]) if c.evidence else None
        mentions = times.get(event.id, ()) if event is not None else ()
        start = starts(c, event, mentions, language(event)) if event is not None and mentions else None
        out.append(c.model_copy(update={"valid_from": start}) if start else c)
    return out
