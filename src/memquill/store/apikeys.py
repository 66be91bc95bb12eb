"""The ``api_keys`` table (migration 13): store methods written once for both backends.

Mixed into each store next to ``SharedQueries``; it uses the same three primitives
(``_rows``, ``_write``, ``dialect``), so the dialect differences (placeholders, how an
instant is stored) stay in ``store/dialect.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from memquill.errors import StoreError
from memquill.model.apikey import ApiKey
from memquill.model.event import Trust
from memquill.store.dialect import Dialect

COLUMNS = "id, tenant, name, secret_hash, read_only, trust, created_at, revoked_at"


class ApiKeyQueries:
    """``put_api_key``, ``get_api_key``, ``api_keys``, ``revoke_api_key`` (see ``memquill.apikeys``)."""

    dialect: Dialect

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _write(self, sql: str, args: Sequence[Any] = ()) -> int:
        raise NotImplementedError

    def put_api_key(self, key: ApiKey) -> None:
        trust = None if key.trust is None else ",".join(t.value for t in key.trust)
        d = self.dialect
        self._write(
            d.sql(f"INSERT INTO api_keys ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
            (
                key.id,
                key.tenant,
                key.name,
                key.secret_hash,
                key.read_only,
                trust,
                d.instant(key.created_at),
                d.instant(key.revoked_at),
            ),
        )

    def get_api_key(self, key_id: str) -> ApiKey | None:
        rows = self._rows(f"SELECT {COLUMNS} FROM api_keys WHERE id = ?", [key_id])
        return self._key(rows[0]) if rows else None

    def api_keys(self, tenant: str | None = None) -> list[ApiKey]:
        if tenant is None:
            rows = self._rows(f"SELECT {COLUMNS} FROM api_keys ORDER BY created_at, id")
        else:
            rows = self._rows(
                f"SELECT {COLUMNS} FROM api_keys WHERE tenant = ? ORDER BY created_at, id", [tenant]
            )
        return [self._key(r) for r in rows]

    def revoke_api_key(self, key_id: str, at: datetime) -> bool:
        """Revoke once: a second revocation keeps the first instant (and returns False)."""
        sql = "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL"
        return self._write(self.dialect.sql(sql), (self.dialect.instant(at), key_id)) > 0

    def _key(self, r: Mapping[str, Any]) -> ApiKey:
        trust = None if r["trust"] is None else tuple(Trust(t) for t in r["trust"].split(",") if t)
        read = self.dialect.read_instant
        created = read(r["created_at"])
        if created is None:
            raise StoreError(f"API key {r['id']!r} has no creation time")
        return ApiKey(
            id=r["id"],
            tenant=r["tenant"],
            name=r["name"],
            secret_hash=r["secret_hash"],
            read_only=bool(r["read_only"]),
            trust=trust,
            created_at=created,
            revoked_at=read(r["revoked_at"]),
        )
