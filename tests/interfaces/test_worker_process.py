"""``memquill worker`` as a real process next to a writer process, sharing one SQLite file.

The test process adds events through the Python API; the worker subprocess claims and runs
their jobs, and stops gracefully (exit code 0) on SIGTERM or SIGINT.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from memquill import Memory

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
]

Start = Callable[..., "subprocess.Popen[str]"]
WAIT_S = 60.0  # bound on waiting for the worker (a loaded machine starts Python slowly)
EXIT_S = 30.0  # bound on a graceful stop

DECISIONS = [  # written only by the background worker (decisions are not hot-path)
    "We decided to use PostgreSQL for the database because the team knows it, not MySQL",
    "We decided to use React for the frontend, not Vue",
    "We decided to use Redis as the cache because it is simple",
    "我们决定用 Kafka 做消息队列，因为吞吐高，不用 RabbitMQ",
]


def worker_cmd(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "memquill.interfaces.cli", "worker", "--db", str(db), *args]


@pytest.fixture
def env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "MEMQUILL_DB"}
    return {**env, "MEMQUILL_EMBEDDER": "hash", "PYTHONUNBUFFERED": "1"}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "shared.db"
    Memory(str(path), embedder="hash").close()  # create the schema before two processes race
    return path


@pytest.fixture
def start_worker(env: dict[str, str]) -> Iterator[Start]:
    started: list[subprocess.Popen[str]] = []

    def start(db: Path, *args: str) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            worker_cmd(db, *args), env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        started.append(proc)
        return proc

    yield start
    for proc in started:  # never leave a worker behind, whatever the test did
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=EXIT_S)


def backlog(mem: Memory) -> int:
    counts = mem.store.job_counts()
    return counts.get("queued", 0) + counts.get("running", 0)


def wait_until_drained(mem: Memory, proc: subprocess.Popen[str], jobs: int) -> dict[str, int]:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        counts = mem.store.job_counts()
        if backlog(mem) == 0 and counts.get("done", 0) >= jobs:
            return counts
        assert proc.poll() is None, f"worker exited early: {proc.communicate()}"
        time.sleep(0.1)
    counts = mem.store.job_counts()
    proc.kill()
    pytest.fail(f"queue not drained in {WAIT_S}s: {counts}; worker stderr:\n{proc.communicate()[1]}")


def stop(proc: subprocess.Popen[str], sig: signal.Signals) -> tuple[str, str]:
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=EXIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"worker did not stop within {EXIT_S}s of {sig.name}: {err}")
    assert proc.returncode == 0, err
    return out, err


def test_worker_drains_events_from_another_process_then_stops_on_sigterm(
    db: Path, start_worker: Start
) -> None:
    proc = start_worker(db, "--poll", "0.1", "-v")
    with Memory(str(db), embedder="hash") as mem:
        hot: set[str] = set()
        for i in range(20):
            text = DECISIONS[i % len(DECISIONS)] if i % 2 else f"Yesterday I met friend {i} downtown"
            r = mem.add(text, user="alice", project="web", session=f"s{i % 3}")
            hot.update(r.written)
        counts = wait_until_drained(mem, proc, jobs=20)
        assert counts.get("dead", 0) == 0
        records = mem.records(statuses=None, user="alice", project="web")
    out, err = stop(proc, signal.SIGTERM)
    written_by_worker = [r for r in records if r.id not in hot]
    assert any(r.type.value == "decision" for r in written_by_worker), records
    assert out.startswith("stopped: 20 done,") and "extract=20" in out  # retries are legal
    assert "batch:" in err and "worker stopped" in err and "Traceback" not in err


def test_idle_worker_stops_on_sigint(db: Path, start_worker: Start) -> None:
    proc = start_worker(db, "--poll", "0.1", "-v")
    deadline = time.monotonic() + WAIT_S
    assert proc.stderr is not None
    while "SIGTERM/SIGINT" not in (line := proc.stderr.readline()):  # handlers installed
        assert line and time.monotonic() < deadline, "worker did not start"
    out, err = stop(proc, signal.SIGINT)
    assert out.startswith("stopped: 0 done") and "KeyboardInterrupt" not in err


def test_burst_processes_every_queued_job_then_exits(db: Path, env: dict[str, str]) -> None:
    n = 12
    with Memory(str(db), embedder="hash") as mem:
        for i in range(n):
            mem.add(DECISIONS[i % len(DECISIONS)] + f" (note {i})", user="bob", project="api")
        assert backlog(mem) == n
    done = subprocess.run(
        worker_cmd(db, "--burst", "--json"), env=env, text=True, capture_output=True, timeout=WAIT_S * 3
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"done": n, "failed": 0, "dead": 0, "kinds": {"extract": n}}
    with Memory(str(db), embedder="hash") as mem:
        assert backlog(mem) == 0 and mem.store.job_counts() == {"done": n}
        assert mem.count(user="bob", project="api", types=["decision"]) >= 1
