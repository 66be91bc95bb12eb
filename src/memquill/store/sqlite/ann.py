"""An inverted-file (IVF) candidate index for one vector partition: large scopes stop
scanning every row.

Why IVF in numpy rather than an HNSW library: the index lives only in process memory and
is derived from the mirror, which is derived from the rows, so it is rebuildable by
construction, follows every write (including ``forget``, which nulls the vector) through the
mirror's ``seq`` cursor, and holds nothing on disk that erasure would have to chase. An
HNSW graph (usearch) took minutes to build for 100k rows on this project's 2-core machine,
once per process; the k-means here takes seconds and updates in O(1) per row.

Rows are clustered by spherical k-means on a sample; a query probes the clusters whose
centroids are closest and scores only their rows, exactly, in float32 — so the returned
scores are exact cosines and only the candidate set is approximate. The price is a second
copy of the vectors (sorted by cluster), rebuilt once enough rows changed.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]

KMEANS_ITERATIONS = 8
SAMPLE_PER_CLUSTER = 40  # rows sampled per centroid for k-means
ASSIGN_CHUNK = 16384  # rows per matmul when assigning all rows


class ClusterIndex:
    """Centroids plus a copy of the rows sorted by cluster, so a probe scores contiguous
    slices (gathering scattered rows costs more than the exact scan it replaces). Rows
    written after the build are scored from the mirror until the next rebuild."""

    def __init__(
        self, centroids: F32, order: npt.NDArray[np.intp], labels: npt.NDArray[np.intp], mat: F32, cap: int
    ) -> None:
        self.centroids = centroids
        self.nlist = centroids.shape[0]
        self.order = order  # sorted slot -> mirror row
        self.sorted = np.ascontiguousarray(mat[order])
        self.offsets = np.searchsorted(labels[order], np.arange(self.nlist + 1))
        self.live = np.ones(len(order), dtype=bool)  # the sorted copy still holds the row's vector
        self.where = np.full(cap, -1, dtype=np.intp)  # mirror row -> sorted slot
        self.where[order] = np.arange(len(order))
        self.extra: set[int] = set()  # rows written since the build
        self.built_rows = len(order)

    @classmethod
    def build(cls, mat: F32, has_vec: Mask, n: int, cap: int, seed: int = 0) -> ClusterIndex:
        """k-means over a seeded sample of the rows that have a vector (deterministic for a
        given set of rows), then every row assigned to its nearest centroid."""
        rows = np.flatnonzero(has_vec[:n])
        nlist = max(1, min(4096, int(math.sqrt(len(rows)))))
        rng = np.random.default_rng(seed)
        take = min(len(rows), nlist * SAMPLE_PER_CLUSTER)
        sample = mat[np.sort(rng.choice(rows, size=take, replace=False))]
        centroids = sample[rng.choice(take, size=nlist, replace=False)].copy()
        for _ in range(KMEANS_ITERATIONS):
            labels = np.argmax(sample @ centroids.T, axis=1)
            sums = np.zeros_like(centroids)
            np.add.at(sums, labels, sample)
            counts = np.bincount(labels, minlength=nlist)
            empty = counts == 0  # an empty cluster restarts at a random sample row
            sums[empty] = sample[rng.choice(take, size=int(empty.sum()))]
            norms = np.linalg.norm(sums, axis=1, keepdims=True)
            centroids = (sums / np.where(norms > 0, norms, 1)).astype(np.float32)
        assign = np.empty(len(rows), dtype=np.intp)
        for lo in range(0, len(rows), ASSIGN_CHUNK):
            chunk = rows[lo : lo + ASSIGN_CHUNK]
            assign[lo : lo + len(chunk)] = np.argmax(mat[chunk] @ centroids.T, axis=1)
        by_cluster = np.argsort(assign, kind="stable")
        labels_by_row = np.zeros(cap, dtype=np.intp)
        labels_by_row[rows] = assign
        return cls(centroids, rows[by_cluster], labels_by_row, mat, cap)

    @property
    def changed(self) -> int:
        return len(self.extra) + int((~self.live).sum())

    def grow(self, cap: int) -> None:
        old = len(self.where)
        self.where = np.resize(self.where, cap)
        self.where[old:] = -1

    def place(self, i: int, has_vector: bool) -> None:
        """Row ``i`` changed in the mirror: its sorted copy is wiped (a forgotten vector
        leaves memory too) and, if it still has a vector, it is scored from the mirror."""
        j = self.where[i]
        if j >= 0:
            self.sorted[j] = 0.0
            self.live[j] = False
            self.where[i] = -1
        if has_vector:
            self.extra.add(i)
        else:
            self.extra.discard(i)

    def candidates(self, q: F32, nprobe: int, mask: Mask, mat: F32) -> tuple[npt.NDArray[np.intp], F32]:
        """Rows allowed by ``mask`` in the ``nprobe`` clusters nearest to the query, plus
        the rows written since the build, with their exact scores."""
        nprobe = min(nprobe, self.nlist)
        near = np.sort(np.argpartition(-(self.centroids @ q), nprobe - 1)[:nprobe])
        lo, hi = self.offsets[near], self.offsets[near + 1]
        slots = np.concatenate([np.arange(a, b) for a, b in zip(lo, hi, strict=True)])
        scores = np.concatenate([self.sorted[a:b] @ q for a, b in zip(lo, hi, strict=True)])
        rows = self.order[slots]
        keep = self.live[slots] & mask[rows]
        extra = np.fromiter(self.extra, dtype=np.intp, count=len(self.extra))
        extra = extra[mask[extra]]
        return (
            np.concatenate([rows[keep], extra]),
            np.concatenate([scores[keep], mat[extra] @ q]).astype(np.float32),
        )
