"""Terse questions and family named without "my" reach the slot, and the newest statement
answers (``retrieve/asked.py``; zh + en, every backend, rules only and with the model)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say

TERSE = [
    (
        ["我每天早上都得来一杯美式，不然没精神"],
        ["帮我写一首关于秋天的诗"],
        ["胃不好，美式先停了，最近天天喝红枣枸杞茶"],
        "早上喝啥",
        "美式",
        "枸杞茶",
    ),
    (
        ["I drink black coffee, three cups before noon"],
        ["what's a good name for a goldfish"],
        ["Nowadays it's rooibos tea in the morning, the coffee was wrecking my sleep"],
        "usual drink?",
        "black coffee",
        "rooibos",
    ),
]
FAMILY = [
    (
        ["我老公是中学数学老师，带两个毕业班"],
        ["帮我写一首关于秋天的诗"],
        ["老公辞职了，不当老师了，现在做保险经纪人，天天跑客户"],
        "老公现在做啥",
        "数学老师",
        "保险经纪人",
    ),
    (
        ["My wife is a pharmacist at the city hospital"],
        ["what's a good name for a goldfish"],
        ["My wife left the hospital pharmacy, she works as a medical science liaison now"],
        "wife's job now?",
        "pharmacist at the city",
        "medical science liaison",
    ),
]


def _text(hit: object) -> str:
    m = hit.memory  # type: ignore[attr-defined]
    return f"{m.value or ''} {m.content}"


@pytest.mark.parametrize(("first", "filler", "later", "question", "was", "now"), TERSE + FAMILY)
def test_a_terse_question_gets_the_newest_statement_and_no_older_one(
    mem_modes: Memory,
    clock: FixedClock,
    first: list[str],
    filler: list[str],
    later: list[str],
    question: str,
    was: str,
    now: str,
) -> None:
    say(mem_modes, clock, first, "s1", gap_days=20)
    say(mem_modes, clock, filler, "s2", gap_days=20)
    say(mem_modes, clock, later, "s3", gap_days=20)
    hits = mem_modes.search(question, user="u", k=5)
    assert now in _text(hits[0])
    assert not [h for h in hits if was in _text(h) and now not in _text(h)]
    history = mem_modes.search(question, user="u", k=5, include_history=True)
    assert any(was in _text(h) for h in history)


@pytest.mark.parametrize(
    ("mine", "theirs", "question", "own"),
    [
        (["我平时喝美式，一天两杯"], ["老婆最近爱上了喝乌龙茶，天天泡一壶"], "老婆现在喝啥", "乌龙茶"),
        (
            ["I drink black coffee, three cups before noon"],
            ["Mum's on oolong tea these days, a pot every afternoon"],
            "what's mum drinking now?",
            "oolong",
        ),
    ],
)
def test_a_family_word_without_my_asks_about_the_relative_not_the_user(
    mem_modes: Memory, clock: FixedClock, mine: list[str], theirs: list[str], question: str, own: str
) -> None:
    say(mem_modes, clock, mine, "s1", gap_days=20)
    say(mem_modes, clock, theirs, "s2", gap_days=20)
    hits = mem_modes.search(question, user="u", k=5)
    assert own in _text(hits[0])


@pytest.mark.parametrize(
    ("turns", "question", "was", "now"),
    [
        (  # the mother reports on the sister
            [
                ["我姐是小学语文老师，天天改作文"],
                ["我妈昨天打电话说，我姐辞了学校的工作，现在在区政府当公务员"],
            ],
            "我姐现在做什么工作？",
            "语文老师",
            "公务员",
        ),
        (  # "he" is the father, not the sister named after him
            [
                ["My dad is a bus driver in Leeds"],
                ["My sister is a nurse at the children's hospital"],
                ["He retired from the buses and tunes pianos for a living now"],
            ],
            "what's my dad's job now?",
            "bus driver",
            "pianos",
        ),
    ],
)
def test_a_statement_about_a_relative_is_theirs_when_reported_or_said_by_pronoun(
    mem_modes: Memory, clock: FixedClock, turns: list[list[str]], question: str, was: str, now: str
) -> None:
    for i, session in enumerate(turns):
        say(mem_modes, clock, session, f"s{i}", gap_days=20)
    hits = mem_modes.search(question, user="u", k=5)
    assert now in _text(hits[0])
    assert not [h for h in hits if was in _text(h) and now not in _text(h)]
