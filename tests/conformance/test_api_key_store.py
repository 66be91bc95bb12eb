"""API keys (migration 13) on every backend: only a hash is stored, revocation is final."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memquill.apikeys import KeyRing, KeyStore, check_secret, hash_secret
from memquill.errors import NotFoundError, ScopeError, ValidationError
from memquill.model import Trust
from memquill.store.base import Store

T0 = datetime(2026, 11, 29, 2, 0, tzinfo=UTC)


def test_store_implements_the_key_protocol(store: Store) -> None:
    assert isinstance(store, KeyStore)


def test_create_stores_only_a_salted_hash_and_round_trips(store: Store) -> None:
    ring = KeyRing(store)
    key, token = ring.create("acme", T0, name="ingest", trust=["external", "tool"])
    stored = ring.list("acme")
    assert stored == [key]
    assert stored[0].created_at == T0 and stored[0].trust == (Trust.EXTERNAL, Trust.TOOL)
    secret = token.split("_", 2)[2]
    assert secret not in key.secret_hash and key.secret_hash.startswith("scrypt$")
    assert check_secret(secret, key.secret_hash) and not check_secret(secret + "x", key.secret_hash)
    # the same secret hashed twice gives two different strings: the salt is per hash
    assert hash_secret(secret) != hash_secret(secret)
    assert check_secret(secret, hash_secret(secret))


def test_verify_accepts_only_the_exact_active_token(store: Store) -> None:
    ring = KeyRing(store)
    key, token = ring.create("acme", T0)
    assert ring.verify(token) == key
    assert ring.verify(token) == key  # second time from the per-process cache
    assert ring.verify(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    assert ring.verify("mq_" + "0" * 16 + "_" + token.split("_", 2)[2]) is None
    assert ring.verify("") is None and ring.verify("Bearer " + token) is None
    revoked = ring.revoke(key.id, T0 + timedelta(minutes=5))
    assert revoked.revoked_at == T0 + timedelta(minutes=5) and not revoked.active
    assert ring.verify(token) is None  # cached or not, a revoked key is refused
    assert ring.revoke(key.id, T0 + timedelta(hours=1)).revoked_at == revoked.revoked_at


def test_list_by_tenant_and_errors(store: Store) -> None:
    ring = KeyRing(store)
    a, _ = ring.create("acme", T0)
    g, _ = ring.create("globex", T0 + timedelta(seconds=1), read_only=True)
    assert [k.id for k in ring.list()] == [a.id, g.id]
    assert ring.list("globex") == [g] and g.read_only
    assert ring.list("nobody") == []
    with pytest.raises(NotFoundError):
        ring.revoke("0123456789abcdef", T0)
    with pytest.raises(ValidationError):
        ring.create("acme", T0, trust=["root"])
    with pytest.raises(ValidationError):
        ring.create("acme", T0, trust=[])
    with pytest.raises(ScopeError):
        ring.create("  ", T0)
    assert [k.id for k in ring.list()] == [a.id, g.id]  # nothing half-written


def test_user_erasure_leaves_keys_alone(store: Store) -> None:
    ring = KeyRing(store)
    key, token = ring.create("acme", T0)
    store.forget_scope("acme", "alice")
    assert ring.verify(token) == key
