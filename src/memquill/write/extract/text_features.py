"""Word features of a clause beside its embedding, for the attribute classifier.

A sentence embedding is dominated by topic: "my native language is Korean" and "I speak
some Korean", "我以前在网易" and "我现在在京东" sit close together, yet they fill different
attributes. The words that tell them apart ("native", "以前", "ex-", "hometown") are few and
frequent, so a hashed bag of words (jieba words and character bigrams in Chinese, words and
word pairs in English) next to the embedding lets a linear head see them. The vector is
L2-normalised; ``joint`` puts it beside the normalised embedding.
"""

from __future__ import annotations

import itertools
import re
import zlib
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from memquill.text import jieba_posseg

DIM = 8192  # buckets; with 2048 and 9k training clauses, collisions flipped "My sister's name is Ana" to 0.02
WEIGHT = 0.7  # norm of the word part next to the unit-norm embedding
Array = npt.NDArray[np.float32]
_CJK = re.compile(r"[\u4e00-\u9fff]+")
_WORD = re.compile(r"[a-z0-9][a-z0-9'+#.-]*")


def _cut(text: str) -> list[str]:
    """jieba words, on the dictionary ``memquill.text`` initialised (its own cache dir)."""
    jieba_posseg()
    import jieba

    return list(jieba.lcut(text))


def words(text: str) -> list[str]:
    """The clause's word features: lower-cased Latin words and pairs of them; for Chinese
    runs, jieba words and character bigrams."""
    low = text.lower()
    latin = _WORD.findall(low)
    out = [f"w:{w}" for w in latin] + [f"b:{a}_{b}" for a, b in itertools.pairwise(latin)]
    for run in _CJK.findall(text):
        out += [f"z:{w}" for w in _cut(run)]
        out += [f"c:{run[i : i + 2]}" for i in range(len(run) - 1)]
    return out


def lexical(texts: Sequence[str], dim: int = DIM) -> Array:
    """Hashed, L2-normalised bag of word features, one row per text, ``dim`` buckets."""
    x = np.zeros((len(texts), dim), dtype=np.float32)
    for i, t in enumerate(texts):
        for f in words(t):
            x[i, zlib.crc32(f.encode()) % dim] = 1.0
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    out: Array = (x / np.where(norms == 0, 1.0, norms)).astype(np.float32)
    return out


def joint(embeddings: Array, texts: Sequence[str], dim: int = DIM) -> Array:
    """Normalised embedding beside the weighted word vector of ``dim`` buckets (a word head's
    weights say how many it was trained with: ``AttributeClassifier.head``)."""
    e = np.asarray(embeddings, dtype=np.float32)
    e = e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-9)
    out: Array = np.hstack([e, WEIGHT * lexical(texts, dim)]).astype(np.float32)
    return out
