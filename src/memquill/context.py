"""⑤ Ranked records → the rendered context block, with provenance, in the user's language."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from memquill.clock import zone
from memquill.model import MemoryRecord, MemoryType, Polarity, Scope
from memquill.model.result import Context, ContextItem, Hit
from memquill.providers.base import Tokenizer
from memquill.retrieve import spend
from memquill.retrieve.budget import pack
from memquill.retrieve.pending import admissible
from memquill.retrieve.profile import Standing
from memquill.store.base import Store
from memquill.working import Checkpoint

LABELS = {
    "en": {
        "preamble": "Background memories about the user (may be outdated; prefer what the user says now):",
        "core": "Core memory",
        "profile": "User profile",
        "project": "Project",
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
        "project": "项目",
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
    """The block being packed: sections in order, each with its header and chosen items."""

    tokenizer: Tokenizer
    room: int
    labels: dict[str, str]
    used: int = 0
    parts: dict[str, tuple[str, list[ContextItem]]] = field(default_factory=dict)

    def header(self, name: str, title: str = "") -> str:
        return f"## {self.labels.get(name, name)}{' ' + title if title else ''}"

    def left(self, name: str, header: str) -> int:
        opening = 0 if name in self.parts else self.tokenizer.count(header) + 1
        return max(self.room - self.used - opening, 0)

    def put(self, name: str, header: str, picked: Sequence[ContextItem]) -> None:
        if not picked:
            return
        if name not in self.parts:
            self.used += self.tokenizer.count(header) + 1
            self.parts[name] = (header, [])
        self.used += sum(i.tokens for i in picked)
        self.parts[name][1].extend(picked)

    def items(self) -> list[ContextItem]:
        return [i for _, items in self.parts.values() for i in items]

    def text(self, preamble: str) -> str:
        if not self.parts:
            return ""
        blocks = ["\n".join([h, *(i.text for i in items)]) for h, items in self.parts.values()]
        return "\n\n".join([preamble, *blocks])


def render(
    sections: Sequence[Section],
    hits: Sequence[Hit],
    tokenizer: Tokenizer,
    budget: int,
    language: str,
    standing: Sequence[Standing] = (),
    texts: Mapping[str, str] | None = None,
    withheld: Collection[str] = (),
    spend_once: bool = True,
    _room: int | None = None,
    fuller: Mapping[str, MemoryRecord] | None = None,
    keeps: Callable[[MemoryRecord, str], bool] | None = None,
) -> Context:
    """Core blocks, standing sections, checkpoint and session, then memories by rank.

    Safety-critical standing lines may use the whole budget (they are the last thing
    dropped); the other standing lines stay within their share until the task memories are
    packed, then take what room is left. Memories already shown in a standing section, and
    episodes whose turns a shown record carries, are not spent twice; turns in ``withheld``
    (private memories the request does not bear on) are cut from episodes too. Pieces are counted one
    by one; if the joined text still counts more (tokenizers are not additive), the packing
    room shrinks by the excess and the block is packed again.
    """
    lab = LABELS.get(language, LABELS["en"])
    block = _Block(tokenizer, budget if _room is None else _room, lab)
    block.used = tokenizer.count(lab["preamble"]) + 1
    if block.used > block.room:
        return Context(text="", items=[], tokens=0, budget_tokens=budget, language=language)
    for sec in [s for s in sections if s.name == "core"]:
        _put_section(block, sec)
    later = {st.name: _put_standing(block, st, int(st.share * budget), language) for st in standing}
    for sec in [s for s in sections if s.name != "core"]:
        _put_section(block, sec)
    shown = [e.record for st in standing for e in st.entries if _chosen(block, st.name, e.record.id)]
    ids = {r.id for r in shown if not r.attributes.get("excerpt")}
    _put_memories(
        block,
        spend.without_excerpts([h for h in hits if h.memory.id not in ids], shown),
        shown,
        texts or {},
        language,
        set(withheld),
        spend_once,
        keeps,
    )
    chosen = [h.memory for h in hits if _chosen(block, "memory", h.memory.id)]
    _widen(block, fuller or {}, [*shown, *chosen], texts or {}, set(withheld), language)
    said = _said(block, hits, texts or {})
    # what room the task left goes to the rest of the standing lines, the project's first:
    # a task in a project is about the project
    for st in sorted(standing, key=lambda st: st.name != "project"):
        by_id = {e.record.id: e.record for e in st.entries}
        rest = [
            i
            for i in later[st.name]
            if not _chosen(block, "memory", i.memory_id)
            and not (spend_once and set(by_id[i.memory_id or ""].evidence) <= said)
        ]
        _put_items(block, st.name, block.header(st.name, st.title), rest)
    text = block.text(lab["preamble"])
    tokens = tokenizer.count(text) if text else 0
    if tokens > budget:
        return render(
            sections,
            hits,
            tokenizer,
            budget,
            language,
            standing,
            texts,
            withheld,
            spend_once,
            block.room - (tokens - budget),
            fuller,
            keeps,
        )
    return Context(text=text, items=block.items(), tokens=tokens, budget_tokens=budget, language=language)


def _widen(
    block: _Block,
    fuller: Mapping[str, MemoryRecord],
    shown: Sequence[MemoryRecord],
    texts: Mapping[str, str],
    withheld: set[str],
    language: str,
) -> None:
    """Room the task memories left goes first to their episodes' left-out sentences.

    Session-end compression keeps a few dozen words per episode; a chosen episode's other
    turns ("Mushrooms are the devil's food. Keep them away…" behind "Four years off the
    drink…") are as much about the request as the sentence that matched. In rank order,
    each chosen episode is replaced by its full wording — trimmed of what shown records
    carry, of withheld turns and of sentences a standing section shows — when that fits."""
    if "memory" not in block.parts:
        return
    items = block.parts["memory"][1]
    carried = withheld | {
        e
        for r in shown
        if r.type is not MemoryType.EPISODE and not r.attributes.get("excerpt")
        for e in r.evidence
    }
    excerpts = {r.content for r in shown if r.attributes.get("excerpt")}
    for n, old in enumerate(items):
        rec = fuller.get(old.memory_id or "")
        if rec is None:
            continue
        content = spend.trim_episode(rec, carried, texts)
        if content is None:
            continue
        content = " ".join(x for x in spend.sentences(content) if not any(x in e for e in excerpts))
        new = _item("memory", rec.model_copy(update={"content": content}), language, block.tokenizer, old.why)
        if new.tokens > old.tokens and block.used - old.tokens + new.tokens <= block.room:
            block.used += new.tokens - old.tokens
            items[n] = new


def _said(block: _Block, hits: Sequence[Hit], texts: Mapping[str, str]) -> set[str]:
    """The turns the shown task memories carry: a record's evidence, and of an episode the
    turns its shown words hold. An episode is trimmed to a few sentences, so its evidence
    names turns it does not show ("周末想去喝早茶…榴莲别推荐" behind an astronomy turn), and
    the standing line that does say them must not give way to it. A turn without known
    wording counts as said."""
    by_id = {h.memory.id: h.memory for h in hits}
    out: set[str] = set()
    for item in block.parts.get("memory", ("", []))[1]:
        rec = by_id.get(item.memory_id or "")
        if rec is None:
            continue
        if rec.type is not MemoryType.EPISODE:
            out.update(rec.evidence)
            continue
        shown = [spend.sentence_terms(item.text)]
        out.update(
            e
            for e in rec.evidence
            if e not in texts or all(spend.covered(x, shown) for x in spend.sentences(texts[e]))
        )
    return out


def _chosen(block: _Block, name: str, memory_id: str | None) -> bool:
    return name in block.parts and any(i.memory_id == memory_id for i in block.parts[name][1])


def _put_items(block: _Block, name: str, header: str, items: Sequence[ContextItem]) -> list[ContextItem]:
    """Pack ``items`` in order into the room left; the ones that did not fit."""
    chosen = pack(items, lambda i: i.tokens, lambda i: None, block.left(name, header))
    block.put(name, header, [items[i] for i in chosen.chosen])
    return [it for i, it in enumerate(items) if i not in set(chosen.chosen)]


def _put_section(block: _Block, sec: Section) -> None:
    _put_items(block, sec.name, block.header(sec.name), sec.items)


def _item(
    section: str, rec: MemoryRecord, language: str, tokenizer: Tokenizer, why: dict[str, object]
) -> ContextItem:
    text = memory_line(rec, language, critical=bool(why.get("safety_critical")))
    return ContextItem(
        section=section, text=text, memory_id=rec.id, tokens=tokenizer.count(text) + 1, why=why
    )


def _put_standing(block: _Block, st: Standing, cap: int, language: str) -> list[ContextItem]:
    """Safety-critical lines within the whole room, the others within ``cap``; the rest."""
    header = block.header(st.name, st.title)
    items = [
        _item(
            st.name,
            e.record,
            language,
            block.tokenizer,
            {
                "profile": e.attribute.profile,
                "attribute": e.attribute.key,
                "score": e.score,
                **({"safety_critical": True} if e.safety_critical else {}),
                **({"private": e.private} if e.private else {}),
            },
        )
        for e in st.entries
    ]
    critical = [i for i, e in zip(items, st.entries, strict=True) if e.safety_critical]
    other = [i for i, e in zip(items, st.entries, strict=True) if not e.safety_critical]
    _put_items(block, st.name, header, critical)
    shown = [i for i in critical if _chosen(block, st.name, i.memory_id)]
    spent = block.tokenizer.count(header) + 1 + sum(i.tokens for i in shown)
    room = min(block.left(st.name, header), cap - spent)
    first = pack(other, lambda i: i.tokens, lambda i: None, max(room, 0))
    block.put(st.name, header, [other[i] for i in first.chosen])
    return [it for i, it in enumerate(other) if i not in set(first.chosen)]


def _put_memories(
    block: _Block,
    hits: Sequence[Hit],
    profile: Sequence[MemoryRecord],
    texts: Mapping[str, str],
    language: str,
    withheld: set[str],
    spend_once: bool = True,
    keeps: Callable[[MemoryRecord, str], bool] | None = None,
) -> None:
    """Rank order, per-type quotas, and evidence spent once (re-packed until nothing changes).

    Trimming only shrinks or drops candidates, so every item chosen in one pass still fits
    in the next: the loop converges, and no record an episode gave way to is lost.
    """
    header = block.header("memory")
    room = block.left("memory", header)
    records = [h.memory for h in hits]
    why = {h.memory.id: {"score": round(h.score, 4), **h.why} for h in hits}
    kinds = {r.id: r.type for r in records}
    made: dict[tuple[str, str], ContextItem] = {}  # counting tokens is the costly part
    for _ in range(4):
        for r in records:
            if (r.id, r.content) not in made:
                made[(r.id, r.content)] = _item("memory", r, language, block.tokenizer, why[r.id])
        items = [made[(r.id, r.content)] for r in records]
        packed = pack(items, lambda i: i.tokens, lambda i: kinds.get(i.memory_id or ""), room, refill=True)
        chosen = [records[i] for i in packed.chosen] if spend_once else []
        shown = profile if spend_once else []
        spent = _spend_once(records, shown, chosen, texts, withheld, spend_once, keeps)
        if [(r.id, r.content) for r in spent] == [(r.id, r.content) for r in records]:
            break
        records = spent
    block.put("memory", header, [items[i] for i in packed.chosen])


def _spend_once(
    records: Sequence[MemoryRecord],
    profile: Sequence[MemoryRecord],
    chosen: Sequence[MemoryRecord],
    texts: Mapping[str, str],
    withheld: set[str],
    once: bool = True,
    keeps: Callable[[MemoryRecord, str], bool] | None = None,
) -> list[MemoryRecord]:
    """Candidates without what shown records already carry (see ``retrieve/spend.py``) and
    without withheld turns; with ``once`` off only the withheld turns go (privacy stays).
    A trimmed episode stays only when ``keeps`` says what is left still bears on the request
    (``retrieve.pipeline.StillNear``)."""
    records_shown = [r for r in [*profile, *chosen] if r.type is not MemoryType.EPISODE]
    carried = withheld | {e for r in records_shown for e in r.evidence}
    out: list[MemoryRecord] = []
    for rec in records:
        if rec.type is MemoryType.EPISODE:
            content = spend.trim_episode(rec, carried, texts)
            if content is not None and (content == rec.content or keeps is None or keeps(rec, content)):
                out.append(rec if content == rec.content else rec.model_copy(update={"content": content}))
        elif not (once and spend.redundant_record(rec, [*profile, *out], records)):
            out.append(rec)
    return out


# --- sections around the ranked memories ------------------------------------------------------
def sections(
    store: Store,
    reader: Scope,
    covered: set[str],
    tokenizer: Tokenizer,
    checkpoint: Checkpoint | None = None,
    hides: Callable[[str, str], bool] = lambda turn_id, text: False,
) -> list[Section]:
    """Core blocks, the session's checkpoint and its not-yet-processed turns (those not
    already ``covered`` by a ranked memory's evidence, nor private to this request: ``hides``)."""

    def item(section: str, text: str, mid: str | None = None) -> ContextItem:
        return ContextItem(section=section, text=text, memory_id=mid, tokens=tokenizer.count(text) + 1)

    parts = [Section("core", [item("core", f"[{b.name}] {b.content}") for b in store.blocks(reader)])]
    if reader.session:
        if checkpoint is not None:
            summary = item("checkpoint", checkpoint.summary(), checkpoint.memory_id)
            parts.append(Section("checkpoint", [summary]))
        pending = admissible(store.pending_events(reader, reader.session, limit=10), reader)
        turns = [
            item("session", f"- {e.role.value}: {e.content}")
            for e in pending
            if e.id not in covered and not hides(e.id, e.content)
        ]
        parts.append(Section("session", turns))
    return parts
