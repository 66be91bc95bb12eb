"""Concurrent writers never lose an update (rule 7): threads on one Memory, processes on one file."""

from __future__ import annotations

import multiprocessing as mp
import threading
from pathlib import Path

import pytest

from memquill import FixedClock, Memory
from memquill.model import Status
from memquill.providers.fake import HashEmbedder
from memquill.settings import Settings


def test_threads_writing_one_slot_leave_exactly_one_active(mem: Memory) -> None:
    values = [f"I live in City{i}" for i in range(8)]
    barrier = threading.Barrier(len(values))
    errors: list[BaseException] = []

    def write(text: str) -> None:
        try:
            barrier.wait()
            mem.add(text, user="u")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(v,)) for v in values]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    records = [r for r in mem.records(user="u", statuses=None) if r.key == "city"]
    assert len(records) == len(values)  # every statement kept, none lost
    assert sum(r.status is Status.ACTIVE for r in records) == 1
    assert sum(r.status is Status.SUPERSEDED for r in records) == len(values) - 1


def test_worker_and_hot_path_on_one_slot(mem: Memory) -> None:
    """The worker re-running extraction while new statements arrive keeps the slot consistent."""
    for i in range(5):
        mem.add(f"我住在城市{i}", user="w")
    done = threading.Event()

    def drain() -> None:
        mem.flush()
        done.set()

    t = threading.Thread(target=drain)
    t.start()
    for i in range(5, 10):
        mem.add(f"我住在城市{i}", user="w")
    t.join()
    mem.flush()
    records = [r for r in mem.records(user="w", statuses=None) if r.key == "city"]
    assert sum(r.status is Status.ACTIVE for r in records) == 1
    assert len(records) == 10
    assert mem.get(next(r.id for r in records if r.status is Status.ACTIVE)).value == "城市9"


def _writer(path: str, worker: int, n: int) -> None:
    mem = Memory(path, clock=FixedClock("2026-11-29T02:00:00Z"), embedder=HashEmbedder(), settings=Settings())
    for i in range(n):
        mem.add(f"记住：worker {worker} note number {i}", user="shared", id=f"w{worker}-{i}")
        mem.add(f"I live in Town{worker}-{i}", user="shared")
    mem.close()


@pytest.mark.slow
def test_two_processes_on_one_file_lose_nothing(tmp_path: Path, backend: str) -> None:
    if backend != "sqlite":
        pytest.skip("this test is about one SQLite file shared by processes")
    path = str(tmp_path / "shared.db")
    Memory(path, embedder=HashEmbedder()).close()  # create the schema once
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, w, 15)) for w in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    mem = Memory(path, clock=FixedClock("2026-11-29T02:00:00Z"), embedder=HashEmbedder())
    notes = [r for r in mem.records(user="shared", statuses=None) if r.key.startswith("note:")]
    assert len(notes) == 30
    homes = [r for r in mem.records(user="shared", statuses=None) if r.key == "city"]
    assert len(homes) == 30 and sum(r.status is Status.ACTIVE for r in homes) == 1
    assert mem.store.job_counts()["queued"] == 60
    mem.close()
