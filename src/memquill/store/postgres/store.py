"""The server store: PostgreSQL + pgvector through a psycopg 3 connection pool.

Every table lives in one PostgreSQL schema (``schema=``). Writes run in one transaction
each; driver errors are translated to ``memquill.errors`` at this boundary.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from pgvector.psycopg.vector import register_vector_info
from psycopg import sql
from psycopg.rows import dict_row
from psycopg.types import TypeInfo
from psycopg.types.string import TextLoader
from psycopg_pool import ConnectionPool

from memquill.errors import (
    ConflictError,
    DuplicateEventError,
    MigrationError,
    StoreError,
    ValidationError,
)
from memquill.model import ApplyResult, Change, Event, MemoryRecord, Revision, Scope
from memquill.model.block import CoreBlock, Tally
from memquill.model.query import Access, Job, JobStatus, RecordFilter
from memquill.store import codec
from memquill.store.migrations import pending
from memquill.store.postgres import schema as ddl
from memquill.store.postgres.errors import translate
from memquill.store.postgres.search import Search
from memquill.store.postgres.sql import filter_sql, lock_key
from memquill.store.postgres.writes import Conn, Writer

Scored = list[tuple[str, float]]


class PostgresStore:
    backend = "postgres"

    def __init__(
        self, url: str, dim: int = 384, schema: str = "memquill", pool_min: int = 1,
        pool_max: int = 8, timeout_s: float = 30.0,
    ) -> None:  # fmt: skip
        self.url = url
        self.dim = dim
        self.schema = ddl.check_schema_name(schema)
        self._drop_on_close = False
        self._closed = False
        with translate("cannot open the PostgreSQL store"):
            vector_info, iterative = self._bootstrap(timeout_s)
            self._vector_info = vector_info
            self._pool: ConnectionPool[Conn] = ConnectionPool(
                url, min_size=pool_min, max_size=pool_max, timeout=timeout_s, open=False,
                kwargs={"autocommit": True, "row_factory": dict_row},
                configure=self._configure, name=f"memquill-{self.schema}",
            )  # fmt: skip
            self._pool.open(wait=True, timeout=timeout_s)
        self._search = Search(self._conn, dim, iterative)

    @classmethod
    def fresh(cls, url: str, dim: int = 384, **kw: Any) -> PostgresStore:
        """A store in a new, uniquely named schema that ``close()`` drops (tests, benchmarks)."""
        store = cls(url, dim=dim, schema=f"t_{uuid.uuid4().hex[:8]}", **kw)
        store._drop_on_close = True
        return store

    # --- plumbing ---------------------------------------------------------------------
    def _bootstrap(self, timeout_s: float) -> tuple[TypeInfo, bool]:
        """Check pgvector, create the schema, run migrations; returns the vector type."""
        with psycopg.connect(self.url, autocommit=True, row_factory=dict_row,
                             connect_timeout=max(1, int(timeout_s))) as conn:  # fmt: skip
            ext = _vector_extension(conn)
            self._search_path = ", ".join(dict.fromkeys(
                sql.Identifier(s).as_string(conn) for s in (self.schema, ext["schema"])))  # fmt: skip
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(self.schema, "migrate"),))
                conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema)))
                conn.execute("SELECT set_config('search_path', %s, true)", (self._search_path,))
                conn.execute(ddl.SCHEMA_VERSION_TABLE)
                current = conn.execute("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version")
                for m in pending(_one(current)["v"], ddl.migrations(self.dim)):
                    for stmt in m.statements:
                        conn.execute(stmt)  # static DDL
                    conn.execute("INSERT INTO schema_version (version, name) VALUES (%s, %s)",
                                 (m.version, m.name))  # fmt: skip
                stored = _one(conn.execute("SELECT value FROM meta WHERE key = 'dim'"))["value"]
                if stored != self.dim:
                    raise MigrationError(
                        f"schema {self.schema!r} holds {stored}-d vectors, not {self.dim}-d; "
                        "use another schema or the matching embedder"
                    )
            info = TypeInfo.fetch(conn, f"{ext['schema']}.vector")
            if info is None:  # pragma: no cover - checked above
                raise MigrationError("the pgvector type 'vector' is missing")
            major, minor = (int(x) for x in ext["extversion"].split(".")[:2])
            return info, (major, minor) >= (0, 8)

    def _configure(self, conn: Conn) -> None:
        conn.execute("SELECT set_config('search_path', %s, false), set_config('TimeZone', 'UTC', false)",
                     (self._search_path,))  # fmt: skip
        register_vector_info(conn, self._vector_info)
        conn.adapters.register_loader("json", TextLoader)  # bodies stay text: exact round trips

    @contextmanager
    def _conn(self) -> Iterator[Conn]:
        with translate(), self._pool.connection() as conn:
            yield conn

    @contextmanager
    def _tx(self) -> Iterator[Conn]:
        """One write transaction; driver errors become memquill errors, ours pass through."""
        with self._conn() as conn, conn.transaction():
            yield conn

    def _q(self, query: str, args: Sequence[Any] | dict[str, Any] = ()) -> list[dict[str, Any]]:
        with self._conn() as conn:
            return conn.execute(query, args).fetchall()

    def _exec(self, query: str, args: Sequence[Any] = ()) -> int:
        with self._conn() as conn:
            return conn.execute(query, args).rowcount

    def schema_version(self) -> int:
        return int(self._q("SELECT MAX(version) AS v FROM schema_version")[0]["v"])

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self._drop_on_close:
                with self._conn() as conn:
                    conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                        sql.Identifier(self.schema)))  # fmt: skip
        finally:
            self._pool.close()

    # --- events -----------------------------------------------------------------------
    def append_event(self, event: Event, jobs: Sequence[Job] = ()) -> tuple[Event, bool]:
        digest = hashlib.sha256(event.content.encode()).hexdigest()
        s = event.scope
        with self._tx() as conn:
            row = conn.execute(
                "INSERT INTO events (id, tenant, user_id, session, occurred_at, content_hash, body) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s::json) ON CONFLICT (tenant, user_id, id) DO NOTHING "
                "RETURNING seq",
                (event.id, s.tenant, s.user, s.session, event.occurred_at, digest, codec.event_body(event)),
            ).fetchone()
            if row is None:
                old = conn.execute(
                    "SELECT seq, content_hash, body FROM events WHERE tenant = %s AND user_id = %s "
                    "AND id = %s", (s.tenant, s.user, event.id),
                ).fetchone()  # fmt: skip
                if old is None:
                    raise ConflictError(f"event {event.id!r} was erased while being appended")
                if old["content_hash"] != digest:
                    raise DuplicateEventError(
                        f"event {event.id!r} exists with different content; events are immutable"
                    )
                return codec.event_from_body(old["body"], old["seq"]), False
            seq = row["seq"]
            _enqueue(conn, [_with_seq(j, seq) for j in jobs])
        return event.model_copy(update={"seq": seq}), True

    def get_events(self, scope: Scope, ids: Sequence[str]) -> list[Event]:
        if not ids:
            return []
        rows = self._q(
            "SELECT seq, body FROM events WHERE tenant = %s AND user_id = %s AND id = ANY(%s) "
            "ORDER BY seq", (scope.tenant, scope.user, list(ids)),
        )  # fmt: skip
        return [codec.event_from_body(r["body"], r["seq"]) for r in rows]

    def session_events(
        self, scope: Scope, session: str, after_seq: int = 0, limit: int | None = None
    ) -> list[Event]:
        rows = self._q(
            "SELECT seq, body FROM events WHERE tenant = %s AND user_id = %s AND session = %s "
            "AND seq > %s ORDER BY seq LIMIT %s",
            (scope.tenant, scope.user, session, after_seq, limit),
        )
        return [codec.event_from_body(r["body"], r["seq"]) for r in rows]

    # --- records ----------------------------------------------------------------------
    def apply(self, changes: Sequence[Change]) -> ApplyResult:
        if not changes:
            return ApplyResult()
        with self._tx() as conn:
            seq = _one(conn.execute("SELECT nextval('apply_seq') AS s"))["s"]
            result = Writer(conn, self.schema, self.dim, seq).run(changes)
            # Last, so the one hot row is locked only while this transaction commits.
            conn.execute(
                "UPDATE meta SET value = to_jsonb(GREATEST(value::bigint, %s::bigint)) "
                "WHERE key = 'seq'", (seq,),
            )  # fmt: skip
        return result

    def get(self, memory_id: str) -> MemoryRecord | None:
        rows = self._q("SELECT body FROM memories WHERE id = %s", (memory_id,))
        return codec.record_from_body(rows[0]["body"]) if rows else None

    def get_many(self, ids: Sequence[str]) -> list[MemoryRecord]:
        if not ids:
            return []
        rows = self._q("SELECT id, body FROM memories WHERE id = ANY(%s)", (list(ids),))
        by_id = {r["id"]: codec.record_from_body(r["body"]) for r in rows}
        return [by_id[i] for i in ids if i in by_id]

    def history(self, memory_id: str) -> list[Revision]:
        rows = self._q(
            "SELECT memory_id, revision, op, actor, reason, event_ids, before, after, at "
            "FROM revisions WHERE memory_id = %s ORDER BY revision", (memory_id,),
        )  # fmt: skip
        return [codec.revision_from_row(**r) for r in rows]

    def find(self, f: RecordFilter, limit: int | None = None) -> list[MemoryRecord]:
        where, args = filter_sql(f)
        rows = self._q(
            f"SELECT body FROM memories m WHERE {where} ORDER BY m.updated_at DESC, m.rowid DESC "
            "LIMIT %s", [*args, limit],
        )  # fmt: skip
        return [codec.record_from_body(r["body"]) for r in rows]

    def count(self, f: RecordFilter) -> int:
        where, args = filter_sql(f)
        return int(self._q(f"SELECT COUNT(*) AS n FROM memories m WHERE {where}", args)[0]["n"])

    # --- search legs ------------------------------------------------------------------
    def lexical(self, f: RecordFilter, terms: Sequence[str], limit: int) -> Scored:
        return self._search.lexical(f, terms, limit)

    def vector(self, f: RecordFilter, query: npt.NDArray[np.float32], limit: int) -> Scored:
        return self._search.vector(f, query, limit)

    def embeddings(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        return self._search.embeddings(ids)

    # --- jobs ---------------------------------------------------------------------------
    def enqueue(self, jobs: Sequence[Job]) -> int:
        if not jobs:
            return 0
        with self._tx() as conn:
            return _enqueue(conn, jobs)

    def claim(
        self, worker: str, now: datetime, lease_s: float, limit: int, kinds: Sequence[str] = ()
    ) -> list[Job]:
        kind_sql = " AND kind = ANY(%(kinds)s::text[])" if kinds else ""
        rows = self._q(
            # A lease that expired on the last attempt dead-letters (the worker died on it).
            "WITH dead AS (UPDATE jobs SET status = 'dead', lease_until = NULL, updated_at = %(t)s, "
            "last_error = COALESCE(last_error, '') || 'lease expired after the last attempt "
            "(worker died?)' WHERE id IN (SELECT id FROM jobs WHERE status = 'running' AND "
            "lease_until < %(t)s AND attempts >= max_attempts FOR UPDATE SKIP LOCKED) RETURNING id), "
            "picked AS (SELECT id FROM jobs WHERE ((status = 'queued' AND run_after <= %(t)s) OR "
            "(status = 'running' AND lease_until < %(t)s AND attempts < max_attempts))"
            f"{kind_sql} ORDER BY run_after, id LIMIT %(n)s FOR UPDATE SKIP LOCKED) "
            "UPDATE jobs j SET status = 'running', worker = %(w)s, lease_until = %(t)s + %(lease)s, "
            "attempts = j.attempts + 1, updated_at = %(t)s FROM picked WHERE j.id = picked.id "
            "RETURNING j.*",
            {"t": now, "n": limit, "w": worker, "kinds": list(kinds),
             "lease": timedelta(seconds=lease_s)},
        )  # fmt: skip
        return sorted((_job(r) for r in rows), key=lambda j: j.id or 0)

    def finish(self, job_id: int, worker: str, at: datetime) -> None:
        self._exec(
            "UPDATE jobs SET status = 'done', lease_until = NULL, updated_at = %s "
            "WHERE id = %s AND worker = %s AND status = 'running'",
            (at, job_id, worker),
        )

    def fail(
        self, job_id: int, worker: str, error: str, retry_at: datetime | None, at: datetime
    ) -> None:
        status = JobStatus.QUEUED if retry_at is not None else JobStatus.DEAD
        self._exec(
            "UPDATE jobs SET status = %s, last_error = %s, run_after = COALESCE(%s, run_after), "
            "lease_until = NULL, updated_at = %s WHERE id = %s AND worker = %s AND status = 'running'",
            (status, error[:2000], retry_at, at, job_id, worker),
        )

    def job_counts(self, scope: Scope | None = None) -> dict[str, int]:
        where, args = ("", []) if scope is None else (
            "WHERE tenant = %s AND user_id = %s", [scope.tenant, scope.user])  # fmt: skip
        rows = self._q(f"SELECT status, COUNT(*) AS n FROM jobs {where} GROUP BY status", args)
        return {r["status"]: r["n"] for r in rows}

    def pending_events(self, scope: Scope, session: str, limit: int = 50) -> list[Event]:
        rows = self._q(
            "SELECT e.seq, e.body FROM events e JOIN jobs j ON j.key = 'extract:' || e.tenant || "
            "':' || e.user_id || ':' || e.id WHERE e.tenant = %s AND e.user_id = %s AND "
            "e.session = %s AND j.status IN ('queued', 'running') ORDER BY e.seq DESC LIMIT %s",
            (scope.tenant, scope.user, session, limit),
        )
        return [codec.event_from_body(r["body"], r["seq"]) for r in reversed(rows)]

    # --- core blocks --------------------------------------------------------------------
    def put_block(self, block: CoreBlock) -> None:
        self._exec(
            "INSERT INTO core_blocks VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT "
            "(tenant, user_id, agent, name) DO UPDATE SET content = excluded.content, "
            "char_limit = excluded.char_limit, read_only = excluded.read_only, "
            "updated_at = excluded.updated_at",
            (block.tenant, block.user, block.agent or "", block.name, block.content,
             block.char_limit, block.read_only, block.updated_at),
        )  # fmt: skip

    def blocks(self, scope: Scope) -> list[CoreBlock]:
        rows = self._q(
            "SELECT * FROM core_blocks WHERE tenant = %s AND user_id = %s AND agent IN ('', %s) "
            "ORDER BY name, agent",
            (scope.tenant, scope.user, scope.agent or ""),
        )
        return [
            CoreBlock(tenant=r["tenant"], user=r["user_id"], agent=r["agent"] or None,
                      name=r["name"], content=r["content"], char_limit=r["char_limit"],
                      read_only=r["read_only"], updated_at=r["updated_at"])
            for r in rows
        ]  # fmt: skip

    # --- audit, erasure, lifecycle -------------------------------------------------------
    def log_access(self, entries: Sequence[Access]) -> None:
        if not entries:
            return
        with self._tx() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO access_log (memory_id, tenant, user_id, agent, project, session, "
                "query, rank, score, at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [(a.memory_id, a.scope.tenant, a.scope.user, a.scope.agent, a.scope.project,
                  a.scope.session, a.query, a.rank, a.score, a.at) for a in entries],
            )  # fmt: skip

    def touch(self, ids: Sequence[str], at: datetime) -> None:
        """Read-modify-write under row locks: SQL json functions would rewrite the numbers."""
        if not ids:
            return
        with self._tx() as conn:
            rows = conn.execute(
                "SELECT id, body FROM memories WHERE id = ANY(%s) ORDER BY id FOR UPDATE",
                (sorted(set(ids)),),
            ).fetchall()
            bumped = []
            for r in rows:
                rec = codec.record_from_body(r["body"])
                rec = rec.model_copy(update={"access_count": rec.access_count + 1, "last_accessed_at": at})
                bumped.append((rec.model_dump_json(), r["id"]))
            with conn.cursor() as cur:
                cur.executemany("UPDATE memories SET body = %s::json WHERE id = %s", bumped)

    def tally(self, tenant: str, user: str) -> Tally:
        t = Tally()
        key = (tenant, user)
        for r in self._q("SELECT status, type, COUNT(*) AS n FROM memories WHERE tenant = %s AND "
                         "user_id = %s GROUP BY status, type", key):  # fmt: skip
            t.records.setdefault(r["status"], {})[r["type"]] = r["n"]
        for r in self._q("SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d, "
                         "COUNT(*) AS n FROM events WHERE tenant = %s AND user_id = %s "
                         "GROUP BY d ORDER BY d", key):  # fmt: skip
            t.events_by_day[r["d"]] = r["n"]
        t.events = sum(t.events_by_day.values())
        t.accesses = self._q("SELECT COUNT(*) AS n FROM access_log WHERE tenant = %s AND "
                             "user_id = %s", key)[0]["n"]  # fmt: skip
        t.useful = int(self._q("SELECT COALESCE(SUM((body->>'useful_count')::bigint), 0) AS n "
                               "FROM memories WHERE tenant = %s AND user_id = %s", key)[0]["n"])  # fmt: skip
        for r in self._q("SELECT status, COUNT(*) AS n, SUM(GREATEST(attempts - 1, 0)) AS retries "
                         "FROM jobs WHERE tenant = %s AND user_id = %s GROUP BY status", key):  # fmt: skip
            t.jobs[r["status"]] = r["n"]
            t.retries += int(r["retries"] or 0)
        t.job_latency_s = [r["s"] for r in self._q(
            "SELECT EXTRACT(EPOCH FROM updated_at - created_at)::float8 AS s FROM jobs WHERE "
            "tenant = %s AND user_id = %s AND status = 'done' ORDER BY id DESC LIMIT 1000", key)]  # fmt: skip
        return t

    def forget_scope(self, tenant: str, user: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        with self._tx() as conn:
            for table in ("memories", "revisions", "events", "jobs", "access_log", "core_blocks"):
                cur = conn.execute(
                    sql.SQL("DELETE FROM {} WHERE tenant = %s AND user_id = %s").format(
                        sql.Identifier(table)), (tenant, user))  # fmt: skip
                counts[table] = cur.rowcount
        return counts

    def meta(self, key: str) -> Any:
        rows = self._q("SELECT value FROM meta WHERE key = %s", (key,))
        return rows[0]["value"] if rows else None


def _one(cur: psycopg.Cursor[dict[str, Any]]) -> dict[str, Any]:
    row = cur.fetchone()
    if row is None:  # pragma: no cover - callers select exactly one row
        raise StoreError("expected one row, got none")
    return row


def _vector_extension(conn: Conn) -> dict[str, Any]:
    find = ("SELECT n.nspname AS schema, e.extversion FROM pg_extension e JOIN pg_namespace n "
            "ON n.oid = e.extnamespace WHERE e.extname = 'vector'")  # fmt: skip
    ext = conn.execute(find).fetchone()
    if ext is None:
        try:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.Error as exc:
            raise MigrationError(
                "pgvector is not installed in this database and this role cannot install it; "
                "as a superuser run: CREATE EXTENSION vector;"
            ) from exc
        ext = _one(conn.execute(find))
    return ext


def _enqueue(conn: Conn, jobs: Sequence[Job]) -> int:
    if not jobs:
        return 0
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO jobs (key, kind, tenant, user_id, agent, project, session, payload, status, "
            "attempts, max_attempts, run_after, created_at, updated_at) VALUES (%(key)s, %(kind)s, "
            "%(tenant)s, %(user)s, %(agent)s, %(project)s, %(session)s, %(payload)s::json, 'queued', "
            "0, %(max)s, %(run_after)s, %(created)s, %(created)s) ON CONFLICT (key) DO NOTHING",
            [_job_params(j) for j in jobs],
        )  # fmt: skip
        return cur.rowcount


def _job_params(j: Job) -> dict[str, Any]:
    created = j.created_at or j.run_after
    if created is None:
        raise ValidationError(f"job {j.key!r} needs created_at or run_after (the injected clock)")
    return {"key": j.key, "kind": j.kind, "tenant": j.scope.tenant, "user": j.scope.user,
            "agent": j.scope.agent, "project": j.scope.project, "session": j.scope.session,
            "payload": codec.job_payload(j), "max": j.max_attempts,
            "run_after": j.run_after or created, "created": created}  # fmt: skip


def _with_seq(job: Job, seq: int | None) -> Job:
    """Jobs built before the event had a sequence number learn it here."""
    if "seq" in job.payload and job.payload["seq"] is None:
        job.payload = {**job.payload, "seq": seq}
    return job


def _job(r: dict[str, Any]) -> Job:
    return Job(
        id=r["id"], key=r["key"], kind=r["kind"],
        scope=Scope(tenant=r["tenant"], user=r["user_id"], agent=r["agent"],
                    project=r["project"], session=r["session"]),
        payload=json.loads(r["payload"]), status=r["status"], attempts=r["attempts"],
        max_attempts=r["max_attempts"], run_after=r["run_after"], lease_until=r["lease_until"],
        last_error=r["last_error"], created_at=r["created_at"], updated_at=r["updated_at"],
    )  # fmt: skip
