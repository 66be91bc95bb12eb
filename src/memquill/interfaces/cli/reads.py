"""Commands that read: ``search``, ``context``, ``show``, ``stats``."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape

from memquill.interfaces.cli.common import (
    Agent,
    AsJson,
    At,
    Db,
    History,
    OptUser,
    Project,
    Session,
    Tenant,
    Types,
    Tz,
    User,
    _emit_json,
    _err,
    _guard,
    _history_table,
    _label,
    _legs,
    _memory,
    _out,
    _record_rows,
    _scope,
    _table,
    app,
)


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
        hits = mem.search(query, k=k, at=at, timezone=timezone, types=type, include_history=history, **scope)
    if as_json:
        _emit_json([h.model_dump(mode="json") for h in hits])
        return
    table = _table(
        "id",
        "type",
        "status",
        "content",
        "score",
        "why",
        title=f"{len(hits)} hit(s)",
        ids=[h.memory.id for h in hits],
    )
    for h in hits:
        m = h.memory
        table.add_row(
            m.id, m.type.value, m.status.value, escape(m.content), f"{h.score:.3f}", escape(_legs(h))
        )
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
        _emit_json(
            {"record": rec.model_dump(mode="json"), "history": [r.model_dump(mode="json") for r in revs]}
        )
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
    for title, counts in (
        ("records by status", data.get("records_by_status", {})),
        ("records by type", data.get("records_by_type", {})),
        (f"events per day (last {STATS_DAYS})", dict(days)),
    ):
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


STATS_SEPARATE = frozenset(
    {"scope", "warnings", "records_by_status", "records_by_type", "adaptive", "events_per_day"}
)
STATS_DAYS = 14


def _metric(name: str, value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float) and (name.endswith(("_rate", "_share")) or name == "utilization"):
        return f"{value:.1%}"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_metric(str(k), v)}" for k, v in value.items()) or "-"
    return str(value)
