"""Requests that imply a constraint: situation cues → attributes and bilingual search terms.

"Any ideas what to pack to eat on the train?" shares no word with "我对花生过敏"; the
request is about *eating* and *travel*, and those situations bear on allergies and diets.
The situations, their cues in Chinese and English, the attributes they bear on and the
terms that reach memories in either language are data (``memquill/data/intents.json``).

A cue word is evidence, not proof: "walk me through setting up Python" is no outing and a
bio "for the concert programme" no evening out. A situation that bears on a safety-critical
attribute opens private memories, so it is checked (``Check``): the request must sit about as
close to the situation's example requests as to the neutral ones (tasks that bear on no
personal situation), within ``MARGIN`` cosine. Only the request's own vector is embedded
(the search embedded it already); the examples once per process.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from memquill.errors import ConfigError
from memquill.providers.base import Embedder
from memquill.text import query_terms

MARGIN = 0.0  # how far below the neutral examples a situation's examples may sit


@dataclass(frozen=True)
class Situation:
    name: str
    cues: re.Pattern[str]  # every cue word of the situation, in one alternation
    attributes: frozenset[str]
    terms: tuple[str, ...]  # search terms, already normalised (text.query_terms)
    examples: tuple[str, ...] = ()  # requests about the situation (for ``Check``)


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
                examples=tuple(_words(s.get("examples"))),
            )
            for s in data["situations"]
        )
    except (KeyError, TypeError) as exc:
        raise ConfigError(f"intents: malformed situation table ({exc})") from exc


@lru_cache(maxsize=1)
def _data() -> Any:
    return json.loads(resources.files("memquill").joinpath("data/intents.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def bundled() -> tuple[Situation, ...]:
    return parse(_data())


def situations(query: str, table: Sequence[Situation] | None = None) -> list[Situation]:
    return [s for s in (bundled() if table is None else table) if s.cues.search(query)]


def bears_on(
    query: str, table: Sequence[Situation] | None = None, check: Check | None = None
) -> frozenset[str]:
    """Attribute keys the request's situations bear on (those ``check`` confirms)."""
    found = situations(query, table)
    if check is not None:
        found = check.confirmed(query, found)
    return frozenset(a for s in found for a in s.attributes)


class Check:
    """Confirms the situations whose cue opens private memories, by example requests."""

    def __init__(
        self,
        embedder: Embedder,
        critical: Collection[str],
        neutral: Sequence[str] | None = None,
        margin: float = MARGIN,
    ):
        self.embedder = embedder
        self.critical = frozenset(critical)
        self.neutral = tuple(_words(_data().get("neutral")) if neutral is None else neutral)
        self.margin = margin
        self._vectors: dict[tuple[str, ...], npt.NDArray[np.float32]] = {}

    def confirmed(self, query: str, found: Sequence[Situation]) -> list[Situation]:
        todo = [s for s in found if s.examples and self.critical & s.attributes]
        if not todo or not self.neutral:
            return list(found)
        q = self.embedder.embed_query(query)
        floor = self._closest(q, self.neutral) - self.margin
        return [s for s in found if s not in todo or self._closest(q, s.examples) >= floor]

    def _closest(self, q: npt.NDArray[np.float32], texts: tuple[str, ...]) -> float:
        if texts not in self._vectors:
            self._vectors[texts] = np.stack([self.embedder.embed_query(t) for t in texts])
        return float(np.max(self._vectors[texts] @ q))


def expansion(query: str, table: Sequence[Situation] | None = None) -> list[str]:
    """Extra lexical terms (both languages) for the request's situations and for the people
    it names (``kin_terms``), without repeats."""
    own = set(query_terms(query))
    out: dict[str, None] = {}
    for t in [*(t for s in situations(query, table) for t in s.terms), *kin_terms(query)]:
        if t not in own:
            out.setdefault(t, None)
    return list(out)


def _term(word: str) -> str | None:
    """A relation word as one search term ("parents" → "parent", "女朋友" → "女朋友", not its
    "朋友"); ``None`` for a phrase ("best friend")."""
    terms = query_terms(word)
    if word.casefold() in terms:
        return word.casefold()
    return terms[0] if len(terms) == 1 else None


@lru_cache(maxsize=1)
def _kin() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Relation term → relation key (the catalogue's relation words), and relation key →
    the terms that reach it (its own words and those of the relations ``kin`` adds)."""
    from memquill.catalogue import load  # the catalogue imports nothing of the read path

    words = load().relation_words()
    word_of: dict[str, str] = {}
    by_key: dict[str, list[str]] = {}
    skip = set(_words(_data().get("kin_skip")))
    for word, key in words.items():
        if key not in skip and (term := _term(word)) is not None:
            word_of.setdefault(term, key)
            by_key.setdefault(key, []).append(term)
    wider = {k: v for k, v in (_data().get("kin") or {}).items() if isinstance(v, list)}
    reach = {
        key: tuple(dict.fromkeys(t for k in [key, *wider.get(key, [])] for t in by_key.get(k, [])))
        for key in by_key
    }
    return word_of, reach


def kin_terms(query: str) -> list[str]:
    """Every word, in both languages, of the people in the user's life the request names.

    "plan an outing for me and my kid" shares no word with "闺女豆豆六岁", and a request in
    English sits too far from a Chinese sentence for the vector leg alone: the catalogue's
    relation words (``data/attributes.json``, both languages) and the relations a named one
    also reaches (``kin`` in ``data/intents.json``: a kid is a son or a daughter) give the
    lexical leg the words the memory used. A word inside a longer one the request uses
    ("朋友" in "女朋友") names no one."""
    word_of, reach = _kin()
    named = [t for t in query_terms(query) if t in word_of]
    keys = dict.fromkeys(word_of[t] for t in named if not any(t != o and t in o for o in named))
    return list(dict.fromkeys(t for k in keys for t in reach.get(k, ())))
