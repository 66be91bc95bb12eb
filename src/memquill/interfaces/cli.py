"""The ``memquill`` command line: parse → call ``Memory`` → render. No business logic here.

Every command takes ``--db PATH`` (default: ``MEMQUILL_DB``, else a per-user data file) and,
where its output is data, ``--json`` (machine-readable JSON only on stdout). Errors from
memquill print as one red ``error: …`` line on stderr and exit with code 2.
"""

from __future__ import annotations

import functools
import json
import logging
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any, Literal, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from memquill import AddResult, Hit, Memory, MemoryRecord, MemoryType, Revision
from memquill.errors import (
    DuplicateEventError,
    IngestLineError,
    MemquillError,
    NaiveDatetimeError,
    ValidationError,
)
from memquill.ingest import EVENT_KEYS
from memquill.interfaces import export as views
from memquill.settings import Settings, default_db_path

if TYPE_CHECKING:
    from memquill.maintain.worker import DrainReport, Worker

P = ParamSpec("P")
R = TypeVar("R")

app = typer.Typer(
    name="memquill",
    help="Long-term memory for LLM agents: add, ingest, search, inspect, review, maintain, "
    "export, run the background worker, and demo.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# --- shared options ---------------------------------------------------------------------------
Db = Annotated[
    str | None,
    typer.Option("--db", help="Database file or postgresql:// URL (default: MEMQUILL_DB, "
                 "else the per-user data file).", show_default=False),
]  # fmt: skip
AsJson = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.")]
User = Annotated[str, typer.Option("--user", "-u", help="User the memory belongs to.")]
OptUser = Annotated[str | None, typer.Option("--user", "-u", help="User (reader).")]
LineUser = Annotated[str | None, typer.Option("--user", "-u", help='User for lines without a "user" key.')]
Tenant = Annotated[str | None, typer.Option(help="Tenant.")]
Agent = Annotated[str | None, typer.Option(help="Agent id.")]
Project = Annotated[str | None, typer.Option(help="Project.")]
Session = Annotated[str | None, typer.Option(help="Session.")]
At = Annotated[str | None, typer.Option("--at", help="ISO-8601 instant (with an offset).")]
Tz = Annotated[str | None, typer.Option("--timezone", help="IANA timezone, e.g. Asia/Shanghai.")]
Types = Annotated[
    list[str] | None,
    typer.Option("--type", help=f"Only these types (repeatable): {', '.join(MemoryType)}."),
]
NoFlush = Annotated[bool, typer.Option("--no-flush", help="Leave background work queued.")]
History = Annotated[bool, typer.Option("--history", help="Include superseded and invalidated versions.")]
DemoDb = Annotated[
    str | None,
    typer.Option("--db", help="A fresh database file to keep (default: a temporary file, "
                 "deleted after).", show_default=False),
]  # fmt: skip

SCOPE_KEYS = ("tenant", "user", "agent", "project", "session")
INGEST_KEYS = (*EVENT_KEYS, *SCOPE_KEYS)


# --- plumbing ---------------------------------------------------------------------------------
def _out() -> Console:
    return Console(highlight=False)


def _err() -> Console:
    return Console(stderr=True, highlight=False)


def _print_error(message: str) -> None:
    """One red line on stderr, however long or multi-line the message."""
    _err().print(f"[red]error: {escape(' '.join(message.split()))}[/red]", soft_wrap=True)


def _fail(message: str) -> NoReturn:
    _print_error(message)
    raise typer.Exit(2)


def _guard(fn: Callable[P, R]) -> Callable[P, R]:
    """memquill errors become one red line and exit code 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except MemquillError as exc:
            _fail(str(exc))

    return wrapper


def db_path(db: str | None) -> str:
    return db or Settings.from_env().db or default_db_path()


@contextmanager
def _memory(db: str | None) -> Iterator[Memory]:
    with Memory(db_path(db)) as mem:
        yield mem


def _scope(**values: str | None) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def _emit_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _legs(hit: Hit) -> str:
    legs = hit.why.get("legs") or {}
    return ", ".join(
        f"{name}#{info['rank']}" if isinstance(info, dict) and "rank" in info else name
        for name, info in legs.items()
    )


def _record_rows(rec: MemoryRecord) -> Iterator[tuple[str, str]]:
    for name, value in rec.model_dump(mode="json").items():
        if value in (None, [], {}, ""):
            continue
        if name == "scope":
            value = f"{rec.scope.label()} (level {rec.scope.level.value})"
        elif isinstance(value, list | dict):
            value = json.dumps(value, ensure_ascii=False)
        yield name, str(value)


def _table(*columns: str, title: str | None = None, ids: Iterable[str] = ()) -> Table:
    """A table whose cells fold instead of being cut; the first column holds ``ids`` whole."""
    table = Table(*columns, title=title)
    for col in table.columns:
        col.overflow = "fold"
    widths = [len(i) for i in ids]
    if widths:
        table.columns[0].min_width = max(widths)
    return table


def _history_table(revs: list[Revision]) -> Table:
    table = _table("revision", "op", "actor", "reason", "at", "events", title="history")
    for r in revs:
        table.add_row(str(r.revision), r.op.value, escape(r.actor), escape(r.reason),
                      r.at.isoformat(), escape(", ".join(r.event_ids)))  # fmt: skip
    return table


# --- commands ---------------------------------------------------------------------------------
@app.command()
@_guard
def add(
    text: Annotated[str, typer.Argument(help="What was said.")],
    user: User,
    session: Session = None,
    project: Project = None,
    agent: Agent = None,
    tenant: Tenant = None,
    role: Annotated[str, typer.Option(help="user | assistant | tool | system.")] = "user",
    source: Annotated[str | None, typer.Option(help="Trust class (default from role).")] = None,
    id: Annotated[str | None, typer.Option("--id", help="Event id (idempotent re-adds).")] = None,
    at: At = None,
    timezone: Tz = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Log one interaction and write what must be remembered at once."""
    scope = _scope(tenant=tenant, user=user, agent=agent, project=project, session=session)
    with _memory(db) as mem:
        r = mem.add(text, role=role, source=source, id=id, at=at, timezone=timezone, **scope)
        if as_json:
            _emit_json(r.model_dump(mode="json"))
            return
        out = _out()
        state = "added" if r.created else "already known (duplicate, nothing new)"
        out.print(f"event [bold]{escape(r.event_id)}[/bold]: {state}")
        if r.written:
            table = _table("id", "type", "status", "content", title="written on the hot path",
                           ids=r.written)  # fmt: skip
            for rec in (mem.get(i) for i in r.written):
                table.add_row(rec.id, rec.type.value, rec.status.value, escape(rec.content))
            out.print(table)
        elif r.skipped:
            out.print(f"skipped: {escape(r.skipped)}")
        elif r.queued:
            out.print("nothing written yet; queued for the background worker (run a flush)")


@app.command()
@_guard
def ingest(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="JSONL file.")],
    user: LineUser = None,
    no_flush: NoFlush = False,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Add one event per JSONL line (see docs/jsonl.md); stops at the first bad line."""
    lines = file.read_bytes().splitlines()
    added: dict[tuple[tuple[str, str], ...], set[str]] = {}
    counts = {"lines": len(lines), "events_added": 0, "duplicates_skipped": 0}
    err = _err()
    show_bar = not as_json and err.is_terminal
    with _memory(db) as mem, Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), console=err,
        disable=not show_bar, transient=True,
    ) as bar:  # fmt: skip
        task = bar.add_task("ingest", total=len(lines))
        for n, raw in enumerate(lines, start=1):
            fields = parse_line(n, raw, user)
            if fields is not None:
                r = _add_line(mem, n, fields)
                if r.created:
                    counts["events_added"] += 1
                    scope = tuple(sorted(_scope(**{k: fields.get(k) for k in SCOPE_KEYS}).items()))
                    added.setdefault(scope, set()).add(r.event_id)
                else:
                    counts["duplicates_skipped"] += 1
            bar.advance(task)
        bar.update(task, description="flush")
        report = None if no_flush else mem.flush()
        counts["records_written"] = _records_from(mem, added)
    summary: dict[str, Any] = {**counts, "flushed": report is not None}
    if report is not None:
        summary["jobs"] = {"done": report.done, "failed": report.failed, "dead": report.dead}
    if as_json:
        _emit_json(summary)
        return
    table = _table("", "count", title=f"ingested {escape(str(file))}")
    for name in ("lines", "events_added", "duplicates_skipped", "records_written"):
        table.add_row(name.replace("_", " "), str(summary[name]))
    _out().print(table)
    if report is None:
        _out().print("background work left queued (--no-flush)")


def parse_line(n: int, raw: bytes, default_user: str | None) -> dict[str, Any] | None:
    """One JSONL line → keyword arguments of ``Memory.add``; ``None`` for a blank line."""
    try:
        text = raw.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError as exc:
        raise IngestLineError(n, f"not UTF-8 ({exc.reason} at byte {exc.start})") from exc
    if not text.strip():
        return None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise IngestLineError(n, f"not valid JSON: {exc.msg} (column {exc.colno})") from exc
    if not isinstance(obj, dict):
        raise IngestLineError(n, f"expected a JSON object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - set(INGEST_KEYS))
    if unknown:
        raise IngestLineError(n, f"unknown key(s) {', '.join(unknown)}; "
                                 f"allowed: {', '.join(INGEST_KEYS)}")  # fmt: skip
    fields = {k: v for k, v in obj.items() if v is not None}
    if "content" not in fields:
        raise IngestLineError(n, 'missing "content"')
    for key, value in fields.items():
        want = dict if key == "metadata" else str
        if not isinstance(value, want):
            kind = "an object" if want is dict else "a string"
            raise IngestLineError(n, f'"{key}" must be {kind}, got {type(value).__name__}')
    fields.setdefault("user", default_user)
    if fields["user"] is None:
        raise IngestLineError(n, 'no "user" on the line and no --user default')
    return fields


def _add_line(mem: Memory, n: int, fields: dict[str, Any]) -> AddResult:
    try:
        return mem.add(**fields)
    except NaiveDatetimeError as exc:
        raise IngestLineError(n, f'"at" {fields["at"]!r} has no timezone: add an offset '
                                 '(e.g. +08:00) or a "timezone" key') from exc  # fmt: skip
    except (ValidationError, DuplicateEventError) as exc:
        raise IngestLineError(n, str(exc)) from exc


def _records_from(mem: Memory, added: dict[tuple[tuple[str, str], ...], set[str]]) -> int:
    """Records (any status) whose evidence includes an event added by this run."""
    ids: set[str] = set()
    for scope, events in added.items():
        ids.update(r.id for r in mem.records(statuses=None, **dict(scope))
                   if events.intersection(r.evidence))  # fmt: skip
    return len(ids)


@app.command()
@_guard
def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    user: User,
    k: Annotated[int, typer.Option("-k", help="How many hits.")] = 5,
    at: At = None,
    timezone: Tz = None,
    type: Types = None,
    history: History = False,
    session: Session = None,
    project: Project = None,
    agent: Agent = None,
    tenant: Tenant = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Search the memories visible to this reader."""
    scope = _scope(tenant=tenant, user=user, agent=agent, project=project, session=session)
    with _memory(db) as mem:
        hits = mem.search(query, k=k, at=at, timezone=timezone, types=type,
                          include_history=history, **scope)  # fmt: skip
    if as_json:
        _emit_json([h.model_dump(mode="json") for h in hits])
        return
    table = _table("id", "type", "status", "content", "score", "why", title=f"{len(hits)} hit(s)",
                   ids=[h.memory.id for h in hits])  # fmt: skip
    for h in hits:
        m = h.memory
        table.add_row(m.id, m.type.value, m.status.value, escape(m.content), f"{h.score:.3f}",
                      escape(_legs(h)))  # fmt: skip
    _out().print(table)


