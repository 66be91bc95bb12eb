"""Value normalisation: when two wordings are the same value (DESIGN §4 rule 9).

"tea" and "茶", "Postgres" and "PostgreSQL 16"'s product, "Beijing" and "北京" name one
value: a restatement in the other language or with a synonym must be a NOOP, not a change
and not a second active record. Three steps, cheapest first:

1. a canonical form — case, width, spaces and punctuation folded, fillers trimmed, then the
   synonym lexicon (``data/value_synonyms.json``: groups of equivalent wordings, any
   language) maps every member of a group to the group's first word;
2. a Chinese value against an English one: the bilingual dictionary (``data/bilingual.tsv.gz``,
   from CC-CEDICT) — "茉莉花茶" / "jasmine tea", word by word "大麦茶" / "barley tea";
3. for the types where wordings vary freely, and only when a caller gives one, embedding
   similarity of the two values above a per-type threshold (names, places and tech are never
   fuzzy-matched: "Go" ≠ "Rust"). Reconcile does not: the bundled e5 puts "茉莉花茶" nearer
   "绿茶" than "jasmine tea" (decision 0011zf).
"""

from __future__ import annotations

import gzip
import json
import re
import unicodedata
from collections.abc import Callable
from functools import cache, lru_cache
from importlib import resources

import numpy as np

from memquill.text import is_cjk
from memquill.write.extract.values import pos_cut

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


def lexicon_head(value: str) -> bool:
    """Is ``value`` the head wording of a synonym group ("dark mode"), the form the lexicon
    itself keeps?"""
    v = _fold(value)
    return _synonyms().get(v) == v


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


# Value types whose Chinese and English wordings are compared through the dictionary: a
# person's name is never translated ("王芳" is no "wang fang" to compare), contacts, numbers
# and times have their own canonical forms.
TRANSLATED = frozenset({"text", "enum", "tech", "organisation", "place"})


@cache
def _bilingual() -> dict[str, tuple[str, ...]]:
    """Chinese headword → short English glosses (``data/bilingual.tsv.gz``, from CC-CEDICT by
    ``scripts/build_bilingual.py``), read once, when a value pair in two scripts first needs it."""
    raw = resources.files("memquill").joinpath("data/bilingual.tsv.gz").read_bytes()
    table: dict[str, tuple[str, ...]] = {}
    for line in gzip.decompress(raw).decode("utf-8").splitlines():
        zh, _, glosses = line.partition("\t")
        table[zh] = tuple(glosses.split("|"))
    return table


@lru_cache(maxsize=4096)
def english(value: str) -> frozenset[str]:
    """English wordings of a Chinese value: the dictionary's glosses of the whole word, and
    the first glosses of its words joined ("茉莉花茶" → "jasmine tea"; "大麦茶" → "barley tea")."""
    table = _bilingual()
    v = _FILLER.sub("", _fold(value)).strip() or _fold(value)
    out = set(table.get(v, ()))
    words = [w for w, _ in pos_cut(v) if w.strip()]
    if not all(w in table for w in words) or len(words) == 1:
        words = _longest_first(v, table)
    if len(words) > 1 and all(w in table for w in words):
        out.add(" ".join(table[w][0] for w in words))
    return frozenset(out)


def _longest_first(v: str, table: dict[str, tuple[str, ...]]) -> list[str]:
    """``v`` cut into the longest dictionary words from the left ("大麦茶" → 大麦 / 茶, a
    word jieba keeps whole though the dictionary has only its parts)."""
    words, at = [], 0
    while at < len(v):
        top = min(6, len(v) - at) - (at == 0)  # the whole value was looked up already
        n = next((n for n in range(top, 0, -1) if v[at : at + n] in table), 0)
        if n == 0:
            return []
        words.append(v[at : at + n])
        at += n
    return words


def _singular(v: str) -> str:
    return v[:-1] if v.endswith("s") and not v.endswith("ss") and len(v) > 3 else v


def translated(a: str, b: str, value_type: str) -> bool:
    """Do a Chinese and an English wording name one value by the dictionary ("茉莉花茶" /
    "jasmine tea", "深圳" / "Shenzhen")? Only a Chinese value against a value with no Chinese."""
    if value_type not in TRANSLATED or is_cjk(a) == is_cjk(b):
        return False
    zh, en = (a, b) if is_cjk(a) else (b, a)
    want = {_singular(_FILLER.sub("", _fold(en)).strip()), _singular(canonical(en, value_type))}
    return any(_singular(g) in want for g in english(zh))


def same_value(
    a: str,
    b: str,
    value_type: str = "text",
    similarity: Callable[[str, str], float] | None = None,
) -> bool:
    """Whether two wordings name one value: the same canonical form, the same value in the
    other language by the dictionary (``translated``), or — for free-text types, when a
    ``similarity`` (cosine of the values' embeddings) is given — close enough."""
    ca, cb = canonical(a, value_type), canonical(b, value_type)
    if ca == cb or translated(a, b, value_type):
        return True
    threshold = SIMILARITY.get(value_type)
    if threshold is None or similarity is None:
        return False
    return similarity(a, b) >= threshold


def cosine(u: np.ndarray, v: np.ndarray) -> float:
    nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    return float(u @ v) / (nu * nv) if nu and nv else 0.0
