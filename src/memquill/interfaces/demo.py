"""``memquill demo``: a bilingual conversation played through the real engine.

Nothing here is canned. The script below is only what the user says; every table the demo
prints is read back from ``Memory`` (hot-path results, records after the background flush,
the rendered context block), so the output changes whenever the engine does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from memquill import AddResult, Context, FixedClock, Memory, MemoryRecord, Settings, Status

USER = "alice"
SESSION = "s1"
NOW = "2026-11-29T02:00:00+00:00"  # Sunday 10:00 in Shanghai
TIMEZONE = "Asia/Shanghai"

# One dict per turn: keyword arguments of ``Memory.add`` (content, role, project), plus a
# ``note`` saying what the turn is there to show. user/session/timezone are added when played.
SCRIPT: list[dict[str, Any]] = [
    {"note": "English preference", "content": "I prefer dark mode in every editor"},
    {"note": "negative preference", "content": "我不喝咖啡，别给我推荐咖啡"},
    {"note": "assistant reply", "role": "assistant", "content": "好的，以后不给你推荐咖啡。"},
    {"note": "filler", "content": "好的"},
    {"note": "preference", "content": "我喜欢深色主题"},
    {"note": "relative date", "content": "我下周三要去杭州出差"},
    {"note": "filler", "content": "ok thanks"},
    {
        "note": "project decision",
        "content": "我们决定用 PostgreSQL，因为团队更熟悉，不用 MySQL",
        "project": "web",
    },
    {"note": "small talk", "content": "哈哈哈"},
    {"note": "explicit remember", "content": "记住，我的邮箱是 alice@example.com"},
    {"note": "one-off request", "content": "查一下今天的天气"},
    {"note": "change of preference", "content": "我改用浅色主题了"},
]

# Questions asked afterwards, in a new session: the keyword arguments of ``Memory.context``.
FOLLOW_UPS: list[dict[str, Any]] = [
    {"query": "下周的行程和我的偏好？", "session": "s2"},
    {"query": "我们项目用什么数据库？", "session": "s2", "project": "web"},
]


@dataclass
class Turn:
    n: int
    spec: dict[str, Any]
    result: AddResult
    hot: list[str] = field(default_factory=list)  # what the hot path wrote, as read back then


@dataclass
class Transcript:
    db: str
    embedder: str
    turns: list[Turn]
    jobs_done: int
    jobs_failed: int
    records: list[MemoryRecord]
    contexts: list[tuple[dict[str, Any], Context]]


def play(mem: Memory, clock: FixedClock, db: str) -> Transcript:
    """Add every turn, end the session, flush, then read everything back."""
    turns: list[Turn] = []
    scopes: list[dict[str, str]] = []
    for n, item in enumerate(SCRIPT, start=1):
        clock.advance(minutes=1)
        spec = {k: v for k, v in item.items() if k != "note"}
        scope = {
            "user": USER,
            "session": SESSION,
            **({"project": spec["project"]} if "project" in spec else {}),
        }
        scopes.append(scope)
        result = mem.add(**{**spec, **scope}, timezone=TIMEZONE)
        hot = [f"{r.type.value}: {r.content}" for r in (mem.get(i) for i in result.written)]
        turns.append(Turn(n, item, result, hot))
    for key in {tuple(sorted(s.items())) for s in scopes}:
        mem.end_session(**dict(key))
    report = mem.flush()
    records: dict[str, MemoryRecord] = {}
    for scope in scopes:
        records.update((r.id, r) for r in mem.records(statuses=None, **scope))
    contexts = []
    for q in FOLLOW_UPS:
        clock.advance(minutes=1)
        args = {k: v for k, v in q.items() if k != "query"}
        contexts.append((q, mem.context(q["query"], user=USER, budget_tokens=800, **args)))
    return Transcript(
        db,
        mem.settings.embedder,
        turns,
        report.done,
        report.failed,
        sorted(records.values(), key=lambda r: r.created_at),
        contexts,
    )


def run_demo(db: str, console: Console) -> Transcript:
    """Play the script on a fresh database at ``db`` and print what happened."""
    clock = FixedClock(NOW)
    settings = Settings.from_env(default_timezone=TIMEZONE)
    with Memory(db, clock=clock, settings=settings) as mem:
        transcript = play(mem, clock, db)
    render(transcript, console)
    return transcript


# --- rendering --------------------------------------------------------------------------------
def render(t: Transcript, console: Console) -> None:
    console.rule("memquill demo")
    console.print(
        f"user {USER}, session {SESSION}, clock {NOW} ({TIMEZONE}), "
        f"embedder {t.embedder}, database {escape(t.db)}"
    )
    console.print(_turns_table(t))
    console.print(f"end_session + flush: {t.jobs_done} background job(s) done, {t.jobs_failed} failed")
    turn_of = {turn.result.event_id: turn.n for turn in t.turns}
    by_id = {r.id: r for r in t.records}
    console.print(_remembered_table(t.records, turn_of))
    console.print(_replaced_table(t.records, by_id))
    others = [r for r in t.records if r.status not in _SHOWN]
    if others:
        console.print(_records_table("other states", others, turn_of))
    console.print(_not_remembered_table(t.turns, t.records))
    for q, ctx in t.contexts:
        where = ", ".join(f"{k}={v}" for k, v in q.items() if k != "query")
        title = f"context for {q['query']!r} ({where})"
        used = f"{ctx.tokens}/{ctx.budget_tokens} tokens"
        console.print(Panel(Text(ctx.text or "(nothing to inject)"), title=escape(title), subtitle=used))


_SHOWN = {Status.ACTIVE, Status.SUPERSEDED, Status.INVALIDATED}


def _turns_table(t: Transcript) -> Table:
    table = Table("#", "said", "shows", "hot path", title="the conversation")
    table.columns[1].overflow = table.columns[3].overflow = "fold"
    for turn in t.turns:
        r = turn.result
        if turn.hot:
            what = "\n".join(f"[green]wrote[/green] {escape(h)}" for h in turn.hot)
        elif r.skipped:
            what = f"[yellow]skipped[/yellow]: {escape(r.skipped)}"
        else:
            what = "[cyan]queued[/cyan] for the background worker"
        who = [turn.spec["role"]] if "role" in turn.spec else []
        who += [f"@{turn.spec['project']}"] if "project" in turn.spec else []
        said = escape(turn.spec["content"])
        if who:
            said = f"[dim]({escape(' '.join(who))})[/dim] {said}"
        table.add_row(str(turn.n), said, escape(turn.spec.get("note", "")), what)
    return table


def _turns(rec: MemoryRecord, turn_of: dict[str, int]) -> str:
    return ", ".join(str(turn_of[e]) for e in rec.evidence if e in turn_of) or "-"


def _remembered_table(records: list[MemoryRecord], turn_of: dict[str, int]) -> Table:
    active = [r for r in records if r.status is Status.ACTIVE]
    return _records_table("remembered (active records)", active, turn_of, status=False)


def _records_table(
    title: str, records: list[MemoryRecord], turn_of: dict[str, int], status: bool = True
) -> Table:
    cols = ["type", "content", "level", "conf.", "source", "from turn"]
    table = Table(*cols, *(["status"] if status else []), title=title)
    table.columns[1].overflow = "fold"
    for r in records:
        row = [
            r.type.value,
            escape(r.content),
            r.scope.level.value,
            f"{r.confidence:.2f}",
            r.source.value,
            _turns(r, turn_of),
        ]
        table.add_row(*row, *([r.status.value] if status else []))
    return table


def _replaced_table(records: list[MemoryRecord], by_id: dict[str, MemoryRecord]) -> Table:
    table = Table(
        "status",
        "content",
        "superseded_by",
        "replaced by",
        title="superseded or invalidated (kept as history)",
    )
    for col in table.columns:
        col.overflow = "fold"
    table.columns[2].min_width = max((len(r.superseded_by or "") for r in records), default=1)
    for r in records:
        if r.status not in (Status.SUPERSEDED, Status.INVALIDATED):
            continue
        newer = by_id.get(r.superseded_by or "")
        table.add_row(
            r.status.value, escape(r.content), r.superseded_by or "-", escape(newer.content) if newer else "-"
        )
    return table


def _not_remembered_table(turns: list[Turn], records: list[MemoryRecord]) -> Table:
    evidence = {e for r in records for e in r.evidence}
    table = Table("#", "said", "why not", title="turns that left no memory")
    table.columns[1].overflow = "fold"
    for turn in turns:
        if turn.result.event_id in evidence:
            continue
        why = turn.result.skipped or "no durable memory found in it"
        table.add_row(str(turn.n), escape(turn.spec["content"]), escape(why))
    return table
