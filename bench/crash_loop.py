"""Crash loop: SIGKILL the background worker again and again while events keep arriving.

A producer (this process) adds a deterministic bilingual stream of events — explicit
"记住…/Remember…", preferences and their changes, decisions per project, business facts,
filler, chatter, several sessions closed with ``end_session`` — into one SQLite file. A
worker runs in a separate process and is killed with SIGKILL 20–400 ms after it starts
working, then restarted, ``--kills`` times, while the producer is still adding. A last
worker drains everything (killed workers' leases expire after ``--lease`` seconds). Then the
invariants of DESIGN §4 rules 1 and 7 are checked, and the active memories are compared with
a reference run of the same stream without kills (a fresh file, ``flush()`` only).

    python bench/crash_loop.py [--kills 60] [--events 600] [--seed 7] [--lease 2] [--batch 1]

Exits non-zero if an invariant fails. ``tests/scenarios/test_crash_recovery.py`` imports this
file and runs a small version of the same loop.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memquill import Memory
from memquill.catalogue import load
from memquill.model import MemoryRecord, Scope, Status
from memquill.model.query import RecordFilter
from memquill.model.result import AddResult
from memquill.text import norm_value
from memquill.write.policy import LOG_MARKERS

USERS = ("alice", "bob")
TIMEZONE = "Asia/Shanghai"
STEP = timedelta(seconds=30)  # between two events of the stream

# --- the stream ---------------------------------------------------------------------------

# Each slot cycles through its values: every statement after the first changes it.
CHANGES: dict[str, list[str]] = {
    "theme": ["我喜欢深色主题", "我改用浅色主题了"],
    "location": ["I live in Berlin", "I moved to Paris", "我住在上海", "我搬到杭州了"],
    "coffee": ["我喜欢喝咖啡", "我现在不喝咖啡了"],
    "indent": ["I prefer tabs over spaces", "Actually I prefer spaces"],
}
STABLE = ["我不吃辣", "I'm allergic to peanuts", "I prefer short answers", "我习惯用 Vim 写代码"]
EXPLICIT = [
    ("记住：我的储物柜密码是 {n}", "zh"),
    ("Remember that my locker code is {n}", "en"),
    ("记住：我的工号是 {n}", "zh"),
    ("Remember that my badge number is {n}", "en"),
]
# Dates: "3号" sends Chinese text to the jionlp time parser (imported on first use).
DATED = [
    "记住：下个月3号要交季度报告",
    "Remember that the quarterly review is on the 15th of next month",
    "记住：12月8号上午十点和客户开会",
    "Remember that the offsite is next Friday",
]
# (project, statements of one decision slot, in the order they replace each other)
DECISIONS: list[tuple[str, list[str]]] = [
    ("web", ["我们最终选择了 Vue 3 做前端", "We decided to go with React instead of Vue"]),
    (
        "web",
        [
            "我们决定用 PostgreSQL，因为团队熟悉，不用 MySQL",
            "We decided to use MySQL for the database because ops knows it",
        ],
    ),
    ("api", ["We decided to use Redis for caching because it is fast", "我们决定用 Memcached 做缓存"]),
]
BUSINESS = [
    "我们团队有 {n} 个工程师",
    "Our customers are mostly small banks",
    "Our customers are mostly hospitals",
    "我们公司主要做跨境支付",
]
FILLER = ["好的", "ok thanks", "明白了", "got it", "嗯嗯", "Sounds good", "谢谢", "okay"]
CHATTER = [
    "I was reading about sailing boats yesterday",
    "我们今天讨论了一下周报的格式",
    "The weather in the office is cold",
    "晚上吃了火锅，味道还行",
    "Looked at some logs for a while",
    "我刚看完一部电影",
    "Traffic was heavy on the way in",
    "这个问题有点复杂，我再想想",
]
ASSISTANT = [
    "Sure, I can help with that.",
    "好的，我来看一下。",
    "Here is a summary of the logs.",
    "已经整理好了。",
]


@dataclass(frozen=True)
class Step:
    """One producer action: ``add`` an event or ``end`` a session."""

    op: str
    user: str
    session: str
    id: str = ""
    content: str = ""
    role: str = "user"
    project: str | None = None
    at: datetime | None = None


def stream(n: int, seed: int, base: datetime) -> list[Step]:
    """``n`` events (fixed ids ``ev-00000``…) plus the ``end_session`` calls between sessions."""
    rng = random.Random(seed)
    cursor: dict[tuple[str, str], int] = defaultdict(int)  # next value of each slot per user
    steps: list[Step] = []
    open_sessions: dict[str, tuple[str, int]] = {}  # user → (session, events left in it)
    number = iter(range(1000, 10_000))
    made = 0
    while made < n:
        user = rng.choice(USERS)
        session, left = open_sessions.get(user) or (
            f"{user}-s{sum(s.op == 'end' for s in steps)}",
            rng.randint(12, 40),
        )
        roll, project, role = rng.random(), None, "user"
        if roll < 0.09:
            tpl, _ = rng.choice(EXPLICIT)
            content = tpl.format(n=next(number))
        elif roll < 0.12:
            content = rng.choice(DATED)
        elif roll < 0.16 and made:  # an explicit statement said again: evidence merges, no duplicate
            earlier = [
                s
                for s in steps
                if s.op == "add" and s.user == user and s.content.startswith(("记住", "Remember"))
            ]
            content = rng.choice(earlier).content if earlier else EXPLICIT[0][0].format(n=next(number))
        elif roll < 0.30:
            slot = rng.choice(sorted(CHANGES))
            values = CHANGES[slot]
            content = values[cursor[(user, slot)] % len(values)]
            cursor[(user, slot)] += 1
        elif roll < 0.36:
            content = rng.choice(STABLE)
        elif roll < 0.46:
            i = rng.randrange(len(DECISIONS))
            project, values = DECISIONS[i]
            content = values[cursor[(user, f"decision{i}")] % len(values)]
            cursor[(user, f"decision{i}")] += 1
        elif roll < 0.52:
            content = rng.choice(BUSINESS).format(n=rng.choice([8, 12, 15, 20]))
        elif roll < 0.70:
            content = rng.choice(FILLER)
        elif roll < 0.80:
            content, role = rng.choice(ASSISTANT), "assistant"
        else:
            content = rng.choice(CHATTER)
        steps.append(Step("add", user, session, f"ev-{made:05d}", content, role, project, base + made * STEP))
        made += 1
        left -= 1
        if left <= 0 or made == n:
            steps.append(Step("end", user, session))
            open_sessions.pop(user, None)
        else:
            open_sessions[user] = (session, left)
    for user, (session, _) in open_sessions.items():
        steps.append(Step("end", user, session))
    return steps


def stream_base(n: int) -> datetime:
    """Event times end an hour ago, so relative times resolve the same in both runs."""
    now = datetime.now(UTC).replace(microsecond=0, second=0)
    return now - timedelta(hours=1) - n * STEP


def produce(mem: Memory, step: Step) -> AddResult | int:
    """Apply one step: ``add()`` (its result) or ``end_session()`` (jobs enqueued)."""
    if step.op == "end":
        return mem.end_session(user=step.user, session=step.session)
    kw: dict[str, Any] = {"project": step.project} if step.project else {}
    return mem.add(
        step.content,
        user=step.user,
        session=step.session,
        id=step.id,
        role=step.role,
        at=step.at,
        timezone=TIMEZONE,
        **kw,
    )


# --- the worker process ---------------------------------------------------------------------

# One worker process: ``make`` builds Memory(path, embedder="hash") and a Worker on it;
# ``work`` runs it — "forever": run_forever until killed; "drain N": drain until nothing is
# queued or running (a dead worker's lease must expire first), for at most N seconds.
WORKER_BODY = r"""
import sys, threading, time
from memquill import Memory
from memquill.maintain.worker import Worker

