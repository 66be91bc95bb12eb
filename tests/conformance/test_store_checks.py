"""Write checks and driver-error mapping, the same on every backend.

A non-finite or mis-sized embedding is refused before anything is written; a unique
violation from the driver is a ``ConflictError``; a row that no longer decodes is a
``StoreError``. Callers never see ``sqlite3.*`` or ``psycopg.*``.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from memquill.errors import ConflictError, MemquillError, StoreError, ValidationError
from memquill.model import Create, Update
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from memquill.store.shared import SharedQueries
from tests.conformance.builders import audit, create, record, scope, vec


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
    from tests.conformance.builders import event

    store.append_event(event("evt-1"))
    raw(store, "UPDATE events SET body = ? WHERE id = ?", ['{"content": 3}', "evt-1"])
    with pytest.raises(StoreError):
        store.get_events(scope(), ["evt-1"])


def test_bad_sql_surfaces_as_a_memquill_error(store: Store) -> None:
    with pytest.raises(MemquillError) as info:
        raw(store, "UPDATE no_such_table SET x = 1")
    assert type(info.value).__module__ == "memquill.errors"
