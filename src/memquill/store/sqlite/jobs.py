"""The durable job queue in SQLite: enqueue idempotently, lease, finish, fail."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from memquill.clock import from_epoch, to_epoch
from memquill.errors import ValidationError
from memquill.model.query import CRASH_TOLERANCE, Job
from memquill.store import codec


def enqueue(db: sqlite3.Connection, jobs: Sequence[Job]) -> int:
    inserted = 0
    for j in jobs:
        now = to_epoch(j.created_at or j.run_after)
        if now is None:
            raise ValidationError(f"job {j.key!r} needs created_at or run_after (the injected clock)")
        cur = db.execute(
            "INSERT INTO jobs (key, kind, ref, tenant, user_id, agent, project, session, "
            "payload, status, attempts, max_attempts, run_after, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?, ?) "
            "ON CONFLICT (key) DO NOTHING",
            (
                j.key,
                j.kind,
                j.ref,
                j.scope.tenant,
                j.scope.user,
                j.scope.agent,
                j.scope.project,
                j.scope.session,
                codec.job_payload(j),
                j.max_attempts,
                to_epoch(j.run_after) or now,
                now,
                now,
            ),
        )
        inserted += cur.rowcount
    return inserted


def claim(
    db: sqlite3.Connection, worker: str, t: float, lease_s: float, limit: int, kinds: Sequence[str]
) -> list[Job]:
    """Lease due jobs; exhausted leases of dead workers are dead-lettered first."""
    kind_sql = f" AND kind IN ({','.join('?' * len(kinds))})" if kinds else ""
    db.execute(
        "UPDATE jobs SET status = 'dead', lease_until = NULL, updated_at = ?, last_error = "
        "COALESCE(last_error, '') || 'lease expired after the last attempt (worker died?)' "
        "WHERE status = 'running' AND lease_until < ? AND attempts >= max_attempts * ?",
        (t, t, CRASH_TOLERANCE),
    )
    rows = db.execute(
        "UPDATE jobs SET status = 'running', worker = ?, lease_until = ?, "
        "attempts = attempts + 1, updated_at = ? WHERE id IN (SELECT id FROM jobs WHERE "
        "((status = 'queued' AND run_after <= ?) OR (status = 'running' AND lease_until < ?))"
        f"{kind_sql} ORDER BY run_after, id LIMIT ?) RETURNING *",
        [worker, t + lease_s, t, t, t, *kinds, limit],
    ).fetchall()
    return sorted((from_row(r) for r in rows), key=lambda j: j.id or 0)


def from_row(r: sqlite3.Row) -> Job:
    return codec.job_from_row(r, from_epoch)