def make():
    mem = Memory(sys.argv[1], embedder="hash").warm_up()
    return mem, Worker(mem.store, mem.clock, mem.handlers.table(), lease_s=float(sys.argv[2]),
                       batch=int(sys.argv[3]))

def prewarm():
    # Chinese text with 号/节/小时… reaches the jionlp time parser, imported on first use
    # (~0.5-0.7 s); Memory.warm_up() does not load it.
    from datetime import UTC, datetime
    from memquill.write import timenorm
    timenorm.find_times("下个月3号交报告，我的工号是 1008", datetime.now(UTC), "Asia/Shanghai", "zh")

def work(mem, worker, mode, limit):
    if mode == "forever":
        worker.run_forever(threading.Event(), poll_s=0.02)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        worker.drain()
        counts = mem.store.job_counts()
        if not counts.get("queued") and not counts.get("running"):
            return 0
        time.sleep(0.1)
    return 1
"""

# Cold start: a new interpreter per worker, exactly as a restarted ``memquill worker`` would
# be: imports, Memory().warm_up() (the segmenter and the time parser), optionally
# ``prewarm()``, then "ready"; it waits for its mode, so the kill delay counts from when it
# starts working.
COLD = (
    WORKER_BODY
    + r"""
mem, worker = make()
if sys.argv[4] == "1":
    prewarm()
