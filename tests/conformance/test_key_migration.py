"""Migration 11: records keyed by value before the catalogue are rekeyed by attribute."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from memquill.keymap import migration_statements
from memquill.model import Polarity
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from tests.conformance.builders import put, record, scope


def _migrate_and_reopen(store: Store, backend: str, path: Path) -> Store:
    """Run migration 11's statements on a database that holds pre-catalogue keys (as the
    runner does on an older database), then open it again."""
    if backend == "sqlite":
        from memquill.store.sqlite import SQLiteStore

        with sqlite3.connect(path) as db:
            for stmt in migration_statements("sqlite"):
                db.execute(stmt)
        return SQLiteStore(str(path))
    import psycopg

    from memquill.store.postgres import PostgresStore

    url = os.environ["MEMQUILL_PG_URL"]
    schema = store.schema  # type: ignore[attr-defined]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'SET search_path TO "{schema}"')
        for stmt in migration_statements("postgres"):
            conn.execute(stmt)
    return PostgresStore(url, schema=schema)


def test_old_value_keys_are_rekeyed_by_attribute(backend: str, make_store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "old.db"
    store = make_store(str(path)) if backend == "sqlite" else make_store()
    put(
        store,
        record(
            "m1", "project uses PostgreSQL", subject="project", key="stack:postgresql", value="PostgreSQL"
        ),
        record("m2", "lives in Lisbon", subject="user", key="location", value="Lisbon"),
        record("m3", "manager is Tom", subject="user", key="manager", value="Tom"),
        record("m4", "no cilantro", key="diet:cilantro", polarity=Polarity.NEGATIVE),
        record("m5", "likes tea", key="beverage:tea", value="tea"),
        record("m6", "dentist on Friday", key="plan:dentist"),
    )
    again = _migrate_and_reopen(store, backend, path)
    try:
        got = {r.id: (r.subject, r.key) for r in again.get_many(["m1", "m2", "m3", "m4", "m5", "m6"])}
        assert got == {
            "m1": ("project", "stack:database"),
            "m2": ("user", "city"),
            "m3": ("person:manager", "name"),
            "m4": ("user", "food_dislike"),
            "m5": ("user", "beverage"),
            "m6": ("user", "plan:dentist"),
        }
        # the filterable columns moved with the JSON body: slot lookups find the records
        slot = again.find(RecordFilter(scope(), subject="project", key="stack:database"))
        assert [r.id for r in slot] == ["m1"]
        assert [r.id for r in again.find(RecordFilter(scope(), subject="person:manager", key="name"))] == [
            "m3"
        ]
    finally:
        again.close()
