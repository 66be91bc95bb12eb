"""Knowledge updates that generalise (zh + en, every backend, the real embedder, attribute
model off and on): a turn already carried by a structured record leaves no episode beside
it, a long turn is read clause by clause, and an unrouted question about the reader tries
its likeliest readings."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


def _said(mem: Memory) -> list[str]:
    return [r.content for r in mem.records(user="u") if r.type.value == "episode"]


@pytest.mark.parametrize(
    ("stated", "chat", "question", "value"),
    [
        (["我的邮箱是 li.na@example.com"], ["周末带狗去爬了莫干山"], "我的邮箱是什么？", "li.na@example.com"),
        (
            ["My email is sam@example.org"],
            ["Took the dog up Mount Tam on the weekend"],
            "what's my email?",
            "sam@example.org",
        ),
    ],
)
def test_a_turn_already_a_slot_record_leaves_no_episode_beside_it(
    mem_modes: Memory, clock: FixedClock, stated: list[str], chat: list[str], question: str, value: str
) -> None:
    say(mem_modes, clock, stated, "s1", gap_days=20)
    say(mem_modes, clock, chat, "s2", gap_days=20)
    episodes = _said(mem_modes)
    assert not [e for e in episodes if value in e]  # the record carries it
    assert [e for e in episodes if chat[0] in e]  # talk no record carries stays
    hits = mem_modes.search(question, user="u", k=5)
    assert hits[0].memory.value == value


@pytest.mark.parametrize(
    "turn",
    [
        "我在市一医院当护士，夜班真的熬人，不过同事都很好相处",
        "I'm a nurse at the city hospital, the night shifts are brutal but I love the team",
    ],
)
def test_a_turn_saying_more_than_its_records_keeps_its_episode(
    mem_modes: Memory, clock: FixedClock, turn: str
) -> None:
    say(mem_modes, clock, [turn], "s1", gap_days=20)
    assert any("医院" in e or "hospital" in e for e in _said(mem_modes))


@pytest.mark.parametrize(
    ("first", "later", "question", "was", "now"),
    [
        (
            ["我的编辑器一直用浅色主题，白天看着清楚"],
            ["晚上加班眼睛受不了，所以现在所有软件都切成深色主题了"],
            "你给我做的示意图，按我现在的界面习惯，是黑底还是白底？",
            "浅色",
            "深色",
        ),
        (
            ["My editor has been on a light theme forever, it's easier in daylight"],
            ["My eyes kept hurting on late shifts, so everything I use is on a dark theme now"],
            "Screenshots you mock up for me should use which colour scheme?",
            "light",
            "dark",
        ),
    ],
)
def test_an_indirect_question_reaches_the_newest_statement(
    mem_modes: Memory,
    clock: FixedClock,
    first: list[str],
    later: list[str],
    question: str,
    was: str,
    now: str,
) -> None:
    say(mem_modes, clock, first, "s1", gap_days=20)
    say(mem_modes, clock, ["帮我写一首关于秋天的诗", "what's a good name for a goldfish"], "s2", gap_days=20)
    say(mem_modes, clock, later, "s3", gap_days=20)
    hits = mem_modes.search(question, user="u", k=5)
    assert now in f"{hits[0].memory.value or ''} {hits[0].memory.content}"
    shown = [f"{h.memory.value or ''} {h.memory.content}" for h in hits]
    assert not [t for t in shown if was in t and now not in t]
