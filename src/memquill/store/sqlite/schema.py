"""SQLite schema, as numbered migrations."""

from memquill.keymap import migration_statements
from memquill.store.migrations import JOB_REF, MEMORIES_BY_TYPE, Migration

MIGRATIONS = (
    Migration(
        1,
        "events, memories, revisions, fts, jobs, access log",
        (
            """CREATE TABLE meta (key TEXT PRIMARY KEY, value)""",
            """INSERT INTO meta (key, value) VALUES ('seq', 0), ('purge_epoch', 0)""",
            """CREATE TABLE events (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                id TEXT NOT NULL, tenant TEXT NOT NULL, user_id TEXT NOT NULL, session TEXT,
                occurred_at REAL NOT NULL, content_hash TEXT NOT NULL, body TEXT NOT NULL,
                UNIQUE (tenant, user_id, id))""",
            """CREATE INDEX events_session ON events (tenant, user_id, session, seq)""",
            """CREATE TABLE memories (
                rowid INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE, revision INTEGER NOT NULL,
                tenant TEXT NOT NULL, user_id TEXT NOT NULL,
                agent TEXT, project TEXT, session TEXT,
                type TEXT NOT NULL, subject TEXT NOT NULL, key TEXT NOT NULL,
                status TEXT NOT NULL, valid_from REAL, valid_to REAL, expires_at REAL,
                confidence REAL NOT NULL, source TEXT NOT NULL, read_only INTEGER NOT NULL,
                created_at REAL NOT NULL, updated_at REAL NOT NULL,
                seq INTEGER NOT NULL, body TEXT NOT NULL, embedding BLOB)""",
            """CREATE INDEX memories_slot ON memories (tenant, user_id, subject, key)""",
            """CREATE INDEX memories_status ON memories (tenant, user_id, status, updated_at)""",
            """CREATE INDEX memories_seq ON memories (tenant, user_id, seq)""",
            """CREATE VIRTUAL TABLE memories_fts USING fts5 (
                terms, tokenize = 'unicode61 remove_diacritics 2')""",
            """CREATE TABLE revisions (
                memory_id TEXT NOT NULL, revision INTEGER NOT NULL,
                tenant TEXT NOT NULL, user_id TEXT NOT NULL,
                op TEXT NOT NULL, actor TEXT NOT NULL, reason TEXT NOT NULL,
                event_ids TEXT NOT NULL, before TEXT, after TEXT, at REAL NOT NULL,
                PRIMARY KEY (memory_id, revision))""",
            """CREATE INDEX revisions_user ON revisions (tenant, user_id)""",
            """CREATE TABLE jobs (
                id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL, tenant TEXT NOT NULL, user_id TEXT NOT NULL,
                agent TEXT, project TEXT, session TEXT,
                payload TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL,
                max_attempts INTEGER NOT NULL, run_after REAL NOT NULL, lease_until REAL,
                worker TEXT, last_error TEXT, created_at REAL NOT NULL, updated_at REAL NOT NULL)""",
            """CREATE INDEX jobs_due ON jobs (status, run_after)""",
            """CREATE TABLE access_log (
                id INTEGER PRIMARY KEY AUTOINCREMENT, memory_id TEXT NOT NULL,
                tenant TEXT NOT NULL, user_id TEXT NOT NULL, agent TEXT, project TEXT,
                session TEXT, query TEXT NOT NULL, rank INTEGER NOT NULL, score REAL NOT NULL,
                at REAL NOT NULL)""",
            """CREATE INDEX access_memory ON access_log (memory_id)""",
            """CREATE TABLE core_blocks (
                tenant TEXT NOT NULL, user_id TEXT NOT NULL, agent TEXT NOT NULL DEFAULT '',
                name TEXT NOT NULL, content TEXT NOT NULL, char_limit INTEGER NOT NULL,
                read_only INTEGER NOT NULL, updated_at REAL NOT NULL,
                PRIMARY KEY (tenant, user_id, agent, name))""",
        ),
    ),
    Migration(
        10,
        "erased events: tombstones that keep extraction, episodes and pending turns off them",
        (
            """CREATE TABLE erased_events (
                tenant TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL, at REAL NOT NULL,
                PRIMARY KEY (tenant, user_id, id))""",
        ),
    ),
    Migration(11, "keys name attributes, not values", migration_statements("sqlite")),
    JOB_REF,
    Migration(
        13,
        "api keys of the HTTP service",
        (
            """CREATE TABLE api_keys (
                id TEXT PRIMARY KEY, tenant TEXT NOT NULL, name TEXT NOT NULL,
                secret_hash TEXT NOT NULL, read_only INTEGER NOT NULL, trust TEXT,
                created_at REAL NOT NULL, revoked_at REAL)""",
            """CREATE INDEX api_keys_tenant ON api_keys (tenant, created_at)""",
        ),
    ),
    Migration(
        15,
        "policy log, query log, scratch-store register",
        (
            """CREATE TABLE policy_log (
                seq INTEGER PRIMARY KEY AUTOINCREMENT, policy_id TEXT NOT NULL, body TEXT NOT NULL,
                actor TEXT NOT NULL, reason TEXT NOT NULL, at REAL NOT NULL)""",
            """CREATE TABLE query_log (
                id INTEGER PRIMARY KEY AUTOINCREMENT, tenant TEXT NOT NULL, user_id TEXT NOT NULL,
                agent TEXT, project TEXT, session TEXT, query TEXT NOT NULL, k INTEGER NOT NULL,
                types TEXT, hits TEXT NOT NULL, at REAL NOT NULL)""",
            """CREATE INDEX query_log_user ON query_log (tenant, user_id, at)""",
            """CREATE INDEX query_log_at ON query_log (at)""",
            """CREATE TABLE scratch_stores (
                target TEXT NOT NULL, tenant TEXT NOT NULL, user_id TEXT NOT NULL, at REAL NOT NULL,
                PRIMARY KEY (target, tenant, user_id))""",
        ),
    ),
    MEMORIES_BY_TYPE,
)
