"""What a replay reads beyond records, written once for both stores: the whole event log in
append order, the policy history and the query log, and the register of scratch copies
(so that erasing a user follows their data into replays)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memquill.model import Event, Scope
from memquill.model.log import PolicyRevision, QueryLog
from memquill.store import codec, erasure
from memquill.store.dialect import Dialect


class ReplayLog:
    dialect: Dialect

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _write(self, sql: str, args: Sequence[Any] = ()) -> int:
        raise NotImplementedError

    def _put(self, sql: str, args: Sequence[Any]) -> None:
        self._write(self.dialect.sql(sql), args)

    def _put_lazy(self, sql: str, args: Sequence[Any]) -> None:
        """Read bookkeeping that need not wait for a durable flush (a crash may lose the
        last few entries, never a record); stores whose commits are cheap keep ``_put``."""
        self._put(sql, args)

    def log_events(
        self, tenant: str | None = None, user: str | None = None, after_seq: int = 0, limit: int | None = None
    ) -> list[Event]:
        # an erased turn is never replayed: a forgotten fact must not come back from the log
        where, args = ["seq > ?", erasure.not_erased("e")], [after_seq]  # type: list[str], list[Any]
        for col, value in (("tenant", tenant), ("user_id", user)):
            if value is not None:
                where.append(f"{col} = ?")
                args.append(value)
        rows = self._rows(
            f"SELECT seq, body FROM events e WHERE {' AND '.join(where)} ORDER BY seq LIMIT ?",
            [*args, self.dialect.no_limit if limit is None else limit],
        )
        return [codec.event_from_body(r["body"], r["seq"]) for r in rows]

    def record_policy(self, rev: PolicyRevision) -> None:
        self._put(
            "INSERT INTO policy_log (policy_id, body, actor, reason, at) VALUES (?, ?, ?, ?, ?)",
            [rev.policy_id, rev.body, rev.actor, rev.reason, self.dialect.instant(rev.at)],
        )

    def policy_log(self) -> list[PolicyRevision]:
        rows = self._rows("SELECT seq, policy_id, body, actor, reason, at FROM policy_log ORDER BY seq")
        return [
            PolicyRevision(r["policy_id"], r["body"], r["actor"], r["reason"], self._at(r["at"]), r["seq"])
            for r in rows
        ]

    def log_query(self, entry: QueryLog) -> None:
        sc = entry.scope
        types = None if entry.types is None else json.dumps(entry.types)
        self._put_lazy(
            "INSERT INTO query_log (tenant, user_id, agent, project, session, query, k, types, hits, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                sc.tenant,
                sc.user,
                sc.agent,
                sc.project,
                sc.session,
                entry.query,
                entry.k,
                types,
                json.dumps(entry.hits),
                self.dialect.instant(entry.at),
            ],
        )

    def queries(
        self, tenant: str | None = None, user: str | None = None, since: datetime | None = None
    ) -> list[QueryLog]:
        where, args = ["1 = 1"], []  # type: list[str], list[Any]
        for col, value in (("tenant", tenant), ("user_id", user)):
            if value is not None:
                where.append(f"{col} = ?")
                args.append(value)
        if since is not None:
            where.append("at >= ?")
            args.append(self.dialect.instant(since))
        rows = self._rows(f"SELECT * FROM query_log WHERE {' AND '.join(where)} ORDER BY id", args)
        return [self._query(r) for r in rows]

    def _query(self, r: Any) -> QueryLog:
        scope = Scope(
            tenant=r["tenant"],
            user=r["user_id"],
            agent=r["agent"],
            project=r["project"],
            session=r["session"],
        )
        types = None if r["types"] is None else json.loads(r["types"])
        return QueryLog(scope, r["query"], r["k"], self._at(r["at"]), json.loads(r["hits"]), types, r["id"])

    def register_scratch(self, target: str, tenant: str, user: str, at: datetime) -> None:
        self._put(
            "INSERT INTO scratch_stores (target, tenant, user_id, at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            [target, tenant, user, self.dialect.instant(at)],
        )

    def scratch_stores(self, tenant: str, user: str) -> list[str]:
        rows = self._rows(
            "SELECT target FROM scratch_stores WHERE tenant = ? AND user_id = ? ORDER BY at", [tenant, user]
        )
        return [r["target"] for r in rows]

    def _at(self, value: Any) -> datetime:
        at = self.dialect.read_instant(value)
        assert at is not None  # NOT NULL columns
        return at
