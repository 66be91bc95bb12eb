"""Value normalisation: when two wordings are the same value (DESIGN §4 rule 9).

"tea" and "茶", "Postgres" and "PostgreSQL 16"'s product, "Beijing" and "北京" name one
value: a restatement in the other language or with a synonym must be a NOOP, not a change
and not a second active record. Two steps, cheapest first:

1. a canonical form — case, width, spaces and punctuation folded, fillers trimmed, then the
   synonym lexicon (``data/value_synonyms.json``: groups of equivalent wordings, any
   language) maps every member of a group to the group's first word;
2. for the types where wordings vary freely, embedding similarity of the two values above a
   per-type threshold (names, places and tech are never fuzzy-matched: "Go" ≠ "Rust").
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from functools import cache
from importlib import resources

import numpy as np

# Per value type: cosine of the two values' embeddings that counts as the same value.
# None = exact canonical match only (a near-miss there is a different value).
SIMILARITY: dict[str, float | None] = {
    "text": 0.93,
    "enum": 0.95,
    "organisation": None,
    "place": None,
    "person": None,
    "email": None,
    "phone": None,
    "url": None,
    "tech": None,
    "language": None,
    "date": None,
    "datetime": None,
    "number": None,
    "money": None,
    "duration": None,
}
_FILLER = re.compile(
    r"^(?:a|an|the|my|some)\s+|\s+(?:now|these days|again|anymore)$|^(?:一杯|一个|一只|一家|每天)|"
    r"(?:了|的|啦|呢|吧)$",
    re.IGNORECASE,
)
_VERSION = re.compile(r"\s*v?\d+(?:\.\d+)*$")


@cache
def _synonyms() -> dict[str, str]:
    text = resources.files("memquill").joinpath("data/value_synonyms.json").read_text("utf-8")
    table: dict[str, str] = {}
    for group in json.loads(text)["groups"]:
        head = _fold(group[0])
        for word in group:
            table.setdefault(_fold(word), head)
    return table


def _fold(value: str) -> str:
    v = unicodedata.normalize("NFKC", value).casefold().strip()
    v = re.sub(r"[\s_]+", " ", v)
    return v.strip(" .,;:!?，。；：！？\"'“”‘’")


def canonical(value: str, value_type: str = "text") -> str:
    """The comparable form of a value: folded, trimmed, mapped through the synonym lexicon.
    Phone numbers keep only digits; a tech keeps its version ("PostgreSQL 16" → "postgresql 16")."""
    v = _fold(value)
    if value_type == "phone":
        return re.sub(r"\D", "", v)
    if value_type in ("email", "url"):
        return v.rstrip("/")
    table = _synonyms()
    if v in table:
        return table[v]
    stripped = _FILLER.sub("", v).strip()
    if stripped in table:
        return table[stripped]
    if value_type == "tech" and (m := _VERSION.search(stripped)) and m.start() > 0:
        base = stripped[: m.start()].strip()
        return f"{table.get(base, base)} {m.group(0).strip().lstrip('v')}"
    return stripped or v


@cache
def _groups() -> dict[str, tuple[str, ...]]:
    """Every wording of the lexicon, by its group's head (the first word)."""
    out: dict[str, list[str]] = {}
    for word, head in _synonyms().items():
        out.setdefault(head, []).append(word)
    return {head: tuple(words) for head, words in out.items()}


def forms(value: str) -> tuple[str, ...]:
    """The wordings that name the same value as ``value``: itself, and the other members of
    its synonym group ("Beijing" → "beijing", "北京"; "拿铁" → "latte"). Used where a text is
    checked for naming a value, whatever language it was said in."""
    head = canonical(value)
    return tuple(dict.fromkeys([value, *_groups().get(head, ())]))


def same_value(
    a: str,
    b: str,
    value_type: str = "text",
    similarity: Callable[[str, str], float] | None = None,
) -> bool:
    """Whether two wordings name one value. ``similarity`` (cosine of the values'
    embeddings) is consulted only for free-text types and only when canonical forms differ."""
    ca, cb = canonical(a, value_type), canonical(b, value_type)
    if ca == cb:
        return True
    threshold = SIMILARITY.get(value_type)
    if threshold is None or similarity is None:
        return False
    return similarity(a, b) >= threshold


def cosine(u: np.ndarray, v: np.ndarray) -> float:
    nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    return float(u @ v) / (nu * nv) if nu and nv else 0.0
