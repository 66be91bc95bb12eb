"""Evidence spent once within the standing sections, and the turn wordings trimming needs
(the rule of ``retrieve/spend.py`` applied to profile and project lines)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from memquill.model import MemoryRecord, MemoryType, Scope
from memquill.model.result import Hit
from memquill.retrieve import spend
from memquill.store.base import Store

if TYPE_CHECKING:
    from memquill.retrieve.profile import ProfileEntry


def spend_standing(
    entries: Sequence[ProfileEntry], texts: Mapping[str, str], before: Sequence[ProfileEntry] = ()
) -> list[ProfileEntry]:
    """Evidence spent once within the standing sections: an episode whose turns a record
    of the section (or of ``before``) carries is dropped or trimmed, and a record, or an
    excerpt of an episode, adding no words to an earlier one with the same evidence (of the
    same episode) is dropped."""
    records = [e.record for e in [*before, *entries] if e.record.type is not MemoryType.EPISODE]
    carried = {ev for r in records for ev in r.evidence}
    out: list[ProfileEntry] = []
    for e in entries:
        rec = e.record
        if rec.type is MemoryType.EPISODE:
            if _repeats(rec, out):
                continue
            content = spend.trim_episode(rec, carried, texts)
            if content == rec.content:
                out.append(e)
            elif content is not None:
                out.append(replace(e, record=rec.model_copy(update={"content": content})))
        elif not spend.redundant_record(rec, [x.record for x in [*before, *out]], records):
            out.append(e)
    return out


def _repeats(rec: MemoryRecord, kept: Sequence[ProfileEntry]) -> bool:
    """A line of an episode whose words an earlier line of the same episode already shows:
    one turn excerpted twice, once by the sentence the episode keeps and once by its full
    wording ("重要！ ！ 我花生严重过敏…" and "重要！ 我花生严重过敏…", both first in the block, as
    safety-critical lines are)."""
    mine = spend.sentence_terms(rec.content)
    return any(e.record.id == rec.id and mine <= spend.sentence_terms(e.record.content) for e in kept)


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
