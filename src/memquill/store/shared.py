"""The statements both stores run, written once: the record filter and the shared queries.

Each backend mixes ``SharedQueries`` in and supplies three primitives — ``_q`` (read rows
whose columns are addressable by name), ``_write`` (one statement in its own write
transaction) and ``dialect``. Backend-specific work (full text, vectors, the job lease,
erasure) stays in the backend packages.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memquill.errors import PermissionDeniedError, StoreError
from memquill.model import Event, MemoryRecord, Revision, Scope
from memquill.model.block import CoreBlock, Tally
from memquill.model.event import LOG_MARKERS
from memquill.model.query import JobStatus, RecordFilter
from memquill.store import codec, erasure
from memquill.store.dialect import Dialect
from memquill.store.recordcache import RecordCache


def filter_sql(d: Dialect, f: RecordFilter, alias: str = "m") -> tuple[str, list[Any]]:
    """The WHERE clause of a RecordFilter in ``d``'s style; mirrors ``model.query.matches``."""
    a = alias + "."
    r = f.reader
    sql = [f"{a}tenant = ?", f"{a}user_id = ?"]
    args: list[Any] = [r.tenant, r.user]
    for dim in ("agent", "project", "session") if not f.owner else ():
        sql.append(d.is_(f"{a}{dim}") if f.exact_scope else f"({a}{dim} IS NULL OR {a}{dim} = ?)")
        args.append(getattr(r, dim))
    for col, values in (("status", f.statuses), ("type", f.types)):
        if values is not None:
            clause, more = d.any_of(f"{a}{col}", sorted(v.value for v in values))
            sql.append(clause)
            args.extend(more)
    for col in ("subject", "key"):
        if getattr(f, col) is not None:
            sql.append(f"{a}{col} = ?")
            args.append(getattr(f, col))
    if f.at is not None:
        sql.append(
            f"({a}valid_from IS NULL OR {a}valid_from <= ?) AND ({a}valid_to IS NULL OR "
            f"{a}valid_to > ?) AND ({a}expires_at IS NULL OR {a}expires_at > ?)"
        )
        args.extend([d.instant(f.at)] * 3)
    return d.sql(" AND ".join(sql)), args


