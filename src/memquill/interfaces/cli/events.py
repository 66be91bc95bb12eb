"""Commands that write: ``add`` one event, ``ingest`` a JSONL file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from memquill import AddResult, Memory
from memquill.errors import (
    DuplicateEventError,
    IngestLineError,
    NaiveDatetimeError,
    ValidationError,
)
from memquill.interfaces.cli.common import (
    INGEST_KEYS,
    SCOPE_KEYS,
    Agent,
    AsJson,
    At,
    Db,
    LineUser,
    NoFlush,
    Project,
    Session,
    Tenant,
    Tz,
    User,
    _emit_json,
    _err,
    _guard,
    _memory,
    _out,
    _scope,
    _table,
    app,
)


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
            table = _table("id", "type", "status", "content", title="written on the hot path", ids=r.written)
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
    with (
        _memory(db) as mem,
        Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=err,
            disable=not show_bar,
            transient=True,
        ) as bar,
    ):
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
        raise IngestLineError(n, f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(INGEST_KEYS)}")
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
        raise IngestLineError(
            n, f'"at" {fields["at"]!r} has no timezone: add an offset (e.g. +08:00) or a "timezone" key'
        ) from exc
    except (ValidationError, DuplicateEventError) as exc:
        raise IngestLineError(n, str(exc)) from exc


def _records_from(mem: Memory, added: dict[tuple[tuple[str, str], ...], set[str]]) -> int:
    """Records (any status) whose evidence includes an event added by this run."""
    ids: set[str] = set()
    for scope, events in added.items():
        ids.update(r.id for r in mem.records(statuses=None, **dict(scope)) if events.intersection(r.evidence))
    return len(ids)
