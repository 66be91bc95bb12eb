"""⑤ Ranked records → the rendered context block, with provenance, in the user's language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from memquill.clock import zone
from memquill.model import MemoryRecord, MemoryType, Polarity
from memquill.model.result import Context, ContextItem, Hit
from memquill.providers.base import Tokenizer
from memquill.retrieve import spend
from memquill.retrieve.budget import pack
from memquill.retrieve.profile import ProfileEntry

LABELS = {
    "en": {
        "preamble": "Background memories about the user (may be outdated; prefer what the user "
        "says now):",
        "core": "Core memory",
        "profile": "User profile",
        "memory": "Relevant memories",
        "session": "This session",
        "checkpoint": "Task checkpoint",
        "not": "NOT",
        "critical": "safety-critical",
        "when": "when",
        "if": "only if",
    },
    "zh": {
        "preamble": "以下是关于用户的背景记忆（可能已过时；以用户当前所说为准）：",
        "core": "核心记忆",
        "profile": "用户画像",
        "memory": "相关记忆",
        "session": "本次会话",
        "checkpoint": "任务检查点",
        "not": "否",
        "critical": "安全攸关",
        "when": "时间",
        "if": "条件",
    },
}


@dataclass(frozen=True)
class Section:
    name: str
    items: list[ContextItem]


def memory_line(rec: MemoryRecord, language: str, critical: bool = False) -> str:
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
    if critical:
        meta.insert(0, lab["critical"])
    return f"- {' '.join(parts)} [{', '.join(meta)}]"


@dataclass
class _Block:
    """The block being packed: pieces in order and the tokens they take."""

    tokenizer: Tokenizer
    room: int
    labels: dict[str, str]
    used: int = 0
    items: list[ContextItem] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)

    def header(self, name: str) -> str:
        return f"## {self.labels.get(name, name)}"

    def left(self, header: str) -> int:
        return max(self.room - self.used - self.tokenizer.count(header) - 1, 0)

    def put(self, header: str, picked: Sequence[ContextItem]) -> None:
        if not picked:
            return
        self.used += self.tokenizer.count(header) + 1 + sum(i.tokens for i in picked)
        self.items.extend(picked)
        self.blocks.append("\n".join([header, *(i.text for i in picked)]))


def render(
    sections: Sequence[Section],
    hits: Sequence[Hit],
    tokenizer: Tokenizer,
    budget: int,
    language: str,
    profile: Sequence[ProfileEntry] = (),
    profile_share: float = 0.2,
    texts: Mapping[str, str] | None = None,
    _room: int | None = None,
) -> Context:
    """Core blocks, the profile, checkpoint and session, then memories by rank, all budgeted.

    Safety-critical profile lines may use the whole budget (they are the last thing dropped);
    the rest of the profile stays within ``profile_share`` of it. Memories already shown in
    the profile, and episodes whose turns a shown record carries, are not spent twice.
    Pieces are counted one by one; if the joined text still counts more (tokenizers are not
    additive), the packing room shrinks by the excess and the block is packed again.
    """
    lab = LABELS.get(language, LABELS["en"])
    block = _Block(tokenizer, budget if _room is None else _room, lab)
    block.used = tokenizer.count(lab["preamble"]) + 1
    if block.used > block.room:
        return Context(text="", items=[], tokens=0, budget_tokens=budget, language=language)
    fixed = list(sections)
    for sec in [s for s in fixed if s.name == "core"]:
        _put_section(block, sec)
    shown = _put_profile(block, profile, int(profile_share * budget), language)
    for sec in [s for s in fixed if s.name != "core"]:
        _put_section(block, sec)
    _put_memories(block, [h for h in hits if h.memory.id not in {r.id for r in shown}], shown,
                  texts or {}, language)  # fmt: skip
    text = "\n\n".join([lab["preamble"], *block.blocks]) if block.blocks else ""
    tokens = tokenizer.count(text) if text else 0
    if tokens > budget:
        return render(sections, hits, tokenizer, budget, language, profile, profile_share, texts,
                      block.room - (tokens - budget))  # fmt: skip
    return Context(text=text, items=block.items, tokens=tokens, budget_tokens=budget,
                   language=language)  # fmt: skip


def _put_section(block: _Block, sec: Section) -> None:
    header = block.header(sec.name)
    chosen = pack(sec.items, lambda i: i.tokens, lambda i: None, block.left(header))
    block.put(header, [sec.items[i] for i in chosen.chosen])


def _item(section: str, rec: MemoryRecord, language: str, tokenizer: Tokenizer,
          why: dict[str, object]) -> ContextItem:  # fmt: skip
    text = memory_line(rec, language, critical=bool(why.get("safety_critical")))
    return ContextItem(section=section, text=text, memory_id=rec.id,
                       tokens=tokenizer.count(text) + 1, why=why)  # fmt: skip


def _put_profile(
    block: _Block, entries: Sequence[ProfileEntry], cap: int, language: str
) -> list[MemoryRecord]:
    """Safety-critical lines within the whole room, the others within ``cap``; the shown records."""
    header = block.header("profile")
    items = [
        _item("profile", e.record, language, block.tokenizer,
              {"profile": e.attribute.profile, "attribute": e.attribute.key,
               "score": e.score, **({"safety_critical": True} if e.safety_critical else {})})
        for e in entries
    ]  # fmt: skip
    critical = [i for i, e in zip(items, entries, strict=True) if e.safety_critical]
    other = [i for i, e in zip(items, entries, strict=True) if not e.safety_critical]
    first = pack(critical, lambda i: i.tokens, lambda i: None, block.left(header))
    taken = first.tokens + (block.tokenizer.count(header) + 1)
    room = min(block.left(header) - first.tokens, cap - taken)
    rest = pack(other, lambda i: i.tokens, lambda i: None, max(room, 0))
    picked = [critical[i] for i in first.chosen] + [other[i] for i in rest.chosen]
    block.put(header, picked)
    ids = {i.memory_id for i in picked}
    return [e.record for e in entries if e.record.id in ids]


def _put_memories(
    block: _Block, hits: Sequence[Hit], profile: Sequence[MemoryRecord], texts: Mapping[str, str],
    language: str,
) -> None:  # fmt: skip
    """Rank order, per-type quotas, and evidence spent once (re-packed until nothing changes).

    Trimming only shrinks or drops candidates, so every item chosen in one pass still fits
    in the next: the loop converges, and no record an episode gave way to is lost.
    """
    header = block.header("memory")
    room = block.left(header)
    records = [h.memory for h in hits]
    why = {h.memory.id: {"score": round(h.score, 4), **h.why} for h in hits}
    kinds = {r.id: r.type for r in records}
    for _ in range(4):
        items = [_item("memory", r, language, block.tokenizer, why[r.id]) for r in records]
        packed = pack(items, lambda i: i.tokens, lambda i: kinds.get(i.memory_id or ""), room)
        spent = _spend_once(records, profile, [records[i] for i in packed.chosen], texts)
        if [(r.id, r.content) for r in spent] == [(r.id, r.content) for r in records]:
            break
        records = spent
    block.put(header, [items[i] for i in packed.chosen])


def _spend_once(
    records: Sequence[MemoryRecord], profile: Sequence[MemoryRecord],
    chosen: Sequence[MemoryRecord], texts: Mapping[str, str],
) -> list[MemoryRecord]:  # fmt: skip
    """Candidates without what shown records already carry (see ``retrieve/spend.py``)."""
    carried = {e for r in [*profile, *chosen] if r.type is not MemoryType.EPISODE for e in r.evidence}
    out: list[MemoryRecord] = []
    for rec in records:
        if rec.type is MemoryType.EPISODE:
            content = spend.trim_episode(rec, carried, texts)
            if content is not None:
                out.append(rec if content == rec.content else rec.model_copy(update={"content": content}))
        elif not spend.redundant_record(rec, [*profile, *out]):
            out.append(rec)
    return out
