"""Questions reach slots by meaning: the nearest catalogue question form.

The catalogue's bilingual question forms ("where am I based these days", "我现在爱喝什么")
are embedded once with the bundled embedder, at build time
(``scripts/build_question_vectors.py`` → ``data/question_vectors.npz``), so routing costs
one matrix product over the query vector search already computed. A query goes to the
attribute of its nearest form when the cosine reaches ``MIN_COSINE``, and also to the
runner-up attribute when it is within ``MARGIN`` (two close readings both get a slot
lookup; an empty slot costs nothing). Word overlap ("我现在靠什么工作谋生" shares no
word with "我是做什么工作的") misses such paraphrases.

The vectors are used only with the embedder that made them and the catalogue they were
made from (its digest is stored beside them); anything else falls back to the other
routes.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from memquill.catalogue import load

VECTORS_FILE = "data/question_vectors.npz"
MIN_COSINE = 0.91  # e5 puts unrelated short questions and requests at 0.80–0.905
MARGIN = 0.01


@dataclass(frozen=True)
class FormIndex:
    embedder: str
    keys: tuple[str, ...]  # one per row
    vectors: npt.NDArray[np.float32]  # L2-normalised, one row per question form

    def nearest(self, qvec: npt.NDArray[np.float32]) -> list[tuple[str, float]]:
        """Attributes by their best form's cosine, best first (one entry per attribute)."""
        sims = self.vectors @ np.asarray(qvec, dtype=np.float32).reshape(-1)
        best: dict[str, float] = {}
        for i in np.argsort(-sims)[:20]:
            best.setdefault(self.keys[int(i)], float(sims[int(i)]))
        return sorted(best.items(), key=lambda kv: -kv[1])

    def keys_for(self, qvec: npt.NDArray[np.float32]) -> list[str]:
        ranked = self.nearest(qvec)
        if not ranked or ranked[0][1] < MIN_COSINE:
            return []
        top = ranked[0][1]
        return [k for k, s in ranked[:2] if s >= top - MARGIN]


def forms() -> list[tuple[str, str]]:
    """(attribute key, question form) for every form of the catalogue, in catalogue order."""
    return [(a.key, q) for a in load().attributes for q in (*a.questions.en, *a.questions.zh)]


def digest() -> str:
    return hashlib.sha256(json.dumps(forms(), ensure_ascii=False).encode()).hexdigest()[:16]


def to_bytes(index: FormIndex) -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(
        buf,
        embedder=np.array(index.embedder),
        digest=np.array(digest()),
        keys=np.array(index.keys),
        vectors=index.vectors.astype(np.float16),
    )
    return buf.getvalue()


@cache
def bundled(embedder: str) -> FormIndex | None:
    """The shipped form vectors for ``embedder``, if they match the catalogue."""
    path = resources.files("memquill").joinpath(VECTORS_FILE)
    if not path.is_file():
        return None
    with np.load(io.BytesIO(path.read_bytes())) as z:
        if str(z["embedder"]) != embedder or str(z["digest"]) != digest():
            return None
        vectors = z["vectors"].astype(np.float32)
        keys = tuple(str(k) for k in z["keys"])
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return FormIndex(embedder, keys, vectors / np.where(norms == 0, 1.0, norms))
