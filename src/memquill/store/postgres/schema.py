"""PostgreSQL schema, as numbered migrations (one runner for every backend: ``pending``).

Everything lives in one PostgreSQL schema (``search_path`` is set per connection), so one
database can hold several memquill stores. Timestamps are ``timestamptz``; bodies are
``json`` rather than ``jsonb`` because jsonb rewrites numbers (1e308 comes back as a
309-digit integer) and records must round-trip exactly. Vectors use pgvector with an HNSW
index for cosine distance; the lexical leg is a stored ``tsvector`` with a GIN index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql
from psycopg.types import TypeInfo

from memquill.errors import ConfigError, MigrationError
from memquill.keymap import migration_statements
from memquill.store.migrations import JOB_REF, MEMORIES_BY_TYPE, Migration, pending
from memquill.store.postgres.sql import lock_key

SCHEMA_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")
HNSW_INDEX = (
    "CREATE INDEX IF NOT EXISTS memory_vectors_hnsw "
    "ON memory_vectors USING hnsw (embedding vector_cosine_ops)"
)
SCHEMA_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, "
    "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
)


def check_schema_name(name: str) -> str:
    if not SCHEMA_NAME.match(name):
        raise ConfigError(f"PostgreSQL schema name {name!r} must match {SCHEMA_NAME.pattern}")
    return name


def migrations(dim: int) -> tuple[Migration, ...]:
    """The migrations for vectors of ``dim`` dimensions (recorded in ``meta``)."""
    if not 1 <= dim <= 2000:
        raise ConfigError(f"vector dimension must be 1..2000 for an HNSW index, got {dim}")
    return (
        Migration(
            1,
            "events, memories, revisions, jobs, access log, core blocks",
            (
                "CREATE TABLE meta (key text PRIMARY KEY, value jsonb)",
                f"INSERT INTO meta (key, value) VALUES ('seq', '0'), ('dim', '{int(dim)}')",
                "CREATE SEQUENCE apply_seq",
                """CREATE TABLE events (
                    seq bigserial PRIMARY KEY,
                    id text NOT NULL, tenant text NOT NULL, user_id text NOT NULL, session text,
                    occurred_at timestamptz NOT NULL, content_hash text NOT NULL,
                    body json NOT NULL, UNIQUE (tenant, user_id, id))""",
                "CREATE INDEX events_session ON events (tenant, user_id, session, seq)",
                """CREATE TABLE memories (
                    rowid bigserial PRIMARY KEY,
                    id text NOT NULL UNIQUE, revision integer NOT NULL,
                    tenant text NOT NULL, user_id text NOT NULL,
                    agent text, project text, session text,
                    type text NOT NULL, subject text NOT NULL, key text NOT NULL,
                    status text NOT NULL, valid_from timestamptz, valid_to timestamptz,
                    expires_at timestamptz, confidence double precision NOT NULL,
                    source text NOT NULL, read_only boolean NOT NULL,
                    created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
                    seq bigint NOT NULL, body json NOT NULL, tsv tsvector)
                    WITH (fillfactor = 80)""",
                # Vectors in their own table: updating a record's status (not HOT: status is
                # indexed) then never re-inserts into the HNSW graph, and record rows stay
                # narrow for the lexical leg. MAIN keeps vectors in the row, off TOAST.
                f"""CREATE TABLE memory_vectors (
                    rowid bigint PRIMARY KEY REFERENCES memories (rowid) ON DELETE CASCADE,
                    embedding vector({int(dim)}) NOT NULL)""",
                "ALTER TABLE memory_vectors ALTER COLUMN embedding SET STORAGE MAIN",
                "CREATE INDEX memories_slot ON memories (tenant, user_id, subject, key)",
                "CREATE INDEX memories_status ON memories (tenant, user_id, status, updated_at)",
                "CREATE INDEX memories_recent ON memories (tenant, user_id, updated_at DESC, rowid DESC)",
                "CREATE INDEX memories_tsv ON memories USING gin (tsv)",
                HNSW_INDEX,
                """CREATE TABLE revisions (
                    memory_id text NOT NULL, revision integer NOT NULL,
                    tenant text NOT NULL, user_id text NOT NULL,
                    op text NOT NULL, actor text NOT NULL, reason text NOT NULL,
                    event_ids json NOT NULL, before json, after json, at timestamptz NOT NULL,
                    PRIMARY KEY (memory_id, revision))""",
                "CREATE INDEX revisions_user ON revisions (tenant, user_id)",
                """CREATE TABLE jobs (
                    id bigserial PRIMARY KEY, key text NOT NULL UNIQUE, kind text NOT NULL,
                    tenant text NOT NULL, user_id text NOT NULL,
                    agent text, project text, session text,
                    payload json NOT NULL, status text NOT NULL, attempts integer NOT NULL,
                    max_attempts integer NOT NULL, run_after timestamptz NOT NULL,
                    lease_until timestamptz, worker text, last_error text,
                    created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)""",
                "CREATE INDEX jobs_queued ON jobs (run_after, id) WHERE status = 'queued'",
                "CREATE INDEX jobs_leased ON jobs (lease_until) WHERE status = 'running'",
                "CREATE INDEX jobs_user ON jobs (tenant, user_id, status)",
                """CREATE TABLE access_log (
                    id bigserial PRIMARY KEY, memory_id text NOT NULL,
                    tenant text NOT NULL, user_id text NOT NULL,
                    agent text, project text, session text, query text NOT NULL,
                    rank integer NOT NULL, score double precision NOT NULL,
                    at timestamptz NOT NULL)""",
                "CREATE INDEX access_memory ON access_log (memory_id)",
                "CREATE INDEX access_user ON access_log (tenant, user_id)",
                """CREATE TABLE core_blocks (
                    tenant text NOT NULL, user_id text NOT NULL, agent text NOT NULL DEFAULT '',
                    name text NOT NULL, content text NOT NULL, char_limit integer NOT NULL,
                    read_only boolean NOT NULL, updated_at timestamptz NOT NULL,
                    PRIMARY KEY (tenant, user_id, agent, name))""",
            ),
        ),
        Migration(
            10,
            "erased events: tombstones that keep extraction, episodes and pending turns off them",
            (
                """CREATE TABLE erased_events (
                    tenant text NOT NULL, user_id text NOT NULL, id text NOT NULL,
                    at timestamptz NOT NULL, PRIMARY KEY (tenant, user_id, id))""",
            ),
        ),
        Migration(11, "keys name attributes, not values", migration_statements("postgres")),
        JOB_REF,
        Migration(
            13,
            "api keys of the HTTP service",
            (
                """CREATE TABLE api_keys (
                    id text PRIMARY KEY, tenant text NOT NULL, name text NOT NULL,
                    secret_hash text NOT NULL, read_only boolean NOT NULL, trust text,
                    created_at timestamptz NOT NULL, revoked_at timestamptz)""",
                "CREATE INDEX api_keys_tenant ON api_keys (tenant, created_at)",
            ),
        ),
        Migration(
            15,
            "policy log, query log, scratch-store register",
            (
                """CREATE TABLE policy_log (
                    seq bigserial PRIMARY KEY, policy_id text NOT NULL, body text NOT NULL,
                    actor text NOT NULL, reason text NOT NULL, at timestamptz NOT NULL)""",
                """CREATE TABLE query_log (
                    id bigserial PRIMARY KEY, tenant text NOT NULL, user_id text NOT NULL,
                    agent text, project text, session text, query text NOT NULL, k integer NOT NULL,
                    types text, hits text NOT NULL, at timestamptz NOT NULL)""",
                "CREATE INDEX query_log_user ON query_log (tenant, user_id, at)",
                "CREATE INDEX query_log_at ON query_log (at)",
                """CREATE TABLE scratch_stores (
                    target text NOT NULL, tenant text NOT NULL, user_id text NOT NULL,
                    at timestamptz NOT NULL, PRIMARY KEY (target, tenant, user_id))""",
            ),
        ),
        MEMORIES_BY_TYPE,
    )


@dataclass(frozen=True)
class Ready:
    """What every pooled connection needs to know about a migrated schema."""

    search_path: str
    vector: TypeInfo
    iterative_scan: bool  # pgvector 0.8+


def bootstrap(conn: psycopg.Connection[dict[str, Any]], schema: str, dim: int) -> Ready:
    """Check pgvector, create the schema and bring it to the latest version (autocommit conn)."""
    ext = _vector_extension(conn)
    path = ", ".join(dict.fromkeys(sql.Identifier(s).as_string(conn) for s in (schema, ext["schema"])))
    with conn.transaction():
        # Two processes opening one new schema at once: the second waits, then finds it done.
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(schema, "migrate"),))
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
        conn.execute("SELECT set_config('search_path', %s, true)", (path,))
        conn.execute(SCHEMA_VERSION_TABLE)
        applied = {r["version"] for r in conn.execute("SELECT version FROM schema_version").fetchall()}
        for m in pending(applied, migrations(dim)):
            for stmt in m.statements:
                conn.execute(stmt)  # static DDL
            conn.execute("INSERT INTO schema_version (version, name) VALUES (%s, %s)", (m.version, m.name))
        stored = _one(conn, "SELECT value FROM meta WHERE key = 'dim'")["value"]
        if stored != dim:
            raise MigrationError(
                f"schema {schema!r} holds {stored}-d vectors, not {dim}-d; "
                "use another schema or the matching embedder"
            )
    info = TypeInfo.fetch(conn, f"{ext['schema']}.vector")
    if info is None:  # pragma: no cover - the extension was just found
        raise MigrationError("the pgvector type 'vector' is missing")
    major, minor = (int(x) for x in ext["extversion"].split(".")[:2])
    return Ready(path, info, (major, minor) >= (0, 8))


def _one(conn: psycopg.Connection[dict[str, Any]], query: str) -> dict[str, Any]:
    row = conn.execute(query).fetchone()
    if row is None:  # pragma: no cover - callers select exactly one row
        raise MigrationError(f"expected a row from {query!r}")
    return dict(row)


def _vector_extension(conn: psycopg.Connection[dict[str, Any]]) -> dict[str, Any]:
    find = (
        "SELECT n.nspname AS schema, e.extversion FROM pg_extension e JOIN pg_namespace n "
        "ON n.oid = e.extnamespace WHERE e.extname = 'vector'"
    )
    if conn.execute(find).fetchone() is None:
        try:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.Error as exc:
            raise MigrationError(
                "pgvector is not installed in this database and this role cannot install it; "
                "as a superuser run: CREATE EXTENSION vector;"
            ) from exc
    return _one(conn, find)
