"""The LLM extractor: the long tail the rules miss (DESIGN §4 rule 8).

It runs off the hot path and never has the last word on trust: every candidate is
``inferred`` (``external`` when any evidence is external content) with confidence capped
at 0.8, so an explicit statement caught by the rules always outranks it. Model output is
untrusted input: each item is validated, evidence must point at events of this batch,
and a failed call or an all-invalid reply falls back to the rules with a warning, so a
flaky endpoint never silently drops memories.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from memquill.clock import parse_instant
from memquill.errors import MemquillError, ProviderError
from memquill.model import (
    Candidate,
    Event,
    Level,
    MemoryType,
    Polarity,
    Source,
    Trigger,
    Trust,
)
from memquill.providers.base import LLM
from memquill.write.extract.base import ExtractionInput, Extractor
from memquill.write.extract.prompts.extract_memories import (
    EXTRACTABLE_TYPES,
    SCHEMA,
    SCHEMA_NAME,
    VERSION,
    batch_language,
    language_of,
    render_user,
    system_prompt,
)

logger = logging.getLogger("memquill.extract.llm")

MAX_CONFIDENCE = 0.8  # DESIGN §6: inferred 0.5-0.8; explicit (~0.9) is the rules' to claim
_EDGE_PUNCT = " \t\r\n.,;:!?。，；：！？、…\"'“”‘’「」"


class LLMExtractor:
    """Extractor over any ``LLM``; falls back to ``fallback`` (usually the rules).

    Counters: ``calls`` (batches sent to the model), ``fallbacks`` (batches handed to the
    fallback) and ``dropped`` (reply items rejected by validation).
    """

    name = "llm"

    def __init__(self, llm: LLM, fallback: Extractor | None = None) -> None:
        self.llm = llm
        self.fallback = fallback
        self.calls = 0
        self.fallbacks = 0
        self.dropped = 0

    def extract(self, batch: ExtractionInput) -> list[Candidate]:
        if not batch.events:
            return []
        self.calls += 1
        system = system_prompt(batch_language(batch))
        try:
            reply = self.llm.complete_json(system, render_user(batch), SCHEMA, SCHEMA_NAME)
        except ProviderError as exc:
            return self._fall_back(batch, f"LLM call failed: {exc}")
        items = reply.get("memories")
        if not isinstance(items, list):
            return self._fall_back(batch, "LLM reply has no 'memories' list")
        events = {e.id: e for e in batch.events}
        candidates = []
        for item in items:
            try:
                candidates.append(self._candidate(item, events))
            except (KeyError, TypeError, ValueError, MemquillError) as exc:
                self.dropped += 1
                logger.debug("dropped LLM item %r: %s", item, exc)
        if items and not candidates:
            return self._fall_back(batch, f"none of {len(items)} LLM items were valid")
        if len(candidates) < len(items):
            logger.info("kept %d of %d LLM items", len(candidates), len(items))
        return candidates

    def _fall_back(self, batch: ExtractionInput, reason: str) -> list[Candidate]:
        self.fallbacks += 1
        target = self.fallback.name if self.fallback is not None else "nothing"
        ids = ", ".join(e.id for e in batch.events)
        logger.warning("%s; falling back to %s for events [%s]", reason, target, ids)
        return self.fallback.extract(batch) if self.fallback is not None else []

    def _candidate(self, item: Any, events: Mapping[str, Event]) -> Candidate:
        """One reply item → a Candidate; raises on anything malformed."""
        if not isinstance(item, dict):
            raise TypeError("item is not an object")
        evidence = [e for e in dict.fromkeys(_strings(item.get("evidence"))) if e in events]
        if not evidence:
            raise ValueError("no evidence from this batch")
        memory_type = MemoryType(item["type"])
        if memory_type not in EXTRACTABLE_TYPES:
            raise ValueError(f"type {memory_type} is not extracted from conversations")
        confidence = item["confidence"]
        if isinstance(confidence, bool) or not isinstance(confidence, int | float):
            raise TypeError("confidence is not a number")
        if not 0.0 <= confidence <= 1.0:
            raise ValueError(f"confidence {confidence} outside 0..1")
        tz = events[evidence[0]].timezone
        valid_from = _instant(item.get("valid_from"), tz)
        valid_to = _instant(item.get("valid_to"), tz)
        if valid_from and valid_to and valid_to <= valid_from:
            raise ValueError("valid_to is not after valid_from")
        content = _required_text(item, "content")
        value = item.get("value")
        return Candidate(
            type=memory_type,
            subject=_required_text(item, "subject"),
            key=_required_text(item, "key"),
            value=(value.strip() or None) if isinstance(value, str) else None,
            content=content,
            polarity=Polarity(item["polarity"]),
            conditions=[c.strip() for c in _strings(item.get("conditions")) if c.strip()],
            valid_from=valid_from,
            valid_to=valid_to,
            expires_at=_instant(item.get("expires_at"), tz),
            confidence=min(float(confidence), MAX_CONFIDENCE),
            source=_source(events[e] for e in evidence),
            evidence=evidence,
            level=Level(item["level"]),
            language=language_of(content),
            trigger=Trigger.BACKGROUND,
            rule=VERSION,
            attributes={"model": self.llm.name},
        )


def merge_candidates(rule_cands: Iterable[Candidate], llm_cands: Iterable[Candidate]) -> list[Candidate]:
    """Rule candidates plus the LLM candidates that add something new.

    An LLM candidate is dropped when a rule candidate (or an earlier LLM one) has the same
    slot and value — (subject, key, normalised value, polarity) — or the same normalised
    content: rules are deterministic and carry higher confidence. Polarity is part of the
    slot so "drinks coffee" never swallows "does NOT drink coffee"; a candidate without a
    value matches on content only, since an empty value says nothing about sameness.
    """
    merged = list(rule_cands)
    slots = {s for s in map(_slot, merged) if s is not None}
    contents = {_norm(c.content) for c in merged}
    for cand in llm_cands:
        slot, content = _slot(cand), _norm(cand.content)
        if (slot is not None and slot in slots) or content in contents:
            continue
        merged.append(cand)
        contents.add(content)
        if slot is not None:
            slots.add(slot)
    return merged


def _slot(cand: Candidate) -> tuple[str, str, str, Polarity] | None:
    value = _norm(cand.value or "")
    if not value:
        return None
    return _norm(cand.subject), _norm(cand.key), value, cand.polarity


def _norm(text: str) -> str:
    """Case-, width- and whitespace-insensitive form, without edge punctuation."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(folded.split()).strip(_EDGE_PUNCT)


def _required_text(item: dict[str, Any], field: str) -> str:
    value = item[field]
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{field} is empty")
    return value.strip()


def _strings(value: Any) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise TypeError("expected a list")
    return [v for v in value if isinstance(v, str)]


def _instant(value: Any, timezone: str) -> datetime | None:
    """An ISO string → aware UTC instant; a naive one is read in the event's timezone."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise TypeError("dates are ISO 8601 strings")
    return parse_instant(value, timezone=timezone)


def _source(evidence: Iterable[Event]) -> Source:
    """The lowest trust wins: external content can only ever create external candidates."""
    if any(e.source is Trust.EXTERNAL for e in evidence):
        return Source.EXTERNAL
    return Source.INFERRED
