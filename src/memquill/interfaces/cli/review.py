"""The review queue, audit and lifecycle: ``review``, ``resolve``, ``explain``, ``maintain``."""

from __future__ import annotations

from typing import Annotated, Literal

import typer
from rich.markup import escape

from memquill import Revision
from memquill.interfaces.cli.common import (
    Agent,
    AsJson,
    Db,
    OptUser,
    Project,
    Session,
    Tenant,
    User,
    _emit_json,
    _guard,
    _label,
    _memory,
    _out,
    _scope,
    app,
)


@app.command()
@_guard
def review(
    user: OptUser = None,
    session: Session = None,
    project: Project = None,
    agent: Agent = None,
    tenant: Tenant = None,
    candidates: Annotated[
        bool, typer.Option("--candidates", help="Include candidates awaiting confirmation (e.g. procedures).")
    ] = False,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
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
        out.print(
            f"\n[bold]{m.id}[/bold] \\[{m.status.value}] {m.type.value}: {escape(m.content)}", soft_wrap=True
        )
        for o in it.conflicts_with:
            out.print(f"  conflicts with {o.id} \\[{o.status.value}]: {escape(o.content)}", soft_wrap=True)
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
    action: Annotated[
        Resolution,
        typer.Argument(
            help="accept: it wins (what it conflicts with is "
            "superseded); reject: it is invalidated; keep_both: both stay active."
        ),
    ],
    reason: Annotated[str, typer.Option(help="Why; kept in the history.")] = "",
    db: Db = None,
    as_json: AsJson = False,
) -> None:
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
    data = {
        "scope": scope,
        "expired": report.expired,
        "archived": report.archived,
        "procedures": [p.model_dump(mode="json") for p in report.procedures],
    }
    if as_json:
        _emit_json(data)
        return
    out = _out()
    out.print(
        f"lifecycle pass for {escape(_label(scope))}: {len(report.expired)} expired, "
        f"{len(report.archived)} archived, {len(report.procedures)} new procedure(s)"
    )
    for name, ids in (("expired", report.expired), ("archived", report.archived)):
        if ids:
            out.print(f"{name}: {escape(', '.join(ids))}", soft_wrap=True)
    for p in report.procedures:
        out.print(f"procedure (awaiting confirmation): {escape(p.content)}", soft_wrap=True)
    if report.procedures:
        out.print("confirm with: memquill review --candidates, then memquill resolve ID accept")
