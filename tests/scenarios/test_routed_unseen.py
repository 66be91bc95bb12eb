"""Questions routed by the readings of 0011q get the newest statement first (zh + en, every
backend, rules only and with the model): the reader's car asked as "what car do I drive" (the
user's ``vehicle`` and the car's ``model`` are both asked), a data store asked by a question that
speaks for a group ("we", "我们") and names no project, a bank and a gym."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say

CASES = [
    (
        ["I drive a Honda Civic to work every day"],
        ["what's a good name for a goldfish"],
        ["Sold the Civic last month, I drive a Mazda CX-5 now"],
        "what car do I drive these days",
        "CX-5",
    ),
    (  # an expected failure until the retrain of 0017d: the sold car stayed an active vehicle
        ["我开的是一辆大众朗逸，开了五年了"],
        ["帮我写一首关于秋天的诗"],
        ["朗逸上个月卖了，现在开的是比亚迪"],
        "我现在开的啥车",
        "比亚迪",
    ),
    (
        ["Our backend stores everything in MySQL"],
        ["what's a good name for a goldfish"],
        ["We migrated the backend from MySQL to PostgreSQL last week"],
        "what database are we using for orders now?",
        "PostgreSQL",
    ),
    (
        ["我们后端的数据都存在MySQL里"],
        ["帮我写一首关于秋天的诗"],
        ["我们后端已经从MySQL迁到PostgreSQL了"],
        "我们现在的数据库用的啥",
        "PostgreSQL",
    ),
]


def _text(hit: object) -> str:
    m = hit.memory  # type: ignore[attr-defined]
    return f"{m.value or ''} {m.content}"


@pytest.mark.parametrize(("first", "filler", "later", "question", "now"), CASES)
def test_a_question_routed_by_its_reading_gets_the_newest_statement_first(
    mem_modes: Memory,
    clock: FixedClock,
    first: list[str],
    filler: list[str],
    later: list[str],
    question: str,
    now: str,
) -> None:
    say(mem_modes, clock, first, "s1", gap_days=20)
    say(mem_modes, clock, filler, "s2", gap_days=20)
    say(mem_modes, clock, later, "s3", gap_days=20)
    hits = mem_modes.search(question, user="u", k=5)
    assert now in _text(hits[0])
