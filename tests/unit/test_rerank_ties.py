"""Equal scores are ordered by what the records say and when, never by their random ids:
two runs over the same conversation must rank alike (the LoCoMo benchmark drifted by
swapped ties before)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memquill.model import MemoryRecord, MemoryType, Scope, Source
from memquill.retrieve.recipes import recipe
from memquill.retrieve.rerank import WeightedReranker

AT = datetime(2026, 11, 29, tzinfo=UTC)


def rec(id_: str, content: str, observed: datetime) -> MemoryRecord:
    return MemoryRecord(
        id=id_,
        type=MemoryType.EPISODE,
        scope=Scope(user="u"),
        subject="user",
        key="k",
        content=content,
        confidence=0.9,
        source=Source.EXPLICIT,
        evidence=["e1"],
        observed_at=observed,
        last_accessed_at=AT,  # touched: full recency, so only the tie-break separates them
        created_at=AT,
        updated_at=AT,
    )


@pytest.mark.parametrize(
    ("older", "newer"),
    [("我搬到了厦门", "我现在住在泉州"), ("I moved to Leeds", "I live in York now")],
)
def test_equal_scores_rank_newest_first_whatever_the_ids(older: str, newer: str) -> None:
    reranker = WeightedReranker(recipe("hybrid"))
    old_at, new_at = AT - timedelta(days=40), AT - timedelta(days=3)
    for old_id, new_id in (("mem-a", "mem-z"), ("mem-z", "mem-a")):
        items = [(rec(old_id, older, old_at), 0.5), (rec(new_id, newer, new_at), 0.5)]
        ranked = reranker.rerank("q", items, AT, None)
        assert ranked[0].score == ranked[1].score
        assert [s.record.content for s in ranked] == [newer, older]


def test_equal_scores_and_times_rank_by_content_not_id() -> None:
    reranker = WeightedReranker(recipe("hybrid"))
    orders = set()
    for ids in (("mem-a", "mem-z"), ("mem-z", "mem-a")):
        items = [(rec(ids[0], "b: same day", AT), 0.5), (rec(ids[1], "a: same day", AT), 0.5)]
        orders.add(tuple(s.record.content for s in reranker.rerank("q", items, AT, None)))
    assert orders == {("a: same day", "b: same day")}


def test_a_use_after_the_as_of_time_does_not_make_a_record_fresh() -> None:
    """An as-of query ("at" in the past) saw full recency for every record a previous search
    had touched in real time, so results depended on the order questions were asked."""
    from memquill.retrieve.rerank import recency

    said = AT - timedelta(days=60)
    r = rec("mem-a", "I moved to Leeds", said)  # last used at AT
    asof = AT - timedelta(days=30)
    unused = r.model_copy(update={"last_accessed_at": None})
    assert recency(r, asof, 30.0) == pytest.approx(recency(unused, asof, 30.0))
    assert recency(r, asof, 30.0) < 0.6
    assert recency(r, AT, 30.0) == 1.0  # used at AT: fresh from then on
