"""Write checks and driver-error mapping, the same on every backend.

A non-finite or mis-sized embedding is refused before anything is written; a unique
violation from the driver is a ``ConflictError``; a row that no longer decodes is a
``StoreError``. Callers never see ``sqlite3.*`` or ``psycopg.*``.
"""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from memquill.errors import ConflictError, MemquillError, PermissionDeniedError, StoreError, ValidationError
from memquill.maintain.jobs import extract_job
from memquill.model import Create, Scope, Update
from memquill.model.block import CoreBlock
from memquill.model.query import RecordFilter
from memquill.store import codec
from memquill.store.base import Store
from memquill.store.shared import SharedQueries
from memquill.store.sqlite import SQLiteStore
from memquill.store.sqlite.schema import MIGRATIONS
from tests.conformance.builders import T0, audit, create, event, record, scope, vec


def raw(store: Store, sql: str, args: list[Any] | None = None) -> int:
    """One statement straight to the driver, in the store's placeholder style."""
    assert isinstance(store, SharedQueries)
    return store._write(store.dialect.sql(sql), args or [])


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_non_finite_embedding_is_refused_on_create(store: Store, bad: float) -> None:
    emb = vec("tea").tolist()
    emb[7] = bad
    with pytest.raises(ValidationError, match="NaN or infinity"):
        store.apply([Create(record("m1"), audit(), embedding=emb)])
    assert store.get("m1") is None
    assert store.history("m1") == []


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_a_non_finite_embedding_is_refused_on_update_and_rolls_the_batch_back(
    store: Store, bad: float
) -> None:
    store.apply([create(record("m1"))])
    cur = store.get("m1")
    assert cur is not None
    emb = [bad] * len(vec("x"))
    nxt = cur.model_copy(update={"revision": 2, "content": "the user drinks coffee"})
    with pytest.raises(ValidationError):
        store.apply([create(record("m2", "another")), Update(nxt, 1, audit(), embedding=emb)])
    assert store.get("m2") is None
    after = store.get("m1")
    assert after is not None and after.revision == 1 and after.content == cur.content


def test_an_embedding_of_the_wrong_size_is_refused(store: Store) -> None:
    with pytest.raises(ValidationError, match="shape"):
        store.apply([Create(record("m1"), audit(), embedding=[0.1, 0.2, 0.3])])
    assert store.get("m1") is None


def test_a_driver_unique_violation_is_a_conflict(store: Store) -> None:
    with pytest.raises(ConflictError):
        raw(store, "INSERT INTO meta (key, value) SELECT key, value FROM meta WHERE key = 'seq'")


def test_creating_an_existing_id_is_a_conflict(store: Store) -> None:
    store.apply([create(record("m1"))])
    with pytest.raises(ConflictError):
        store.apply([create(record("m1", "something else"))])
    got = store.get("m1")
    assert got is not None and got.content == "the user drinks green tea"


def test_a_malformed_row_is_a_store_error(store: Store) -> None:
    store.apply([create(record("m1"))])
    raw(store, "UPDATE memories SET body = ? WHERE id = ?", ['{"id": "m1"}', "m1"])
    with pytest.raises(StoreError):
        store.get("m1")
    with pytest.raises(StoreError):
        store.find(RecordFilter(scope()))


def test_a_malformed_event_is_a_store_error(store: Store) -> None:
    store.append_event(event("evt-1"))
    raw(store, "UPDATE events SET body = ? WHERE id = ?", ['{"content": 3}', "evt-1"])
    with pytest.raises(StoreError):
        store.get_events(scope(), ["evt-1"])


def test_bad_sql_surfaces_as_a_memquill_error(store: Store) -> None:
    with pytest.raises(MemquillError) as info:
        raw(store, "UPDATE no_such_table SET x = 1")
    assert type(info.value).__module__ == "memquill.errors"


