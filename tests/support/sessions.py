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
