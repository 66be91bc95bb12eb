"""An ending said by itself: "Netflix is cancelled", "Sold the Civic", "爱奇艺会员退订了", "跟大伟分了".

The user ends a value they held without naming a new one, so no extractor reads a change —
and the value named is read, if at all, as held ("Netflix is cancelled" → a streaming service
Netflix). What ends is known, though: an open record of the user holds that value. The
record is ended (the candidate carries ``ends``, so reconciliation invalidates it from the
turn's time on, and writes nothing new), and a candidate of the turn stating the ended value
as held is dropped. The words that end are data (``ended`` in ``data/change_cues.json``,
``change_cues.ends_held``); one search decides that a turn ends nothing, and the user's records
are read in the worker's pass only, as corrections are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memquill.model import Candidate, Event, MemoryRecord, MemoryType, Polarity, Role, Trust
from memquill.model.candidate import Trigger
from memquill.model.change import SLOT_OPEN
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from memquill.text import dictionary_words
from memquill.write.corrections import of_record
from memquill.write.extract.change_cues import ends_held, says_ended
from memquill.write.extract.subjects import about_other

LOOKUP_LIMIT = 500  # the reader's open records scanned for the ended value (newest first)


def apply(events: Sequence[Event], store: Store, found: Sequence[Candidate], look: bool) -> list[Candidate]:
    """``found`` without the candidates that state an ended value as held (every pass), and with
    ``look`` (the worker's pass, as for corrections: reading the user's records is no work for
    the hot path) one ``ends`` candidate per open record of the user that a turn ended."""
    ended_by: dict[str, Event] = {}
    for e in events:
        if (
            e.role is Role.USER
            and e.source is Trust.USER
            and isinstance(e.content, str)
            and says_ended(e.content)
        ):
            ended_by[e.id] = e
    if not ended_by:
        return list(found)
    kept, out, dropped = [], [], []
    for c in found:
        said = ended_by.get(c.evidence[0]) if c.evidence else None
        if (
            said is not None
            and c.value
            and c.polarity is Polarity.POSITIVE
            and "changes_from" not in c.attributes  # "ditched telstra for Optus": Optus is taken
            and ends_held(said.content, c.value)
        ):
            dropped.append(c)
        else:
            kept.append(c)
    for e in ended_by.values() if look else ():
        gone = [c for c in dropped if c.evidence[0] == e.id]
        out += [_ending(r, e) for r in _held(store, e, gone)]
    return [*kept, *out]


def _held(store: Store, e: Event, gone: Sequence[Candidate]) -> list[MemoryRecord]:
    """The user's open records the turn ends: their value said and ended in it, or holding a
    dropped candidate's value in the same slot ("Sold the Civic" ends "Honda Civic")."""
    out = []
    other = about_other(e.content)  # "我姐离开深圳了": the sister's city, not the user's
    for r in store.find(RecordFilter(e.scope, at=e.occurred_at, statuses=SLOT_OPEN), limit=LOOKUP_LIMIT):
        if r.type is MemoryType.EPISODE or not r.value or r.polarity is not Polarity.POSITIVE:
            continue
        if (
            other is not None
            and r.subject != f"person:{other[0]}"
            and not (r.key == "name" and r.value == other[1])
        ):
            continue  # someone else's, unless the one named is who the record names ("小林月底搬走了")
        if any(
            names_in(e.content, f) and ends_held(e.content, f) for f in said_forms(e.content, r.value)
        ) or any(
            c.key == r.key and c.subject == r.subject and names_in(r.value, c.value or "") for c in gone
        ):
            out.append(r)
    return out


def said_forms(text: str, value: str) -> list[str]:
    """How the turn names a held value: whole when it says it whole, else by its last Latin
    word ("Honda Civic" → Civic) or its last Chinese words ("本田飞度" → 飞度)."""
    if len(value) < (3 if value.isascii() else 2):
        return []
    if names_in(text, value):
        return [value]
    words = value.split() if value.isascii() else list(dictionary_words(value))
    if value.isascii():
        return [words[-1]] if len(words) > 1 and len(words[-1]) >= 3 and words[-1].isalpha() else []
    return ["".join(words[i:]) for i in range(1, len(words)) if len("".join(words[i:])) >= 2]


def names_in(text: str, value: str) -> bool:
    """Is ``value`` said in ``text`` (whole words, for Latin script)?"""
    if not value:
        return False
    if not value.isascii():
        return value.casefold() in text.casefold()
    return re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", text, re.IGNORECASE) is not None


def _ending(rec: MemoryRecord, e: Event) -> Candidate:
    return of_record(rec, e, rec.value, rec.content, {"ends": True}, "ending.by_value", Trigger.BACKGROUND)
