"""Pure SQL builders for the PostgreSQL store: filters, full-text literals, lock keys.

No I/O here, so every function is testable without a server. Values always travel as
query parameters; the only text spliced into SQL is fixed column names.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from memquill.model import Scope
from memquill.model.query import RecordFilter
from memquill.store import shared
from memquill.store.dialect import POSTGRES

# FTS5's unicode61 tokenizer keeps runs of letters and digits and splits on everything else
# ("node.js" -> node, js). PostgreSQL's own parser would keep "node.js" and "a@b.com" whole,
# so the lexemes are cut here, the same way for documents and queries.
_LEXEME = re.compile(r"[^\W_]+")
MAX_LEXEME_BYTES = 2046  # PostgreSQL refuses longer words
MAX_POSITION = 16383  # larger positions are clamped by PostgreSQL
MAX_POSITIONS = 255  # per lexeme


def filter_sql(f: RecordFilter, alias: str = "m") -> tuple[str, list[Any]]:
    """The WHERE clause of a RecordFilter in PostgreSQL's style (see ``store.shared``)."""
    return shared.filter_sql(POSTGRES, f, alias)


# --- full text -----------------------------------------------------------------------------
def lexemes(term: str) -> list[str]:
    """The index words of one pre-segmented term, as FTS5 unicode61 would split it."""
    return [w for w in _LEXEME.findall(term.lower()) if len(w.encode()) <= MAX_LEXEME_BYTES]


def _quote(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector_literal(terms: str) -> str:
    """A ``tsvector`` literal of pre-segmented ``terms`` (``codec.search_terms``): their
    words and positions."""
    positions: dict[str, list[int]] = {}
    pos = 0
    for term in terms.split():
        for word in lexemes(term):
            pos += 1
            seen = positions.setdefault(word, [])
            if len(seen) < MAX_POSITIONS:
                seen.append(min(pos, MAX_POSITION))
    return " ".join(f"{_quote(w)}:{','.join(map(str, sorted(set(p))))}" for w, p in positions.items())


def tsquery_parts(terms: Iterable[str]) -> list[str]:
    """One ``tsquery`` literal per distinct term; a term of several words is a phrase."""
    parts: dict[str, None] = {}
    for term in terms:
        words = lexemes(term)
        if len(words) == 1:
            parts.setdefault(_quote(words[0]), None)
        elif words:
            parts.setdefault("(" + " <-> ".join(_quote(w) for w in words) + ")", None)
    return list(parts)


def bm25_idf(df: float, n: float) -> float:
    """Inverse document frequency as in bm25 (Lucene's form: never negative)."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


# --- locks ------------------------------------------------------------------------------------
def lock_key(*parts: str | None) -> int:
    """A signed 64-bit key for ``pg_advisory_xact_lock``, from the parts (None ≠ "")."""
    h = hashlib.blake2b(digest_size=8)
    for p in parts:  # length-prefixed, so no two different part lists hash the same bytes
        b = b"" if p is None else p.encode()
        h.update(b"\x00" if p is None else b"\x01" + len(b).to_bytes(4, "big") + b)
    return int.from_bytes(h.digest(), "big", signed=True)


def slot_lock_key(schema: str, s: Scope, subject: str, key: str) -> int:
    return lock_key(schema, "slot", s.tenant, s.user, s.agent, s.project, s.session, subject, key)


def placeholders(row: Sequence[str], casts: dict[str, str]) -> str:
    """``%s, %s::json, %b, …`` for the columns of ``row``, with per-column casts."""
    return ", ".join(casts.get(c, "%s") for c in row)
