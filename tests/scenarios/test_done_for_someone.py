"""What is done for someone named bare is about them: "周末带果果去复查，医生说是尘螨过敏",
"took Mia to the allergist, turns out she's allergic to dust mites" — the allergy is the child's,
never the user's (a safety-critical fact the user does not have), zh + en, every backend.

Before: both turns stored an allergy of the user."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


@pytest.mark.parametrize(
    ("turn", "name"),
    [
        ("周末带果果去复查，医生说是尘螨过敏", "果果"),
        ("took Mia to the allergist today, turns out she's allergic to dust mites", "Mia"),
    ],
    ids=["zh", "en"],
)
def test_an_allergy_found_for_someone_taken_is_theirs(
    mem_e5: Memory, clock: FixedClock, turn: str, name: str
) -> None:
    say(mem_e5, clock, [turn], "s0")
    allergies = [
        (r.subject, r.value)
        for r in mem_e5.records(user="u", statuses=["active", "candidate", "needs_review"])
        if r.key.startswith("allergy")
    ]
    assert allergies and all(s == f"person:{name}" for s, _ in allergies), allergies
