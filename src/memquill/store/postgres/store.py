"""The server store: PostgreSQL + pgvector through a psycopg 3 connection pool.

Every table lives in one PostgreSQL schema (``schema=``). Writes run in one transaction
each; driver errors are translated to ``memquill.errors`` at this boundary.
"""

from __future__ import annotations

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
from psycopg.types.string import TextLoader
from psycopg_pool import ConnectionPool

from memquill.errors import ConflictError
from memquill.model import ApplyResult, Change, Event
from memquill.model.query import Access, Job, RecordFilter
from memquill.store import checks, codec, erasure
from memquill.store.apikeys import ApiKeyQueries
from memquill.store.base import Ranked
from memquill.store.dialect import POSTGRES, Capabilities
from memquill.store.postgres import jobs as queue
from memquill.store.postgres import schema as ddl
from memquill.store.postgres.errors import translate
from memquill.store.postgres.search import Search
from memquill.store.postgres.writes import Conn, Writer
from memquill.store.replaylog import ReplayLog
from memquill.store.shared import SharedQueries

# Read bookkeeping (touch, access log) does not wait for the WAL flush: a crash may lose the
# last few counts, never a record (SQLite's synchronous=NORMAL makes the same trade).
LAZY_COMMIT = "SET LOCAL synchronous_commit = off"