@app.command()
@_guard
def context(
    query: Annotated[str, typer.Argument(help="The question the agent is about to answer.")],
    user: User,
    session: Session = None,
    project: Project = None,
    agent: Agent = None,
    tenant: Tenant = None,
    budget: Annotated[int, typer.Option(help="Token budget of the block.")] = 800,
    at: At = None,
    timezone: Tz = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Print the memory block to inject into a prompt."""
    scope = _scope(tenant=tenant, user=user, agent=agent, project=project, session=session)
    with _memory(db) as mem:
        ctx = mem.context(query, budget_tokens=budget, at=at, timezone=timezone, **scope)
    if as_json:
        _emit_json(ctx.model_dump(mode="json"))
    elif ctx.text:
        typer.echo(ctx.text)
    else:
        _err().print("(no memories to inject)")


@app.command()
@_guard
def show(
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="Memory id.")],
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Show one memory (any status) and its history."""
    with _memory(db) as mem:
        rec = mem.get(memory_id)
        revs = mem.history(memory_id)
    if as_json:
        _emit_json({"record": rec.model_dump(mode="json"),
                    "history": [r.model_dump(mode="json") for r in revs]})  # fmt: skip
        return
    table = _table("field", "value", title=f"memory {escape(rec.id)}")
    for name, value in _record_rows(rec):
        table.add_row(name, escape(value))
    out = _out()
    out.print(table)
    out.print(_history_table(revs))


@app.command()
@_guard
def stats(
    user: OptUser = None,
    tenant: Tenant = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Health metrics of one user's memory: volume, conflicts, utilization, queue, warnings."""
    scope = _scope(tenant=tenant, user=user)
    with _memory(db) as mem:
        data = {"scope": scope, **mem.stats(**scope)}
    if as_json:
        _emit_json(data)
        return
    out = _out()
    out.print(f"health of the memory of {escape(_label(scope))}")
    table = _table("metric", "value", title="health")
    for name, value in data.items():
        if name not in STATS_SEPARATE:
            table.add_row(name.replace("_", " "), escape(_metric(name, value)))
    out.print(table)
    days = list(data.get("events_per_day", {}).items())[-STATS_DAYS:]
    for title, counts in (("records by status", data.get("records_by_status", {})),
                          ("records by type", data.get("records_by_type", {})),
                          (f"events per day (last {STATS_DAYS})", dict(days))):  # fmt: skip
        if counts:
            t = _table(title, "n")
            for key, n in counts.items():
                t.add_row(escape(str(key)), str(n))
            out.print(t)
    for w in data.get("warnings", []):
        colour = "red" if w.startswith("critical") else "yellow"
        out.print(f"[{colour}]{escape(w)}[/{colour}]")
    adaptive = data.get("adaptive") or {}
    state = "on" if adaptive.get("enabled") else "off: what it would do"
    for t, c in (adaptive.get("changes") or {}).items():
        out.print(f"adaptive threshold ({state}): {t} {c['from']:.2f} → {c['to']:.2f} ({escape(c['why'])})")


STATS_SEPARATE = frozenset({"scope", "warnings", "records_by_status", "records_by_type", "adaptive",
                            "events_per_day"})  # fmt: skip
STATS_DAYS = 14


def _metric(name: str, value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float) and (name.endswith(("_rate", "_share")) or name == "utilization"):
        return f"{value:.1%}"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_metric(str(k), v)}" for k, v in value.items()) or "-"
    return str(value)


def _label(scope: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in scope.items()) or "the default user"


# --- review queue, audit, lifecycle -----------------------------------------------------------
@app.command()
@_guard
def review(
    user: OptUser = None,
    session: Session = None,
    project: Project = None,
    agent: Agent = None,
    tenant: Tenant = None,
    candidates: Annotated[bool, typer.Option("--candidates", help="Include candidates "
                                             "awaiting confirmation (e.g. procedures).")] = False,
    db: Db = None,
    as_json: AsJson = False,
) -> None:  # fmt: skip
    """List the flagged memories awaiting a human decision, and what they conflict with."""
    scope = _scope(tenant=tenant, user=user, agent=agent, project=project, session=session)
    with _memory(db) as mem:
        items = mem.review(include_candidates=candidates, **scope)
        reasons = {it.memory.id: _last_reason(mem.history(it.memory.id)) for it in items}
    if as_json:
        _emit_json([{**it.model_dump(mode="json"), "reason": reasons[it.memory.id]} for it in items])
        return
    out = _out()
    if not items:
        out.print(f"nothing to review for {escape(_label(scope))}")
        return
    out.print(f"{len(items)} memory(ies) to review for {escape(_label(scope))}")
    for it in items:
        m = it.memory
        out.print(f"\n[bold]{m.id}[/bold] \\[{m.status.value}] {m.type.value}: {escape(m.content)}",
                  soft_wrap=True)  # fmt: skip
        for o in it.conflicts_with:
            out.print(f"  conflicts with {o.id} \\[{o.status.value}]: {escape(o.content)}",
                      soft_wrap=True)  # fmt: skip
        if reasons[m.id]:
            out.print(f"  reason: {escape(reasons[m.id])}", soft_wrap=True)
    out.print()
    out.print("decide with: memquill resolve ID accept|reject|keep_both [--reason TEXT]")


Resolution = Literal["accept", "reject", "keep_both"]


def _last_reason(revs: list[Revision]) -> str:
    return revs[-1].reason if revs else ""


@app.command()
@_guard
def resolve(
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="The flagged or candidate memory.")],
    action: Annotated[Resolution, typer.Argument(help="accept: it wins (what it conflicts with is "
                      "superseded); reject: it is invalidated; keep_both: both stay active.")],
    reason: Annotated[str, typer.Option(help="Why; kept in the history.")] = "",
    db: Db = None,
    as_json: AsJson = False,
) -> None:  # fmt: skip
    """Apply a human decision to a memory in the review queue."""
    with _memory(db) as mem:
        rec = mem.resolve(memory_id, action, reason=reason)
        others = {i: mem.get(i).status.value for i in (rec.supersedes, *rec.conflicts_with) if i}
    if as_json:
        _emit_json({"action": action, "record": rec.model_dump(mode="json"), "others": others})
        return
    out = _out()
    out.print(f"{escape(rec.id)} is now [bold]{rec.status.value}[/bold] ({action})")
    for other, status in others.items():
        out.print(f"  {escape(other)}: {status}")


