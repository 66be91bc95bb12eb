"""Behaviour only the PostgreSQL store has: many connections, HNSW, its schema, its driver.

Runs with ``--backend=postgres`` (or ``all``); skipped on SQLite. Every test works in a
fresh schema of the server at ``MEMQUILL_PG_URL``.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from memquill.errors import ConflictError, MemquillError, MigrationError, StoreError, ValidationError
from memquill.model import Create, SlotGuard
from memquill.model.query import JobStatus, RecordFilter
from memquill.store.base import Store
from memquill.text import query_terms
from tests.conformance.builders import T0, audit, create, hit_ids, job, put, qvec, record, scope

MakeStore = Callable[..., Store]


@pytest.fixture
def pg(make_store: MakeStore, backend: str) -> Any:
    if backend != "postgres":
        pytest.skip("PostgreSQL-only behaviour")
    return make_store()


@pytest.fixture
def sibling(pg: Any) -> Iterator[Callable[[], Any]]:
    """More stores (each with its own connection pool) on the same schema as ``pg``."""
    from memquill.store.postgres import PostgresStore

    made: list[PostgresStore] = []

    def factory() -> PostgresStore:
        made.append(PostgresStore(pg.url, dim=pg.dim, schema=pg.schema, pool_max=2))
        return made[-1]

    yield factory
    for s in made:
        s.close()


def sql(store: Any, query: str, *args: Any) -> list[dict[str, Any]]:
    """Raw SQL on the store's schema, for checks the Protocol cannot express."""
    with store._conn() as conn:
        cur = conn.execute(query, args)
        return cur.fetchall() if cur.description else []  # type: ignore[no-any-return]


