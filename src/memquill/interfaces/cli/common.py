"""The CLI's app object, shared options and plumbing (errors, output, opening memory)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from memquill import Hit, Memory, MemoryRecord, MemoryType, Revision
from memquill.errors import (
    MemquillError,
)
from memquill.ingest import EVENT_KEYS
from memquill.settings import Settings, default_db_path

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
    typer.Option(
        "--db",
        help="Database file or postgresql:// URL (default: MEMQUILL_DB, else the per-user data file).",
        show_default=False,
    ),
]
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
    typer.Option(
        "--db",
        help="A fresh database file to keep (default: a temporary file, deleted after).",
        show_default=False,
    ),
]

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
        table.add_row(
            str(r.revision),
            r.op.value,
            escape(r.actor),
            escape(r.reason),
            r.at.isoformat(),
            escape(", ".join(r.event_ids)),
        )
    return table


def _label(scope: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in scope.items()) or "the default user"
