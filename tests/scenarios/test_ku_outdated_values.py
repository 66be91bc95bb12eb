"""Outdated values leave a slot answer's company however they are said: in the other
language, in a turn recalling the past, or in passing in a record under another key; they
stay retrievable as history (zh + en, every backend)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


def stated(mem: Memory, question: str, **kw: object) -> list[str]:
    return [f"{h.memory.value or ''} {h.memory.content}" for h in mem.search(question, user="u", k=5, **kw)]


def only_old(texts: list[str], was: str, now: str) -> list[str]:
    return [t for t in texts if was.casefold() in t.casefold() and now.casefold() not in t.casefold()]


@pytest.mark.parametrize(
    ("old", "aside", "new", "question", "was", "aside_word", "now"),
    [
        (
            "我住在北京",
            "表格要填英文地址，周末一直在练 Beijing 的拼写",
            "我搬到天津了",
            "我现在住哪个城市？",
            "北京",
            "Beijing",
            "天津",
        ),
        (
            "I live in Beijing",
            "The school forms want my address in Chinese, so I keep practising 北京 by hand",
            "I moved to Tianjin",
            "where do I live",
            "Beijing",
            "北京",
            "Tianjin",
        ),
    ],
)
def test_a_replaced_value_said_in_the_other_language_is_left_out(
    mem: Memory,
    clock: FixedClock,
    old: str,
    aside: str,
    new: str,
    question: str,
    was: str,
    aside_word: str,
    now: str,
) -> None:
    say(mem, clock, [old], "s1", gap_days=20)
    say(mem, clock, [aside], "s2", gap_days=20)
    say(mem, clock, [new], "s3", gap_days=20)
    hits = mem.search(question, user="u", k=5)
    assert hits[0].memory.value == now and was in hits[0].why["replaced"]
    assert not [h for h in hits if aside_word in h.memory.content]
    history = stated(mem, question, include_history=True)
    assert any(aside_word in t for t in history)


@pytest.mark.parametrize(
    ("now_said", "recalled", "question", "was", "now"),
    [
        (
            ["我现在在腾讯上班，做后台开发。"],
            ["以前在字节的时候天天加班到十点。"],
            "我现在在哪家公司上班？",
            "字节",
            "腾讯",
        ),
        (
            ["I live in Vienna now, moved here for the job."],
            ["Back when I lived in Graz I cycled everywhere."],
            "where do I live?",
            "Graz",
            "Vienna",
        ),
    ],
)
def test_a_turn_recalling_an_earlier_value_does_not_make_it_current(
    mem_modes: Memory,
    clock: FixedClock,
    now_said: list[str],
    recalled: list[str],
    question: str,
    was: str,
    now: str,
) -> None:
    say(mem_modes, clock, now_said, "s1", gap_days=20)
    say(mem_modes, clock, recalled, "s2", gap_days=20)
    shown = stated(mem_modes, question)
    assert now in shown[0]
    assert not only_old(shown, was, now)
    assert only_old(stated(mem_modes, question, include_history=True), was, now)


@pytest.mark.parametrize(
    ("intro", "moved", "question", "was", "now"),
    [
        (
            "I'm Wanjiru, I do UX research at a fintech called Pesaflow here in Nairobi.",
            "I moved to Mombasa last month.",
            "where do I live now?",
            "Nairobi",
            "Mombasa",
        ),
        (
            "我叫林栖，在厦门做后端开发，公司是拓维链。",
            "我搬到合肥了。",
            "我现在住哪个城市？",
            "厦门",
            "合肥",
        ),
    ],
)
def test_a_record_naming_an_older_value_in_passing_is_left_out(
    mem_modes: Memory, clock: FixedClock, intro: str, moved: str, question: str, was: str, now: str
) -> None:
    say(mem_modes, clock, [intro], "s1", gap_days=20)
    say(mem_modes, clock, [moved], "s2", gap_days=20)
    shown = stated(mem_modes, question)
    assert now in shown[0]
    assert not only_old(shown, was, now)
    assert only_old(stated(mem_modes, question, include_history=True), was, now)
