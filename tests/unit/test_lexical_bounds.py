"""The SQLite lexical leg ranks a bounded set when query terms are common
(store/sqlite/lexical.py): rows with every term first, other users' rows never crowd out
the reader's, and an uncommon query ranks exactly as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from memquill.model import Audit, Create, MemoryRecord, MemoryType, RevisionOp, Scope, Source
from memquill.model.query import RecordFilter
from memquill.store.sqlite import SQLiteStore, lexical
from memquill.text import query_terms
from tests.conformance.builders import T0


def _put(store: SQLiteStore, user: str, texts: list[str], start: int) -> None:
    audit = Audit(RevisionOp.ADD, "test", "lexical")
    store.apply(
        [
            Create(
                MemoryRecord(
                    id=f"m{start + i}",
                    type=MemoryType.FACT,
                    scope=Scope(user=user),
                    subject="user",
                    key=f"k{start + i}",
                    content=t,
                    confidence=0.9,
                    source=Source.EXPLICIT,
                    evidence=[f"e{start + i}"],
                    created_at=T0,
                    updated_at=T0,
                ),
                audit,
            )
            for i, t in enumerate(texts)
        ]
    )


CASES = {
    "en": ("green tea", "Alice drinks green tea on day {i}", "A pot of tea was left on desk {i}"),
    "zh": ("绿茶 杭州", "张伟在杭州喝绿茶，第{i}天", "杭州的天气第{i}天很好"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rows_with_every_term_are_ranked_even_when_old(
    tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexical, "RANK_CAP", 20)
    query, both, one = CASES[lang]
    store = SQLiteStore(str(tmp_path / "lex.db"))
    _put(store, "u", [both.format(i=i) for i in range(8)], 0)  # old, every term
    _put(store, "u", [one.format(i=i) for i in range(60)], 100)  # newer, one common term
    terms = query_terms(query)
    match, _ = lexical.bounded(store._q, terms, 5)
    assert " AND " in match
    hits = store.lexical(RecordFilter(Scope(user="u")), terms, 5)
    assert len(hits) == 5 and all(int(h[0][1:]) < 8 for h in hits)
    store.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_other_users_newer_rows_never_hide_the_readers(
    tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexical, "RANK_CAP", 20)
    query, _, one = CASES[lang]
    store = SQLiteStore(str(tmp_path / "lex.db"))
    _put(store, "alice", [one.format(i=i) for i in range(4)], 0)
    _put(store, "bob", [one.format(i=i) for i in range(80)], 100)
    hits = store.lexical(RecordFilter(Scope(user="alice")), query_terms(query), 10)
    assert sorted(h[0] for h in hits) == ["m0", "m1", "m2", "m3"]
    store.close()


def test_uncommon_query_ranks_exactly_as_unbounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = SQLiteStore(str(tmp_path / "lex.db"))
    texts = [
        f"note {i}: {'green tea' if i % 3 else 'black coffee'} with {'milk' if i % 2 else 'lemon'}"
        for i in range(60)
    ]
    _put(store, "u", texts, 0)
    f = RecordFilter(Scope(user="u"))
    terms = query_terms("green tea milk")
    monkeypatch.setattr(lexical, "RANK_CAP", 10**6)
    want = store.lexical(f, terms, 10)
    assert lexical.bounded(store._q, terms, 10)[1] == 0
    monkeypatch.setattr(lexical, "RANK_CAP", 100)  # more than the 60 matches: nothing changes
    assert store.lexical(f, terms, 10) == want
