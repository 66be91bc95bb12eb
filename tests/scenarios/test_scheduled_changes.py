"""A change said for a later date holds from that date (zh + en, every backend, the real
embedder and the attribute model, read at session end): until the day the clause names, the slot still answers with the old value; from
that day, with the new one; meanwhile the turn's episode tells the change ahead, and does
not lead the slot. Dates that are values (a birthday) keep no start."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from memquill.model import MemoryRecord


def _said(mem: Memory, clock: FixedClock, *turns: str) -> Memory:
    for t in turns:
        clock.advance(minutes=5)
        mem.add(t, user="u", session="s")
    mem.end_session(user="u", session="s")
    mem.flush()
    return mem


def _slot(mem: Memory, key: str) -> list[MemoryRecord]:
    return [r for r in mem.records(user="u", statuses=["active", "superseded"]) if r.key == key]


def _answer(mem: Memory, query: str) -> str | None:
    hits = mem.search(query, user="u", k=1)
    return hits[0].memory.value if hits else None


@pytest.mark.parametrize(
    ("now", "later", "key", "old", "new", "question"),
    [
        ("我住在杭州", "下个月搬去深圳", "city", "杭州", "深圳", "我住在哪个城市"),
        (
            "I live in Boston.",
            "I'm moving to Denver next month.",
            "city",
            "Boston",
            "Denver",
            "which city do I live in",
        ),
        ("我在阿里上班", "下周一入职拼多多", "employer", "阿里", "拼多多", "我在哪家公司上班"),
        (
            "I work at Google.",
            "I start at Stripe next Monday.",
            "employer",
            "Google",
            "Stripe",
            "where do I work",
        ),
    ],
)
def test_a_dated_change_takes_effect_on_its_day(
    mem_e5: Memory, clock: FixedClock, now: str, later: str, key: str, old: str, new: str, question: str
) -> None:
    mem = _said(mem_e5, clock, now, later)
    by_value = {r.value: r for r in _slot(mem, key)}
    assert set(by_value) == {old, new}, by_value
    start = by_value[new].valid_from
    assert start is not None and start > clock.now()
    assert by_value[old].valid_to == start  # the old value ends where the new one starts
    assert _answer(mem, question) == old  # asked the same day: not moved yet
    assert new in mem.context(question, user="u", budget_tokens=300).text  # the change ahead is told
    clock.advance(days=40)
    assert _answer(mem, question) == new


@pytest.mark.parametrize(
    ("said", "key"),
    [("我生日是下周五", "birthday"), ("My birthday is next Friday", "birthday")],
)
def test_a_date_that_is_the_value_keeps_no_start(
    mem_e5: Memory, clock: FixedClock, said: str, key: str
) -> None:
    mem = _said(mem_e5, clock, said)
    recs = _slot(mem, key)
    assert recs and all(r.valid_from is None for r in recs), [(r.value, r.valid_from) for r in recs]


@pytest.mark.parametrize(
    "said",
    [
        "我现在住在深圳",
        "I live in Denver now.",
        # a later date in another segment dates that segment, not the city
        "我住在深圳，下个月去北京出差",
        "I live in Denver, flying to Boston next month for a conference.",
    ],
)
def test_a_change_said_for_today_holds_at_once(mem_e5: Memory, clock: FixedClock, said: str) -> None:
    mem = _said(mem_e5, clock, said)
    recs = _slot(mem, "city")
    assert recs and all(r.valid_from is None or r.valid_from <= r.created_at for r in recs)
