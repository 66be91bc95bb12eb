"""A correction naming only the right and the wrong value corrects the slot holding the wrong
one (zh + en, every backend, the real embedder and the attribute model): the wrong value is
invalidated (it never held) and the question answers with the right one. A value no slot
holds corrects nothing."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


@pytest.mark.parametrize(
    ("said", "fix", "subject", "key", "wrong", "right", "question"),
    [
        (
            "家里的猫叫糯米，三岁，特别能吃。",
            "说错了，不是糯米，是糯糯。",
            "item:猫",
            "name",
            "糯米",
            "糯糯",
            "猫现在叫啥",
        ),
        (
            "The kids voted and the dog's called Admiral now.",
            "Sorry, Captain, not Admiral. Admiral lost the vote by one.",
            "item:dog",
            "name",
            "Admiral",
            "Captain",
            "dog's name?",
        ),
    ],
)
def test_the_slot_holding_the_wrong_value_is_corrected(
    mem_e5: Memory,
    clock: FixedClock,
    said: str,
    fix: str,
    subject: str,
    key: str,
    wrong: str,
    right: str,
    question: str,
) -> None:
    say(mem_e5, clock, [said], "s1", gap_days=3)
    say(mem_e5, clock, [fix], "s2", gap_days=3)
    recs = mem_e5.records(user="u", statuses=["active", "candidate", "needs_review"])
    assert {r.value for r in recs if r.subject == subject and r.key == key} == {right}
    assert mem_e5.search(question, user="u", k=5)[0].memory.value == right


@pytest.mark.parametrize("fix", ["说错了，不是周二，是周三。", "Sorry, Captain, not Admiral."])
def test_a_value_no_slot_holds_corrects_nothing(mem_e5: Memory, clock: FixedClock, fix: str) -> None:
    say(mem_e5, clock, ["我住在厦门，离海边不远。"], "s1", gap_days=3)
    say(mem_e5, clock, [fix], "s2", gap_days=3)
    recs = mem_e5.records(user="u", statuses=["active", "candidate", "needs_review"])
    assert {r.value for r in recs if r.key == "city"} == {"厦门"}


@pytest.mark.parametrize(
    ("said", "fix"),
    [
        ("家里的猫叫糯米，三岁，特别能吃。", "说错了，不是糯米，是糯糯。"),
        ("The dog's called Admiral now.", "Sorry, Captain, not Admiral."),
    ],
)
def test_a_correction_by_the_assistant_a_tool_or_another_user_corrects_nothing(
    mem_e5: Memory, clock: FixedClock, said: str, fix: str
) -> None:
    """The side doors: only the user's own turn, in the user's own scope, corrects a slot."""
    say(mem_e5, clock, [said], "s1", gap_days=3)
    before = {(r.subject, r.value) for r in mem_e5.records(user="u") if r.key == "name"}
    assert before
    mem_e5.add(fix, role="assistant", user="u", session="s2")
    mem_e5.add(fix, role="tool", user="u", session="s2")
    mem_e5.add(fix, user="someone-else", session="s9")
    mem_e5.end_session(user="u", session="s2")
    mem_e5.end_session(user="someone-else", session="s9")
    clock.advance(days=1)
    mem_e5.flush()
    assert {(r.subject, r.value) for r in mem_e5.records(user="u") if r.key == "name"} == before