@app.command()
@_guard
def explain(
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="Memory id.")],
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Why a memory exists: the events it came from, its versions, the reasons for each change."""
    with _memory(db) as mem:
        ex = mem.explain(memory_id)
    if as_json:
        _emit_json(ex.model_dump(mode="json"))
        return
    lines = [ex.as_text()]
    if len(ex.chain) > 1:
        lines.append("  versions (oldest first):")
        lines += [f"    {r.id} [{r.status.value}] {r.content}" for r in ex.chain]
    lines += [f"  conflicts with {r.id} [{r.status.value}] {r.content}" for r in ex.conflicts]
    typer.echo("\n".join(lines))


@app.command()
@_guard
def maintain(
    user: User,
    tenant: Tenant = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Run the lifecycle pass for one user now: TTL expiry, decay to archive, consolidation."""
    scope = _scope(tenant=tenant, user=user)
    with _memory(db) as mem:
        report = mem.maintain(**scope)
    data = {"scope": scope, "expired": report.expired, "archived": report.archived,
            "procedures": [p.model_dump(mode="json") for p in report.procedures]}  # fmt: skip
    if as_json:
        _emit_json(data)
        return
    out = _out()
    out.print(f"lifecycle pass for {escape(_label(scope))}: {len(report.expired)} expired, "
              f"{len(report.archived)} archived, {len(report.procedures)} new procedure(s)")  # fmt: skip
    for name, ids in (("expired", report.expired), ("archived", report.archived)):
        if ids:
            out.print(f"{name}: {escape(', '.join(ids))}", soft_wrap=True)
    for p in report.procedures:
        out.print(f"procedure (awaiting confirmation): {escape(p.content)}", soft_wrap=True)
    if report.procedures:
        out.print("confirm with: memquill review --candidates, then memquill resolve ID accept")


