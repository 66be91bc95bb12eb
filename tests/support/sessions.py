"""Saying whole sessions through the public API, as a user would."""

from __future__ import annotations

from memquill import Memory
from memquill.clock import FixedClock


def say(
    mem: Memory,
    clock: FixedClock,
    turns: list[str],
    session: str,
    project: str | None = None,
    gap_days: int = 2,
) -> None:
    """The turns three minutes apart, the session ended and its work drained, ``gap_days`` on."""
    for t in turns:
        clock.advance(minutes=3)
        mem.add(t, user="u", session=session, project=project)
    mem.end_session(user="u", session=session, project=project)
    clock.advance(days=gap_days)
    mem.flush()


def say_apart(mem: Memory, clock: FixedClock, turns: list[str], gap_days: int) -> None:
    """Each turn its own session (``s0``, ``s1``…), ``gap_days`` apart: a value said, then
    changed weeks later."""
    for n, turn in enumerate(turns):
        say(mem, clock, [turn], f"s{n}", gap_days=gap_days)


def active_values(mem: Memory, key: str, user: str = "u") -> dict[str, set[str]]:
    """subject → the values its active records of ``key`` hold."""
    out: dict[str, set[str]] = {}
    for r in mem.records(user=user, statuses=["active"]):
        if r.key == key and r.value:
            out.setdefault(r.subject, set()).add(r.value)
    return out


def held(mem: Memory, keys: tuple[str, ...], user: str = "u") -> list[tuple[str, str, str | None]]:
    """(subject, key, value) of the active and candidate records of ``keys``: what one turn left."""
    recs = mem.records(user=user, statuses=["active", "candidate"])
    return [(r.subject, r.key, r.value) for r in recs if r.key in keys]


def switched_and_answered(
    mem: Memory, clock: FixedClock, turns: list[str], question: str, key: str, now: str
) -> None:
    """The turns said weeks apart leave ``now`` the only active value of ``key`` (whoever holds
    it), and the question's first hit is that record."""
    say_apart(mem, clock, turns, gap_days=45)
    values = {v for vs in active_values(mem, key, "u").values() for v in vs}
    assert values == {now}, active_values(mem, key)
    top = mem.search(question, user="u", k=1)[0].memory
    assert top.key == key and top.value == now, (top.key, top.value, top.content)
