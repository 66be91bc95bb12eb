"""The lexical leg ranks a bounded set when query terms are common, on both backends, in
Chinese and English: rows holding every term are ranked even when old, other users' rows
never crowd out the reader's, and a query with few matches ranks exactly as unbounded."""

from __future__ import annotations

from types import ModuleType

import pytest

from memquill.model import Audit, Create, MemoryRecord, MemoryType, RevisionOp, Scope, Source
from memquill.model.query import RecordFilter
from memquill.store.base import Store
from memquill.store.postgres import lexical as pg_lexical
from memquill.store.sqlite import lexical as sqlite_lexical
from memquill.text import query_terms
from tests.conformance.builders import T0

CASES = {
    "en": ("green tea", "Alice drinks green tea on day {i}", "A pot of tea was left on desk {i}"),
    "zh": ("绿茶 杭州", "张伟在杭州喝绿茶，第{i}天", "杭州的天气第{i}天很好"),
}


def _module(backend: str) -> ModuleType:
    return sqlite_lexical if backend == "sqlite" else pg_lexical


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


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_old_rows_with_every_term_are_ranked(
    store: Store, backend: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_module(backend), "RANK_CAP", 20)
    query, both, one = CASES[lang]
    _put(store, "u", [both.format(i=i) for i in range(8)], 0)  # old, every term
    _put(store, "u", [one.format(i=i) for i in range(60)], 100)  # newer, one common term
    hits = store.lexical(RecordFilter(Scope(user="u")), query_terms(query), 5)
    assert len(hits) == 5 and all(int(h[0][1:]) < 8 for h in hits)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_other_users_newer_rows_never_hide_the_readers(
    store: Store, backend: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_module(backend), "RANK_CAP", 20)
    query, _, one = CASES[lang]
    _put(store, "alice", [one.format(i=i) for i in range(4)], 0)
    _put(store, "bob", [one.format(i=i) for i in range(80)], 100)
    hits = store.lexical(RecordFilter(Scope(user="alice")), query_terms(query), 10)
    assert sorted(h[0] for h in hits) == ["m0", "m1", "m2", "m3"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_few_matches_rank_exactly_as_unbounded(
    store: Store, backend: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    query, both, one = CASES[lang]
    _put(store, "u", [(both if i % 3 else one).format(i=i) for i in range(60)], 0)
    f = RecordFilter(Scope(user="u"))
    terms = query_terms(query)
    monkeypatch.setattr(_module(backend), "RANK_CAP", 10**6)
    want = store.lexical(f, terms, 10)
    monkeypatch.setattr(_module(backend), "RANK_CAP", 100)  # more than the 60 matches
    assert store.lexical(f, terms, 10) == want
    monkeypatch.setattr(_module(backend), "RANK_CAP", 30)  # bounded: still the best rows first
    bounded = store.lexical(f, terms, 10)
    assert len(bounded) == 10 and all(int(h[0][1:]) % 3 for h in bounded)
