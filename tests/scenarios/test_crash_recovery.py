"""Crash recovery (DESIGN §4 rules 1 and 7): a worker killed mid-job loses and duplicates nothing.

The crash loop itself lives in ``bench/crash_loop.py`` (the benchmark runs it with 60 kills
over 600 events); this file runs a small version of it, plus the retry and dead-letter paths
of the worker in-process with a fixed clock.
"""

from __future__ import annotations

import importlib.util
import logging
import sqlite3
import sys
from pathlib import Path
from types import ModuleType

import pytest

from memquill import FixedClock, Memory
from memquill.maintain.worker import Worker
from memquill.model import Scope
from memquill.model.query import Job

CRASH_LOOP = Path(__file__).resolve().parents[2] / "bench" / "crash_loop.py"


def crash_loop() -> ModuleType:
    """``bench/crash_loop.py``, imported by path (bench/ is not a package)."""
    name = "memquill_bench_crash_loop"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, CRASH_LOOP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses resolve their annotations through sys.modules
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_killed_workers_lose_nothing_and_duplicate_nothing(backend: str, tmp_path: Path) -> None:
    """10 SIGKILLs of workers holding jobs while 120 events arrive; then every invariant holds."""
    if backend != "sqlite":
        pytest.skip("the crash loop kills processes sharing one SQLite file")
    cl = crash_loop()
    report = cl.run(kills=10, events=120, seed=7, workdir=tmp_path, lease_s=1.0, spawn="fork", aim=True)
    assert report.kills == 10
    assert report.orphaned_leases > 0, "no kill hit a worker holding a job: the loop proved nothing"
    in_reference = {name for name, ok, _ in report.ref_checks if not ok}
    failed = [
        f"{name}: {detail}" + (" [fails in the run without kills too]" if name in in_reference else "")
        for name, ok, detail in report.checks
        if not ok
    ]
    assert not failed, "\n".join(failed)
    assert report.jobs_done >= report.events  # one extract job per event at least


def _job(kind: str, clock: FixedClock, max_attempts: int = 5) -> Job:
    return Job(
        kind=kind,
        key=f"{kind}:1",
        scope=Scope(user="u"),
        created_at=clock.now(),
        run_after=clock.now(),
        max_attempts=max_attempts,
    )


def test_failing_job_is_retried_after_backoff_then_succeeds(mem: Memory, clock: FixedClock) -> None:
    calls: list[int] = []

    def flaky(job: Job) -> None:
        calls.append(job.attempts)
        if len(calls) == 1:
            raise RuntimeError("transient: index busy")

    worker = Worker(mem.store, clock, {"flaky": flaky}, lease_s=30, backoff_s=2.0)
    mem.store.enqueue([_job("flaky", clock)])
    first = worker.drain()
    assert (first.done, first.failed, first.dead) == (0, 1, 0)
    assert mem.store.job_counts(Scope(user="u")) == {"queued": 1}

    clock.advance(seconds=1.9)  # still backing off: nothing is due
    assert worker.drain().done == 0 and calls == [1]
    clock.advance(seconds=0.2)
    second = worker.drain()
    assert (second.done, second.failed, second.dead) == (1, 0, 0)
    assert calls == [1, 2]
    assert mem.store.job_counts(Scope(user="u")) == {"done": 1}
    stats = mem.stats(user="u")
    assert (stats["retries"], stats["dead_letters"], stats["queue_backlog"]) == (1, 0, 0)


def test_job_that_always_fails_is_dead_lettered_with_its_error(
    mem: Memory, clock: FixedClock, backend: str, caplog: pytest.LogCaptureFixture
) -> None:
    attempts: list[int] = []

    def broken(job: Job) -> None:
        attempts.append(job.attempts)
        raise ValueError("cannot parse payload 42")

    worker = Worker(mem.store, clock, {"broken": broken}, lease_s=30, backoff_s=2.0)
    mem.store.enqueue([_job("broken", clock, max_attempts=4)])
    with caplog.at_level(logging.WARNING, logger="memquill.worker"):
        assert worker.drain().failed == 1
        for delay in (2.0, 4.0, 8.0):  # exponential backoff between the attempts
            clock.advance(seconds=delay - 0.1)
            assert worker.drain().done == 0, "retried before its backoff elapsed"
            clock.advance(seconds=0.2)
            report = worker.drain()
        assert (report.failed, report.dead) == (0, 1)
        clock.advance(days=1)
        assert worker.drain().done == 0  # dead stays dead

    assert attempts == [1, 2, 3, 4]
    assert mem.store.job_counts(Scope(user="u")) == {"dead": 1}
    stats = mem.stats(user="u")
    assert stats["dead_letters"] == 1 and stats["retries"] == 3
    assert any("dead-lettered" in w for w in stats["warnings"])
    dead = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(dead) == 1 and "cannot parse payload 42" in dead[0].getMessage()
    if backend == "sqlite":
        db = sqlite3.connect(mem.store.path)  # type: ignore[attr-defined]
        try:
            (error,) = db.execute("SELECT last_error FROM jobs WHERE key = 'broken:1'").fetchone()
        finally:
            db.close()
        assert error.startswith("ValueError: cannot parse payload 42")
        assert "Traceback" in error
