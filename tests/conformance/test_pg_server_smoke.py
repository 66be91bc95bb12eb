"""Smoke test for the PostgreSQL + pgvector server memquill's Postgres store targets.

Runs against MEMQUILL_PG_URL (e.g. ``export MEMQUILL_PG_URL=$(scripts/pg.sh start)``);
skipped when it is unset. Everything is done in temporary tables, so the test can run
against a shared database and leaves nothing behind.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

PG_URL = os.environ.get("MEMQUILL_PG_URL")

pytestmark = pytest.mark.skipif(not PG_URL, reason="MEMQUILL_PG_URL is not set")


@pytest.fixture()
def conn() -> Iterator[Any]:
    import psycopg  # only needed when a server is configured

    assert PG_URL is not None
    with psycopg.connect(PG_URL, autocommit=True, connect_timeout=10) as c:
        yield c


def test_connects(conn: Any) -> None:
    assert conn.execute("SELECT 1").fetchone() == (1,)
    version = conn.execute("SHOW server_version_num").fetchone()[0]
    assert int(version) >= 150000, f"PostgreSQL >= 15 required, got {version}"


def test_vector_extension_present(conn: Any) -> None:
    row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    assert row is not None, "extension vector is not installed in this database"
    major, minor = (int(x) for x in row[0].split(".")[:2])
    assert (major, minor) >= (0, 5), f"pgvector >= 0.5 needed for HNSW, got {row[0]}"


def test_hnsw_cosine_nearest_first(conn: Any) -> None:
    conn.execute("CREATE TEMP TABLE smoke_vec (id int PRIMARY KEY, e vector(3))")
    conn.execute("CREATE INDEX ON smoke_vec USING hnsw (e vector_cosine_ops)")
    rows = [
        (1, "[1,0,0]"),
        (2, "[0,1,0]"),
        (3, "[0,0,1]"),
        (4, "[0.7,0.7,0]"),
        (5, "[-1,0,0]"),
    ]
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO smoke_vec VALUES (%s, %s::vector)", rows)
    query = "[0.1,0.9,0.05]"
    # Force the index path so the HNSW operator class itself is exercised.
    conn.execute("SET enable_seqscan = off")
    try:
        plan = "\n".join(
            r[0]
            for r in conn.execute(
                "EXPLAIN SELECT id FROM smoke_vec ORDER BY e <=> %s::vector LIMIT 3", (query,)
            ).fetchall()
        )
        assert "smoke_vec_e_idx" in plan, plan
        got = conn.execute(
            "SELECT id, e <=> %s::vector AS d FROM smoke_vec ORDER BY e <=> %s::vector LIMIT 3",
            (query, query),
        ).fetchall()
    finally:
        conn.execute("RESET enable_seqscan")
    assert [r[0] for r in got] == [2, 4, 1], got
    assert got[0][1] < got[1][1] < got[2][1]


def test_chinese_presegmented_simple_tsvector(conn: Any) -> None:
    # memquill segments Chinese itself (jieba) and stores space-joined tokens, so the
    # `simple` config (no stemming, no stop words) must keep each token intact.
    doc = "我们 的 系统 微服务"
    lexemes = conn.execute(
        "SELECT array(SELECT lexeme FROM unnest(to_tsvector('simple', %s)) ORDER BY lexeme)",
        (doc,),
    ).fetchone()[0]
    assert sorted(lexemes) == sorted(["我们", "的", "系统", "微服务"])

    def matches(q: str) -> bool:
        sql = "SELECT to_tsvector('simple', %s) @@ plainto_tsquery('simple', %s)"
        return bool(conn.execute(sql, (doc, q)).fetchone()[0])

    assert matches("微服务")
    assert matches("系统 微服务")
    assert not matches("数据库")
    assert not matches("系统 数据库")  # plainto_tsquery ANDs the terms
