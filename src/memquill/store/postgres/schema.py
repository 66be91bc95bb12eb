"""PostgreSQL schema, as numbered migrations (one runner for every backend: ``pending``).

Everything lives in one PostgreSQL schema (``search_path`` is set per connection), so one
database can hold several memquill stores. Timestamps are ``timestamptz``; bodies are
``json`` rather than ``jsonb`` because jsonb rewrites numbers (1e308 comes back as a
309-digit integer) and records must round-trip exactly. Vectors use pgvector with an HNSW
index for cosine distance; the lexical leg is a stored ``tsvector`` with a GIN index.
"""

from __future__ import annotations

import re

from memquill.errors import ConfigError
from memquill.store.migrations import Migration

SCHEMA_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")
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
                f"""CREATE TABLE memories (
                    rowid bigserial PRIMARY KEY,
                    id text NOT NULL UNIQUE, revision integer NOT NULL,
                    tenant text NOT NULL, user_id text NOT NULL,
                    agent text, project text, session text,
                    type text NOT NULL, subject text NOT NULL, key text NOT NULL,
                    status text NOT NULL, valid_from timestamptz, valid_to timestamptz,
                    expires_at timestamptz, confidence double precision NOT NULL,
                    source text NOT NULL, read_only boolean NOT NULL,
                    created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
                    seq bigint NOT NULL, body json NOT NULL, tsv tsvector,
                    embedding vector({int(dim)}))""",
                "CREATE INDEX memories_slot ON memories (tenant, user_id, subject, key)",
                "CREATE INDEX memories_status ON memories (tenant, user_id, status, updated_at)",
                "CREATE INDEX memories_recent ON memories (tenant, user_id, updated_at DESC, rowid DESC)",
                "CREATE INDEX memories_tsv ON memories USING gin (tsv)",
                "CREATE INDEX memories_embedding ON memories USING hnsw (embedding vector_cosine_ops)",
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
    )