print("ready", flush=True)
mode, _, limit = sys.stdin.readline().strip().partition(" ")
sys.exit(work(mem, worker, mode, float(limit or 0)) if mode in ("forever", "drain") else 0)
"""
)

# Fork server: one interpreter warms up once (by default including ``prewarm()``, so that
# kills land in job processing); each worker is a fork of it that opens its own Memory (no
# SQLite handle crosses the fork). Commands:
# "fork <mode> [limit]" → pid; "reap <pid>" → exit status (SIGKILL shows as -9).
ZYGOTE = (
    WORKER_BODY
    + r"""
import os
from memquill import Memory
Memory(":memory:", embedder="hash").warm_up().close()
if sys.argv[4] == "1":
    prewarm()
print("ready", flush=True)
for line in sys.stdin:
    cmd, *args = line.split()
    if cmd == "fork":
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                mem, worker = make()
                code = work(mem, worker, args[0], float(args[1]) if len(args) > 1 else 0.0)
            finally:
                os._exit(code)
        print(pid, flush=True)
    elif cmd == "reap":
        _, status = os.waitpid(int(args[0]), 0)
        print(-os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status), flush=True)
    else:
        break
"""
)


class Handle:
    """One running worker process."""

    pid: int

    def kill(self) -> None: ...

    def wait(self) -> int: ...


class ColdWorker(Handle):
    """``subprocess.Popen([python, "-c", …])`` per worker; warms up before it is started."""

    def __init__(self, path: str, lease_s: float, batch: int, prewarm: bool = False) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", COLD, path, str(lease_s), str(batch), str(int(prewarm))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.pid = self.proc.pid

    def start(self, mode: str) -> None:
        assert self.proc.stdout is not None and self.proc.stdin is not None
        line = self.proc.stdout.readline().strip()
        if line != "ready":
            raise RuntimeError(f"worker did not start (exit {self.proc.wait()}): {line!r}")
        self.proc.stdin.write(mode + "\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)

    def wait(self) -> int:
        """Reap the process (a never-started one is told to exit without claiming anything)."""
        if self.proc.poll() is None and self.proc.stdin is not None:
            try:
                self.proc.stdin.write("stop\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass
        rc = self.proc.wait()
        for pipe in (self.proc.stdout, self.proc.stdin):
            if pipe is not None and not pipe.closed:
                with contextlib.suppress(BrokenPipeError):
                    pipe.close()
        return rc


class ColdLauncher:
    """Cold workers, ``standby`` of them warming up ahead of the kills."""

    def __init__(
        self, path: str, lease_s: float, batch: int, standby: int = 2, prewarm: bool | None = None
    ) -> None:
        self.args = (path, lease_s, batch, bool(prewarm))
        self.pool = [ColdWorker(*self.args) for _ in range(max(1, standby))]

    def launch(self, mode: str) -> Handle:
        worker = self.pool.pop(0)
        worker.start(mode)
        self.pool.append(ColdWorker(*self.args))
        return worker

    def close(self) -> None:
        for w in self.pool:
            w.wait()


class Forked(Handle):
    def __init__(self, pid: int, zygote: ForkLauncher) -> None:
        self.pid = pid
        self.zygote = zygote
        self.rc: int | None = None

    def kill(self) -> None:
        if self.rc is None:
            os.kill(self.pid, signal.SIGKILL)  # an unreaped child keeps its pid: no reuse race

    def wait(self) -> int:
        if self.rc is None:
            self.rc = int(self.zygote.ask(f"reap {self.pid}"))
        return self.rc


class ForkLauncher:
    """One ``python -c`` fork server; each worker is a fork of it (no cold start per kill)."""

    def __init__(
        self, path: str, lease_s: float, batch: int, standby: int = 0, prewarm: bool | None = None
    ) -> None:
        warm = prewarm is None or prewarm
        self.proc = subprocess.Popen(
            [sys.executable, "-c", ZYGOTE, path, str(lease_s), str(batch), str(int(warm))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        if (line := self.proc.stdout.readline().strip()) != "ready":
            raise RuntimeError(f"fork server did not start (exit {self.proc.wait()}): {line!r}")

    def ask(self, command: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def launch(self, mode: str) -> Handle:
        return Forked(int(self.ask(f"fork {mode}")), self)

    def close(self) -> None:
        if self.proc.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()
        self.proc.wait(30)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


LAUNCHERS = {"cold": ColdLauncher, "fork": ForkLauncher}


# --- the run --------------------------------------------------------------------------------


@dataclass
class RunReport:
    kills: int = 0
    kills_mid_lease: int = 0  # kills that left at least one job leased to the dead worker
    orphaned_leases: int = 0  # jobs found leased to a dead worker, summed over kills
    events: int = 0
    steps: int = 0
    elapsed_s: float = 0.0
    ref_elapsed_s: float = 0.0
    final_s: float = 0.0
    jobs: dict[str, int] = field(default_factory=dict)
    jobs_done: int = 0
    retries: int = 0
    dead_letters: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    ref_by_status: dict[str, int] = field(default_factory=dict)
    checks: list[tuple[str, bool, str]] = field(default_factory=list)
    ref_checks: list[tuple[str, bool, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(ok for _, ok, _ in self.checks)


def _leased_to(path: str, pid: int) -> int:
    """Jobs still leased to the worker process ``pid`` (named host:pid:thread)."""
    db = sqlite3.connect(path, timeout=30)
    try:
        return int(
            db.execute(
                "SELECT COUNT(*) FROM jobs WHERE status = 'running' AND worker LIKE ?", (f"%:{pid}:%",)
            ).fetchone()[0]
        )
    finally:
        db.close()


def _kill_later(worker: Handle, delay_s: float, path: str, aim: bool) -> None:
    """SIGKILL after ``delay_s``; with ``aim``, wait (≤ 1 s more) until it holds a job."""
    time.sleep(delay_s)
    until = time.monotonic() + 1.0
    while aim and time.monotonic() < until and not _leased_to(path, worker.pid):
        time.sleep(0.002)
    worker.kill()


def crash_run(
    path: str,
    steps: list[Step],
    kills: int,
    seed: int,
    lease_s: float,
    batch: int,
    log: Callable[[str], None] = lambda _: None,
    spawn: str = "cold",
    standby: int = 2,
    prewarm: bool | None = None,
    aim: bool = False,
) -> RunReport:
    """Produce ``steps`` into ``path`` while killing ``kills`` workers, then drain.

    A third of the stream is queued before the first worker starts; the rest is spread over
    the kill cycles, half before each worker starts and half while it works.

    ``spawn="cold"`` starts every worker as a new interpreter (``standby`` of them warm up
    ahead of time); ``"fork"`` forks them from one warmed-up fork server, which makes a kill
    cycle cost milliseconds instead of a cold start (the segmenter alone loads in ~1 s).
    ``aim`` delays each kill until the worker holds a job (at most 1 s past the random delay),
    so that small runs (the test suite's) surely kill workers mid-job.
    """
    rng = random.Random(seed * 7919 + 1)
    report = RunReport(steps=len(steps), events=sum(s.op == "add" for s in steps))
    started = time.perf_counter()
    mem = Memory(path, embedder="hash")
    todo = list(steps)
    launcher = LAUNCHERS[spawn](path, lease_s, batch, standby, prewarm)
    live: list[Handle] = []
    try:
        for step in todo[: len(todo) // 3]:  # a backlog, as after an outage: kills land mid-job
            produce(mem, step)
        del todo[: len(todo) // 3]
        for k in range(kills):
            chunk = math.ceil(len(todo) / (kills - k))
            for step in todo[: chunk // 2]:  # a backlog the next worker finds waiting…
                produce(mem, step)
            worker = launcher.launch("forever")
            live.append(worker)
            timer = threading.Thread(target=_kill_later, args=(worker, rng.uniform(0.02, 0.4), path, aim))
            timer.start()
            for step in todo[chunk // 2 : chunk]:  # …and more events while it works
                produce(mem, step)
            del todo[:chunk]
            timer.join()
            worker.wait()
            live.remove(worker)
            report.kills += 1
            held = _leased_to(path, worker.pid)
            report.orphaned_leases += held
            report.kills_mid_lease += held > 0
            if (k + 1) % 10 == 0:
                log(f"  {k + 1} kills, {report.events - sum(s.op == 'add' for s in todo)} events added")
        for step in todo:
            produce(mem, step)
        t0 = time.perf_counter()
        final = launcher.launch(f"drain {lease_s * 40 + 60}")  # waits out the dead leases
        live.append(final)
        if final.wait() != 0:
            log("  final worker did not drain the queue in time")
        live.remove(final)
        report.final_s = time.perf_counter() - t0
    finally:
        for w in live:
            w.kill()
            w.wait()
        launcher.close()
    report.elapsed_s = time.perf_counter() - started
    _tally(mem, report)
    report.checks = check(mem, path, steps)
    mem.close()
    return report


def reference_run(path: str, steps: list[Step]) -> tuple[Memory, float]:
    started = time.perf_counter()
    mem = Memory(path, embedder="hash")
    for step in steps:
        produce(mem, step)
    mem.flush()
    return mem, time.perf_counter() - started


def _tally(mem: Memory, report: RunReport) -> None:
    report.jobs = mem.store.job_counts()
    report.jobs_done = report.jobs.get("done", 0)
    report.by_status = Counter()
    for user in USERS:
        st = mem.stats(user=user)
        report.retries += st["retries"]
        report.dead_letters += st["dead_letters"]
        report.by_status.update(st["records_by_status"])
    report.by_status = dict(sorted(report.by_status.items()))


# --- invariants ------------------------------------------------------------------------------


def all_records(mem: Memory) -> list[MemoryRecord]:
    out: list[MemoryRecord] = []
    for user in USERS:
        out += mem.store.find(RecordFilter(Scope(user=user), statuses=None, owner=True))
    return out


def active_set(mem: Memory) -> set[tuple[str, str, str, str]]:
    """What is remembered. An episode's key names its first turn, which depends on which of
    two identical windows was processed first, so episodes compare by content alone."""
    return {
        (r.scope.user, r.type.value, "" if r.key.startswith("episode:") else r.key, norm_value(r.content))
        for r in all_records(mem)
        if r.status is Status.ACTIVE
    }


def _slot(r: MemoryRecord) -> tuple[Any, ...]:
    s = r.scope
    conds = frozenset(norm_value(c) for c in r.conditions if norm_value(c))
    return (s.tenant, s.user, s.agent, s.project, s.session, r.subject, r.key, conds)


def _some(items: list[str], n: int = 3) -> str:
    return "; ".join(items[:n]) + (f" (+{len(items) - n} more)" if len(items) > n else "")


def check(mem: Memory, path: str, steps: list[Step]) -> list[tuple[str, bool, str]]:
    """Every invariant as (name, ok, detail)."""
    checks: list[tuple[str, bool, str]] = []
    want = Counter((s.user, s.id) for s in steps if s.op == "add")
    db = sqlite3.connect(path, timeout=30)
    try:
        rows = db.execute("SELECT user_id, id, body FROM events").fetchall()
        # operations logged for replay (session ends) are events too, but not interactions
        got = Counter(
            (u, i)
            for u, i, body in rows
            if json.loads(body).get("metadata", {}).get("kind") not in LOG_MARKERS
        )
    finally:
        db.close()
    missing = sorted(f"{u}/{i}" for u, i in want if got[(u, i)] == 0)
    twice = sorted(f"{u}/{i}" for (u, i), n in got.items() if n > 1)
    extra = sorted(f"{u}/{i}" for u, i in got if (u, i) not in want)
    checks.append(
        (
            "every event logged exactly once",
            not (missing or twice or extra),
            f"{sum(got.values())}/{len(want)} events"
            + (
                f"; missing {_some(missing)}; twice {_some(twice)}; unknown {_some(extra)}"
                if missing or twice or extra
                else ""
            ),
        )
    )

    jobs = mem.store.job_counts()
    left = jobs.get("queued", 0) + jobs.get("running", 0)
    checks.append(
        (
            "no job left queued/running",
            left == 0,
            f"queued {jobs.get('queued', 0)}, running {jobs.get('running', 0)}",
        )
    )
    checks.append(("no dead letters", jobs.get("dead", 0) == 0, f"dead {jobs.get('dead', 0)}"))

    records = all_records(mem)
    by_id = {r.id: r for r in records}
    slots: dict[tuple[Any, ...], list[MemoryRecord]] = defaultdict(list)
    cat = load()
    for r in records:
        if r.status is Status.ACTIVE and (cat.get(r.key) is None or cat.get(r.key).single):  # type: ignore[union-attr]
            slots[_slot(r)].append(r)  # a multi-valued attribute may hold several values
    multi = [f"{k[5]}/{k[6]}@{k[1]}: {len(v)} active" for k, v in slots.items() if len(v) > 1]
    checks.append(
        ("≤ 1 active record per single-valued slot", not multi, _some(multi) or f"{len(slots)} slots")
    )

    same: dict[tuple[Any, ...], list[MemoryRecord]] = defaultdict(list)
    for r in records:
        if r.status is Status.ACTIVE:
            same[(r.scope, r.type, norm_value(r.content))].append(r)
    dups = [f"{v[0].type.value} {v[0].content!r} ×{len(v)}" for v in same.values() if len(v) > 1]
    checks.append(("no duplicate active content", not dups, _some(dups) or f"{len(same)} active"))

    gaps = []
    for r in records:
        revs = [h.revision for h in mem.history(r.id)]
        if revs != list(range(1, r.revision + 1)):
            gaps.append(f"{r.id} rev {r.revision}: {revs}")
    checks.append(("revisions contiguous 1..revision", not gaps, _some(gaps) or f"{len(records)} records"))

    broken = []
    for r in records:
        if r.status is Status.SUPERSEDED and not r.superseded_by:
            broken.append(f"{r.id} superseded by nothing")
            continue
        if not r.superseded_by:
            continue
        nxt = by_id.get(r.superseded_by)
        if nxt is None:
            broken.append(f"{r.id} → missing {r.superseded_by}")
        elif nxt.supersedes != r.id and r.id not in nxt.conflicts_with:
            broken.append(
                f"{r.id} ({r.content!r}) → {nxt.id} ({nxt.content!r}) which supersedes {nxt.supersedes}"
            )
    checks.append(
        ("superseded_by exists and points back", not broken, _some(broken, 2) or "all chains linked")
    )
    return checks


def compare(crash: set[tuple[str, ...]], ref: set[tuple[str, ...]]) -> tuple[str, bool, str]:
    only_crash, only_ref = sorted(crash - ref), sorted(ref - crash)
    detail = (
        f"{len(crash)} active in both"
        if not (only_crash or only_ref)
        else (
            f"only after kills: {_some([' '.join(t[1:]) for t in only_crash], 2)}; "
            f"only in reference: {_some([' '.join(t[1:]) for t in only_ref], 2)}"
        )
    )
    return ("same active set as the reference run", not (only_crash or only_ref), detail)


def run(
    kills: int,
    events: int,
    seed: int,
    workdir: Path,
    lease_s: float = 2.0,
    batch: int = 1,
    log: Callable[[str], None] = lambda _: None,
    spawn: str = "cold",
    standby: int = 2,
    prewarm: bool | None = None,
    aim: bool = False,
) -> RunReport:
    """The whole experiment: crash run, reference run, invariants on both, comparison."""
    steps = stream(events, seed, stream_base(events))
    crash_path, ref_path = str(workdir / "crash.db"), str(workdir / "reference.db")
    report = crash_run(crash_path, steps, kills, seed, lease_s, batch, log, spawn, standby, prewarm, aim)
    log(f"  crash run done in {report.elapsed_s:.1f}s; reference run…")
    ref, report.ref_elapsed_s = reference_run(ref_path, steps)
    report.ref_checks = check(ref, ref_path, steps)
    ref_report = RunReport()
    _tally(ref, ref_report)
    report.ref_by_status = ref_report.by_status
    crash = Memory(crash_path, embedder="hash")
    report.checks.append(compare(active_set(crash), active_set(ref)))
    report.ref_checks.append(("same active set as the reference run", True, "(is the reference)"))
    crash.close()
    ref.close()
    return report


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from common import machine, table

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kills", type=int, default=60)
    ap.add_argument("--events", type=int, default=600)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--lease", type=float, default=2.0, help="worker lease in seconds")
    ap.add_argument("--batch", type=int, default=1, help="jobs claimed per claim (the Worker default)")
    ap.add_argument(
        "--spawn",
        choices=sorted(LAUNCHERS),
        default="cold",
        help="cold: a new interpreter per worker; fork: forks of one warm fork server",
    )
    ap.add_argument("--standby", type=int, default=2, help="cold workers warming up ahead of the kills")
    ap.add_argument(
        "--prewarm",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="load the Chinese time parser before a worker starts (default: fork yes, cold no)",
    )
    ap.add_argument("--aim", action="store_true", help="kill only once the worker holds a job (≤ 1 s late)")
    ap.add_argument("--keep", type=Path, default=None, help="keep the two SQLite files in this directory")
    args = ap.parse_args(argv)
    print(
        f"crash loop: {args.kills} kills, {args.events} events, seed {args.seed}, "
        f"lease {args.lease}s, batch {args.batch}, {args.spawn} workers{', aimed kills' if args.aim else ''}"
        f"{'' if args.prewarm is None else (', prewarmed' if args.prewarm else ', not prewarmed')} — {machine()}",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="memquill-crash-") as tmp:
        workdir = Path(tmp)
        if args.keep is not None:
            workdir = args.keep
            workdir.mkdir(parents=True, exist_ok=True)
            for old in workdir.glob("*.db*"):
                old.unlink()
        r = run(
            args.kills,
            args.events,
            args.seed,
            workdir,
            args.lease,
            args.batch,
            log=lambda m: print(m, flush=True),
            spawn=args.spawn,
            standby=args.standby,
            prewarm=args.prewarm,
            aim=args.aim,
        )
    fmt = lambda d: ", ".join(f"{k} {v}" for k, v in d.items())  # noqa: E731
    print(
        table(
            "Crash loop",
            ["figure", "value"],
            [
                ["worker kills (SIGKILL)", r.kills],
                ["kills that left jobs leased to the dead worker", r.kills_mid_lease],
                ["orphaned leases (summed over kills)", r.orphaned_leases],
                ["events produced", r.events],
                ["producer steps (adds + end_session)", r.steps],
                ["jobs processed (done)", r.jobs_done],
                ["jobs by status", fmt(r.jobs)],
                ["retries (stats)", r.retries],
                ["dead letters (stats)", r.dead_letters],
                ["records by status (after kills)", fmt(r.by_status)],
                ["records by status (reference)", fmt(r.ref_by_status)],
                ["elapsed, crash run (s)", round(r.elapsed_s, 1)],
                ["  of which final drain (s)", round(r.final_s, 1)],
                ["elapsed, reference run (s)", round(r.ref_elapsed_s, 1)],
            ],
        )
    )
    ref = {name: (ok, detail) for name, ok, detail in r.ref_checks}
    print(
        table(
            "Invariants",
            ["invariant", "after kills", "detail", "reference"],
            [
                [
                    name,
                    "PASS" if ok else "FAIL",
                    detail,
                    ("PASS" if ref[name][0] else f"FAIL: {ref[name][1]}") if name in ref else "",
                ]
                for name, ok, detail in r.checks
            ],
        )
    )
    print()
    print("ALL INVARIANTS PASS" if r.ok else "SOME INVARIANT FAILED")
    return 0 if r.ok else 1


if __name__ == "__main__":
    sys.exit(main())
