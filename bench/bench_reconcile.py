"""Reconcile cost per candidate at 1k and 100k existing records in the scope.

The lookup is local (slot index, then lexical near-duplicates in the scope), so the cost
must stay flat as the scope grows. Prints a markdown table; the ratio column compares each
size with the smallest, measured in the same run.

    python bench/bench_reconcile.py [--sizes 1000,100000] [--n 300]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine, records, summary, table

from memquill import FixedClock, Memory
from memquill.ingest import build_event
from memquill.model import Scope
from memquill.providers.fake import HashEmbedder
from memquill.settings import Settings
from memquill.store.sqlite import SQLiteStore

STATEMENTS = [
    "记住：我的邮箱是 user{i}@example.com",
    "I live in Town{i}",
    "我喜欢第{i}号主题",
    "Remember: the build cache lives in /var/cache/b{i}",
    "我不喝第{i}种咖啡",
]


def run(size: int, n: int, tmp: Path) -> list[float]:
    store = SQLiteStore(str(tmp / f"r{size}.db"))
    batch = records(size, "u")
    for i in range(0, size, 5000):
        store.apply(batch[i : i + 5000])
    clock = FixedClock("2026-11-29T02:00:00Z")
    mem = Memory(store=store, clock=clock, embedder=HashEmbedder(), settings=Settings())
    lat = []
    for i in range(n):
        text = STATEMENTS[i % len(STATEMENTS)].format(i=i % 40)  # repeats: NOOPs and supersedes too
        event = build_event(text, scope=Scope(user="u"), clock=clock, max_bytes=32768, default_timezone="UTC")
        stored, _ = store.append_event(event)
        batch_in, _ = mem.pipeline.prepare([stored], [])
        cands = mem.pipeline.extract(batch_in)
        t0 = time.perf_counter()
        mem.pipeline.write(cands, [stored] * len(cands))
        if cands:
            lat.append((time.perf_counter() - t0) * 1000 / len(cands))
    store.close()
    return lat


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,100000")
    ap.add_argument("--n", type=int, default=300)
    args = ap.parse_args()
    rows = []
    base = None
    with tempfile.TemporaryDirectory() as d:
        for size in (int(s) for s in args.sizes.split(",")):
            p50, p95, mean = summary(run(size, args.n, Path(d)))
            base = base or p50
            rows.append([f"{size:,} records in scope", p50, p95, mean, f"{p50 / base:.2f}×"])
    print(f"machine: {machine()}")
    print(
        table(
            "Reconcile + apply per candidate (ms; hash embedder)",
            ["existing", "p50", "p95", "mean", "p50 vs smallest"],
            rows,
        )
    )


if __name__ == "__main__":
    main()
