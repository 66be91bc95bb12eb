"""Evidence spent once within the standing sections, and the turn wordings trimming needs
(the rule of ``retrieve/spend.py`` applied to profile and project lines)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from memquill.model import MemoryType, Scope
from memquill.model.result import Hit
from memquill.retrieve import spend
from memquill.store.base import Store

if TYPE_CHECKING:
    from memquill.retrieve.profile import ProfileEntry


def spend_standing(
    entries: Sequence[ProfileEntry], texts: Mapping[str, str], before: Sequence[ProfileEntry] = ()
) -> list[ProfileEntry]:
    """Evidence spent once within the standing sections: an episode whose turns a record
    of the section (or of ``before``) carries is dropped or trimmed, and a record adding no
    words to an earlier one with the same evidence is dropped."""
    records = [e.record for e in [*before, *entries] if e.record.type is not MemoryType.EPISODE]
    carried = {ev for r in records for ev in r.evidence}
    out: list[ProfileEntry] = []
    for e in entries:
        rec = e.record
        if rec.type is MemoryType.EPISODE:
            content = spend.trim_episode(rec, carried, texts)
            if content == rec.content:
                out.append(e)
            elif content is not None:
                out.append(replace(e, record=rec.model_copy(update={"content": content})))
        elif not spend.redundant_record(rec, [x.record for x in [*before, *out]], records):
            out.append(e)
    return out


def evidence_texts(
    store: Store,
    reader: Scope,
    hits: Sequence[Hit],
    entries: Sequence[ProfileEntry],
    hidden: Collection[str] = (),
) -> dict[str, str]:
    """Wording of the turns an episode shares with a record of the block, or with a withheld
    one: what trimming needs."""
    records = [h.memory for h in hits] + [e.record for e in entries]
    carried = {ev for r in records if r.type is not MemoryType.EPISODE for ev in r.evidence} | set(hidden)
    wanted = sorted({ev for r in records if r.type is MemoryType.EPISODE for ev in r.evidence} & carried)
    return {e.id: e.content for e in store.get_events(reader, wanted)} if wanted else {}