class PostgresStore(SharedQueries, ReplayLog, ApiKeyQueries):
    backend = "postgres"
    dialect = POSTGRES
    capabilities = Capabilities(
        durable_file=False, advisory_locks=True, concurrent_writers=True, ann_index=True
    )

    def __init__(
        self,
        url: str,
        dim: int = 384,
        schema: str = "memquill",
        pool_min: int = 1,
        pool_max: int = 8,
        timeout_s: float = 30.0,
    ) -> None:
        self.url = url
        self.dim = dim
        self.schema = ddl.check_schema_name(schema)
        self._drop_on_close = False
        self._closed = False
        with translate("cannot open the PostgreSQL store"):
            with psycopg.connect(
                url, autocommit=True, row_factory=dict_row, connect_timeout=max(1, round(timeout_s))
            ) as conn:
                self._ready = ddl.bootstrap(conn, self.schema, dim)
            self._pool: ConnectionPool[Conn] = ConnectionPool(
                url,
                min_size=pool_min,
                max_size=pool_max,
                timeout=timeout_s,
                open=False,
                kwargs={"autocommit": True, "row_factory": dict_row},
                configure=self._configure,
                name=f"memquill-{self.schema}",
            )
            self._pool.open(wait=True, timeout=timeout_s)
        self._search = Search(self._conn, dim, self._ready.iterative_scan)

    @classmethod
    def fresh(cls, url: str, dim: int = 384, **kw: Any) -> PostgresStore:
        """A store in a new, uniquely named schema that ``close()`` drops (tests, benchmarks)."""
        store = cls(url, dim=dim, schema=f"t_{uuid.uuid4().hex[:8]}", **kw)
        store._drop_on_close = True
        return store

    # --- plumbing ---------------------------------------------------------------------
    def _configure(self, conn: Conn) -> None:
        conn.execute(
            "SELECT set_config('search_path', %s, false), set_config('TimeZone', 'UTC', false)",
            (self._ready.search_path,),
        )
        register_vector_info(conn, self._ready.vector)
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

    @contextmanager
    def _lazy_tx(self) -> Iterator[Conn]:
        """A bookkeeping transaction that does not wait for the WAL flush, its statements
        pipelined (BEGIN, SET LOCAL and the writes go out in one round trip)."""
        with self._conn() as conn, conn.pipeline(), conn.transaction():
            conn.execute(LAZY_COMMIT)
            yield conn

    def _q(self, query: str, args: Sequence[Any] | dict[str, Any] = ()) -> list[dict[str, Any]]:
        with self._conn() as conn:
            return conn.execute(query, args).fetchall()

    def _exec(self, query: str, args: Sequence[Any] = ()) -> int:
        with self._conn() as conn:
            return conn.execute(query, args).rowcount

    def _write(self, sql: str, args: Sequence[Any] = ()) -> int:
        return self._exec(sql, args)

    def _put_lazy(self, sql: str, args: Sequence[Any]) -> None:
        # the query log is read bookkeeping like touch(): no WAL flush wait (7 ms of a search)
        with self._lazy_tx() as conn:
            conn.execute(self.dialect.sql(sql), args)

    def schema_version(self) -> int:
        return int(self._q("SELECT MAX(version) AS v FROM schema_version")[0]["v"])

    @contextmanager
    def bulk_load(self, maintenance_work_mem: str = "1GB") -> Iterator[None]:
        """Import many records fast: the HNSW index is dropped, then built once at the end.

        Inserting row by row into an HNSW graph costs milliseconds per vector; one build over
        all rows is many times faster. Meanwhile vector searches are exact (slower, correct).
        """
        self._exec("DROP INDEX IF EXISTS memory_vectors_hnsw")
        try:
            yield
        finally:
            with self._tx() as conn:
                conn.execute("SELECT set_config('maintenance_work_mem', %s, true)", (maintenance_work_mem,))
                conn.execute(ddl.HNSW_INDEX)
            self.analyze()

    def analyze(self) -> None:
        """Refresh the planner's statistics now (autovacuum does it eventually): without them a
        freshly filled table is planned as tiny and the vector leg scans exactly, not by HNSW."""
        self._exec("ANALYZE memories, memory_vectors, events, jobs")

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self._drop_on_close:
                with self._conn() as conn:
                    conn.execute(
                        sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.schema))
                    )
        finally:
            self._pool.close()

    # --- events -----------------------------------------------------------------------
    def append_event(self, event: Event, jobs: Sequence[Job] = ()) -> tuple[Event, bool]:
        digest = checks.content_hash(event)
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
                    "AND id = %s",
                    (s.tenant, s.user, event.id),
                ).fetchone()
                if old is None:
                    raise ConflictError(f"event {event.id!r} was erased while being appended")
                return checks.replayed_event(event, old), False
            seq = row["seq"]
            queue.enqueue(conn, [codec.job_with_seq(j, seq) for j in jobs])
        return event.model_copy(update={"seq": seq}), True

    # --- records ----------------------------------------------------------------------
    def apply(self, changes: Sequence[Change]) -> ApplyResult:
        if not changes:
            return ApplyResult()
        self.parsed.applied(changes)
        with self._tx() as conn:
            seq = conn.execute("SELECT nextval('apply_seq') AS s").fetchall()[0]["s"]
            result = Writer(conn, self.schema, self.dim, seq).run(changes)
            # Last, so the one hot row is locked only while this transaction commits.
            conn.execute(
                "UPDATE meta SET value = to_jsonb(GREATEST(value::bigint, %s::bigint)) WHERE key = 'seq'",
                (seq,),
            )
        return result

    # --- search legs ------------------------------------------------------------------
    def lexical(self, f: RecordFilter, terms: Sequence[str], limit: int) -> Ranked:
        return self._search.lexical(f, terms, limit)

    def vector(self, f: RecordFilter, query: npt.NDArray[np.float32], limit: int) -> Ranked:
        return self._search.vector(f, query, limit)

    def embeddings(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        return self._search.embeddings(ids)

    def explain_vector(self, f: RecordFilter, query: npt.NDArray[np.float32], limit: int) -> str:
        """EXPLAIN of the vector leg, for operators: does the planner use the HNSW index?"""
        return self._search.explain(f, query, limit)

    # --- jobs ---------------------------------------------------------------------------
    def enqueue(self, jobs: Sequence[Job]) -> int:
        if not jobs:
            return 0
        with self._tx() as conn:
            return queue.enqueue(conn, jobs)

    def claim(
        self, worker: str, now: datetime, lease_s: float, limit: int, kinds: Sequence[str] = ()
    ) -> list[Job]:
        params = queue.claim_params(worker, now, timedelta(seconds=lease_s), limit, kinds)
        rows = self._q(queue.claim_sql(kinds), params)
        return sorted((queue.from_row(r) for r in rows), key=lambda j: j.id or 0)

    # --- audit, erasure, lifecycle -------------------------------------------------------
    def log_access(self, entries: Sequence[Access]) -> None:
        if not entries:
            return
        cols = list(zip(*(codec.access_row(a, a.at) for a in entries), strict=True))
        with self._lazy_tx() as conn:
            conn.execute(
                "INSERT INTO access_log (memory_id, tenant, user_id, agent, project, session, query, "
                "rank, score, at) SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], "
                "%s::text[], %s::text[], %s::text[], %s::int[], %s::float8[], %s::timestamptz[])",
                [list(c) for c in cols],
            )

    def touch(self, ids: Sequence[str], at: datetime) -> None:
        """Read-modify-write under row locks: SQL json functions would rewrite the numbers."""
        if not ids:
            return
        with self._lazy_tx() as conn:
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

    def forget_scope(self, tenant: str, user: str, project: str | None = None) -> dict[str, int]:
        mine = "tenant = %s AND user_id = %s" + ("" if project is None else " AND project = %s")
        args = [tenant, user] if project is None else [tenant, user, project]
        # memory_vectors rows go with their memories (ON DELETE CASCADE)
        tables = erasure.forget_tables(mine, "body->'scope'->>'project' = %s", project)
        counts: dict[str, int] = {}
        self.parsed.clear()
        with self._tx() as conn:
            for table, where in tables.items():
                cur = conn.execute(
                    sql.SQL("DELETE FROM {} WHERE ").format(sql.Identifier(table)) + sql.SQL(where), args
                )
                counts[table] = cur.rowcount
        # Dead tuples keep the words until vacuumed; WAL segments and backups are out of reach.
        self._exec("VACUUM memories, memory_vectors, revisions, events, jobs, access_log, query_log")
        return counts
