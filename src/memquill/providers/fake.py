"""Deterministic providers shipped in the package, for our tests and our users' tests."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from memquill.text import tokens


class HashEmbedder:
    """Bag-of-terms hashed into a fixed dimension: same words → similar vectors.

    No semantics, but stable across processes and machines, and fast.
    """

    name = "hash"

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim

    def _one(self, text: str) -> npt.NDArray[np.float32]:
        v = np.zeros(self.dim, dtype=np.float32)
        for t in tokens(text):
            h = hashlib.blake2b(t.encode(), digest_size=8).digest()
            idx = int.from_bytes(h[:4], "little") % self.dim
            v[idx] += 1.0 if h[4] & 1 else -1.0
        n = float(np.linalg.norm(v))
        return v / n if n else v

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._one(t) for t in texts])

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return self._one(text)
