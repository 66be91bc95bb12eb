"""A correction that names only the values: "Sorry, Captain, not Admiral", "不是糯米，是糯糯".

The user corrects what was just said by naming the right value and the wrong one, and
nothing else: no attribute word, no subject, so no extractor reads the turn as a statement
of anything. The wrong value is known, though: it is the value of one of the user's open
single-valued slots. That slot is corrected (the candidate carries ``correction``, so
reconciliation invalidates the wrong value: it never held) with the right one. A value no
open slot holds corrects nothing; a value several slots hold corrects the newest.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memquill.catalogue import load
from memquill.model import Candidate, Event, Level, MemoryRecord, Role, Source, Trust
from memquill.model.candidate import Trigger
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from memquill.write.extract.normalise import canonical

LOOKUP_LIMIT = 500  # the reader's open records scanned for the wrong value (newest first)

_V = r"[^,.;!?—–\n]{1,40}?"
_EN = re.compile(
    rf"^\W*(?:sorry|oops|wait|correction|no|my bad|i meant)\b[,:!.\s]*(?:i meant\s+|it's\s+|it is\s+)?"
    rf"(?P<new>{_V})\s*,?\s+not\s+(?P<old>{_V})\s*(?:[,.;!?—–]|$)",
    re.IGNORECASE,
)
# "No, I want tea, not coffee", "No not really, not today": a clause or a negation, not a value
_CLAUSE = re.compile(r"\s*(?:i|i'm|we|you|he|she|they|it's|not|never|really)\b", re.IGNORECASE)
_ZV = r"[^，,。；;！!？?\s]{1,20}?"
_ZH = (
    re.compile(rf"不是\s*(?P<old>{_ZV})\s*[，,]\s*(?:是|而是)\s*(?P<new>{_ZV})(?=[，,。；;！!？?\s]|$)"),
    re.compile(
        rf"(?:^|[，,。：:\s])是\s*(?P<new>{_ZV})\s*[，,]\s*不是\s*(?P<old>{_ZV})(?=[，,。；;！!？?\s]|$)"
    ),
)
_ZH_MARK = re.compile(r"说错了|不对|纠正|更正|搞错了|口误|记错了|打错了|写错了")
_EN_MARK = re.compile(r"\b(?:sorry|oops|correction|i meant|typo|my bad|got it wrong)\b", re.IGNORECASE)


def marks_correction(text: str) -> bool:
    """Does the turn say it corrects something just said ("抱歉，邮箱写错了", "sorry, typo")?"""
    return bool(_ZH_MARK.search(text) or _EN_MARK.search(text))


def said_instead(text: str) -> tuple[str, str] | None:
    """(right value, wrong value) of a turn that corrects by naming both, else ``None``."""
    t = text.strip()
    if (m := _EN.search(t)) and not _CLAUSE.match(m.group("new")):
        return m.group("new").strip(), m.group("old").strip()
    if _ZH_MARK.search(t):
        for rx in _ZH:
            if m := rx.search(t):
                return m.group("new").strip(), m.group("old").strip()
    return None


def by_value(events: Sequence[Event], store: Store, taken: Sequence[Candidate]) -> list[Candidate]:
    """Corrections of the user's own turns that name only a right and a wrong value, as
    candidates for the slot that holds the wrong value (skipped when an extractor already
    read the turn as that slot)."""
    out = []
    for e in events:
        if e.role is not Role.USER or e.source is not Trust.USER or not isinstance(e.content, str):
            continue
        pair = said_instead(e.content)
        if pair is None or pair[0].casefold() == pair[1].casefold():
            continue
        rec = _holding(store, e, pair[1])
        if rec is None or any(c.key == rec.key and e.id in c.evidence for c in taken):
            continue
        out.append(_corrected(rec, e, *pair))
    return out


def _holding(store: Store, e: Event, wrong: str) -> MemoryRecord | None:
    """The newest open record of a single-valued catalogue slot whose value is ``wrong``."""
    cat = load()
    for rec in store.find(RecordFilter(e.scope, at=e.occurred_at), limit=LOOKUP_LIMIT):
        attr = cat.get(rec.key)
        if attr is None or not attr.single or not rec.value:
            continue
        if canonical(rec.value, attr.value_type) == canonical(wrong, attr.value_type):
            return rec
    return None


def _corrected(rec: MemoryRecord, e: Event, right: str, wrong: str) -> Candidate:
    content = rec.content.replace(wrong, right) if wrong in rec.content else f"{rec.content} ({right})"
    attributes = {"correction": True, "corrects": wrong}
    return of_record(rec, e, right, content, attributes, "correction.by_value", Trigger.BACKGROUND)


def of_record(
    rec: MemoryRecord,
    e: Event,
    value: str | None,
    content: str,
    attributes: dict[str, object],
    rule: str,
    trigger: Trigger,
) -> Candidate:
    """A candidate for ``rec``'s slot said by the user in ``e`` (a correction, an ending)."""
    return Candidate(
        type=rec.type,
        subject=rec.subject,
        key=rec.key,
        value=value,
        content=content,
        observed_at=e.occurred_at,
        confidence=0.9,
        source=Source.EXPLICIT,
        evidence=[e.id],
        level=Level.PROJECT if rec.subject.startswith("project:") else Level.USER,
        language=rec.language,
        trigger=trigger,
        attributes={**attributes, "tz": e.timezone},
        rule=rule,
    )
