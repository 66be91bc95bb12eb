"""The embedded store: one SQLite file (WAL), FTS5 for words, float32 BLOBs for vectors."""

from __future__ import annotations

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

from memquill.errors import (
    ValidationError,
)
from memquill.model import (
    ApplyResult,
    Change,
    Event,
)
from memquill.model.query import Access, Job, RecordFilter
from memquill.store import checks, codec, erasure, shared
from memquill.store.apikeys import ApiKeyQueries
from memquill.store.base import Ranked
from memquill.store.dialect import SQLITE, Capabilities
from memquill.store.migrations import pending
from memquill.store.replaylog import ReplayLog
from memquill.store.shared import SharedQueries
from memquill.store.sqlite import jobs as queue
from memquill.store.sqlite import lexical as fts
from memquill.store.sqlite import writes
from memquill.store.sqlite.errors import translate
from memquill.store.sqlite.schema import MIGRATIONS
from memquill.store.sqlite.vectors import ANN_MIN_ROWS, Partition


def filter_sql(f: RecordFilter, alias: str = "m") -> tuple[str, list[Any]]:
    """The WHERE clause of a RecordFilter in SQLite's style (see ``store.shared``)."""
    return shared.filter_sql(SQLITE, f, alias)


class SQLiteStore(SharedQueries, ReplayLog, ApiKeyQueries):
    backend = "sqlite"
    dialect = SQLITE
    capabilities = Capabilities(
        durable_file=True, advisory_locks=False, concurrent_writers=False, ann_index=False
    )

    def __init__(
        self,
        path: str = ":memory:",
        dim: int = 384,
        timeout_s: float = 30.0,
        ann_min_rows: int = ANN_MIN_ROWS,
    ) -> None:
        self.path = path
        self.dim = dim
        self.ann_min_rows = ann_min_rows
        if path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        with translate(f"cannot open SQLite database {path!r}"):
            self._db = sqlite3.connect(path, timeout=timeout_s, isolation_level=None, check_same_thread=False)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute(f"PRAGMA busy_timeout = {int(timeout_s * 1000)}")
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA secure_delete = ON")  # erased text leaves the file's bytes
        self._lock = threading.RLock()
        self._parts: dict[tuple[str, str], Partition] = {}
        self._migrate()

    # --- plumbing ---------------------------------------------------------------------
    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; driver errors become memquill errors, ours pass through."""
        with self._lock, translate():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _q(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock, translate():
            return self._db.execute(sql, args).fetchall()

    def _write(self, sql: str, args: Sequence[Any] = ()) -> int:
        with self._tx() as db:
            return int(db.execute(sql, args).rowcount)

    def _migrate(self) -> None:
        with self._tx() as db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, "
                "name TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
            applied = {r[0] for r in db.execute("SELECT version FROM schema_version")}
            for m in pending(applied, MIGRATIONS):
                for stmt in m.statements:
                    db.execute(stmt)
                db.execute("INSERT INTO schema_version VALUES (?, ?, ?)", (m.version, m.name, time.time()))

    def schema_version(self) -> int:
        return int(self._q("SELECT MAX(version) FROM schema_version")[0][0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- events -----------------------------------------------------------------------
    def append_event(self, event: Event, jobs: Sequence[Job] = ()) -> tuple[Event, bool]:
        s = event.scope
        with self._tx() as db:
            row = db.execute(
                "SELECT seq, content_hash, body FROM events WHERE tenant=? AND user_id=? AND id=?",
                (s.tenant, s.user, event.id),
            ).fetchone()
            if row is not None:
                return checks.replayed_event(event, row), False
            cur = db.execute(
                "INSERT INTO events (id, tenant, user_id, session, occurred_at, content_hash, body)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    event.id,
                    s.tenant,
                    s.user,
                    s.session,
                    event.occurred_at.timestamp(),
                    checks.content_hash(event),
                    codec.event_body(event),
                ),
            )
            seq = cur.lastrowid
            queue.enqueue(db, [codec.job_with_seq(j, seq) for j in jobs])
        return event.model_copy(update={"seq": seq}), True

    # --- records ----------------------------------------------------------------------
    def apply(self, changes: Sequence[Change]) -> ApplyResult:
        if not changes:
            return ApplyResult()
        self.parsed.applied(changes)
        with self._tx() as db:
            return writes.apply_changes(db, changes, self.dim)

    # --- search legs ------------------------------------------------------------------
    def lexical(self, f: RecordFilter, terms: Sequence[str], limit: int) -> Ranked:
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
                if part is not None:  # another process forgot a scope: drop what it erased
                    self.parsed.clear()
                part = self._parts[key] = Partition(self.dim, self.ann_min_rows)
                part.epoch = epoch
            rows = self._q(
                "SELECT id, status, type, project, session, agent, valid_from, valid_to, "
                "expires_at, seq, embedding FROM memories WHERE tenant = ? AND user_id = ? "
                "AND seq > ? ORDER BY seq",
                (tenant, user, part.last_seq),
            )
            self.parsed.drop(r["id"] for r in rows)  # changed, maybe by another process
            for row in rows:
                emb = row["embedding"]
                part.upsert(dict(row), None if emb is None else codec.vec_from_bytes(emb))
                part.last_seq = max(part.last_seq, row["seq"])
            return part

    def vector(self, f: RecordFilter, query: npt.NDArray[np.float32], limit: int) -> Ranked:
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

    # --- audit, erasure ---------------------------------------------------------------
    def log_access(self, entries: Sequence[Access]) -> None:
        if not entries:
            return
        with self._tx() as db:
            db.executemany(
                "INSERT INTO access_log (memory_id, tenant, user_id, agent, project, session, "
                "query, rank, score, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [codec.access_row(a, a.at.timestamp()) for a in entries],
            )

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

    def forget_scope(self, tenant: str, user: str, project: str | None = None) -> dict[str, int]:
        mine, args = (
            ("tenant = ? AND user_id = ?", [tenant, user])
            if project is None
            else ("tenant = ? AND user_id = ? AND project = ?", [tenant, user, project])
        )
        tables = erasure.forget_tables(mine, "json_extract(body, '$.scope.project') = ?", project)
        counts: dict[str, int] = {}
        self.parsed.clear()
        with self._tx() as db:
            db.execute(
                f"DELETE FROM memories_fts WHERE rowid IN (SELECT rowid FROM memories WHERE {mine})", args
            )
            for table, where in tables.items():
                counts[table] = db.execute(f"DELETE FROM {table} WHERE {where}", args).rowcount
            db.execute("UPDATE meta SET value = value + 1 WHERE key = 'purge_epoch'")
        with self._lock:
            self._parts.pop((tenant, user), None)
            self._scrub()
        return counts

    def _scrub(self) -> None:
        """Leave no erased bytes behind: merge the FTS segments (freed pages are zeroed by
        ``secure_delete``) and truncate the WAL, which still holds the deleted rows."""
        with self._tx() as db:
            db.execute("INSERT INTO memories_fts (memories_fts) VALUES ('optimize')")
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
