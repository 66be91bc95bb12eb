"""The embedded store's cluster index (store/sqlite/ann.py): close to exact, exact scores,
filters before ranking, in step with other processes' writes and with erasure."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memquill.model import Audit, Create, MemoryRecord, MemoryType, Purge, RevisionOp, Scope, Source
from memquill.model.query import RecordFilter
from memquill.store.sqlite import SQLiteStore
from memquill.store.sqlite.vectors import Partition
from tests.conformance.builders import T0

DIM = 48
ROW = {
    "status": "active",
    "type": "fact",
    "project": None,
    "session": None,
    "agent": None,
    "valid_from": None,
    "valid_to": None,
    "expires_at": None,
}


def clustered(n: int, seed: int = 1, centres: int = 40) -> np.ndarray:
    """Unit vectors around a few dozen centres: the shape real sentence embeddings have."""
    rng = np.random.default_rng(seed)
    base = rng.standard_normal((centres, DIM))
    x = base[rng.integers(0, centres, n)] + 0.35 * rng.standard_normal((n, DIM))
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def fill(part: Partition, mat: np.ndarray, **cols: str | None) -> None:
    for i, v in enumerate(mat):
        part.upsert({**ROW, **cols, "id": f"r{i}"}, v)


def reader(**dims: str) -> RecordFilter:
    return RecordFilter(Scope(user="u", **dims), statuses=None)


def test_index_finds_nearly_the_exact_top_ten_with_exact_scores() -> None:
    mat = clustered(4000)
    exact, approx = Partition(DIM, ann_min_rows=10**9), Partition(DIM, ann_min_rows=100)
    fill(exact, mat)
    fill(approx, mat)
    queries = clustered(50, seed=2)
    overlap = []
    for q in queries:
        want = exact.search(reader(), q, 10)
        got = approx.search(reader(), q, 10)
        overlap.append(len({i for i, _ in got} & {i for i, _ in want}) / 10)
        for mid, score in got:  # candidates are approximate, their scores are not
            assert score == pytest.approx(float(mat[int(mid[1:])] @ q), abs=1e-5)
    assert approx.ann is not None and exact.ann is None
    assert np.mean(overlap) >= 0.95


def test_selective_filter_falls_back_to_the_scan_and_misses_nothing() -> None:
    mat = clustered(2000)
    part = Partition(DIM, ann_min_rows=100)
    fill(part, mat)
    for i in (5, 900, 1700):  # three rows bound to project "shop", scattered over the clusters
        part.upsert({**ROW, "id": f"r{i}", "project": "shop"}, mat[i])
    f = RecordFilter(Scope(user="u", project="shop"), statuses=None, exact_scope=True)
    got = part.search(f, mat[0], 10)
    assert sorted(i for i, _ in got) == ["r1700", "r5", "r900"]


def test_index_follows_updates_and_removals() -> None:
    mat = clustered(1000)
    part = Partition(DIM, ann_min_rows=100)
    fill(part, mat)
    part.search(reader(), mat[0], 5)
    assert part.ann is not None
    target = -mat[0]  # a vector far from everything, then moved there by an update
    part.upsert({**ROW, "id": "r7"}, target)
    assert part.search(reader(), target, 1)[0][0] == "r7"
    part.upsert({**ROW, "id": "r7"}, None)  # forgotten: out of the ranking and out of memory
    assert "r7" not in {i for i, _ in part.search(reader(), target, 50)}
    assert not part.mat[part.pos["r7"]].any()
    assert part.ann is not None
    assert not (part.ann.sorted @ mat[7] > 0.9999).any()  # the index's copy of the old vector is gone


def test_index_is_rebuilt_when_the_rows_double() -> None:
    part = Partition(DIM, ann_min_rows=100)
    fill(part, clustered(300))
    part.search(reader(), clustered(1)[0], 5)
    first = part.ann
    assert first is not None and first.built_rows == 300
    for i, v in enumerate(clustered(400, seed=5)):
        part.upsert({**ROW, "id": f"x{i}"}, v)
    part.search(reader(), clustered(1)[0], 5)
    assert part.ann is not first and part.ann is not None and part.ann.built_rows == 700


def _creates(mat: np.ndarray, start: int, sc: Scope) -> list[Create]:
    audit = Audit(RevisionOp.ADD, "test", "ann")
    return [
        Create(
            MemoryRecord(
                id=f"m{start + i}",
                type=MemoryType.FACT,
                scope=sc,
                subject="user",
                key=f"k{start + i}",
                content=f"fact {start + i}",
                confidence=0.9,
                source=Source.EXPLICIT,
                evidence=[f"e{i}"],
                created_at=T0,
                updated_at=T0,
            ),
            audit,
            [float(x) for x in v],
        )
        for i, v in enumerate(mat)
    ]


def test_store_index_sees_other_processes_writes_and_forget(tmp_path: Path) -> None:
    path = str(tmp_path / "ann.db")
    a = SQLiteStore(path, dim=DIM, ann_min_rows=100)
    b = SQLiteStore(path, dim=DIM, ann_min_rows=100)  # another process on the same file
    sc = Scope(user="u")
    mat = clustered(600)
    a.apply(_creates(mat, 0, sc))
    f = RecordFilter(sc, statuses=None)
    assert a.vector(f, mat[3], 1)[0][0] == "m3"
    assert a._parts[(sc.tenant, sc.user)].ann is not None  # the index is what answered
    fresh = -mat[3]
    b.apply(_creates(fresh[None, :], 600, sc))
    assert a.vector(f, fresh, 1)[0][0] == "m600"
    b.apply([Purge("m600", Audit(RevisionOp.FORGET, "u", "request"), T0)])
    assert "m600" not in {i for i, _ in a.vector(f, fresh, 50)}
    b.forget_scope(sc.tenant, sc.user)
    assert a.vector(f, mat[3], 10) == []
    a.close()
    b.close()


def test_threads_searching_while_another_writes_see_consistent_results(tmp_path: Path) -> None:
    import threading

    store = SQLiteStore(str(tmp_path / "threads.db"), dim=DIM, ann_min_rows=100)
    sc = Scope(user="u")
    mat = clustered(900)
    store.apply(_creates(mat[:300], 0, sc))
    f = RecordFilter(sc, statuses=None)
    errors: list[BaseException] = []

    def search() -> None:
        try:
            for i in range(60):
                hits = store.vector(f, mat[i % 300], 5)
                assert hits and hits[0][0] == f"m{i % 300}"
        except BaseException as exc:
            errors.append(exc)

    readers = [threading.Thread(target=search) for _ in range(3)]
    for t in readers:
        t.start()
    for lo in range(300, 900, 20):  # the writer grows the partition past rebuilds meanwhile
        store.apply(_creates(mat[lo : lo + 20], lo, sc))
    for t in readers:
        t.join()
    store.close()
    assert errors == []
