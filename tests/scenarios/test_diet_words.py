"""A diet is a diet word (issue #11, zh + en, every backend, the real embedder and the attribute
model): the catalogue's closed kinds (``data/value_kinds.json``) list what a diet may be, so a
model reading of the diet names one ("Been eating fully plant-based…" was stored as the diet
"eating", "减脂餐" as "脂餐"), and a turn read as the diet that names none ("现在一天只吃两顿")
neither replaces the stored diet nor answers for it."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say_apart


@pytest.mark.parametrize(
    ("turns", "question", "diet"),
    [
        (
            [
                "Been eating fully plant-based since spring, honestly feel great.",
                "Three rowing sessions a week now, blisters everywhere.",
            ],
            "What is my diet these days?",
            "plant-based",
        ),
        (
            [
                "减肥期间晚上只吃减脂餐。",
                "我们家一直是清真的，猪肉从来不碰。",
                "现在一天只吃两顿，早饭直接省了。",
            ],
            "我现在是什么饮食方式？",
            "清真",
        ),
    ],
)
def test_a_diet_is_a_diet_word(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, diet: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=10)
    diets = {
        r.value
        for r in mem_e5.records(user="u", statuses=["active", "superseded", "candidate"])
        if r.key == "diet"
    }
    assert diets <= {"plant-based", "减脂餐", "清真"}  # never "eating", "脂餐", "两顿"
    top = mem_e5.search(question, user="u", k=5)[0]
    assert top.memory.value == diet
