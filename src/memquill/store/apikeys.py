"""SQL for the ``api_keys`` table (migration 13), written once for both backends.

The two dialects differ only in the placeholder and in how an instant is stored (SQLite:
epoch seconds; PostgreSQL: timestamptz), so both are parameters here rather than two copies.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from memquill.clock import from_epoch
from memquill.model.apikey import ApiKey
from memquill.model.event import Trust

COLUMNS = "id, tenant, name, secret_hash, read_only, trust, created_at, revoked_at"
INSERT = f"INSERT INTO api_keys ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
GET = f"SELECT {COLUMNS} FROM api_keys WHERE id = ?"
LIST_ALL = f"SELECT {COLUMNS} FROM api_keys ORDER BY created_at, id"
LIST_TENANT = f"SELECT {COLUMNS} FROM api_keys WHERE tenant = ? ORDER BY created_at, id"
REVOKE = "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL"


def sql(statement: str, placeholder: str) -> str:
    return statement.replace("?", placeholder)


def row(key: ApiKey, epoch: bool) -> tuple[Any, ...]:
    trust = None if key.trust is None else ",".join(t.value for t in key.trust)
    return (
        key.id,
        key.tenant,
        key.name,
        key.secret_hash,
        key.read_only,
        trust,
        instant(key.created_at, epoch),
        instant(key.revoked_at, epoch),
    )


def instant(at: datetime | None, epoch: bool) -> float | datetime | None:
    return at.timestamp() if epoch and at is not None else at


def from_row(r: Mapping[str, Any]) -> ApiKey:
    def when(v: Any) -> Any:  # SQLite: epoch seconds; PostgreSQL: datetime (None stays None)
        return from_epoch(v) if isinstance(v, int | float) else v

    trust = None if r["trust"] is None else tuple(Trust(t) for t in r["trust"].split(",") if t)
    return ApiKey(
        id=r["id"],
        tenant=r["tenant"],
        name=r["name"],
        secret_hash=r["secret_hash"],
        read_only=bool(r["read_only"]),
        trust=trust,
        created_at=when(r["created_at"]),
        revoked_at=when(r["revoked_at"]),
    )
