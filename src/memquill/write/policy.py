"""The write policy: every decision parameter of the write path as one versioned value.

A policy is data, not code: it serialises to JSON, its id is a hash of its parameters, and
two policies can be diffed. The active policy's id is stamped on every record it writes
(``attributes["policy"]``), so ``explain()`` says which policy wrote a memory, and a
candidate policy can be replayed over the event log beside the live one before anyone
switches (``maintain/replay.py``, ``maintain/shadow.py``).
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from memquill import errors
from memquill.model import Candidate, MemoryType
from memquill.model.candidate import Trigger
from memquill.model.event import LOG_MARKERS
from memquill.settings import Settings
from memquill.store.base import Store

# Bumped whenever the rules or the episode builder change what they extract from the
# same text, so a policy names the extractor set it was measured with.
EXTRACTOR_VERSIONS = {"rules": "rules/2026.12", "episodes": "episodes/2026.12"}


__all__ = ["LOG_MARKERS", "RELAXABLE_GATE", "AdaptiveBounds", "WritePolicy"]

# Noise-gate reasons a policy may relax (sorted: the policy id hashes them in order).
RELAXABLE_GATE = ("hypothetical", "joke", "one-off request", "small talk")


class AdaptiveBounds(BaseModel):
    """How far, and how fast, use may move a type's worthiness threshold (off by default)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = False
    step: float = Field(default=0.05, gt=0.0, le=0.5)
    floor: float = Field(default=0.3, ge=0.0, le=1.0)
    ceiling: float = Field(default=0.8, ge=0.0, le=1.0)
    window_days: float = Field(default=30.0, gt=0.0)
    min_retrievals: int = Field(default=20, ge=1)
    low_utilisation: float = Field(default=0.2, ge=0.0, le=1.0)  # DESIGN §6: below 20% the gate is loose
    min_misses: int = Field(default=5, ge=1)


