"""A private line said among ordinary facts, and the requests it must and must not reach:
the shape of the context scenario tests for privacy classes."""

from __future__ import annotations

from typing import NamedTuple

from memquill import FixedClock, Memory
from tests.support.sessions import say


class Case(NamedTuple):
    turns: list[str]
    word: str  # a word of the private line
    opens: list[str]  # requests it must reach
    not_opens: list[str]  # requests it must not reach


def check(mem: Memory, clock: FixedClock, case: Case) -> None:
    say(mem, clock, case.turns, "s1")
    for request in case.opens:
        ctx = mem.context(request, user="u", budget_tokens=300)
        assert case.word in ctx.text, (request, ctx.text)
    for request in case.not_opens:
        ctx = mem.context(request, user="u", budget_tokens=300)
        assert case.word not in ctx.text, (request, ctx.text)
