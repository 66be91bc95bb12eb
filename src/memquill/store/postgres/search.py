"""The lexical and vector legs on PostgreSQL: a GIN-indexed tsvector and a pgvector HNSW index.

The HNSW scan runs with the RecordFilter in its WHERE clause and pgvector's iterative scan
(0.8+), so filters hold exactly. An approximate index can still return fewer rows than
exist (a very selective filter, the scan budget spent): then an exact scan answers instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from memquill.errors import ValidationError
from memquill.model.query import RecordFilter
from memquill.store.base import Ranked
from memquill.store.postgres.fts import TermStats
from memquill.store.postgres.sql import filter_sql, tsquery_parts

ConnFactory = Callable[[], AbstractContextManager[Any]]

# NaN (a zero vector has no direction) ranks like an orthogonal vector: similarity 0.
DIST = "COALESCE(NULLIF({d}, 'NaN'), 1)"
VECTORS = "memories m JOIN memory_vectors v ON v.rowid = m.rowid"
ANN = (
    f"WITH hits AS MATERIALIZED (SELECT m.id, v.embedding <=> %b AS d FROM {VECTORS} "
    "WHERE {where} ORDER BY d LIMIT %s) "
    f"SELECT id, {DIST.format(d='d')} AS d FROM hits ORDER BY 2, id"
)
EXACT = (
    f"SELECT m.id, {DIST.format(d='v.embedding <=> %b')} AS d FROM {VECTORS} "
    "WHERE {where} ORDER BY 2, m.id LIMIT %s"
)
MAX_EF_SEARCH = 1000
# Matches ranked at most (as on SQLite, ``store/sqlite/lexical.py``): past it, the newest.
RANK_CAP = 1000


class Search:
    def __init__(self, connection: ConnFactory, dim: int, iterative: bool) -> None:
        self._conn = connection
        self.dim = dim
        self._stats = TermStats()
        # pgvector 0.8+ keeps scanning the graph until enough rows pass the filter.
        self._tuning = "SELECT set_config('hnsw.ef_search', %s, true)" + (
            ", set_config('hnsw.iterative_scan', 'relaxed_order', true)" if iterative else ""
        )

    def lexical(self, f: RecordFilter, terms: Sequence[str], limit: int) -> Ranked:
        """Σ idf(term) · ``ts_rank``(term) over the records that have any of the terms.

        ``ts_rank`` saturates with a term's frequency and is normalised by the log of the
        record's length; the IDF weights (``fts.TermStats``) bring it close to bm25. (It also
        costs less than ``ts_rank_cd``: 26 against 63 ms for 21k matches at 100k records.)
        What costs is visiting every match's row, so when the terms are common (their
        document frequencies add up past ``RANK_CAP``) only the newest ``RANK_CAP`` rows are
        ranked, of those holding every term when enough do — bm25 puts them first anyway;
        an old record matching only a few common words is left to the vector leg.
        """
        parts = tsquery_parts(terms)
        if not parts or limit <= 0:
            return []
        where, args = filter_sql(f)
        score = " + ".join(["ts_rank(m.tsv, %s::tsquery, 1) * %s"] * len(parts))
        with self._conn() as conn:
            weights, dfs = self._stats.idf(conn, parts)
            scored = [x for pw in zip(parts, weights, strict=True) for x in pw]
            if sum(dfs) <= RANK_CAP:
                rows = conn.execute(
                    f"SELECT m.id, {score} AS s FROM memories m WHERE m.tsv @@ %s::tsquery AND {where} "
                    "ORDER BY s DESC, m.rowid LIMIT %s",
                    [*scored, " | ".join(parts), *args, limit],
                ).fetchall()
                return [(r["id"], float(r["s"])) for r in rows]
            match, matches = " | ".join(parts), sum(dfs)
            if len(parts) > 1 and self._enough(conn, " & ".join(parts), where, args, limit):
                match, matches = " & ".join(parts), min(dfs)
            newest = Newest(score, scored, match, where, args)
            return newest.rank(conn, limit, self._stats.rows / max(matches, 1.0))

    @staticmethod
    def _enough(conn: Any, match: str, where: str, args: Sequence[Any], limit: int) -> bool:
        """Do at least ``limit`` rows hold every term? (It stops counting there.)"""
        row = conn.execute(
            f"SELECT count(*) AS n FROM (SELECT 1 FROM memories m WHERE m.tsv @@ %s::tsquery AND {where} "
            "LIMIT %s) x",
            [match, *args, limit],
        ).fetchone()
        return bool(row["n"] >= limit)

    def vector(self, f: RecordFilter, query: npt.NDArray[np.float32], limit: int) -> Ranked:
        q = np.asarray(query, dtype=np.float32)
        if q.shape != (self.dim,):
            raise ValidationError(f"query vector has shape {q.shape}, this store holds {self.dim}-d vectors")
        if not np.isfinite(q).all():
            raise ValidationError("query vector contains NaN or infinity")
        if limit <= 0:
            return []
        where, args = filter_sql(f)
        params = [q, *args, limit]
        with self._conn() as conn:
            with conn.transaction():
                conn.execute(self._tuning, (str(min(MAX_EF_SEARCH, max(40, 2 * limit))),))
                rows = conn.execute(ANN.format(where=where), params).fetchall()
            if len(rows) < limit:  # fewer than asked: make sure it is because fewer exist
                rows = conn.execute(EXACT.format(where=where), params).fetchall()
        return [(r["id"], 1.0 - float(r["d"])) for r in rows]

    def explain(self, f: RecordFilter, query: npt.NDArray[np.float32], limit: int) -> str:
        """The plan of the vector leg's first query (HNSW or an exact scan: the planner's choice)."""
        where, args = filter_sql(f)
        with self._conn() as conn, conn.transaction():
            conn.execute(self._tuning, (str(min(MAX_EF_SEARCH, max(40, 2 * limit))),))
            rows = conn.execute("EXPLAIN " + ANN.format(where=where), [query, *args, limit]).fetchall()
        return "\n".join(r["QUERY PLAN"] for r in rows)

    def embeddings(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        if not ids:
            return {}
        with self._conn() as conn, conn.cursor(binary=True) as cur:
            cur.execute(
                f"SELECT m.id, v.embedding FROM {VECTORS} WHERE m.id = ANY(%s)",
                (list(ids),),
            )
            return {r["id"]: r["embedding"].to_numpy() for r in cur.fetchall()}


@dataclass(frozen=True)
class Newest:
    """Ranks the ``RANK_CAP`` newest matches of ``match``, found among the newest rowids.

    Sorting every match by rowid to find the newest still visits every matching row (the
    slow part: 250 ms for 36k matches at 1M records). A rowid window sized from the match
    density lets PostgreSQL AND the GIN bitmap with a primary-key range, so only the
    window's matches are read; the window grows ×4 until it holds ``RANK_CAP`` matches or
    covers the table (a scope whose records are sparse among other users' rows).
    """

    score: str
    scored: list[Any]
    match: str
    where: str
    args: Sequence[Any]

    def rank(self, conn: Any, limit: int, rows_per_match: float) -> Ranked:
        top = int(conn.execute("SELECT COALESCE(max(rowid), 0) AS r FROM memories").fetchone()["r"])
        window = math.ceil(1.5 * RANK_CAP * rows_per_match)
        while True:
            floor = max(0, top - window)
            rows = conn.execute(
                f"SELECT c.id, {self.score.replace('m.tsv', 'c.tsv')} AS s, count(*) OVER () AS n "
                f"FROM (SELECT m.id, m.rowid, m.tsv FROM memories m WHERE m.tsv @@ %s::tsquery "
                f"AND m.rowid > %s AND {self.where} ORDER BY m.rowid DESC LIMIT %s) c "
                "ORDER BY s DESC, c.rowid LIMIT %s",
                [*self.scored, self.match, floor, *self.args, RANK_CAP, limit],
            ).fetchall()
            if floor == 0 or (rows and rows[0]["n"] >= RANK_CAP):
                return [(r["id"], float(r["s"])) for r in rows]
            window *= 4
