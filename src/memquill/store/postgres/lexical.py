"""Keeping the PostgreSQL lexical leg bounded when query terms are common.

``ts_rank`` reads and ranks the ``tsvector`` of every matching row: with terms that 5–20 %
of 100k records hold, that is 10–20k detoasted vectors for a top-50. As on SQLite
(``store/sqlite/lexical.py``), at most ``RANK_CAP`` rows are ranked: when the terms match
more rows than that, only rows holding every term are ranked if there are at least
``limit`` of them, and of whatever is ranked only the ``RANK_CAP`` newest (highest
``rowid``). Unlike FTS5's separate index, the GIN scan here runs with the record filter in
the same query, so other users' rows never crowd out the reader's and no fallback is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

RANK_CAP = 1000

NEWEST = (
    "SELECT m.rowid FROM memories m WHERE m.tsv @@ %s::tsquery AND {where} ORDER BY m.rowid DESC LIMIT %s"
)


def bounded(conn: Any, parts: Sequence[str], where: str, args: Sequence[Any], limit: int) -> list[int] | None:
    """The rowids to rank, or None when every match may be ranked (few enough of them)."""
    anyof = newest(conn, " | ".join(parts), where, args, RANK_CAP + 1)
    if len(anyof) <= RANK_CAP:
        return None
    if len(parts) > 1:
        allof = newest(conn, " & ".join(parts), where, args, RANK_CAP)
        if len(allof) >= limit:
            return allof
    return anyof[:RANK_CAP]


def newest(conn: Any, query: str, where: str, args: Sequence[Any], n: int) -> list[int]:
    rows = conn.execute(NEWEST.format(where=where), [query, *args, n]).fetchall()
    return [int(r["rowid"]) for r in rows]