# --- job identity ----------------------------------------------------------------------------
def test_job_keys_cannot_be_forged_by_separators_in_names() -> None:
    a = extract_job("e", Scope(tenant="a:b", user="c"), None, T0)
    b = extract_job("e", Scope(tenant="a", user="b:c"), None, T0)
    c = extract_job("b:c:e", Scope(tenant="a", user="x"), None, T0)
    d = extract_job("e", Scope(tenant="a", user="x:b:c"), None, T0)
    assert len({a.key, b.key, c.key, d.key}) == 4
    assert extract_job("evt-1", Scope(tenant="acme", user="alice"), 1, T0).key == "extract:acme:alice:evt-1"


def test_each_user_gets_its_own_extract_job_and_pending_events(store: Store) -> None:
    """Tenants and users whose joined names collide still have separate jobs and queues."""
    first, second = Scope(tenant="a:b", user="c", session="s"), Scope(tenant="a", user="b:c", session="s")
    for sc, text in ((first, "I drink tea"), (second, "I drink coffee")):
        e = event("e", text, sc=sc)
        store.append_event(e, [extract_job("e", sc, None, T0)])
    assert store.job_counts() == {"queued": 2}
    assert [e.content for e in store.pending_events(first, "s")] == ["I drink tea"]
    assert [e.content for e in store.pending_events(second, "s")] == ["I drink coffee"]


def test_a_claimed_job_keeps_its_reference(store: Store) -> None:
    sc = scope(session="s")
    store.append_event(event("evt-9", sc=sc), [extract_job("evt-9", sc, None, T0)])
    (claimed,) = store.claim("w", T0, 60, 10)
    assert claimed.ref == "evt-9" and claimed.payload["seq"] is not None


def test_jobs_queued_before_the_reference_column_still_count_as_pending(tmp_path: Path) -> None:
    """An old SQLite file (schema 1, keys only) migrates: its queued extract jobs keep their
    events pending. The portable migration statements run the same on PostgreSQL."""
    path = str(tmp_path / "old.db")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL, name TEXT NOT NULL, applied_at REAL)")
    for stmt in MIGRATIONS[0].statements:
        db.execute(stmt)
    db.execute("INSERT INTO schema_version VALUES (1, 'initial', 0)")
    e = event("evt-1", sc=scope(session="s"))
    db.execute(
        "INSERT INTO events (id, tenant, user_id, session, occurred_at, content_hash, body) "
        "VALUES (?, 'acme', 'alice', 's', 0, 'h', ?)",
        ("evt-1", codec.event_body(e)),
    )
    db.execute(
        "INSERT INTO jobs (key, kind, tenant, user_id, payload, status, attempts, max_attempts, "
        "run_after, created_at, updated_at) VALUES ('extract:acme:alice:evt-1', 'extract', 'acme', "
        "'alice', '{}', 'queued', 0, 5, 0, 0, 0)"
    )
    db.commit()
    db.close()
    store = SQLiteStore(path)
    try:
        assert store.schema_version() == MIGRATIONS[-1].version
        assert [x.id for x in store.pending_events(scope(), "s")] == ["evt-1"]
    finally:
        store.close()


# --- core blocks -------------------------------------------------------------------------------
def test_a_read_only_block_is_replaced_only_with_force(store: Store) -> None:
    def put(content: str, read_only: bool, force: bool = False) -> None:
        block = CoreBlock(
            tenant="acme",
            user="alice",
            name="rules",
            content=content,
            char_limit=200,
            read_only=read_only,
            updated_at=T0,
        )
        store.put_block(block, force=force)

    put("Always answer in Chinese.", read_only=True)
    with pytest.raises(PermissionDeniedError):
        put("Answer in English.", read_only=False)
    assert [b.content for b in store.blocks(scope())] == ["Always answer in Chinese."]
    put("Answer in English.", read_only=False, force=True)
    put("Answer briefly.", read_only=False)
    assert [b.content for b in store.blocks(scope())] == ["Answer briefly."]
