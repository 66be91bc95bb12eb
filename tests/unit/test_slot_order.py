"""Slot answers in the order the question was routed (``pipeline._slot_order``)."""

from __future__ import annotations

from memquill.retrieve.hybrid import Recall
from memquill.retrieve.pipeline import _slot_order


def _slot(mid: str, subject: str, key: str) -> Recall:
    return Recall(mid, 0.0, {"slot": {"subject": subject, "key": key, "via": "router"}})  # type: ignore[dict-item]


def test_the_first_routed_slot_leads_whatever_the_rerank_said() -> None:
    """ "remind me where I'm working now?" routes to the employer, then the workplace; the
    workplace record, newer, was ranked first among the slot answers."""
    pool = {
        "work": _slot("work", "user", "workplace"),
        "emp": _slot("emp", "user", "employer"),
        "ep": Recall("ep", 0.5, {"vector": {"rank": 1, "score": 0.8}}),
    }
    order = _slot_order(pool, [("user", "employer"), ("user", "commute"), ("user", "workplace")])
    reranked = ["ep", "work", "emp"]
    assert sorted(reranked, key=order) == ["emp", "work", "ep"]


def test_without_a_route_every_hit_keeps_its_place() -> None:
    pool = {"a": Recall("a", 0.2), "b": Recall("b", 0.1)}
    assert sorted(["b", "a"], key=_slot_order(pool, [])) == ["b", "a"]
