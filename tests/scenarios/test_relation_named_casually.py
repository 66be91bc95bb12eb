"""A new person in a relation named the way chat names them supersedes the one before (zh +
en, every backend, with the attribute model): "新leader陈姐让我…" (a relation word said in
Latin letters inside Chinese) after "我领导是老周", "new gp, Dr Nguyen at the clinic…" (no
"my") after "my GP is Dr Patel".

Before: the Chinese relation words were told from the English ones by script, so "leader"
listed as a Chinese word of the manager was looked for in English text only; and an English
relation needed "my" or a verb of getting before it."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, say_apart

CHANGES = [
    (
        ["我领导是老周，人挺好", "新leader陈姐让我周五前出一份对账服务的技术方案"],
        "我现在的领导是谁",
        "person:manager",
        "陈姐",
    ),
    (
        [
            "My GP is Dr Patel, been with her for years",
            "new gp, Dr Nguyen at the clinic on booth st, wants bloods done",
        ],
        "who's my doctor now?",
        "person:doctor",
        "Dr Nguyen",
    ),
]


@pytest.mark.parametrize(("turns", "question", "subject", "name"), CHANGES, ids=["zh-leader", "en-new-gp"])
def test_a_casually_named_new_relation_supersedes(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, subject: str, name: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=40)
    assert active_values(mem_e5, "name").get(subject) == {name}, active_values(mem_e5, "name")
    top = mem_e5.search(question, user="u", k=1)[0].memory
    assert (top.subject, top.value) == (subject, name), (top.subject, top.value, top.content)
