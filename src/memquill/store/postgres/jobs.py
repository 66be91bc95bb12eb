"""The durable job queue on PostgreSQL: idempotent enqueue, ``SKIP LOCKED`` leasing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg import Connection

from memquill.errors import ValidationError
from memquill.model.query import CRASH_TOLERANCE, Job
from memquill.store import codec

ENQUEUE = (
    "INSERT INTO jobs (key, kind, ref, tenant, user_id, agent, project, session, payload, status, "
    "attempts, max_attempts, run_after, created_at, updated_at) VALUES (%(key)s, %(kind)s, %(ref)s, "
    "%(tenant)s, %(user)s, %(agent)s, %(project)s, %(session)s, %(payload)s::json, 'queued', 0, "
    "%(max)s, %(run_after)s, %(created)s, %(created)s) ON CONFLICT (key) DO NOTHING"
)
# One statement: dead-letter leases that expired too often (workers keep dying on the job:
# ``CRASH_TOLERANCE`` times ``max_attempts``), then lease due jobs. SKIP LOCKED lets
# concurrent workers pass each other's rows, and the UPDATE re-checks each locked row, so a
# job is never leased twice.
CLAIM = (
    "WITH dead AS (UPDATE jobs SET status = 'dead', lease_until = NULL, updated_at = %(t)s, "
    "last_error = COALESCE(last_error, '') || 'lease expired after the last attempt "
    "(worker died?)' WHERE id IN (SELECT id FROM jobs WHERE status = 'running' AND "
    "lease_until < %(t)s AND attempts >= max_attempts * %(crash)s FOR UPDATE SKIP LOCKED) RETURNING id), "
    "picked AS (SELECT id FROM jobs WHERE ((status = 'queued' AND run_after <= %(t)s) OR "
    "(status = 'running' AND lease_until < %(t)s AND attempts < max_attempts * %(crash)s)){kinds} "
    "ORDER BY run_after, id LIMIT %(n)s FOR UPDATE SKIP LOCKED) "
    "UPDATE jobs j SET status = 'running', worker = %(w)s, lease_until = %(t)s + %(lease)s, "
    "attempts = j.attempts + 1, updated_at = %(t)s FROM picked WHERE j.id = picked.id RETURNING j.*"
)


def claim_sql(kinds: Sequence[str]) -> str:
    return CLAIM.format(kinds=" AND kind = ANY(%(kinds)s::text[])" if kinds else "")


def claim_params(worker: str, now: Any, lease: Any, limit: int, kinds: Sequence[str]) -> dict[str, Any]:
    return {"t": now, "n": limit, "w": worker, "kinds": list(kinds), "lease": lease, "crash": CRASH_TOLERANCE}


def enqueue(conn: Connection[Any], jobs: Sequence[Job]) -> int:
    """Insert jobs whose key is new (one pipelined batch); returns how many were inserted."""
    if not jobs:
        return 0
    with conn.cursor() as cur:
        cur.executemany(ENQUEUE, [_params(j) for j in jobs])
        return cur.rowcount


def from_row(r: dict[str, Any]) -> Job:
    return codec.job_from_row(r, lambda v: v)


def _params(j: Job) -> dict[str, Any]:
    created = j.created_at or j.run_after
    if created is None:
        raise ValidationError(f"job {j.key!r} needs created_at or run_after (the injected clock)")
    return {
        "key": j.key,
        "kind": j.kind,
        "ref": j.ref,
        "tenant": j.scope.tenant,
        "user": j.scope.user,
        "agent": j.scope.agent,
        "project": j.scope.project,
        "session": j.scope.session,
        "payload": codec.job_payload(j),
        "max": j.max_attempts,
        "run_after": j.run_after or created,
        "created": created,
    }
