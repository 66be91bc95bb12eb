"""Provider seams: embedders, LLMs and tokenizers. Concrete providers import lazily."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Text → L2-normalised float32 vectors. Queries and passages may be encoded differently."""

    name: str
    dim: int

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...

    def embed_query(self, text: str) -> Vector: ...


@runtime_checkable
class Tokenizer(Protocol):
    def count(self, text: str) -> int: ...


@runtime_checkable
class LLM(Protocol):
    """A chat model behind any OpenAI-compatible endpoint.

    ``complete_json`` returns the parsed JSON object the model produced for ``schema``
    or raises ``ProviderError`` (timeout, HTTP error, malformed JSON).
    """

    name: str

    def complete_json(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str
    ) -> dict[str, Any]: ...