def test_concurrent_workers_never_claim_the_same_job(pg: Any, sibling: Callable[[], Any]) -> None:
    pg.enqueue([job(f"k{i}") for i in range(200)])
    workers = [sibling() for _ in range(4)]
    claimed: dict[str, list[int]] = {f"w{i}": [] for i in range(len(workers))}
    barrier = threading.Barrier(len(workers))
    errors: list[BaseException] = []

    def work(name: str, store: Any) -> None:
        try:
            barrier.wait()
            while batch := store.claim(name, T0, 600, 7):
                for j in batch:
                    claimed[name].append(j.id)
                    store.finish(j.id, name, T0)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"w{i}", s)) for i, s in enumerate(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    every = Counter(i for ids in claimed.values() for i in ids)
    assert len(every) == 200 and set(every.values()) == {1}, "each job claimed exactly once"
    assert sum(bool(ids) for ids in claimed.values()) >= 2, "the work was shared"
    assert pg.job_counts() == {JobStatus.DONE: 200}


def test_two_guards_on_an_empty_slot_let_one_writer_in(pg: Any, sibling: Callable[[], Any]) -> None:
    stores = [sibling() for _ in range(6)]
    barrier = threading.Barrier(len(stores))
    outcome: list[str] = []

    def write(i: int, store: Any) -> None:
        rec = record(f"m{i}", f"the user lives in town {i}", key="location")
        barrier.wait()
        try:
            store.apply([SlotGuard(scope(), "user", "location", frozenset()), create(rec)])
            outcome.append("ok")
        except ConflictError:
            outcome.append("conflict")

    threads = [threading.Thread(target=write, args=(i, s)) for i, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcome) == ["conflict"] * 5 + ["ok"]
    assert pg.count(RecordFilter(scope(), key="location")) == 1


def test_hnsw_index_exists_and_serves_filtered_queries(pg: Any) -> None:
    [index] = sql(
        pg,
        "SELECT indexdef FROM pg_indexes WHERE schemaname = %s AND indexname = 'memory_vectors_hnsw'",
        pg.schema,
    )
    assert "USING hnsw (embedding vector_cosine_ops)" in index["indexdef"]
    rng = np.random.default_rng(0)
    with pg.bulk_load():  # builds the index once at the end, then refreshes the statistics
        pg.apply(
            [
                Create(record(f"m{i}", f"note {i}"), audit(), embedding=rng.standard_normal(384).tolist())
                for i in range(2000)
            ]
        )
    f = RecordFilter(scope(project="p"))
    plan = pg.explain_vector(f, qvec("note"), 10)
    assert "Index Scan using memory_vectors_hnsw" in plan, plan
    hits = pg.vector(f, np.asarray(rng.standard_normal(384), np.float32), 10)
    assert len(hits) == 10 and [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
    small = RecordFilter(scope(project="p"), key="nope")  # selective: the planner scans exactly
    assert "memory_vectors_hnsw" not in pg.explain_vector(small, qvec("note"), 10)


def test_vector_search_is_complete_when_the_filter_is_selective(pg: Any) -> None:
    """HNSW + WHERE may return fewer rows than exist; the store then answers exactly."""
    rng = np.random.default_rng(1)
    crowd = [
        Create(
            record(f"c{i}", "crowd", sc=scope("bob")), audit(), embedding=rng.standard_normal(384).tolist()
        )
        for i in range(400)
    ]
    pg.apply(crowd)
    put(pg, *(record(f"a{i}", f"alice note {i}") for i in range(3)))
    pg.analyze()
    assert sorted(hit_ids(pg.vector(RecordFilter(scope()), qvec("alice"), 10))) == ["a0", "a1", "a2"]


def test_schema_version_is_recorded_and_reopening_migrates_nothing(
    pg: Any, sibling: Callable[[], Any]
) -> None:
    from memquill.store.postgres.schema import migrations

    latest = migrations(pg.dim)[-1].version
    assert pg.schema_version() == latest
    put(pg, record("m1"))
    again = sibling()
    assert again.schema_version() == latest
    assert again.get("m1") == pg.get("m1")
    rows = sql(pg, "SELECT version, name FROM schema_version ORDER BY version")
    assert [r["version"] for r in rows] == [m.version for m in migrations(pg.dim)]


def test_a_schema_of_another_dimension_is_refused(pg: Any) -> None:
    from memquill.store.postgres import PostgresStore

    with pytest.raises(MigrationError, match="384-d"):
        PostgresStore(pg.url, dim=8, schema=pg.schema)


def test_fresh_schema_is_dropped_on_close(pg: Any) -> None:
    from memquill.store.postgres import PostgresStore

    tmp = PostgresStore.fresh(pg.url, dim=8)
    assert sql(pg, "SELECT 1 AS x FROM pg_namespace WHERE nspname = %s", tmp.schema)
    tmp.close()
    tmp.close()  # idempotent
    assert not sql(pg, "SELECT 1 AS x FROM pg_namespace WHERE nspname = %s", tmp.schema)


def test_driver_errors_surface_as_memquill_errors(pg: Any) -> None:
    import psycopg

    from memquill.store.postgres import PostgresStore

    with pytest.raises(StoreError) as unreachable:
        PostgresStore("postgresql://nobody@127.0.0.1:1/nowhere", timeout_s=2)
    assert not isinstance(unreachable.value, psycopg.Error)
    put(pg, record("m0", "a NUL \x00 in content is fine: it lives in JSON"))
    with pytest.raises(ValidationError):  # ...but a PostgreSQL text column cannot hold it
        put(pg, record("m1", subject="nul \x00 byte"))
    assert pg.get("m1") is None and pg.get("m0") is not None
    sql(pg, "DROP TABLE access_log")
    with pytest.raises(StoreError) as broken:
        pg.tally("acme", "alice")
    assert isinstance(broken.value, MemquillError) and not isinstance(broken.value, psycopg.Error)
    assert isinstance(broken.value.__cause__, psycopg.Error)


def test_lexical_words_split_like_fts5(pg: Any) -> None:
    """ "node.js" and e-mail addresses are split into words, and a query term is a phrase."""
    put(
        pg,
        record("node", "The project runs on Node.js 22"),
        record("mail", "my e-mail is alice@example.com"),
        record("js", "plain js tricks"),
    )
    f = RecordFilter(scope())
    assert hit_ids(pg.lexical(f, query_terms("node"), 5)) == ["node"]
    assert hit_ids(pg.lexical(f, query_terms("Node.js"), 5)) == ["node"]  # phrase, not "js" alone
    assert hit_ids(pg.lexical(f, query_terms("example.com"), 5)) == ["mail"]
    assert hit_ids(pg.lexical(f, ["it's", "'; DROP TABLE memories; --"], 5)) == []
    assert pg.count(f) == 3
