"""A learned question router: a question's embedding → the attribute slot that holds its answer.

The catalogue's question forms (``question_forms.py``) are a few shapes per attribute written
by us; people ask otherwise ("我家那只毛孩子现在叫啥", "住哪一片来着", "what am I doing for
exercise lately", "my work hours these days?"). This router is a softmax head over the
catalogue's attribute keys plus ``NONE`` ("no remembered slot": general knowledge, advice,
requests, chit-chat), trained on thousands of paraphrases written apart from the code
(``tests/data/questions_train.jsonl``) and the catalogue's own forms, over the bundled e5
*query* embedding the search computes anyway. Its temperature is fitted on a held-out share
so its probabilities are calibrated; a question is routed to the best attribute only when
that probability reaches ``ROUTE_MIN`` (chosen on the held-out share, see
``scripts/train_router.py``), so ``NONE`` and spread-out readings route nowhere.

Only the attribute is read here: whom a question asks about (the reader, a relative, a pet,
the project) is ``routing.subject_of``'s, and whether a reader's slot may be asked at all is
``asked.about_reader``'s (LoCoMo-style questions name their speaker and stay out).
Weights are package data (``data/question_router.npz``) tied to the embedder that made them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from io import BytesIO

import numpy as np
import numpy.typing as npt

from memquill.errors import ConfigError
from memquill.write.extract.classifier import Head, unit_rows

ROUTER_FILE = "data/question_router.npz"
NONE = "<none>"  # the label of questions about no remembered slot
ROUTE_MIN = 0.5  # default probability of the best attribute needed to route (weights may carry their own)
Array = npt.NDArray[np.float32]


@dataclass(frozen=True)
class QuestionRouter:
    """The softmax head, its routing bar and the embedder its weights were trained against."""

    head: Head
    version: str
    embedder: str
    route_min: float = ROUTE_MIN

    def read(self, qvec: Array) -> list[tuple[str, float]]:
        """Every label with its calibrated probability, best first (``NONE`` included)."""
        p = self.head.probabilities(unit_rows(np.asarray(qvec, dtype=np.float32).reshape(1, -1)))[0]
        order = np.argsort(-p)
        return [(self.head.labels[int(i)], float(p[int(i)])) for i in order]

    def no_slot(self, qvec: Array) -> float:
        """The probability that the question asks about no remembered slot."""
        return dict(self.read(qvec)).get(NONE, 0.0)

    def keys_for(self, qvec: Array) -> list[str]:
        """The attribute to route to: the best reading when it is an attribute at least
        ``route_min`` likely; nothing when "no slot" leads or the reading is spread."""
        best, prob = self.read(qvec)[0]
        return [best] if best != NONE and prob >= self.route_min else []

    def to_bytes(self) -> bytes:
        buf = BytesIO()
        np.savez_compressed(
            buf,
            version=np.array(self.version),
            embedder=np.array(self.embedder),
            labels=np.array(self.head.labels),
            weights=self.head.weights.astype(np.float32),
            bias=self.head.bias.astype(np.float32),
            temperature=np.array(self.head.temperature, dtype=np.float32),
            route_min=np.array(self.route_min, dtype=np.float32),
        )
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> QuestionRouter:
        try:
            z = np.load(BytesIO(data), allow_pickle=False)
            head = Head(tuple(str(s) for s in z["labels"]), z["weights"], z["bias"], float(z["temperature"]))
            return cls(head, str(z["version"]), str(z["embedder"]), float(z["route_min"]))
        except (KeyError, ValueError, OSError) as exc:
            raise ConfigError(f"unreadable question router: {exc}") from exc


@cache
def bundled(embedder: str) -> QuestionRouter | None:
    """The shipped router for ``embedder``, or None (no weights, or made for another embedder)."""
    path = resources.files("memquill").joinpath(ROUTER_FILE)
    if not path.is_file():
        return None
    router = QuestionRouter.from_bytes(path.read_bytes())
    return router if router.embedder == embedder else None
