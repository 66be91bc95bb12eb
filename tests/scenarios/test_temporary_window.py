"""A passing state read by the attribute model ("在杭州出差" next Wednesday, "in Lisbon next week")
holds for the time the turn names and expires with it: it was kept without an end, so the trip
stayed the user's current location until decay archived it days later."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from memquill import Memory
from memquill.model import MemoryType

TRIPS = [
    ("我下周三要去杭州出差", "Asia/Shanghai", datetime.fromisoformat("2026-12-02T16:00:00+00:00")),
    (
        "I'll be in Lisbon next week for a conference.",
        "Europe/Lisbon",
        datetime.fromisoformat("2026-12-07T00:00:00+00:00"),
    ),
]


@pytest.mark.parametrize(("turn", "tz", "end"), TRIPS, ids=["zh", "en"])
def test_a_trip_read_as_a_passing_state_expires_when_it_ends(
    mem_e5: Memory, turn: str, tz: str, end: datetime
) -> None:
    mem_e5.add(turn, user="a", session="s1", at="2026-11-29T10:00:00", timezone=tz)
    mem_e5.end_session(user="a", session="s1")
    mem_e5.flush()
    passing = [r for r in mem_e5.records(user="a") if r.type is MemoryType.TEMPORARY]
    assert passing, "the model reads the trip as a passing state"
    for r in passing:
        assert r.when_end == end
        assert r.expires_at == end
    later = end + timedelta(days=1)
    assert not [
        h
        for h in mem_e5.search(turn, user="a", k=10, at=later.isoformat())
        if h.memory.type is MemoryType.TEMPORARY
    ]