class SharedQueries:
    """Store methods whose SQL is the same on every backend, up to the dialect."""

    dialect: Dialect

    def _q(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _write(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement in its own write transaction; returns the rows it touched."""
        raise NotImplementedError

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        return self._q(self.dialect.sql(sql), args)

    # --- events -------------------------------------------------------------------------
    def get_events(self, scope: Scope, ids: Sequence[str]) -> list[Event]:
        if not ids:
            return []
        clause, args = self.dialect.any_of("id", list(ids))
        rows = self._rows(
            f"SELECT seq, body FROM events e WHERE tenant = ? AND user_id = ? AND {clause} "
            f"AND {erasure.not_erased('e')} ORDER BY seq",
            [scope.tenant, scope.user, *args],
        )
        return [codec.event_from_body(r["body"], r["seq"]) for r in rows]

    def session_events(
        self, scope: Scope, session: str, after_seq: int = 0, limit: int | None = None
    ) -> list[Event]:
        rows = self._rows(
            "SELECT seq, body FROM events e WHERE tenant = ? AND user_id = ? AND session = ? "
            f"AND seq > ? AND {erasure.not_erased('e')} ORDER BY seq LIMIT ?",
            [scope.tenant, scope.user, session, after_seq, self._limit(limit)],
        )
        return [codec.event_from_body(r["body"], r["seq"]) for r in rows]

    # --- records ------------------------------------------------------------------------
    @property
    def parsed(self) -> RecordCache:
        """Records parsed by earlier reads (``store/recordcache.py``), per store object."""
        cache: RecordCache | None = self.__dict__.get("_parsed")
        if cache is None:
            cache = self.__dict__["_parsed"] = RecordCache()
        return cache

    def _body(self) -> str:
        return f"{self.dialect.as_text('body')} AS body"

    def get(self, memory_id: str) -> MemoryRecord | None:
        rows = self._rows(f"SELECT id, {self._body()} FROM memories WHERE id = ?", [memory_id])
        return self.parsed.parse(rows[0]["id"], rows[0]["body"]) if rows else None

    def get_many(self, ids: Sequence[str]) -> list[MemoryRecord]:
        if not ids:
            return []
        clause, args = self.dialect.any_of("id", list(ids))
        rows = self._rows(f"SELECT id, {self._body()} FROM memories WHERE {clause}", args)
        by_id = {r["id"]: self.parsed.parse(r["id"], r["body"]) for r in rows}
        return [by_id[i] for i in ids if i in by_id]

    def history(self, memory_id: str) -> list[Revision]:
        rows = self._rows(
            "SELECT memory_id, revision, op, actor, reason, event_ids, before, after, at "
            "FROM revisions WHERE memory_id = ? ORDER BY revision",
            [memory_id],
        )
        read = self.dialect.read_instant
        return [codec.revision_from_row(**{**dict(r), "at": read(r["at"])}) for r in rows]

    def find(self, f: RecordFilter, limit: int | None = None) -> list[MemoryRecord]:
        where, args = filter_sql(self.dialect, f)
        rows = self._q(
            f"SELECT m.id, {self.dialect.as_text('m.body')} AS body FROM memories m WHERE {where} "
            f"ORDER BY m.updated_at DESC, m.rowid DESC LIMIT {self.dialect.param}",
            [*args, self._limit(limit)],
        )
        return [self.parsed.parse(r["id"], r["body"]) for r in rows]

    def count(self, f: RecordFilter) -> int:
        where, args = filter_sql(self.dialect, f)
        return int(self._q(f"SELECT COUNT(*) AS n FROM memories m WHERE {where}", args)[0]["n"])

    # --- jobs ---------------------------------------------------------------------------
    def finish(self, job_id: int, worker: str, at: datetime) -> None:
        self._write(
            self.dialect.sql(
                "UPDATE jobs SET status = 'done', lease_until = NULL, updated_at = ? "
                "WHERE id = ? AND worker = ? AND status = 'running'"
            ),
            [self.dialect.instant(at), job_id, worker],
        )

    def fail(self, job_id: int, worker: str, error: str, retry_at: datetime | None, at: datetime) -> None:
        status = JobStatus.QUEUED if retry_at is not None else JobStatus.DEAD
        d = self.dialect
        self._write(
            d.sql(
                "UPDATE jobs SET status = ?, last_error = ?, run_after = COALESCE(?, run_after), "
                "lease_until = NULL, updated_at = ? WHERE id = ? AND worker = ? AND status = 'running'"
            ),
            [status, error[:2000], d.instant(retry_at), d.instant(at), job_id, worker],
        )

    def job_counts(self, scope: Scope | None = None) -> dict[str, int]:
        where, args = "", []
        if scope is not None:
            where, args = "WHERE tenant = ? AND user_id = ?", [scope.tenant, scope.user]
        rows = self._rows(f"SELECT status, COUNT(*) AS n FROM jobs {where} GROUP BY status", args)
        return {r["status"]: r["n"] for r in rows}

    def pending_events(self, scope: Scope, session: str, limit: int = 50) -> list[Event]:
        rows = self._rows(
            "SELECT e.seq, e.body FROM events e JOIN jobs j ON j.tenant = e.tenant AND "
            "j.user_id = e.user_id AND j.kind = 'extract' AND j.ref = e.id "
            "WHERE e.tenant = ? AND e.user_id = ? AND e.session = ? "
            f"AND j.status IN ('queued', 'running') AND {erasure.not_erased('e')} "
            "ORDER BY e.seq DESC LIMIT ?",
            [scope.tenant, scope.user, session, limit],
        )
        return [codec.event_from_body(r["body"], r["seq"]) for r in reversed(rows)]

    # --- core blocks --------------------------------------------------------------------
    def put_block(self, block: CoreBlock, force: bool = False) -> None:
        """Insert or replace, in one statement: a read-only block is replaced only with
        ``force`` (checking first, then writing, would race another writer)."""
        written = self._write(
            self.dialect.sql(
                "INSERT INTO core_blocks VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT "
                "(tenant, user_id, agent, name) DO UPDATE SET content = excluded.content, "
                "char_limit = excluded.char_limit, read_only = excluded.read_only, "
                "updated_at = excluded.updated_at WHERE NOT core_blocks.read_only OR ?"
            ),
            [
                block.tenant,
                block.user,
                block.agent or "",
                block.name,
                block.content,
                block.char_limit,
                bool(block.read_only),
                self.dialect.instant(block.updated_at),
                bool(force),
            ],
        )
        if written == 0:
            raise PermissionDeniedError(f"block {block.name!r} is read-only")

    def blocks(self, scope: Scope) -> list[CoreBlock]:
        rows = self._rows(
            "SELECT * FROM core_blocks WHERE tenant = ? AND user_id = ? AND agent IN ('', ?) "
            "ORDER BY name, agent",
            [scope.tenant, scope.user, scope.agent or ""],
        )
        return [
            CoreBlock(
                tenant=r["tenant"],
                user=r["user_id"],
                agent=r["agent"] or None,
                name=r["name"],
                content=r["content"],
                char_limit=r["char_limit"],
                read_only=bool(r["read_only"]),
                updated_at=self.dialect.read_instant(r["updated_at"]) or _never(r),
            )
            for r in rows
        ]

    # --- health -------------------------------------------------------------------------
    def tally(self, tenant: str, user: str) -> Tally:
        d, t = self.dialect, Tally()

        def rows(select: str, table: str, rest: str = "") -> list[Any]:
            sql = f"SELECT {select} FROM {table} WHERE tenant = ? AND user_id = ? {rest}"
            return self._rows(sql, [tenant, user])

        for r in rows("status, type, COUNT(*) AS n", "memories", "GROUP BY status, type"):
            t.records.setdefault(r["status"], {})[r["type"]] = r["n"]
        markers = ", ".join(f"'{k}'" for k in sorted(LOG_MARKERS))  # constants, not input
        role, kind = d.json_text("body", "role"), d.json_text("body", "metadata", "kind")
        interactions = f"AND NOT ({role} = 'system' AND COALESCE({kind}, '') IN ({markers}))"
        day = f"{d.day('occurred_at')} AS d, COUNT(*) AS n"
        for r in rows(day, "events", f"{interactions} GROUP BY d ORDER BY d"):
            t.events_by_day[r["d"]] = r["n"]
        t.events = sum(t.events_by_day.values())
        t.accesses = int(rows("COUNT(*) AS n", "access_log")[0]["n"])
        useful = f"COALESCE(SUM({d.json_int('body', 'useful_count')}), 0) AS n"
        t.useful = int(rows(useful, "memories")[0]["n"])
        retries = f"status, COUNT(*) AS n, SUM({d.greatest}(attempts - 1, 0)) AS r"
        for r in rows(retries, "jobs", "GROUP BY status"):
            t.jobs[r["status"]] = r["n"]
            t.retries += int(r["r"] or 0)
        latest = "AND status = 'done' ORDER BY id DESC LIMIT 1000"
        t.job_latency_s = [
            float(r["s"]) for r in rows(f"{d.elapsed('created_at', 'updated_at')} AS s", "jobs", latest)
        ]
        for r in rows("op, COUNT(*) AS n", "revisions", "GROUP BY op"):
            t.ops[r["op"]] = r["n"]
        return t

    def erased(self, scope: Scope, ids: Sequence[str]) -> dict[str, datetime]:
        if not ids:
            return {}
        clause, args = self.dialect.any_of("id", list(ids))
        rows = self._rows(
            f"SELECT id, at FROM erased_events WHERE tenant = ? AND user_id = ? AND {clause}",
            [scope.tenant, scope.user, *args],
        )
        return {r["id"]: self.dialect.read_instant(r["at"]) or _never(r) for r in rows}

    def meta(self, key: str) -> Any:
        rows = self._rows("SELECT value FROM meta WHERE key = ?", [key])
        return rows[0]["value"] if rows else None

    def _limit(self, limit: int | None) -> int | None:
        return self.dialect.no_limit if limit is None else limit


def _never(row: Any) -> datetime:
    raise StoreError(f"row without an instant: {dict(row)!r}")
