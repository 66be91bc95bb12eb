"""Politeness and pep talk are no memories (zh + en, every backend, the real embedder, attribute
model off and on): in a transcript between two people ("Jon: …", or a ``speaker`` in the
metadata) an order is said to the other person — "keep going and never give up", "加油，别放弃"
— not a standing order to the assistant; a bare "no worries" / "没事没事" scopes nothing and is
no request. Real orders to the assistant still become instructions."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


def _structured(mem: Memory) -> list[str]:
    recs = mem.records(user="u", statuses=["active", "candidate"])
    return [r.key for r in recs if r.key and r.key.split(":")[0] in ("instruction", "likes", "reply_format")]


def _said_by(mem: Memory, clock: FixedClock, turns: list[tuple[str, str]]) -> None:
    for who, text in turns:
        clock.advance(minutes=3)
        mem.add(text, user="u", session="s1", metadata={"speaker": who})
    mem.end_session(user="u", session="s1")
    mem.flush()


@pytest.mark.parametrize(
    "turns",
    [
        [
            "Gina: I failed the audition again, I feel like quitting.",
            "Jon: No worries, keep going and never give up on your dreams!",
            "Gina: Thanks Jon, always follow your heart too.",
        ],
        [
            "Gina: Lost another client today.",
            "Jon: No problem is too big. Never stop believing in yourself!",
        ],
    ],
)
def test_pep_talk_between_friends_is_no_record_en(
    mem_modes: Memory, clock: FixedClock, turns: list[str]
) -> None:
    say(mem_modes, clock, turns, "s1")
    assert _structured(mem_modes) == []
    assert not [r for r in mem_modes.records(user="u") if " asked: " in r.content]


def test_pep_talk_between_friends_is_no_record_zh(mem_modes: Memory, clock: FixedClock) -> None:
    _said_by(
        mem_modes,
        clock,
        [
            ("小林", "这次面试又没过，好想放弃"),
            ("阿杰", "加油，别放弃，以后每次面试前都要多练几遍"),
            ("小林", "谢谢你，没事没事，我会坚持的"),
        ],
    )
    assert _structured(mem_modes) == []
    assert not [r for r in mem_modes.records(user="u") if "要求：" in r.content]


@pytest.mark.parametrize("turn", ["No worries, I get it.", "No problem!", "没事没事", "不客气，加油"])
def test_a_bare_interjection_is_no_request(mem_modes: Memory, clock: FixedClock, turn: str) -> None:
    say(mem_modes, clock, [turn], "s1")
    assert _structured(mem_modes) == []


@pytest.mark.parametrize(
    ("turn", "key"),
    [
        ("From now on, always reply in English", "reply_language"),
        ("以后每次部署前先通知我", "instruction:"),
        ("No emojis in your replies, please", "reply_format"),
    ],
)
def test_orders_to_the_assistant_still_count(
    mem_modes: Memory, clock: FixedClock, turn: str, key: str
) -> None:
    say(mem_modes, clock, [turn], "s1")
    recs = mem_modes.records(user="u", statuses=["active", "candidate"])
    assert [r for r in recs if r.key and r.key.startswith(key)]
