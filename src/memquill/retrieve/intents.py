"""Requests that imply a constraint: situation cues → attributes and bilingual search terms.

"Any ideas what to pack to eat on the train?" shares no word with "我对花生过敏"; the
request is about *eating* and *travel*, and those situations bear on allergies and diets.
The situations, their cues in Chinese and English, the attributes they bear on and the
terms that reach memories in either language are data (``memquill/data/intents.json``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from memquill.errors import ConfigError
from memquill.text import query_terms


@dataclass(frozen=True)
class Situation:
    name: str
    cues: re.Pattern[str]  # every cue word of the situation, in one alternation
    attributes: frozenset[str]
    terms: tuple[str, ...]  # search terms, already normalised (text.query_terms)


def _cues(words: list[str]) -> re.Pattern[str]:
    """English cues match as words, Chinese ones anywhere (there are no spaces)."""
    if not words:
        raise ConfigError("intents: a situation without cues")
    parts = [rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])" if w.isascii() else re.escape(w) for w in words]
    return re.compile("|".join(parts), re.IGNORECASE)


def _words(value: Any) -> list[str]:
    if isinstance(value, Mapping):
        return [w for v in value.values() for w in _words(v)]
    if isinstance(value, list):
        return [str(w) for w in value]
    return []


def parse(data: Any) -> tuple[Situation, ...]:
    try:
        return tuple(
            Situation(
                name=s["name"],
                cues=_cues(_words(s.get("cues"))),
                attributes=frozenset(s.get("attributes", [])),
                terms=tuple(query_terms(" ".join(_words(s.get("terms"))))),
            )
            for s in data["situations"]
        )
    except (KeyError, TypeError) as exc:
        raise ConfigError(f"intents: malformed situation table ({exc})") from exc


@lru_cache(maxsize=1)
def bundled() -> tuple[Situation, ...]:
    text = resources.files("memquill").joinpath("data/intents.json").read_text("utf-8")
    return parse(json.loads(text))


def situations(query: str, table: Sequence[Situation] | None = None) -> list[Situation]:
    return [s for s in (bundled() if table is None else table) if s.cues.search(query)]


def bears_on(query: str, table: Sequence[Situation] | None = None) -> frozenset[str]:
    """Attribute keys the request's situations bear on."""
    return frozenset(a for s in situations(query, table) for a in s.attributes)


def expansion(query: str, table: Sequence[Situation] | None = None) -> list[str]:
    """Extra lexical terms (both languages) for the request's situations, without repeats."""
    own = set(query_terms(query))
    out: dict[str, None] = {}
    for s in situations(query, table):
        for t in s.terms:
            if t not in own:
                out.setdefault(t, None)
    return list(out)
