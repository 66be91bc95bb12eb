"""``Store.apply`` for PostgreSQL: every change of a batch on one connection, one transaction.

Runs of consecutive ``Create``s are sent with ``executemany`` (pipelined), the rest one
statement at a time. Slot guards serialize on an advisory lock per slot, then lock the
slot's open rows, so two writers who both saw an empty slot cannot both fill it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from psycopg import Connection

from memquill.errors import ConflictError, MemquillError
from memquill.model import ApplyResult, Audit, Change, Create, MemoryRecord, Purge, SlotGuard, Update
from memquill.model.change import SLOT_OPEN
from memquill.store import checks, codec, erasure
from memquill.store.postgres.sql import placeholders, slot_lock_key, tsvector_literal
from memquill.store.tombstone import tombstone

Conn = Connection[dict[str, Any]]

ROW = (*codec.RECORD_COLUMNS, "seq", "tsv")
CASTS = {"body": "%s::json", "tsv": "%s::tsvector"}
INSERT = (
    f"INSERT INTO memories ({', '.join(ROW)}) VALUES ({placeholders(ROW, CASTS)}) "
    "ON CONFLICT (id) DO NOTHING RETURNING id, rowid"
)
PUT_VECTOR = (
    "INSERT INTO memory_vectors (rowid, embedding) VALUES (%s, %b) "
    "ON CONFLICT (rowid) DO UPDATE SET embedding = excluded.embedding"
)
REVISION = (
    "INSERT INTO revisions (memory_id, revision, tenant, user_id, op, actor, reason, event_ids, "
    "before, after, at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s::json, %s::json, %s::json, %s)"
)
OPEN = sorted(s.value for s in SLOT_OPEN)


class Writer:
    """Applies one batch; ``seq`` stamps every row it writes."""

    def __init__(self, conn: Conn, schema: str, dim: int, seq: int) -> None:
        self.conn = conn
        self.schema = schema
        self.dim = dim
        self.seq = seq

    def run(self, changes: Sequence[Change]) -> ApplyResult:
        result = ApplyResult()
        i = 0
        while i < len(changes):
            ch = changes[i]
            if isinstance(ch, Create):
                j = i
                while j < len(changes) and isinstance(changes[j], Create):
                    j += 1
                creates = [c for c in changes[i:j] if isinstance(c, Create)]
                self.create(creates)
                result.created.extend(c.record.id for c in creates)
                i = j
                continue
            if isinstance(ch, SlotGuard):
                self.guard(ch)
            elif isinstance(ch, Update):
                self.update(ch)
                result.updated.append(ch.record.id)
            elif isinstance(ch, Purge):
                self.purge(ch)
                result.purged.append(ch.memory_id)
            else:  # pragma: no cover - the union is closed
                raise MemquillError(f"unknown change {ch!r}")
            i += 1
        return result

    # --- rows ------------------------------------------------------------------------------
    def row(self, r: MemoryRecord, tsv: str | None) -> dict[str, Any]:
        row = codec.record_row(r)
        for col in ("valid_from", "valid_to", "expires_at", "created_at", "updated_at"):
            row[col] = getattr(r, col)
        row.update(seq=self.seq, tsv=tsv)
        return row

    def revision(self, r: MemoryRecord, audit: Audit, before: Any, at: Any) -> tuple[Any, ...]:
        return codec.revision_row(r, audit, before, at)

    # --- changes ---------------------------------------------------------------------------
    def guard(self, g: SlotGuard) -> None:
        s = g.scope
        self.conn.execute(
            "SELECT pg_advisory_xact_lock(%s)", (slot_lock_key(self.schema, s, g.subject, g.key),)
        )
        # A new statement, so a new snapshot: it sees whatever the previous holder committed.
        rows = self.conn.execute(
            "SELECT id FROM memories WHERE tenant = %s AND user_id = %s AND agent IS NOT DISTINCT "
            "FROM %s AND project IS NOT DISTINCT FROM %s AND session IS NOT DISTINCT FROM %s AND "
            "subject = %s AND key = %s AND status = ANY(%s::text[]) ORDER BY id FOR UPDATE",
            (s.tenant, s.user, s.agent, s.project, s.session, g.subject, g.key, OPEN),
        ).fetchall()
        checks.slot_unchanged(g, (r["id"] for r in rows))

    def create(self, creates: Sequence[Create]) -> None:
        ids = [c.record.id for c in creates]
        if len(set(ids)) != len(ids):
            dup = next(i for i, n in Counter(ids).items() if n > 1)
            raise ConflictError(f"memory {dup!r} is created twice in one batch")
        vectors = [checks.embedding(c.embedding, self.dim, c.record.id) for c in creates]
        full = [self.row(c.record, tsvector_literal(codec.search_terms(c.record))) for c in creates]
        rows = [[r[col] for col in ROW] for r in full]
        with self.conn.cursor() as cur:
            cur.executemany(INSERT, rows, returning=True)
            rowids: dict[str, int] = {}
            while True:
                rowids.update((r["id"], r["rowid"]) for r in cur.fetchall())
                if not cur.nextset():
                    break
            for i in ids:
                checks.new_id(i, i not in rowids)
            cur.executemany(
                PUT_VECTOR, [(rowids[i], v) for i, v in zip(ids, vectors, strict=True) if v is not None]
            )
            cur.executemany(
                REVISION, [self.revision(c.record, c.audit, None, c.record.updated_at) for c in creates]
            )

    def current(self, memory_id: str, expected: int | None) -> dict[str, Any]:
        row = self.conn.execute(
            "SELECT rowid, revision, tenant, user_id, body::text AS body FROM memories "
            "WHERE id = %s FOR UPDATE",
            (memory_id,),
        ).fetchone()
        checks.current(memory_id, None if row is None else row["revision"], expected)
        assert row is not None
        return row

    def write(self, r: MemoryRecord, expected: int, tsv: str | None, *, reindex: bool) -> None:
        row = self.row(r, tsv)
        cols = [c for c in ROW if c != "id" and (c != "tsv" or reindex)]
        sets = ", ".join(f"{c} = {CASTS.get(c, '%s')}" for c in cols)
        cur = self.conn.execute(
            f"UPDATE memories SET {sets} WHERE id = %s AND revision = %s",
            [*(row[c] for c in cols), r.id, expected],
        )
        if cur.rowcount != 1:  # pragma: no cover - the row is locked by current()
            raise ConflictError(f"memory {r.id!r} moved past revision {expected}")

    def update(self, ch: Update) -> None:
        r = ch.record
        checks.next_revision(ch)
        emb = checks.embedding(ch.embedding, self.dim, r.id)
        old = self.current(r.id, ch.expected_revision)
        checks.same_owner((old["tenant"], old["user_id"]), r)
        self.write(
            r,
            ch.expected_revision,
            tsvector_literal(codec.search_terms(r)) if ch.reindex else None,
            reindex=ch.reindex,
        )
        if emb is not None:  # else the old vector stays: a status change is not a new meaning
            self.conn.execute(PUT_VECTOR, (old["rowid"], emb))
        self.conn.execute(REVISION, self.revision(r, ch.audit, old["body"], r.updated_at))

    def purge(self, ch: Purge) -> None:
        row = self.current(ch.memory_id, ch.expected_revision)
        dead = tombstone(codec.record_from_body(row["body"]), ch.audit, ch.at)
        self.conn.execute("UPDATE revisions SET before = NULL, after = NULL WHERE memory_id = %s", (dead.id,))
        self.write(dead, row["revision"], None, reindex=True)
        self.conn.execute("DELETE FROM memory_vectors WHERE rowid = %s", (row["rowid"],))
        self.conn.execute(REVISION, self.revision(dead, ch.audit, None, ch.at))
        self.erase_events(dead.scope.tenant, dead.scope.user, ch.erase_events, ch.at)

    def erase_events(self, tenant: str, user: str, ids: Sequence[str], at: Any) -> None:
        """Tombstone evidence events: their words redacted, their ids kept off every reader."""
        for eid in ids:
            row = self.conn.execute(
                "SELECT body FROM events WHERE tenant = %s AND user_id = %s AND id = %s", (tenant, user, eid)
            ).fetchone()
            if row is not None:
                body = erasure.redacted_body(row["body"])
                self.conn.execute(
                    "UPDATE events SET body = %s::json WHERE tenant = %s AND user_id = %s AND id = %s",
                    (body, tenant, user, eid),
                )
            self.conn.execute(
                "INSERT INTO erased_events VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (tenant, user, eid, at),
            )
