"""Reads that every ``context()`` makes must not walk records they do not want: the user's
newest episodes are read per request for the private gate, and a store of 100k facts made
that read a scan of all of them (context() p95 48 → 302 ms on the idle bench)."""

from __future__ import annotations

from pathlib import Path

from memquill.model import Audit, Create, MemoryRecord, MemoryType, RevisionOp, Scope, Source
from memquill.model.query import RecordFilter
from memquill.store.sqlite import SQLiteStore
from tests.conformance.builders import T0

USER = Scope(user="u")


def facts(n: int, kind: MemoryType = MemoryType.FACT) -> list[Create]:
    return [
        Create(
            MemoryRecord(
                id=f"{kind.value}-{i}",
                type=kind,
                scope=USER,
                subject="user",
                key=f"k{i}",
                content=f"fact number {i}" if kind is MemoryType.FACT else f"我们聊了第 {i} 件事",
                confidence=0.9,
                source=Source.EXPLICIT,
                evidence=[f"e{i}"],
                created_at=T0,
                updated_at=T0,
            ),
            Audit(RevisionOp.ADD, "test", "test"),
        )
        for i in range(n)
    ]


def steps(store: SQLiteStore, f: RecordFilter) -> tuple[int, int]:
    """(records found, SQLite VM steps in thousands) of one ``find``."""
    count = [0]

    def tick() -> int:
        count[0] += 1
        return 0

    store._db.set_progress_handler(tick, 1000)
    try:
        found = len(store.find(f, limit=200))
    finally:
        store._db.set_progress_handler(None, 1000)
    return found, count[0]


def test_reading_one_kind_does_not_walk_the_others(tmp_path: Path) -> None:
    small, large = SQLiteStore(str(tmp_path / "s.db")), SQLiteStore(str(tmp_path / "l.db"))
    for store, n in ((small, 20), (large, 4000)):
        store.apply(facts(n))
        store.apply(facts(5, MemoryType.EPISODE))
    episodes = RecordFilter(USER, types=frozenset({MemoryType.EPISODE}), at=T0, exact_scope=True)
    (n_small, work_small), (n_large, work_large) = steps(small, episodes), steps(large, episodes)
    assert n_small == n_large == 5
    # 200× more facts beside the episodes: the read of episodes costs the same
    assert work_large <= work_small + 2, (work_small, work_large)
    small.close()
    large.close()
