"""Whom a turn opening with a name is about (``whose.actor``, ``whose.by_name``), and which
values a clause shows as a person rather than an organisation (``model_gates.names_person``)."""

from __future__ import annotations

import pytest

from memquill.retrieve import whose
from memquill.write.extract.model_gates import names_person


@pytest.mark.parametrize(
    ("turn", "name"),
    [
        ("Priya's done it again: left Dublin for Lisbon on some visa. I can't keep up.", "Priya"),
        ("Rohit's left for a startup, so Meera's taken over the team.", "Rohit"),
        ("Also Sam's moved to Ventura for the new job", "Sam"),
        ("Company's opening an office in Scotland", None),  # an ordinary noun
        ("School's back, chaos.", None),
        ("Vivaldi's sync broke twice, so I'm on Floorp now.", None),  # no act of moving on
        ("Outback's been great but I barely drive", None),
        ("Lisbon's treated us well so far", None),  # a city
        ("What's a keto breakfast?", None),
        ("周琴搬去成都了", None),  # Chinese: only names the store knows (by_name)
    ],
)
def test_a_turn_opening_with_a_name_that_moved_on_is_that_persons(turn: str, name: str | None) -> None:
    assert whose.actor(turn) == name
    assert (whose.subject(turn) == f"person:{name}") if name else whose.subject(turn) is None


@pytest.mark.parametrize(
    ("turn", "expected"),
    [
        ("周琴搬去成都了，说那边节奏慢", "person:manager"),
        ("Dana moved to Austin last month", "person:sister"),
        ("我搬去成都了", None),
    ],
)
def test_a_turn_opening_with_a_known_name_is_about_that_person(turn: str, expected: str | None) -> None:
    assert whose.by_name(turn, {"周琴": "person:manager", "Dana": "person:sister"}) == expected


@pytest.mark.parametrize(
    ("value", "said", "person"),
    [
        ("Pieter Olivier", "Thandiwe retired, so I now report to Pieter Olivier.", True),
        ("Meera", "Meera left to do her own startup.", True),
        ("郑凯", "新领导郑凯第一次一对一就问我三年职业规划", True),
        ("郑凯", "改成向郑凯汇报了", True),
        ("Tidewell", "I work at Tidewell as a site engineer.", False),
        ("Stripe", "I left Stripe in March", False),
        ("网易", "我在网易上班", False),
    ],
)
def test_a_name_shown_as_a_person_is_no_employer(value: str, said: str, person: bool) -> None:
    assert names_person(value, said) is person
