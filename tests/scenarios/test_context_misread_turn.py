"""A turn the classifier labels by its likeliest reading as something else still reaches a
request that needs what one of its clauses states, both backends: "在初中教物理，明天要出一套单元
测验…" reads as an event time whole and as the school by its first clause; a bio for the school
newsletter needs that, and ``focus`` — which trims a vector-only hit far below the best match —
keeps the episode by the clause readings the write path stored with its turns (decision 0016o).
A task whose kind names no such attribute does not keep it."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memquill import FixedClock, Memory
from memquill.model import MemoryRecord, MemoryType
from memquill.model.result import Hit
from memquill.retrieve import intents
from memquill.retrieve.pipeline import focus
from tests.support.sessions import say


class Case(NamedTuple):
    turns: list[str]
    turn: str  # the misread turn
    request: str  # needs what its clause states, in the other language
    unrelated: str


CASES = [
    Case(
        ["周末喜欢去爬山。", "在初中教物理，明天要出一套单元测验，帮我想想题型", "咖啡我不喝，只喝茶。"],
        "在初中教物理",
        "write a short bio of me for the school newsletter",
        "fix the failing unit test in the payment module",
    ),
    Case(
        [
            "I like hiking at weekends.",
            "Teaching biology at a secondary school, got to set a mock exam for Monday, any ideas?",
            "I don't drink coffee, only tea.",
        ],
        "Teaching biology",
        "帮我写一段学校通讯上用的个人简介",
        "帮我修一下这个接口的报错。",
    ),
]


def far(r: MemoryRecord, cosine: float) -> Hit:
    return Hit(memory=r, score=cosine, why={"legs": {"vector": {"score": cosine}}})


@pytest.mark.parametrize("case", CASES, ids=["zh", "en"])
def test_focus_keeps_a_misread_turn_the_request_needs(
    mem_read: Memory, clock: FixedClock, case: Case
) -> None:
    say(mem_read, clock, case.turns, "s1")
    [ep] = [
        r
        for r in mem_read.records(user="u")
        if r.type is MemoryType.EPISODE
        and any(case.turn in str(t.get("text")) for t in r.attributes["statements"])
    ]
    best = ep.model_copy(update={"id": "m-best", "content": "best match", "attributes": {}})
    hits = [far(best, 0.86), far(ep, 0.80)]
    needs = intents.bears_on(case.request)
    assert [h.memory.id for h in focus(hits, standing=needs)] == ["m-best", ep.id]
    assert [h.memory.id for h in focus(hits, standing=intents.bears_on(case.unrelated))] == ["m-best"]