# --- background worker ------------------------------------------------------------------------
@app.command()
@_guard
def worker(
    burst: Annotated[bool, typer.Option("--burst", help="Drain the jobs due now, then exit.")] = False,
    poll: Annotated[float, typer.Option(min=0.01, help="Seconds to sleep when no job is due.")] = 1.0,
    lease: Annotated[float | None, typer.Option(min=1.0, help="Seconds a claimed job stays "
                     "leased (default: MEMQUILL_JOB_LEASE_S, else 60).", show_default=False)] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log one line per batch.")] = False,
    db: Db = None,
    as_json: AsJson = False,
) -> None:  # fmt: skip
    """Run background jobs on a database until SIGTERM/SIGINT (or, with --burst, until idle)."""
    _log_to_stderr(verbose)
    with _memory(db) as mem:
        w = mem.warm_up().worker(lease_s=lease)
        log.info("worker %s on %s (%s)", w.name, db_path(db), "burst" if burst else "until stopped")
        report = w.drain() if burst else _run_until_signalled(w, poll)
    summary = {"done": report.done, "failed": report.failed, "dead": report.dead,
               "kinds": report.kinds}  # fmt: skip
    if as_json:
        _emit_json(summary)
        return
    kinds = ", ".join(f"{k}={n}" for k, n in sorted(report.kinds.items()))
    typer.echo(f"{'drained' if burst else 'stopped'}: {report.done} done, {report.failed} failed "
               f"(will retry), {report.dead} dead" + (f" [{kinds}]" if kinds else ""))  # fmt: skip


