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
scores are exact cosines and only the candidate set is approximate.
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
    """Cluster ids per mirror row plus the centroids; ``none`` marks a row without a vector."""

    def __init__(self, centroids: F32, assign: npt.NDArray[np.int32], built_rows: int) -> None:
        self.centroids = centroids
        self.nlist = centroids.shape[0]
        self.none = self.nlist  # the "no vector" cluster id; never probed
        self.assign = assign
        self.built_rows = built_rows

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
        assign = np.full(cap, nlist, dtype=np.int32)
        for lo in range(0, len(rows), ASSIGN_CHUNK):
            chunk = rows[lo : lo + ASSIGN_CHUNK]
            assign[chunk] = np.argmax(mat[chunk] @ centroids.T, axis=1)
        return cls(centroids, assign, len(rows))

    def grow(self, cap: int) -> None:
        old = len(self.assign)
        self.assign = np.resize(self.assign, cap)
        self.assign[old:] = self.none

    def place(self, i: int, unit: F32 | None) -> None:
        """Keep row ``i`` in step with the mirror: a new or changed vector moves to its
        nearest centroid, a removed one leaves every cluster."""
        self.assign[i] = self.none if unit is None else int(np.argmax(self.centroids @ unit))

    def probe(self, unit_query: F32, n: int, nprobe: int) -> Mask:
        """Rows in the ``nprobe`` clusters nearest to the query (an integer pass, no vectors)."""
        nprobe = min(nprobe, self.nlist)
        near = np.argpartition(-(self.centroids @ unit_query), nprobe - 1)[:nprobe]
        probed = np.zeros(self.nlist + 1, dtype=bool)
        probed[near] = True
        return probed[self.assign[:n]]
