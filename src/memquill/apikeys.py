"""API keys: create, verify and revoke them over any store that implements ``KeyStore``.

A key is ``mq_<id>_<secret>``. The id is public (it names the key in ``keys list`` and in
logs); the secret is 32 random bytes, shown once and stored only as a salted scrypt hash.
scrypt makes a stolen table useless for brute force, but it costs ~50 ms, so a verified
key is remembered per process by a SHA-256 of the whole token; the key row is still read on
every request, so a revocation takes effect at once.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
from collections.abc import Iterable
from datetime import datetime
from typing import Protocol, runtime_checkable

from memquill.errors import NotFoundError, ValidationError
from memquill.model.apikey import ApiKey
from memquill.model.event import Trust
from memquill.model.scope import Scope

PREFIX = "mq"
TOKEN = re.compile(r"^mq_([0-9a-f]{16})_([A-Za-z0-9_-]{20,100})$")
SCRYPT = {"n": 2**14, "r": 8, "p": 1}


@runtime_checkable
class KeyStore(Protocol):
    """The store methods the key ring needs (both backends implement them)."""

    def put_api_key(self, key: ApiKey) -> None: ...

    def get_api_key(self, key_id: str) -> ApiKey | None: ...

    def api_keys(self, tenant: str | None = None) -> list[ApiKey]: ...

    def revoke_api_key(self, key_id: str, at: datetime) -> bool: ...


def hash_secret(secret: str, salt: bytes | None = None) -> str:
    """``scrypt$n$r$p$salt$hash``: self-describing, so parameters can be raised later."""
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(secret.encode(), salt=salt, dklen=32, **SCRYPT)
    return f"scrypt${SCRYPT['n']}${SCRYPT['r']}${SCRYPT['p']}${salt.hex()}${digest.hex()}"


def check_secret(secret: str, stored: str) -> bool:
    try:
        algo, n, r, p, salt, digest = stored.split("$")
        if algo != "scrypt":
            return False
        got = hashlib.scrypt(
            secret.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=len(digest) // 2
        )
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)


def parse_trust(values: Iterable[str] | None) -> tuple[Trust, ...] | None:
    if values is None:
        return None
    out: list[Trust] = []
    for v in values:
        try:
            out.append(Trust(v))
        except ValueError as exc:
            allowed = ", ".join(t.value for t in Trust)
            raise ValidationError(f"trust class must be one of {allowed}; got {v!r}") from exc
    if not out:
        raise ValidationError("a trust limit needs at least one trust class")
    return tuple(dict.fromkeys(out))


class KeyRing:
    """Key management on one store; thread-safe (the cache is guarded)."""

    def __init__(self, store: object) -> None:
        if not isinstance(store, KeyStore):
            raise ValidationError(f"this store ({type(store).__name__}) cannot hold API keys")
        self.store = store
        self._verified: dict[str, str] = {}  # sha256(token) -> key id
        self._lock = threading.Lock()

    def create(
        self,
        tenant: str,
        now: datetime,
        *,
        name: str = "",
        read_only: bool = False,
        trust: Iterable[str] | None = None,
    ) -> tuple[ApiKey, str]:
        """A new key and its token; the token is never retrievable again."""
        tenant = Scope.of(tenant=tenant).tenant
        key_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
        key = ApiKey(
            id=key_id,
            tenant=tenant,
            name=name,
            secret_hash=hash_secret(secret),
            read_only=read_only,
            trust=parse_trust(trust),
            created_at=now,
        )
        self.store.put_api_key(key)
        return key, f"{PREFIX}_{key_id}_{secret}"

    def list(self, tenant: str | None = None) -> list[ApiKey]:
        return self.store.api_keys(tenant)

    def revoke(self, key_id: str, now: datetime) -> ApiKey:
        if not self.store.revoke_api_key(key_id, now):
            key = self.store.get_api_key(key_id)
            if key is None:
                raise NotFoundError(f"no API key {key_id!r}")
            return key  # already revoked: revoking again changes nothing
        key = self.store.get_api_key(key_id)
        assert key is not None
        return key

    def verify(self, token: str) -> ApiKey | None:
        """The active key this token belongs to, or None (unknown, wrong secret, revoked)."""
        m = TOKEN.match(token.strip())
        if m is None:
            return None
        key = self.store.get_api_key(m.group(1))
        if key is None or not key.active:
            return None
        fingerprint = hashlib.sha256(token.strip().encode()).hexdigest()
        with self._lock:
            known = self._verified.get(fingerprint) == key.id
        if not known:
            if not check_secret(m.group(2), key.secret_hash):
                return None
            with self._lock:
                self._verified[fingerprint] = key.id
        return key
