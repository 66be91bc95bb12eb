"""``export`` (Markdown views of memory) and ``demo``."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from memquill.interfaces import export as views
from memquill.interfaces.cli.common import (
    AsJson,
    Db,
    DemoDb,
    Project,
    Tenant,
    User,
    _emit_json,
    _fail,
    _guard,
    _memory,
    _out,
    _scope,
    app,
)


@app.command("export")
@_guard
def export_views(
    directory: Annotated[
        Path, typer.Argument(metavar="DIR", file_okay=False, help="Where to write the Markdown files.")
    ],
    user: User,
    project: Project = None,
    tenant: Tenant = None,
    timezone: Annotated[
        str | None,
        typer.Option(
            "--timezone", help="Date everything in this IANA timezone (default: each memory's own)."
        ),
    ] = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
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
    counts = {
        "decisions": len(views.active_decisions(recs.values())),
        "sessions": report.count(f"{views.SESSIONS}/"),
        "procedures": report.count(f"{views.PROCEDURES}/"),
    }
    if as_json:
        _emit_json({"dir": str(directory), "files": report.written, "removed": report.removed, **counts})
        return
    out = _out()
    out.print(
        f"wrote {len(report.written)} file(s) to {escape(str(directory))} "
        f"({counts['decisions']} decision(s), {counts['sessions']} day(s), "
        f"{counts['procedures']} procedure(s); "
        f"{report.removed} old generated file(s) replaced)",
        soft_wrap=True,
    )
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
