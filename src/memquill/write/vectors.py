"""Candidate vectors for one write batch: embedded together, once per distinct text.

The embedder costs more per call than per text on an idle machine (threads stay busy on
a batch), and a session end yields many candidates (episodes, business context) at once.
Embedding stays lazy: nothing is embedded until a decision needs a vector, so a batch of
re-runs that all turn out to be no-ops never calls the model; from the first candidate that
needs one, the rest of the batch is embedded in the same calls. The vector computed here is
the one the near-duplicate check compares and the one stored with the record.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from memquill.model import Candidate
from memquill.providers.base import Embedder

Vector = npt.NDArray[np.float32]
BATCH = 32  # texts per embedder call: bounds memory on long sessions


def embedding_text(cand: Candidate) -> str:
    """A distilled record is embedded with its original wording, like the lexical index."""
    return str(cand.attributes.get("search_text") or cand.content)


class CandidateVectors:
    def __init__(self, embedder: Embedder | None, candidates: Sequence[Candidate]) -> None:
        self.embedder = embedder
        self.texts = [embedding_text(c) for c in candidates]
        self.cache: dict[str, Vector] = {}
        self.calls = 0

    def get(self, i: int) -> Vector | None:
        """The vector of candidate ``i``; embeds it with every later, not yet embedded text."""
        if self.embedder is None:
            return None
        if self.texts[i] not in self.cache:
            todo = [t for t in dict.fromkeys(self.texts[i:]) if t not in self.cache]
            for lo in range(0, len(todo), BATCH):
                chunk = todo[lo : lo + BATCH]
                vecs = np.asarray(self.embedder.embed_passages(chunk), dtype=np.float32)
                self.calls += 1
                self.cache.update(zip(chunk, vecs, strict=True))
        return self.cache[self.texts[i]]
