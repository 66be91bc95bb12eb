"""``memquill policy export|history``, ``memquill replay`` and ``memquill shadow``.

Changing the write policy safely: export the live policy to a file, edit it, replay it over
the recorded history into a scratch store or shadow it beside the live memory, read the
report, and only then switch (``shadow --apply``, an audited change). ``register`` adds
these commands to the main ``app``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from memquill import Memory
from memquill.errors import ConfigError, MemquillError
from memquill.interfaces.cli.common import AsJson, Db
from memquill.settings import Settings, default_db_path
from memquill.write.policy import WritePolicy

PolicyFile = Annotated[
    Path, typer.Option("--policy", help="A policy JSON file (from `memquill policy export`).")
]
User = Annotated[str | None, typer.Option("--user", "-u", help="Only this user's history.")]
Tenant = Annotated[str | None, typer.Option(help="Only this tenant's history.")]
Since = Annotated[str | None, typer.Option("--since", help="Only events at or after this ISO-8601 instant.")]
SHOWN = 20  # records listed per side in the terminal report (--json lists all)

policy = typer.Typer(help="The live write policy: export it, see its history.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(policy, name="policy")
    app.command()(replay)
    app.command()(shadow)


@contextmanager
def _memory(db: str | None) -> Iterator[Memory]:
    """The live store; memquill errors become one ``error: …`` line and exit code 2."""
    try:
        with Memory(db or Settings.from_env().db or default_db_path()) as mem:
            yield mem
    except MemquillError as exc:
        Console(stderr=True, highlight=False).print(f"[red]error: {escape(' '.join(str(exc).split()))}[/red]")
        raise typer.Exit(2) from None


def _read_policy(path: Path) -> WritePolicy:
    try:
        return WritePolicy.from_json(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read policy file {path}: {exc.strerror}") from exc


@policy.command("export")
def export(db: Db = None) -> None:
    """Print the live write policy as JSON (the file `--policy` reads)."""
    with _memory(db) as mem:
        typer.echo(mem.policy.to_json())


@policy.command("history")
def history(db: Db = None, as_json: AsJson = False) -> None:
    """Every switch of the live policy: when, by whom, why."""
    with _memory(db) as mem:
        revs = mem.policy_history()
    rows = [
        {"at": r.at.isoformat(), "policy": r.policy_id, "actor": r.actor, "reason": r.reason} for r in revs
    ]
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    table = Table("at", "policy", "actor", "reason", title="policy history")
    for r in rows:
        table.add_row(*(escape(str(v)) for v in r.values()))
    Console(highlight=False).print(table if rows else "no policy switch recorded: settings decide")


def replay(
    policy_file: PolicyFile,
    into: Annotated[str, typer.Option("--into", help="Scratch store to write (never the live one).")],
    db: Db = None,
    user: User = None,
    tenant: Tenant = None,
    since: Since = None,
    as_json: AsJson = False,
) -> None:
    """Re-run the write path over the event log into a scratch store, under a policy."""
    with _memory(db) as mem:
        report = mem.replay(_read_policy(policy_file), into=into, tenant=tenant, user=user, since=since)
    data = {
        "into": into,
        "events": report.events,
        "operations": report.operations,
        "skipped": report.skipped,
        "owners": [f"{t}/{u}" for t, u in report.owners],
    }
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        typer.echo(f"replayed {report.events} events and {report.operations} operations into {into}")


def shadow(
    policy_file: PolicyFile,
    db: Db = None,
    user: User = None,
    tenant: Tenant = None,
    since: Since = None,
    as_json: AsJson = False,
    apply: Annotated[bool, typer.Option("--apply", help="Switch the live policy after the report.")] = False,
    reason: Annotated[str, typer.Option(help="Why (recorded with --apply).")] = "",
) -> None:
    """Replay a policy beside the live one and report the difference; changes nothing live
    unless --apply (an audited switch; re-extraction then runs in the background)."""
    if apply and not reason.strip():
        Console(stderr=True).print("[red]error: --apply needs --reason[/red]")
        raise typer.Exit(2)
    with _memory(db) as mem:
        candidate = _read_policy(policy_file)
        report = mem.shadow(candidate, tenant=tenant, user=user, since=since)
        queued = mem.set_policy(candidate, reason=reason, actor="cli") if apply else None
    data = report.to_dict()
    if as_json:
        typer.echo(
            json.dumps(
                {**data, "applied": apply, "reextract_jobs": queued},
                ensure_ascii=False,
                indent=2,
                default=str,
            )
        )
        return
    _print_report(data)
    if apply:
        typer.echo(f"switched the live policy to {candidate.id}; {queued} re-extraction job(s) queued")


def _print_report(data: dict[str, Any]) -> None:
    out = Console(highlight=False)
    out.print(
        f"shadow run: live {data['live_policy']} vs candidate {data['candidate_policy']} "
        f"({data['events_replayed']} events, {data['queries']} recorded queries)"
    )
    diff = Table("parameter", "live", "candidate", title="policy differences")
    for name, both in data["policy_diff"].items():
        diff.add_row(escape(name), escape(str(both["live"])), escape(str(both["candidate"])))
    out.print(diff)
    metrics = Table("metric", "live", "candidate", title="metrics")
    live, cand = data["metrics"]["live"], data["metrics"]["candidate"]
    for name in live:
        metrics.add_row(name.replace("_", " "), str(live[name]), str(cand[name]))
    metrics.add_row("overlap@k on recorded queries", "", str(data["overlap_at_k"]))
    out.print(metrics)
    for side in ("appear", "disappear"):
        items = data[side]
        table = Table("type", "scope", "content", "evidence", title=f"would {side}: {len(items)}")
        for r in items[:SHOWN]:
            said = " | ".join(r["evidence_text"]) or ", ".join(r["evidence"])
            table.add_row(r["type"], escape(r["scope"]), escape(r["content"][:100]), escape(said[:100]))
        out.print(table)
