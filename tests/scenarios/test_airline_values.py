"""An airline is a closed kind of value: the airline a user flies is an airline's name, read
as the airline whatever attribute the clause first reads ("went back to United" had been a
sport, "booked my trips on Southwest" a place visited), and a clause about an airline that
names none states no airline (zh + en, every backend, the real embedder and the attribute
model)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, say_apart


@pytest.mark.parametrize(
    ("turns", "now", "question"),
    [
        (
            [
                "my airline changed my flight times for the third time. ok done, booked my next three trips on Southwest.",
                "went back to United, the open seating was making me crazy with all the travel.",
            ],
            "United",
            "which airline do I usually fly now?",
        ),
        (
            ["这半年出差都改坐川航了，餐食比国航好多了。", "最近飞上海都是吉祥航空，积分攒了不少。"],
            "吉祥航空",
            "我现在常坐哪家航空公司？",
        ),
    ],
)
def test_the_airline_flown_now_is_the_airline(
    mem_e5: Memory, clock: FixedClock, turns: list[str], now: str, question: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=40)
    assert active_values(mem_e5, "airline") == {"user": {now}}
    held = {r.value for r in mem_e5.records(user="u", statuses=["active", "candidate"]) if r.key != "airline"}
    assert now not in held  # not a sport, a place visited
    assert mem_e5.search(question, user="u", k=5)[0].memory.value == now


@pytest.mark.parametrize(
    "turn",
    [
        "my airline changed my flight times for the third time, so annoying.",
        "航空公司又把我的航班改了，第三次了，烦死。",
    ],
)
def test_a_clause_naming_no_airline_states_none(mem_e5: Memory, clock: FixedClock, turn: str) -> None:
    say_apart(mem_e5, clock, [turn], gap_days=1)
    assert not active_values(mem_e5, "airline")
