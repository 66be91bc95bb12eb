"""⑤ Ranked records → the rendered context block, with provenance, in the user's language."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memquill.clock import zone
from memquill.model import MemoryRecord, Polarity, Scope
from memquill.model.result import Context, ContextItem, Hit
from memquill.providers.base import Tokenizer
from memquill.retrieve.budget import pack
from memquill.retrieve.pending import admissible
from memquill.store.base import Store
from memquill.working import Checkpoint

LABELS = {
    "en": {
        "preamble": "Background memories about the user (may be outdated; prefer what the user "
        "says now):",
        "core": "Core memory",
        "memory": "Relevant memories",
        "session": "This session",
        "checkpoint": "Task checkpoint",
        "not": "NOT",
        "when": "when",
        "if": "only if",
    },
    "zh": {
        "preamble": "以下是关于用户的背景记忆（可能已过时；以用户当前所说为准）：",
        "core": "核心记忆",
        "memory": "相关记忆",
        "session": "本次会话",
        "checkpoint": "任务检查点",
        "not": "否",
        "when": "时间",
        "if": "条件",
    },
}


@dataclass(frozen=True)
class Section:
    name: str
    items: list[ContextItem]


def memory_line(rec: MemoryRecord, language: str) -> str:
    """One record as a line: content, conditions, date and source, so the model can cite it."""
    lab = LABELS[language]
    parts = [rec.content]
    if rec.conditions and not all(c in rec.content for c in rec.conditions):
        parts.append(f"({lab['if']}: {'; '.join(rec.conditions)})")
    date = (rec.when_start or rec.observed_at or rec.created_at).astimezone(
        zone(str(rec.attributes.get("tz") or "UTC"))
    )
    meta = [f"{rec.type.value}", date.date().isoformat(), rec.source.value]
    if rec.polarity is Polarity.NEGATIVE and language == "en" and " not " not in rec.content:
        meta.append("negative")
    return f"- {' '.join(parts)} [{', '.join(meta)}]"


def render(
    sections: Sequence[Section],
    hits: Sequence[Hit],
    tokenizer: Tokenizer,
    budget: int,
    language: str,
    _room: int | None = None,
) -> Context:
    """Fixed sections first (core, checkpoint, session), then memories by rank, all budgeted.

    Pieces are counted one by one; if the joined text still counts more (tokenizers are not
    additive), the packing room shrinks by the excess and the block is packed again.
    """
    room_total = budget if _room is None else _room
    lab = LABELS.get(language, LABELS["en"])
    preamble = lab["preamble"]
    used = tokenizer.count(preamble) + 1
    if used > room_total:
        return Context(text="", items=[], tokens=0, budget_tokens=budget, language=language)
    items: list[ContextItem] = []
    blocks: list[str] = [preamble]
    for sec in sections:
        header = f"## {lab.get(sec.name, sec.name)}"
        chosen = pack(sec.items, lambda i: i.tokens, lambda i: None,
                      room_total - used - tokenizer.count(header))  # fmt: skip
        if not chosen.chosen:
            continue
        used += tokenizer.count(header) + chosen.tokens
        picked = [sec.items[i] for i in chosen.chosen]
        items.extend(picked)
        blocks.append("\n".join([header, *(i.text for i in picked)]))
    header = f"## {lab['memory']}"
    mem_items = [
        ContextItem(section="memory", text=memory_line(h.memory, language), memory_id=h.memory.id,
                    why={"score": round(h.score, 4), **h.why})
        for h in hits
    ]  # fmt: skip
    for it in mem_items:
        it.tokens = tokenizer.count(it.text) + 1
    room = room_total - used - tokenizer.count(header) - 1
    packed = pack(mem_items, lambda i: i.tokens, lambda i: _type_of(hits, i), max(room, 0))
    if packed.chosen:
        used += tokenizer.count(header) + 1 + packed.tokens
        picked = [mem_items[i] for i in packed.chosen]
        items.extend(picked)
        blocks.append("\n".join([header, *(i.text for i in picked)]))
    text = "\n\n".join(blocks) if len(blocks) > 1 else ""
    tokens = tokenizer.count(text) if text else 0
    if tokens > budget:
        return render(sections, hits, tokenizer, budget, language, room_total - (tokens - budget))
    return Context(text=text, items=items, tokens=tokens, budget_tokens=budget, language=language)


def _type_of(hits: Sequence[Hit], item: ContextItem):  # type: ignore[no-untyped-def]
    for h in hits:
        if h.memory.id == item.memory_id:
            return h.memory.type
    return None


# --- sections around the ranked memories ------------------------------------------------------
def sections(
    store: Store,
    reader: Scope,
    covered: set[str],
    tokenizer: Tokenizer,
    checkpoint: Checkpoint | None = None,
) -> list[Section]:
    """Core blocks, the session's checkpoint and its not-yet-processed turns (those not
    already ``covered`` by a ranked memory's evidence)."""

    def item(section: str, text: str, mid: str | None = None) -> ContextItem:
        return ContextItem(section=section, text=text, memory_id=mid, tokens=tokenizer.count(text) + 1)

    parts = [Section("core", [item("core", f"[{b.name}] {b.content}") for b in store.blocks(reader)])]
    if reader.session:
        if checkpoint is not None:
            summary = item("checkpoint", checkpoint.summary(), checkpoint.memory_id)
            parts.append(Section("checkpoint", [summary]))
        pending = admissible(store.pending_events(reader, reader.session, limit=10), reader)
        turns = [item("session", f"- {e.role.value}: {e.content}") for e in pending if e.id not in covered]
        parts.append(Section("session", turns))
    return parts
