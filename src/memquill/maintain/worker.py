"""The background worker: claim due jobs with a lease, run their handler, ack or retry.

Retries back off exponentially up to ``max_attempts``; then the job is dead-lettered with
its error. A crashed worker's lease expires and another worker picks the job up; handlers
are idempotent (reconciliation turns a re-run into NOOPs), so at-least-once is safe.
``flush()`` runs the same loop in-process (burst mode).

Jobs are claimed one at a time by default: a claim charges an attempt, so a worker killed
while holding a batch would charge every job in it, and repeated crashes would dead-letter
work that never ran. One small write transaction per job is cheap next to the job itself.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta

from memquill.clock import Clock
from memquill.model.query import Job
from memquill.store.base import Store

log = logging.getLogger("memquill.worker")

Handler = Callable[[Job], None]


@dataclass
class DrainReport:
    done: int = 0
    failed: int = 0
    dead: int = 0
    kinds: dict[str, int] = field(default_factory=dict)


class Worker:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        handlers: Mapping[str, Handler],
        name: str | None = None,
        lease_s: float = 60.0,
        backoff_s: float = 2.0,
        batch: int = 1,
    ) -> None:
        self.store = store
        self.clock = clock
        self.handlers = handlers
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"
        self.lease_s = lease_s
        self.backoff_s = backoff_s
        self.batch = batch

    def run_once(self, report: DrainReport | None = None) -> int:
        """Claim and process one batch of due jobs; returns how many were claimed."""
        report = report if report is not None else DrainReport()
        jobs = self.store.claim(
            self.name, self.clock.now(), self.lease_s, self.batch, kinds=list(self.handlers)
        )
        started, before = time.perf_counter(), (report.done, report.failed, report.dead)
        for job in jobs:
            self._process(job, report)
        if jobs:
            log.info(
                "batch: %d claimed, %d done, %d failed, %d dead in %.2fs",
                len(jobs),
                report.done - before[0],
                report.failed - before[1],
                report.dead - before[2],
                time.perf_counter() - started,
            )
        return len(jobs)

    def _process(self, job: Job, report: DrainReport) -> None:
        assert job.id is not None
        try:
            self.handlers[job.kind](job)
        except Exception as exc:  # a handler failure must never kill the worker
            error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=5)}"
            if job.attempts >= job.max_attempts:
                self.store.fail(job.id, self.name, error, None, self.clock.now())
                report.dead += 1
                log.error("job %s (%s) dead after %d attempts: %s", job.id, job.kind, job.attempts, exc)
            else:
                delay = self.backoff_s * (2 ** (job.attempts - 1))
                now = self.clock.now()
                self.store.fail(job.id, self.name, error, now + timedelta(seconds=delay), now)
                report.failed += 1
                log.warning("job %s (%s) failed, retry in %.1fs: %s", job.id, job.kind, delay, exc)
            return
        self.store.finish(job.id, self.name, self.clock.now())
        report.done += 1
        report.kinds[job.kind] = report.kinds.get(job.kind, 0) + 1

    def drain(self, max_batches: int | None = None) -> DrainReport:
        """Burst mode: process until no job is due."""
        report = DrainReport()
        batches = 0
        while self.run_once(report):
            batches += 1
            if max_batches is not None and batches >= max_batches:
                break
        return report

    def run_forever(self, stop: threading.Event, poll_s: float = 1.0) -> DrainReport:
        """Long-running mode: poll until ``stop`` is set; finishes the job in hand first."""
        report = DrainReport()
        while not stop.is_set():
            if not self.run_once(report):
                stop.wait(poll_s)
        return report
