"""``memquill serve``, ``memquill keys create|list|revoke`` and ``memquill mcp``.

Kept apart from the core CLI so the service doors can grow without touching it; ``register``
adds these commands to the main ``app``. Each imports its optional extra only when run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Literal

import typer

from memquill import Memory, SystemClock
from memquill.apikeys import KeyRing
from memquill.errors import ConfigError, MemquillError
from memquill.interfaces.cli.common import AsJson, Db
from memquill.model.apikey import ApiKey
from memquill.settings import Settings, default_db_path

keys = typer.Typer(help="API keys of the HTTP service (only a salted hash is stored).", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    """Add ``serve``, ``keys`` and ``mcp`` to the main command line."""
    app.command()(serve)
    app.command("mcp")(mcp)
    app.add_typer(keys, name="keys")


def _db(db: str | None) -> str:
    return db or Settings.from_env().db or default_db_path()


@contextmanager
def _guarded() -> Iterator[None]:
    """memquill errors become one ``error: …`` line on stderr and exit code 2."""
    try:
        yield
    except MemquillError as exc:
        typer.echo(f"error: {' '.join(str(exc).split())}", err=True)
        raise typer.Exit(2) from None


@contextmanager
def _keyring(db: str | None) -> Iterator[KeyRing]:
    """The key ring of a database (no embedder needed), with memquill errors rendered."""
    with _guarded(), Memory(_db(db), embedder="none") as mem:
        yield KeyRing(mem.store)


def _key_json(key: ApiKey) -> dict[str, object]:
    return key.model_dump(mode="json", exclude={"secret_hash"})


# --- serve ---------------------------------------------------------------------------------
def serve(
    db: Db = None,
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port.")] = 8080,
    no_worker: Annotated[
        bool,
        typer.Option(
            "--no-worker",
            help="Do not run the background worker in this process (run `memquill worker` instead).",
        ),
    ] = False,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the HTTP API (needs the `server` extra); requests need a key from `keys create`."""
    with _guarded():
        try:
            import uvicorn

            from memquill.interfaces.http import create_app
        except ImportError as exc:
            raise ConfigError("the HTTP server needs: pip install 'memquill[server]'") from exc
        with Memory(_db(db)) as mem:
            mem.warm_up()  # load the segmenter and time parser before the first request
            app = create_app(mem, worker=not no_worker)
            uvicorn.run(app, host=host, port=port, log_level=log_level)


# --- keys ----------------------------------------------------------------------------------
@keys.command("create")
def keys_create(
    tenant: Annotated[str, typer.Option(help="Tenant the key acts for (all its requests).")],
    name: Annotated[str, typer.Option(help="A label, e.g. the client's name.")] = "",
    read_only: Annotated[
        bool,
        typer.Option("--read-only", help="Only search, context, get, history, explain, review and stats."),
    ] = False,
    trust: Annotated[
        list[str] | None,
        typer.Option(
            "--trust", help="Trust classes the key may write (repeatable): user, agent, tool, external."
        ),
    ] = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Create a key; the key itself is printed once, on the last line of stdout."""
    with _keyring(db) as ring:
        key, token = ring.create(tenant, SystemClock().now(), name=name, read_only=read_only, trust=trust)
    if as_json:
        typer.echo(json.dumps({**_key_json(key), "key": token}, ensure_ascii=False))
        return
    limits = ", ".join(
        filter(
            None, ["read-only" if key.read_only else "", f"trust {','.join(key.trust)}" if key.trust else ""]
        )
    )
    typer.echo(f"created key {key.id} for tenant {key.tenant}" + (f" ({limits})" if limits else ""))
    typer.echo("store the key below now; it cannot be shown again", err=True)
    typer.echo(token)


@keys.command("list")
def keys_list(
    tenant: Annotated[str | None, typer.Option(help="Only this tenant's keys.")] = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """List keys (ids and limits; secrets are never shown)."""
    with _keyring(db) as ring:
        found = ring.list(tenant)
    if as_json:
        typer.echo(json.dumps([_key_json(k) for k in found], ensure_ascii=False, indent=2))
        return
    for k in found:
        state = "active" if k.active else f"revoked {k.revoked_at:%Y-%m-%d %H:%M}"
        limits = ("read-only " if k.read_only else "") + (f"trust={','.join(k.trust)}" if k.trust else "")
        typer.echo(f"{k.id}  {k.tenant}  {state}  {k.name}  {limits}".rstrip())


@keys.command("revoke")
def keys_revoke(
    key_id: Annotated[str, typer.Argument(help="The key id (from `keys list`).")],
    db: Db = None,
) -> None:
    """Revoke a key: requests with it get 401 from then on."""
    with _keyring(db) as ring:
        key = ring.revoke(key_id, SystemClock().now())
    typer.echo(f"revoked key {key.id} of tenant {key.tenant}")


# --- mcp -----------------------------------------------------------------------------------
def mcp(
    user: Annotated[str, typer.Option("--user", "-u", help="The user every tool call acts for.")],
    db: Db = None,
    tenant: Annotated[str | None, typer.Option(help="Tenant.")] = None,
    project: Annotated[str | None, typer.Option(help="Project.")] = None,
    agent: Annotated[str | None, typer.Option(help="The agent writing (default: mcp).")] = None,
    transport: Annotated[
        Literal["stdio", "http"], typer.Option(help="stdio for desktop clients; http for streamable HTTP.")
    ] = "stdio",
    host: Annotated[str, typer.Option(help="With --transport http.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="With --transport http.")] = 8765,
) -> None:
    """Run the MCP server (needs the `mcp` extra) for one configured user."""
    with _guarded():
        try:
            from memquill.interfaces.mcp_server import Identity, build_server
        except ImportError as exc:
            raise ConfigError("the MCP server needs: pip install 'memquill[mcp]'") from exc
        ident = Identity(user=user, tenant=tenant, project=project, agent=agent or "mcp")
        with Memory(_db(db)) as mem:
            mem.warm_up()
            server = build_server(mem, ident)
            if transport == "stdio":
                server.run("stdio")
            else:
                server.run("streamable-http", host=host, port=port)
