"""Document frequencies for the lexical leg's IDF, without a write-time statistics table.

PostgreSQL's ranking functions know nothing of how rare a word is: with ``ts_rank`` alone a
speaker's name that is in every record outranks the one rare word that matters (on LoCoMo,
42% top-10 overlap with SQLite's bm25; with IDF weights 86%, the top hit agreeing 91%).
Frequent lexemes come free from ANALYZE (``pg_stats.most_common_elems`` of ``tsv``); the
others are rare by definition, so an exact count through the GIN index is cheap (capped, so
a table without statistics yet never scans far).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memquill.store.postgres.sql import bm25_idf

STATS = (
    "SELECT c.reltuples AS n, s.most_common_elems::text::text[] AS elems, "
    "s.most_common_elem_freqs AS freqs FROM pg_class c LEFT JOIN pg_stats s "
    "ON s.schemaname = current_schema() AND s.tablename = 'memories' AND s.attname = 'tsv' "
    "WHERE c.oid = 'memories'::regclass"
)
CAP = 5000  # a count stops here: past it a term is common and its IDF is low anyway
REFRESH = 256  # lexical queries between two reads of the statistics (16 while there are none)


class TermStats:
    def __init__(self) -> None:
        self._calls = 0
        self._n = 0.0  # rows, as of the last ANALYZE (<= 0: never analyzed)
        self._freq: dict[str, float] = {}  # lexeme -> fraction of rows that contain it
        self.rows = 0.0  # the table's rows as the last idf() saw them

    def idf(self, conn: Any, parts: Sequence[str]) -> tuple[list[float], list[float]]:
        """One weight per ``tsquery`` part (a quoted lexeme or a phrase), and the document
        frequencies they come from (counts stop at ``CAP``)."""
        if self._calls % (REFRESH if self._freq else 16) == 0:
            self._load(conn)
        self._calls += 1
        n = self._n
        if n <= 0:
            n = float(conn.execute("SELECT count(*) AS n FROM memories").fetchone()["n"])
        self.rows = n
        df = {p: self._freq[p] * n for p in parts if p in self._freq}
        rest = [p for p in parts if p not in df]
        if rest:
            counts = ", ".join(
                f"(SELECT count(*) FROM (SELECT 1 FROM memories WHERE tsv @@ %s::tsquery LIMIT {CAP}) x)"
                f" AS c{i}"
                for i in range(len(rest))
            )
            row = conn.execute(f"SELECT {counts}", rest).fetchone()
            df.update((p, float(row[f"c{i}"])) for i, p in enumerate(rest))
        return [bm25_idf(min(df[p], n), max(n, 1.0)) for p in parts], [df[p] for p in parts]

    def _load(self, conn: Any) -> None:
        row = conn.execute(STATS).fetchone()
        self._n = float(row["n"]) if row else 0.0
        elems, freqs = (row["elems"], row["freqs"]) if row else (None, None)
        # keys as tsquery parts: a quoted lexeme (lexemes never contain quotes or backslashes)
        self._freq = {f"'{e}'": float(f) for e, f in zip(elems or (), freqs or (), strict=False)}
