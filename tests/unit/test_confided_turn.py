"""A user turn the classifier reads surely as a sensitive attribute is private whatever its
P(memory) (decision 0016p): "税前年薪38万，你帮我算算…算啥档次？" is a question, not a fact worth a
record (memory 0.14), yet it states the salary (0.93), and it reached code tasks and dinners."""

from __future__ import annotations

import pytest

from memquill.retrieve.confided import _turn


def _st(text: str, memory: float, reading: list[list[object]]) -> dict[str, object]:
    return {"text": text, "event": "e1", "reading": [memory, reading]}


@pytest.mark.parametrize(
    "text",
    [
        "税前年薪45万，你帮我看看这个收入在杭州算什么水平？",
        "I make $128k before tax — is that good for a nurse in Denver?",
    ],
    ids=["zh", "en"],
)
def test_a_question_stating_ones_salary_is_private_whatever_p_memory(text: str) -> None:
    assert "salary" in _turn(_st(text, 0.14, [["salary", 0.93], ["budget", 0.02]]))


@pytest.mark.parametrize(
    "text",
    ["这个月预算有点紧，帮我看看哪些能省？", "my budget is tight this month, what could I cut?"],
    ids=["zh", "en"],
)
def test_a_weak_sensitive_reading_of_an_unremembered_turn_stays_ordinary(text: str) -> None:
    assert "salary" not in _turn(_st(text, 0.14, [["budget", 0.6], ["salary", 0.3]]))
