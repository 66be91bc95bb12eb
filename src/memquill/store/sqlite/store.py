"""The embedded store: one SQLite file (WAL), FTS5 for words, float32 BLOBs for vectors."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from memquill.clock import from_epoch, to_epoch
from memquill.errors import (
    DuplicateEventError,
    StoreError,
    ValidationError,
)
from memquill.model import (
    ApplyResult,
    Change,
    Event,
    MemoryRecord,
    Revision,
    Scope,
)
from memquill.model.block import CoreBlock, Tally
from memquill.model.query import Access, Job, JobStatus, RecordFilter
from memquill.store import codec
from memquill.store.migrations import pending
from memquill.store.sqlite import jobs as queue
from memquill.store.sqlite import lexical as fts
from memquill.store.sqlite import writes
from memquill.store.sqlite.schema import MIGRATIONS
from memquill.store.sqlite.vectors import ANN_MIN_ROWS, Partition

Scored = list[tuple[str, float]]


def filter_sql(f: RecordFilter, alias: str = "m") -> tuple[str, list[Any]]:
    """The WHERE clause of a RecordFilter; mirrors ``model.query.matches``."""
    a = alias + "."
    r = f.reader
    sql = [f"{a}tenant = ?", f"{a}user_id = ?"]
    args: list[Any] = [r.tenant, r.user]
    for dim in ("agent", "project", "session") if not f.owner else ():
        value = getattr(r, dim)
        if f.exact_scope:
            sql.append(f"{a}{dim} IS ?")
        else:
            sql.append(f"({a}{dim} IS NULL OR {a}{dim} = ?)")
        args.append(value)
    if f.statuses is not None:
        sql.append(f"{a}status IN ({','.join('?' * len(f.statuses))})")
        args.extend(sorted(s.value for s in f.statuses))
    if f.types is not None:
        sql.append(f"{a}type IN ({','.join('?' * len(f.types))})")
        args.extend(sorted(t.value for t in f.types))
    for col in ("subject", "key"):
        if getattr(f, col) is not None:
            sql.append(f"{a}{col} = ?")
            args.append(getattr(f, col))
    if f.at is not None:
        t = f.at.timestamp()
        sql.append(
            f"({a}valid_from IS NULL OR {a}valid_from <= ?) AND ({a}valid_to IS NULL OR "
            f"{a}valid_to > ?) AND ({a}expires_at IS NULL OR {a}expires_at > ?)"
        )
        args.extend([t, t, t])
    if not sql:
        return "1", args
    return " AND ".join(sql), args


class SQLiteStore:
    backend = "sqlite"

    def __init__(
        self, path: str = ":memory:", dim: int = 384, timeout_s: float = 30.0,
        ann_min_rows: int = ANN_MIN_ROWS,
    ) -> None:  # fmt: skip
        self.path = path
        self.dim = dim
        self.ann_min_rows = ann_min_rows
        if path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(
                path, timeout=timeout_s, isolation_level=None, check_same_thread=False
            )
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute(f"PRAGMA busy_timeout = {int(timeout_s * 1000)}")
            self._db.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite database {path!r}: {exc}") from exc
        self._lock = threading.RLock()
        self._parts: dict[tuple[str, str], Partition] = {}
        self._migrate()

    # --- plumbing ---------------------------------------------------------------------
    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; driver errors become StoreError, ours pass through."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"cannot start a write transaction: {exc}") from exc
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException as exc:
                self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise StoreError(f"SQLite error: {exc}") from exc
                raise

    def _q(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"SQLite error: {exc}") from exc

    def _migrate(self) -> None:
        with self._tx() as db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, "
                "name TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
            current = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
            for m in pending(current[0], MIGRATIONS):
                for stmt in m.statements:
                    db.execute(stmt)
                db.execute(
                    "INSERT INTO schema_version VALUES (?, ?, ?)", (m.version, m.name, time.time())
                )

    def schema_version(self) -> int:
        return int(self._q("SELECT MAX(version) FROM schema_version")[0][0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- events -----------------------------------------------------------------------
    def append_event(self, event: Event, jobs: Sequence[Job] = ()) -> tuple[Event, bool]:
        digest = hashlib.sha256(event.content.encode()).hexdigest()
        s = event.scope
        with self._tx() as db:
            row = db.execute(
                "SELECT seq, content_hash, body FROM events WHERE tenant=? AND user_id=? AND id=?",
                (s.tenant, s.user, event.id),
            ).fetchone()
            if row is not None:
                if row["content_hash"] != digest:
                    raise DuplicateEventError(
                        f"event {event.id!r} exists with different content; events are immutable"
                    )
                return codec.event_from_body(row["body"], row["seq"]), False
            cur = db.execute(
                "INSERT INTO events (id, tenant, user_id, session, occurred_at, content_hash, body)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (event.id, s.tenant, s.user, s.session, event.occurred_at.timestamp(), digest,
                 codec.event_body(event)),
            )  # fmt: skip
            seq = cur.lastrowid
            queue.enqueue(db, [queue.with_seq(j, seq) for j in jobs])
        return event.model_copy(update={"seq": seq}), True

    def get_events(self, scope: Scope, ids: Sequence[str]) -> list[Event]:
        if not ids:
            return []
        rows = self._q(
            f"SELECT seq, body FROM events WHERE tenant=? AND user_id=? AND id IN "
            f"({','.join('?' * len(ids))}) ORDER BY seq",
            [scope.tenant, scope.user, *ids],
        )
        return [codec.event_from_body(r["body"], r["seq"]) for r in rows]

    def session_events(
        self, scope: Scope, session: str, after_seq: int = 0, limit: int | None = None
    ) -> list[Event]:
        rows = self._q(
            "SELECT seq, body FROM events WHERE tenant=? AND user_id=? AND session=? AND seq>? "
            "ORDER BY seq LIMIT ?",
            [scope.tenant, scope.user, session, after_seq, -1 if limit is None else limit],
        )
        return [codec.event_from_body(r["body"], r["seq"]) for r in rows]

    # --- records ----------------------------------------------------------------------
    def apply(self, changes: Sequence[Change]) -> ApplyResult:
        if not changes:
            return ApplyResult()
        with self._tx() as db:
            return writes.apply_changes(db, changes, self.dim)

    def get(self, memory_id: str) -> MemoryRecord | None:
        rows = self._q("SELECT body FROM memories WHERE id = ?", (memory_id,))
        return codec.record_from_body(rows[0]["body"]) if rows else None

    def get_many(self, ids: Sequence[str]) -> list[MemoryRecord]:
        if not ids:
            return []
        rows = self._q(
            f"SELECT id, body FROM memories WHERE id IN ({','.join('?' * len(ids))})", list(ids)
        )
        by_id = {r["id"]: codec.record_from_body(r["body"]) for r in rows}
        return [by_id[i] for i in ids if i in by_id]

    def history(self, memory_id: str) -> list[Revision]:
        rows = self._q(
            "SELECT memory_id, revision, op, actor, reason, event_ids, before, after, at "
            "FROM revisions WHERE memory_id = ? ORDER BY revision",
            (memory_id,),
        )
        return [
            codec.revision_from_row(
                r["memory_id"], r["revision"], r["op"], r["actor"], r["reason"], r["event_ids"],
                r["before"], r["after"], at=from_epoch(r["at"]),
            )
            for r in rows
        ]  # fmt: skip

    def find(self, f: RecordFilter, limit: int | None = None) -> list[MemoryRecord]:
        where, args = filter_sql(f)
        rows = self._q(
            f"SELECT body FROM memories m WHERE {where} ORDER BY m.updated_at DESC, m.rowid DESC "
            f"LIMIT ?",
            [*args, -1 if limit is None else limit],
        )
        return [codec.record_from_body(r["body"]) for r in rows]

    def count(self, f: RecordFilter) -> int:
        where, args = filter_sql(f)
        return int(self._q(f"SELECT COUNT(*) FROM memories m WHERE {where}", args)[0][0])

    # --- search legs ------------------------------------------------------------------
    def lexical(self, f: RecordFilter, terms: Sequence[str], limit: int) -> Scored:
        """bm25 over the FTS index. First the index's own top rows (fast: no join), then the
        filters; only when filters reject too many does it rank every match."""
        if not terms or limit <= 0:
            return []
        match, floor = fts.bounded(self._q, terms, limit)  # at most RANK_CAP rows ranked
        where, args = filter_sql(f)
        inner = limit * 8
        rows = self._q(
            f"SELECT m.id, t.rank AS s, t.n FROM (SELECT rowid, rank, COUNT(*) OVER () AS n FROM "
            f"(SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ? AND rowid > ? "
            f"ORDER BY rank LIMIT ?)) t JOIN memories m ON m.rowid = t.rowid WHERE {where} "
            f"ORDER BY s LIMIT ?",
            [match, floor, inner, *args, limit],
        )
        if len(rows) < limit and (not rows or rows[0]["n"] >= inner or floor > 0):
            match = fts.match_expr(terms)  # filters rejected too many: rank every match
            rows = self._q(
                f"SELECT m.id, bm25(memories_fts) AS s FROM memories_fts "
                f"JOIN memories m ON m.rowid = memories_fts.rowid "
                f"WHERE memories_fts MATCH ? AND {where} ORDER BY s LIMIT ?",
                [match, *args, limit],
            )
        return [(r["id"], -float(r["s"])) for r in rows]

    def _partition(self, tenant: str, user: str) -> Partition:
        key = (tenant, user)
        with self._lock:
            epoch = self._q("SELECT value FROM meta WHERE key = 'purge_epoch'")[0][0]
            part = self._parts.get(key)
            if part is None or part.epoch != epoch:
                part = self._parts[key] = Partition(self.dim, self.ann_min_rows)
                part.epoch = epoch
            rows = self._q(
                "SELECT id, status, type, project, session, agent, valid_from, valid_to, "
                "expires_at, seq, embedding FROM memories WHERE tenant = ? AND user_id = ? "
                "AND seq > ? ORDER BY seq",
                (tenant, user, part.last_seq),
            )
            for row in rows:
                emb = row["embedding"]
                part.upsert(dict(row), None if emb is None else codec.vec_from_bytes(emb))
                part.last_seq = max(part.last_seq, row["seq"])
            return part

    def vector(self, f: RecordFilter, query: npt.NDArray[np.float32], limit: int) -> Scored:
        if np.asarray(query).shape != (self.dim,):
            raise ValidationError(f"query vector has shape {np.asarray(query).shape}; expected ({self.dim},)")
        with self._lock:  # the mirror and its index change under another thread's refresh
            part = self._partition(f.reader.tenant, f.reader.user)
            hits = part.search(f, query, limit if f.subject is None and f.key is None else part.n)
        if f.subject is not None or f.key is not None:
            allowed = {r.id for r in self.find(f)}
            hits = [h for h in hits if h[0] in allowed][:limit]
        return hits

    def embeddings(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        if not ids:
            return {}
        rows = self._q(
            f"SELECT id, embedding FROM memories WHERE embedding IS NOT NULL AND id IN "
            f"({','.join('?' * len(ids))})",
            list(ids),
        )
        return {r["id"]: codec.vec_from_bytes(r["embedding"]) for r in rows}

    # --- jobs ---------------------------------------------------------------------------
    def enqueue(self, jobs: Sequence[Job]) -> int:
        with self._tx() as db:
            return queue.enqueue(db, jobs)

    def claim(
        self, worker: str, now: datetime, lease_s: float, limit: int, kinds: Sequence[str] = ()
    ) -> list[Job]:
        with self._tx() as db:
            return queue.claim(db, worker, now.timestamp(), lease_s, limit, kinds)

    def finish(self, job_id: int, worker: str, at: datetime) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE jobs SET status = 'done', lease_until = NULL, updated_at = ? "
                "WHERE id = ? AND worker = ? AND status = 'running'",
                (at.timestamp(), job_id, worker),
            )

    def fail(
        self, job_id: int, worker: str, error: str, retry_at: datetime | None, at: datetime
    ) -> None:
        status = JobStatus.QUEUED if retry_at is not None else JobStatus.DEAD
        with self._tx() as db:
            db.execute(
                "UPDATE jobs SET status = ?, last_error = ?, run_after = COALESCE(?, run_after), "
                "lease_until = NULL, updated_at = ? WHERE id = ? AND worker = ? AND status = 'running'",
                (status, error[:2000], to_epoch(retry_at), at.timestamp(), job_id, worker),
            )

    def job_counts(self, scope: Scope | None = None) -> dict[str, int]:
        where, args = ("", []) if scope is None else (
            "WHERE tenant = ? AND user_id = ?", [scope.tenant, scope.user])  # fmt: skip
        rows = self._q(f"SELECT status, COUNT(*) AS n FROM jobs {where} GROUP BY status", args)
        return {r["status"]: r["n"] for r in rows}

    def pending_events(self, scope: Scope, session: str, limit: int = 50) -> list[Event]:
        rows = self._q(
            "SELECT e.seq, e.body FROM events e JOIN jobs j ON j.key = 'extract:' || e.tenant || "
            "':' || e.user_id || ':' || e.id WHERE e.tenant = ? AND e.user_id = ? AND "
            "e.session = ? AND j.status IN ('queued', 'running') ORDER BY e.seq DESC LIMIT ?",
            (scope.tenant, scope.user, session, limit),
        )
        return [codec.event_from_body(r["body"], r["seq"]) for r in reversed(rows)]

    # --- core blocks --------------------------------------------------------------------
    def put_block(self, block: CoreBlock) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO core_blocks VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT "
                "(tenant, user_id, agent, name) DO UPDATE SET content = excluded.content, "
                "char_limit = excluded.char_limit, read_only = excluded.read_only, "
                "updated_at = excluded.updated_at",
                (block.tenant, block.user, block.agent or "", block.name, block.content,
                 block.char_limit, int(block.read_only), block.updated_at.timestamp()),
            )  # fmt: skip

    def blocks(self, scope: Scope) -> list[CoreBlock]:
        rows = self._q(
            "SELECT * FROM core_blocks WHERE tenant = ? AND user_id = ? AND agent IN ('', ?) "
            "ORDER BY name, agent",
            (scope.tenant, scope.user, scope.agent or ""),
        )
        return [
            CoreBlock(tenant=r["tenant"], user=r["user_id"], agent=r["agent"] or None,
                      name=r["name"], content=r["content"], char_limit=r["char_limit"],
                      read_only=bool(r["read_only"]), updated_at=_utc(r["updated_at"]))
            for r in rows
        ]  # fmt: skip

    # --- audit, erasure ---------------------------------------------------------------
    def log_access(self, entries: Sequence[Access]) -> None:
        if not entries:
            return
        with self._tx() as db:
            db.executemany(
                "INSERT INTO access_log (memory_id, tenant, user_id, agent, project, session, "
                "query, rank, score, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(a.memory_id, a.scope.tenant, a.scope.user, a.scope.agent, a.scope.project,
                  a.scope.session, a.query, a.rank, a.score, a.at.timestamp()) for a in entries],
            )  # fmt: skip

    def touch(self, ids: Sequence[str], at: datetime) -> None:
        if not ids:
            return
        with self._tx() as db:
            db.execute(
                "UPDATE memories SET body = json_set(body, '$.access_count', "
                "json_extract(body, '$.access_count') + 1, '$.last_accessed_at', ?) "
                f"WHERE id IN ({','.join('?' * len(ids))})",
                [at.isoformat().replace("+00:00", "Z"), *ids],
            )

    def tally(self, tenant: str, user: str) -> Tally:
        t = Tally()
        key = (tenant, user)
        for r in self._q("SELECT status, type, COUNT(*) AS n FROM memories WHERE tenant = ? AND "
                         "user_id = ? GROUP BY status, type", key):  # fmt: skip
            t.records.setdefault(r["status"], {})[r["type"]] = r["n"]
        for r in self._q("SELECT date(occurred_at, 'unixepoch') AS d, COUNT(*) AS n FROM events "
                         "WHERE tenant = ? AND user_id = ? GROUP BY d ORDER BY d", key):  # fmt: skip
            t.events_by_day[r["d"]] = r["n"]
        t.events = sum(t.events_by_day.values())
        t.accesses = self._q("SELECT COUNT(*) FROM access_log WHERE tenant = ? AND user_id = ?",
                             key)[0][0]  # fmt: skip
        t.useful = self._q("SELECT COALESCE(SUM(json_extract(body, '$.useful_count')), 0) FROM "
                           "memories WHERE tenant = ? AND user_id = ?", key)[0][0]  # fmt: skip
        for r in self._q("SELECT status, COUNT(*) AS n, SUM(MAX(attempts - 1, 0)) AS retries "
                         "FROM jobs WHERE tenant = ? AND user_id = ? GROUP BY status", key):  # fmt: skip
            t.jobs[r["status"]] = r["n"]
            t.retries += r["retries"] or 0
        t.job_latency_s = [r[0] for r in self._q(
            "SELECT updated_at - created_at FROM jobs WHERE tenant = ? AND user_id = ? AND "
            "status = 'done' ORDER BY id DESC LIMIT 1000", key)]  # fmt: skip
        for r in self._q("SELECT op, COUNT(*) AS n FROM revisions WHERE tenant = ? AND user_id = ? "
                         "GROUP BY op", key):  # fmt: skip
            t.ops[r["op"]] = r["n"]
        return t

    def forget_scope(self, tenant: str, user: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        with self._tx() as db:
            db.execute(
                "DELETE FROM memories_fts WHERE rowid IN "
                "(SELECT rowid FROM memories WHERE tenant = ? AND user_id = ?)",
                (tenant, user),
            )
            for table in ("memories", "revisions", "events", "jobs", "access_log", "core_blocks"):
                cur = db.execute(f"DELETE FROM {table} WHERE tenant = ? AND user_id = ?", (tenant, user))
                counts[table] = cur.rowcount
            db.execute("UPDATE meta SET value = value + 1 WHERE key = 'purge_epoch'")
        with self._lock:
            self._parts.pop((tenant, user), None)
        return counts

    def meta(self, key: str) -> Any:
        rows = self._q("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None


def _utc(ts: float) -> datetime:
    dt = from_epoch(ts)
    assert dt is not None
    return dt


