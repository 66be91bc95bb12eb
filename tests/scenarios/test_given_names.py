"""A sentence opening with a person's given name is about that person, even a name that is
also an English word ("Mark signed with Amazon"), and a question naming them reaches what
they are filed under; a sentence opening with an ordinary word is the user's (zh + en, every
backend, the real embedder and the attribute model)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, say_apart


@pytest.mark.parametrize(
    ("turns", "subject", "key", "question", "now"),
    [
        (
            [
                "Mark got laid off from Boeing last week, can you help me make a tight budget?",
                "Mark signed with Amazon, starts July 7! ideas for a little celebration dinner?",
            ],
            "person:Mark",
            "employer",
            "where does Mark work now?",
            "Amazon",
        ),
        (
            ["Maya starts at Maple Grove Montessori this fall, class sizes at her old school got huge."],
            "person:Maya",
            "school",
            "which school does Maya go to now?",
            "Maple Grove Montessori",
        ),
        (
            ["周琴在杭州做设计，最近老加班。", "周琴搬去成都了，说那边节奏慢。"],
            "person:周琴",
            "city",
            "周琴现在在哪个城市？",
            "成都",
        ),
    ],
)
def test_a_person_filed_under_their_name_is_asked_by_it(
    mem_e5: Memory, clock: FixedClock, turns: list[str], subject: str, key: str, question: str, now: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=20)
    held = {(r.subject, r.key): r.value for r in mem_e5.records(user="u", statuses=["active"])}
    assert held.get((subject, key)) == now
    assert ("user", key) not in held  # never the user's own
    top = mem_e5.search(question, user="u", k=5)[0].memory
    assert (top.subject, top.value) == (subject, now)


@pytest.mark.parametrize(
    ("turn", "key"),
    [
        ("Matcha got pricey, so these days I drink green tea instead.", "beverage"),
        ("抹茶太贵了，现在每天早上改喝焙茶。", "beverage"),
    ],
)
def test_an_ordinary_word_opening_a_sentence_is_no_one(
    mem_e5: Memory, clock: FixedClock, turn: str, key: str
) -> None:
    say_apart(mem_e5, clock, [turn], gap_days=1)
    assert set(active_values(mem_e5, key)) == {"user"}


@pytest.mark.parametrize(
    ("turn", "question"),
    [
        ("Mark signed with Amazon, starts July 7!", "where does Mark work now?"),
        ("周琴搬去成都了，说那边节奏慢。", "周琴现在在哪个城市？"),
    ],
)
def test_a_name_lookup_never_reaches_another_users_people(
    mem_e5: Memory, clock: FixedClock, turn: str, question: str
) -> None:
    say_apart(mem_e5, clock, [turn], gap_days=1)
    assert mem_e5.search(question, user="u", k=5)  # the owner finds it…
    assert mem_e5.search(question, user="someone-else", k=5) == []  # …nobody else does


@pytest.mark.parametrize(
    ("turn", "name"),
    [
        ("新室友找到了，叫阿杰，做后期剪辑的，人挺安静。", "阿杰"),
        ("a friend of a friend, Marco, is coming to see the room tomorrow. what should I ask him?", "Marco"),
    ],
)
def test_a_name_nobody_says_is_the_speakers_is_not_the_users(
    mem_e5: Memory, clock: FixedClock, turn: str, name: str
) -> None:
    say_apart(mem_e5, clock, [turn], gap_days=1)
    mine = [r.value for r in mem_e5.records(user="u") if r.subject == "user" and r.key == "name"]
    assert name not in mine
