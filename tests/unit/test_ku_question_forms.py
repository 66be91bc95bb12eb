"""The catalogue's question forms for attributes people change reach their slot when asked
indirectly, by what the answer is for (word overlap alone, no embedder)."""

from __future__ import annotations

import pytest

from memquill.retrieve import routing


@pytest.mark.parametrize(
    ("question", "key"),
    [
        ("我早上怎么去单位来着", "commute"),
        ("快递寄给我寄哪个城市", "city"),
        ("which number should people ring me on", "phone"),
    ],
)
def test_an_indirect_question_reaches_the_slot_it_asks_about(question: str, key: str) -> None:
    assert [s.key for s in routing.route(question)][:1] == [key]
