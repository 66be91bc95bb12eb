"""A value said as a reference is what it points at (issue #11, zh + en, every backend, the
real embedder and the attribute model): "宁波银行利率最低，顺手把工资卡也换成他们家了" changes the bank
to 宁波银行, not to "他们家"; "Saguaro Health made an offer, so that is the place I work now" names
no workplace "the place"; and a reference with nothing named before it stores nothing and
leaves the slot as it was."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say_apart

REFERENCES = {"他们家", "那家", "that one", "the place", "place"}  # the references the turns say
CASES = [
    (
        [
            "我工资卡是招行的。",
            "房贷批下来了，宁波银行利率最低，顺手把工资卡也换成他们家了，建行那张只留着交社保",
        ],
        "我工资现在打到哪个银行",
        "宁波银行",
    ),
    (
        ["我工资卡是招行的。", "同事都说那家服务好，我也把工资卡换成他们家了"],
        "我工资现在打到哪个银行",
        "招行",
    ),
    (
        ["My bank is Chase.", "Ally's rates beat everyone's, so I switched my paycheck to that one."],
        "which bank am I with now?",
        "Ally",
    ),
    (
        [
            "I work at Kaiser as a nurse.",
            "three months in and Saguaro Health made an offer, so that is the place I work now",
        ],
        "where do I work these days?",
        "Saguaro Health",
    ),
]


@pytest.mark.parametrize(("turns", "question", "value"), CASES)
def test_a_reference_is_what_it_points_at(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, value: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=10)
    stored = mem_e5.records(user="u", statuses=["active", "superseded", "candidate"])
    assert not {r.value for r in stored} & REFERENCES
    top = mem_e5.search(question, user="u", k=5)[0]
    assert top.memory.value == value
