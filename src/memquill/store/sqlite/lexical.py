"""Keeping the SQLite lexical leg bounded when query terms are common.

FTS5 finds and counts matches cheaply; what costs is ``bm25()``, computed for every match
before ``ORDER BY rank`` can keep the top rows (≈ 10 µs a row: 70 ms for the 7k matches
"用户 喜欢" has among 100k records). So at most ``RANK_CAP`` (1,000) matches are ranked: when the
terms together (AND) still match at least ``limit`` rows, only those are ranked — bm25
puts them first anyway; and of whatever is ranked, only the ``RANK_CAP`` newest rows
(highest rowid, a cheap walk of the doclist). An old record that matches only a few common
words is then left to the vector leg, which ranks every record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

RANK_CAP = 1000

Query = Callable[[str, Sequence[Any]], list[Any]]


def match_expr(terms: Sequence[str], op: str = "OR") -> str:
    return f" {op} ".join('"' + t.replace('"', '""') + '"' for t in terms)


def bounded(q: Query, terms: Sequence[str], limit: int) -> tuple[str, int]:
    """The MATCH expression to rank and the lowest rowid worth ranking (0: all of them)."""
    anyof = match_expr(terms)
    floor = _floor(q, anyof)
    if floor == 0:
        return anyof, 0
    if len(terms) > 1:
        allof = match_expr(terms, "AND")
        if _floor(q, allof, limit - 1) > 0:  # at least ``limit`` rows have every term
            return allof, _floor(q, allof)
    return anyof, floor


def _floor(q: Query, match: str, cap: int | None = None) -> int:
    """The rowid of the (cap+1)-th newest match, or 0 when there are no more than ``cap``."""
    cap = RANK_CAP if cap is None else cap
    rows = q(
        "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?",
        [match, cap],
    )
    return int(rows[0][0]) if rows else 0
