"""An outdated value leaves a slot answer's company even when the turn naming it is not read
as the attribute: a turn naming an older value of the slot's kind in passing ("the dumplings
here in Wuxi…") said before the newest statement, and a turn recalling an earlier value
("以前…的时候", "back when…") whatever its time — a present cue in a clause about something
else ("…，现在想都别想") does not make a recall current (zh + en, every backend)."""

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
    ("first", "passing", "new", "question", "was", "now"),
    [
        (
            "我住在南京。",
            "无锡这边的小笼包真不错，来了一个月胖了两斤。",
            "我搬到苏州了。",
            "我现在住哪个城市？",
            "无锡",
            "苏州",
        ),
        (
            "I live in Leeds.",
            "The cafés in York are lovely, two weeks here and I already have favourites.",
            "I moved to Bristol.",
            "where do I live now?",
            "York",
            "Bristol",
        ),
    ],
)
def test_an_older_value_named_in_passing_in_an_episode_is_left_out(
    mem_modes: Memory,
    clock: FixedClock,
    first: str,
    passing: str,
    new: str,
    question: str,
    was: str,
    now: str,
) -> None:
    say(mem_modes, clock, [first], "s1", gap_days=20)
    say(mem_modes, clock, [passing], "s2", gap_days=20)
    say(mem_modes, clock, [new], "s3", gap_days=20)
    shown = stated(mem_modes, question)
    assert now in shown[0]
    assert not only_old(shown, was, now)
    assert only_old(stated(mem_modes, question, include_history=True), was, now)


@pytest.mark.parametrize(
    ("now_said", "recalled", "question", "was", "now"),
    [
        (
            "这半年出差都改坐海南航空了，餐食还不错。",
            "以前坐国航的时候老是延误，现在想想都头疼。",
            "我现在一般坐哪家航空？",
            "国航",
            "海南航空",
        ),
        (
            "记账小程序的后端已经迁到阿里云了。",
            "8月的云账单比之前在AWS的时候便宜了四成，帮我做个对比表格。",
            "记账小程序的后端现在部署在哪个云上？",
            "AWS",
            "阿里云",
        ),
        (
            "I've switched to Neovim for all my coding.",
            "Back when I used Emacs my pinky always hurt, now I can't imagine it.",
            "which editor do I use?",
            "Emacs",
            "Neovim",
        ),
    ],
)
def test_a_recall_with_a_present_word_about_something_else_stays_history(
    mem_modes: Memory,
    clock: FixedClock,
    now_said: str,
    recalled: str,
    question: str,
    was: str,
    now: str,
) -> None:
    say(mem_modes, clock, [now_said], "s1", gap_days=20)
    say(mem_modes, clock, [recalled], "s2", gap_days=20)
    shown = stated(mem_modes, question)
    assert now in shown[0]
    assert not only_old(shown, was, now)
    assert only_old(stated(mem_modes, question, include_history=True), was, now)


@pytest.mark.parametrize(
    ("first", "new", "missed", "question", "was", "now"),
    [
        (
            "我住在北京。",
            "我搬到大理了，天天晒太阳。",
            "有点怀念北京的烤鸭，大理这边吃不到正宗的。",
            "我这阵子住在哪儿？",
            "北京",
            "大理",
        ),
        (
            "I live in Leeds.",
            "Just moved to Bristol, the flat is tiny.",
            "I still miss Leeds sometimes, especially Kirkgate Market on a Saturday.",
            "Where am I based these days?",
            "Leeds",
            "Bristol",
        ),
    ],
)
def test_missing_a_place_recalls_it(
    mem_modes: Memory,
    clock: FixedClock,
    first: str,
    new: str,
    missed: str,
    question: str,
    was: str,
    now: str,
) -> None:
    """ "I still miss Leeds sometimes…" said after the move to Bristol led "where am I based"."""
    say(mem_modes, clock, [first], "s1", gap_days=20)
    say(mem_modes, clock, [new], "s2", gap_days=20)
    say(mem_modes, clock, [missed], "s3", gap_days=20)
    shown = stated(mem_modes, question)
    assert now in shown[0]
    assert not only_old(shown, was, now)
