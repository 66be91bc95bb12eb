"""The write side of the SQLite store: one transaction applies a batch of typed changes,
their revision rows and their index entries (FTS row; the vector lives in the record row)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memquill.errors import MemquillError
from memquill.model import ApplyResult, Change, Create, MemoryRecord, Purge, SlotGuard, Update
from memquill.model.change import SLOT_OPEN
from memquill.store import checks, codec, erasure
from memquill.store.tombstone import tombstone


def apply_changes(db: sqlite3.Connection, changes: Sequence[Change], dim: int) -> ApplyResult:
    """Inside an open write transaction; one ``seq`` for the batch (the vector mirror's cursor)."""
    result = ApplyResult()
    seq = db.execute("UPDATE meta SET value = value + 1 WHERE key = 'seq' RETURNING value").fetchone()[0]
    for ch in changes:
        if isinstance(ch, SlotGuard):
            guard(db, ch)
        elif isinstance(ch, Create):
            create(db, ch, seq, dim)
            result.created.append(ch.record.id)
        elif isinstance(ch, Update):
            update(db, ch, seq, dim)
            result.updated.append(ch.record.id)
        elif isinstance(ch, Purge):
            purge(db, ch, seq, dim)
            result.purged.append(ch.memory_id)
        else:  # pragma: no cover - the union is closed
            raise MemquillError(f"unknown change {ch!r}")
    return result


def guard(db: sqlite3.Connection, g: SlotGuard) -> None:
    s = g.scope
    rows = db.execute(
        "SELECT id FROM memories WHERE tenant = ? AND user_id = ? AND agent IS ? AND "
        "project IS ? AND session IS ? AND subject = ? AND key = ? AND status IN "
        f"({','.join('?' * len(SLOT_OPEN))})",
        [
            s.tenant,
            s.user,
            s.agent,
            s.project,
            s.session,
            g.subject,
            g.key,
            *sorted(x.value for x in SLOT_OPEN),
        ],
    ).fetchall()
    checks.slot_unchanged(g, (r["id"] for r in rows))


def write_row(db: sqlite3.Connection, r: MemoryRecord, seq: int, emb: Any, dim: int) -> int:
    vec = checks.embedding(emb, dim, r.id)
    row = codec.record_row(r)
    row["seq"] = seq
    row["embedding"] = None if vec is None else codec.vec_bytes(vec)
    cols = ", ".join(row)
    cur = db.execute(
        f"INSERT INTO memories ({cols}) VALUES ({', '.join('?' * len(row))}) "
        f"ON CONFLICT (id) DO UPDATE SET "
        + ", ".join(f"{c} = excluded.{c}" for c in row if c not in ("id", "embedding"))
        + (", embedding = excluded.embedding" if emb is not None else "")
        + " RETURNING rowid",
        list(row.values()),
    )
    return int(cur.fetchone()[0])


def _revision(db: sqlite3.Connection, r: MemoryRecord, audit: Any, before: Any, at: datetime) -> None:
    old = None if before is None else json.dumps(before, ensure_ascii=False)
    db.execute(
        "INSERT INTO revisions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        codec.revision_row(r, audit, old, at.timestamp()),
    )


def create(db: sqlite3.Connection, ch: Create, seq: int, dim: int) -> None:
    r = ch.record
    checks.new_id(r.id, db.execute("SELECT 1 FROM memories WHERE id = ?", (r.id,)).fetchone() is not None)
    rowid = write_row(db, r, seq, ch.embedding, dim)
    db.execute("INSERT INTO memories_fts (rowid, terms) VALUES (?, ?)", (rowid, codec.search_terms(r)))
    _revision(db, r, ch.audit, None, r.updated_at)


def _current(db: sqlite3.Connection, memory_id: str, expected: int | None) -> Any:
    row = db.execute("SELECT rowid, revision, body FROM memories WHERE id = ?", (memory_id,)).fetchone()
    checks.current(memory_id, None if row is None else row["revision"], expected)
    return row


def update(db: sqlite3.Connection, ch: Update, seq: int, dim: int) -> None:
    r = ch.record
    checks.next_revision(ch)
    row = _current(db, r.id, ch.expected_revision)
    before = json.loads(row["body"])
    checks.same_owner((before["scope"]["tenant"], before["scope"]["user"]), r)
    write_row(db, r, seq, ch.embedding, dim)
    if ch.reindex:
        db.execute("DELETE FROM memories_fts WHERE rowid = ?", (row["rowid"],))
        db.execute(
            "INSERT INTO memories_fts (rowid, terms) VALUES (?, ?)",
            (row["rowid"], codec.search_terms(r)),
        )
    _revision(db, r, ch.audit, before, r.updated_at)


def purge(db: sqlite3.Connection, ch: Purge, seq: int, dim: int) -> None:
    row = _current(db, ch.memory_id, ch.expected_revision)
    dead = tombstone(codec.record_from_body(row["body"]), ch.audit, ch.at)
    db.execute("DELETE FROM memories_fts WHERE rowid = ?", (row["rowid"],))
    db.execute("UPDATE revisions SET before = NULL, after = NULL WHERE memory_id = ?", (dead.id,))
    write_row(db, dead, seq, None, dim)
    db.execute("UPDATE memories SET embedding = NULL WHERE rowid = ?", (row["rowid"],))
    _revision(db, dead, ch.audit, None, ch.at)
    erase_events(db, dead.scope.tenant, dead.scope.user, ch.erase_events, ch.at)


def erase_events(db: sqlite3.Connection, tenant: str, user: str, ids: Sequence[str], at: datetime) -> None:
    """Tombstone evidence events: their words redacted, their ids kept off every reader."""
    for eid in ids:
        row = db.execute(
            "SELECT body FROM events WHERE tenant = ? AND user_id = ? AND id = ?", (tenant, user, eid)
        ).fetchone()
        if row is not None:
            db.execute(
                "UPDATE events SET body = ? WHERE tenant = ? AND user_id = ? AND id = ?",
                (erasure.redacted_body(row["body"]), tenant, user, eid),
            )
        db.execute(
            "INSERT OR IGNORE INTO erased_events VALUES (?, ?, ?, ?)", (tenant, user, eid, at.timestamp())
        )