class WritePolicy(BaseModel):
    """Thresholds, triggers, TTL defaults and the extractor set of the write path."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal[1] = 1
    label: str = "default"
    worthiness_threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    type_thresholds: dict[MemoryType, float] = Field(default_factory=dict)
    confidence_floor: float = Field(default=0.6, ge=0.0, le=1.0)
    duplicate_similarity: float = Field(default=0.92, ge=0.0, le=1.0)
    dedup_similarity: float = Field(default=0.95, ge=0.0, le=1.0)
    # noise-gate reasons that drop a turn; a looser policy lets some through to extraction.
    # Turns made only of filler, greetings, laughter or emoji are always dropped.
    gate_drops: tuple[str, ...] = RELAXABLE_GATE
    # an episode needs a sentence this informative (content terms + specifics; see episodes.py)
    episode_min_score: float = Field(default=3.0, ge=0.0)
    triggers: dict[MemoryType, Trigger] = Field(default_factory=dict)
    ttl_days: dict[MemoryType, float] = Field(default_factory=dict)
    extractors: dict[str, str] = Field(default_factory=lambda: dict(EXTRACTOR_VERSIONS))
    classifier: str | None = None
    adaptive: AdaptiveBounds = AdaptiveBounds()

    @field_validator("type_thresholds")
    @classmethod
    def _unit_interval(cls, v: dict[MemoryType, float]) -> dict[MemoryType, float]:
        bad = {t.value: x for t, x in v.items() if not 0.0 <= x <= 1.0}
        if bad:
            raise ValueError(f"thresholds must be within 0..1: {bad}")
        return v

    @field_validator("gate_drops")
    @classmethod
    def _known_reasons(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        unknown = set(v) - set(RELAXABLE_GATE)
        if unknown:
            raise ValueError(f"gate_drops may only name {', '.join(RELAXABLE_GATE)}; got {sorted(unknown)}")
        return tuple(sorted(set(v)))

    @field_validator("ttl_days")
    @classmethod
    def _positive(cls, v: dict[MemoryType, float]) -> dict[MemoryType, float]:
        if any(x <= 0 for x in v.values()):
            raise ValueError("ttl_days must be positive")
        return v

    # --- identity ------------------------------------------------------------------------
    def params(self) -> dict[str, Any]:
        """What decides behaviour: everything but the human label."""
        return self.model_dump(mode="json", exclude={"label"})

    @property
    def id(self) -> str:
        blob = json.dumps(self.params(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return "wp-" + hashlib.sha256(blob.encode()).hexdigest()[:12]

    def to_json(self) -> str:
        body = {"id": self.id, **self.model_dump(mode="json")}
        return json.dumps(body, sort_keys=True, ensure_ascii=False, indent=2)

    @classmethod
    def from_json(cls, text: str) -> WritePolicy:
        """Parse a policy file; a stated ``id`` must match the parameters (no silent edits)."""
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise errors.ConfigError(f"policy is not valid JSON: {exc}") from exc
        if not isinstance(raw, dict):
            raise errors.ConfigError("policy must be a JSON object")
        raw.pop("id", None)  # derived: an edited file is read under its real id
        try:
            return cls.model_validate(raw)
        except ValidationError as exc:
            raise errors.ConfigError(f"invalid policy: {exc}") from exc

    @classmethod
    def live(cls, store: Store) -> WritePolicy | None:
        """The policy last switched to in this store, if any (else settings decide)."""
        log = store.policy_log()
        return cls.from_json(log[-1].body) if log else None

    @classmethod
    def from_settings(cls, settings: Settings) -> WritePolicy:
        """The cold-start policy: today's defaults, as configured."""
        return cls(
            worthiness_threshold=settings.worthiness_threshold,
            confidence_floor=settings.confidence_floor,
            duplicate_similarity=settings.duplicate_similarity,
            dedup_similarity=settings.dedup_similarity,
        )

    def diff(self, other: WritePolicy) -> dict[str, tuple[Any, Any]]:
        """Parameters that differ, as (this, other), dotted paths for nested ones."""
        a, b = _flatten(self.params()), _flatten(other.params())
        return {k: (a.get(k), b.get(k)) for k in sorted(a.keys() | b.keys()) if a.get(k) != b.get(k)}

    # --- decisions -----------------------------------------------------------------------
    def threshold_for(self, cand: Candidate) -> float:
        """Worthiness threshold for this candidate. Safety-critical attributes are never
        made harder to write than the base threshold, whatever adaptation did."""
        t = self.type_thresholds.get(cand.type, self.worthiness_threshold)
        if cand.attributes.get("safety_critical"):
            return min(t, self.worthiness_threshold)
        return t

    def shape(self, cand: Candidate) -> Candidate:
        """Apply per-type triggers and TTL defaults, and stamp the policy id."""
        update: dict[str, Any] = {"attributes": {**cand.attributes, "policy": self.id}}
        trigger = self.triggers.get(cand.type)
        if trigger is not None and not cand.attributes.get("explicit"):
            update["trigger"] = trigger
        ttl = self.ttl_days.get(cand.type)
        if ttl is not None and cand.expires_at is None:
            start: datetime | None = cand.observed_at or cand.valid_from
            if start is not None:
                update["expires_at"] = start + timedelta(days=ttl)
        return cand.model_copy(update=update)

    def drops(self, reason: str) -> bool:
        """Whether a turn the noise gate rejected for ``reason`` stays out of memory."""
        return reason not in RELAXABLE_GATE or reason in self.gate_drops

    def stamp(self, cand: Candidate) -> Candidate:
        """Name the policy that writes this candidate (kept if already named)."""
        if cand.attributes.get("policy"):
            return cand
        return cand.model_copy(update={"attributes": {**cand.attributes, "policy": self.id}})

    def with_threshold(self, t: MemoryType, value: float) -> WritePolicy:
        return self.model_copy(update={"type_thresholds": {**self.type_thresholds, t: round(value, 4)}})


def _flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        path = f"{prefix}{k}"
        if isinstance(v, dict):  # an empty mapping has no leaves: {} and {"x": 1} differ at "x"
            out.update(_flatten(v, path + "."))
        else:
            out[path] = v
    return out
