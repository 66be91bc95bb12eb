"""The lexical leg ranks a bounded set when query terms are common (SQLite:
store/sqlite/lexical.py; PostgreSQL: the rowid window of store/postgres/search.py): rows with
every term first, other users' rows never crowd out the reader's, and an uncommon query
ranks exactly as before — on both backends."""

from __future__ import annotations

import pytest

from memquill.model import Audit, Create, MemoryRecord, MemoryType, RevisionOp, Scope, Source
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from memquill.store.sqlite import lexical
from memquill.text import query_terms
from tests.conformance.builders import T0


def _put(store: Store, user: str, texts: list[str], start: int) -> None:
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


def _cap(monkeypatch: pytest.MonkeyPatch, store: Store, n: int) -> None:
    """Set the number of matches ranked at most, on the store's own backend."""
    if store.backend == "sqlite":
        monkeypatch.setattr(lexical, "RANK_CAP", n)
    else:
        from memquill.store.postgres import search

        monkeypatch.setattr(search, "RANK_CAP", n)


CASES = {
    "en": ("green tea", "Alice drinks green tea on day {i}", "A pot of tea was left on desk {i}"),
    "zh": ("绿茶 杭州", "张伟在杭州喝绿茶，第{i}天", "杭州的天气第{i}天很好"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rows_with_every_term_are_ranked_even_when_old(
    store: Store, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _cap(monkeypatch, store, 20)
    query, both, one = CASES[lang]
    _put(store, "u", [both.format(i=i) for i in range(8)], 0)  # old, every term
    _put(store, "u", [one.format(i=i) for i in range(60)], 100)  # newer, one common term
    hits = store.lexical(RecordFilter(Scope(user="u")), query_terms(query), 5)
    assert len(hits) == 5 and all(int(h[0][1:]) < 8 for h in hits)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_common_terms_rank_the_newest_matches(
    store: Store, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _cap(monkeypatch, store, 20)
    query, _, one = CASES[lang]
    _put(store, "u", [one.format(i=i) for i in range(60)], 0)
    hits = store.lexical(RecordFilter(Scope(user="u")), query_terms(query), 10)
    assert len(hits) == 10 and all(int(h[0][1:]) >= 40 for h in hits)  # of the 20 newest


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_other_users_newer_rows_never_hide_the_readers(
    store: Store, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _cap(monkeypatch, store, 20)
    query, _, one = CASES[lang]
    _put(store, "alice", [one.format(i=i) for i in range(4)], 0)
    _put(store, "bob", [one.format(i=i) for i in range(80)], 100)
    _put(store, "alice", [one.format(i=i) for i in range(2)], 300)
    hits = store.lexical(RecordFilter(Scope(user="alice")), query_terms(query), 10)
    assert sorted(h[0] for h in hits) == ["m0", "m1", "m2", "m3", "m300", "m301"]


def test_uncommon_query_ranks_exactly_as_unbounded(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [
        f"note {i}: {'green tea' if i % 3 else 'black coffee'} with {'milk' if i % 2 else 'lemon'}"
        for i in range(60)
    ]
    _put(store, "u", texts, 0)
    f = RecordFilter(Scope(user="u"))
    terms = query_terms("green tea milk")
    _cap(monkeypatch, store, 10**6)
    want = store.lexical(f, terms, 10)
    _cap(monkeypatch, store, 100)  # more than the 60 matches: nothing changes
    assert store.lexical(f, terms, 10) == want