log = logging.getLogger("memquill.cli")


def _run_until_signalled(w: Worker, poll: float) -> DrainReport:
    """``run_forever`` on a thread; SIGTERM/SIGINT set the stop event, the batch in hand finishes.

    The main thread only joins, so the signal handler never runs while it holds the event's
    lock (setting an Event from a handler that interrupted that Event's ``wait`` can deadlock).
    """
    stop = threading.Event()
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(w.run_forever(stop, poll_s=poll))
        except BaseException as exc:  # re-raised on the main thread, where _guard renders it
            outcome.append(exc)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    thread = threading.Thread(target=run, name="memquill-worker")
    signals = (signal.SIGTERM, signal.SIGINT)
    main = threading.current_thread() is threading.main_thread()
    previous = {sig: signal.signal(sig, on_signal) for sig in signals} if main else {}
    try:
        thread.start()
        log.info("worker running; SIGTERM/SIGINT stop it after the batch in hand")
        while thread.is_alive():
            thread.join(0.2)
    finally:
        stop.set()
        thread.join()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    log.info("worker stopped")
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _log_to_stderr(verbose: bool) -> None:
    """Warnings (failed and dead jobs) always; with ``-v`` one INFO line per batch too."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")  # fmt: skip
    if verbose:
        logging.getLogger("memquill").setLevel(logging.INFO)


# --- export -----------------------------------------------------------------------------------
@app.command("export")
@_guard
def export_views(
    directory: Annotated[Path, typer.Argument(metavar="DIR", file_okay=False,
                                              help="Where to write the Markdown files.")],
    user: User,
    project: Project = None,
    tenant: Tenant = None,
    timezone: Annotated[str | None, typer.Option("--timezone", help="Date everything in this "
                        "IANA timezone (default: each memory's own).")] = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:  # fmt: skip
    """Write human-readable views: decisions.md, sessions/<date>.md, procedures/<slug>/SKILL.md."""
    scope = _scope(tenant=tenant, user=user)
    with _memory(db) as mem:
        recs = {r.id: r for r in mem.records(statuses=None, **scope)}
        if project is not None:
            recs |= {r.id: r for r in mem.records(statuses=None, project=project, **scope)}
        default_tz = mem.settings.default_timezone
    try:
        files = views.render(recs.values(), timezone, default_tz)
        report = views.write(directory, files)
    except (OSError, ValueError) as exc:
        _fail(str(exc))
    counts = {"decisions": len(views.active_decisions(recs.values())),
              "sessions": report.count(f"{views.SESSIONS}/"),
              "procedures": report.count(f"{views.PROCEDURES}/")}  # fmt: skip
    if as_json:
        _emit_json({"dir": str(directory), "files": report.written, "removed": report.removed,
                    **counts})  # fmt: skip
        return
    out = _out()
    out.print(f"wrote {len(report.written)} file(s) to {escape(str(directory))} "
              f"({counts['decisions']} decision(s), {counts['sessions']} day(s), "
              f"{counts['procedures']} procedure(s); "
              f"{report.removed} old generated file(s) replaced)", soft_wrap=True)  # fmt: skip
    for rel in report.written:
        out.print(f"  {escape(rel)}")


@app.command()
@_guard
def demo(db: DemoDb = None) -> None:
    """Play a bilingual conversation through the real engine and show what it remembered."""
    from memquill.interfaces.demo import run_demo

    if db is not None:
        if Path(db).exists():
            _fail(f"demo needs a fresh database; {db} already exists")
        run_demo(db, _out())
        return
    with tempfile.TemporaryDirectory(prefix="memquill-demo-") as tmp:
        run_demo(str(Path(tmp) / "demo.db"), _out())


from memquill.interfaces import cli_policy  # noqa: E402  (policy, replay, shadow)

cli_policy.register(app)

from memquill.interfaces import cli_server  # noqa: E402  (serve, keys, mcp)

cli_server.register(app)


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except MemquillError as exc:  # raised outside a command body (e.g. while parsing)
        _print_error(str(exc))
        sys.exit(2)


if __name__ == "__main__":
    main()
