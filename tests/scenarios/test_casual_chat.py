"""How people chat: lower case, fragments, editors by name, hobbies someone else started
(zh + en, every backend, the real embedder and the attribute model).

- A full stop ends a sentence before a lower-case word, so a statement before a question is
  still read ("got a MacBook Air M3. what should I install first?").
- A short asked fragment ("and vim keybindings?", "那vim键位呢？") states nothing: it never
  replaces the editor the user just switched to.
- Someone who drew the user into a hobby does not own it ("my neighbor got me into
  pickleball", "邻居带我入坑了匹克球"); a neighbour who plays it does.
"""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, say, say_apart


@pytest.mark.parametrize(
    ("turn", "value"),
    [
        (
            "got a MacBook Air M3, the old one is going to my nephew. what should I install first?",
            "MacBook Air M3",
        ),
        ("入手了一台MacBook Air M3，旧的给我侄子了。先装什么开发工具好？", "MacBook Air M3"),
    ],
)
def test_a_statement_before_a_lower_case_question_is_read(
    mem_e5: Memory, clock: FixedClock, turn: str, value: str
) -> None:
    say(mem_e5, clock, [turn], "s1")
    assert any(value in v for vs in active_values(mem_e5, "device").values() for v in vs)


@pytest.mark.parametrize(
    ("turns", "question"),
    [
        (
            [
                "I write all my code in VS Code.",
                "ok fully switched to Zed, uninstalled the old Microsoft one. is remote ssh any good in it?",
                "and vim keybindings?",
            ],
            "what editor am I using now?",
        ),
        (["我一直用VS Code写代码。", "最近彻底换成Zed了，快多了。", "那vim键位呢？"], "我现在用什么编辑器？"),
    ],
)
def test_an_asked_fragment_replaces_no_editor(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=20)
    assert active_values(mem_e5, "editor").get("user") == {"Zed"}
    top = mem_e5.search(question, user="u", k=3)[0].memory
    assert top.value == "Zed"


@pytest.mark.parametrize(
    ("turn", "owner"),
    [
        (
            "my neighbor got me into pickleball while my ankle healed, I like it more than running now.",
            "user",
        ),
        ("邻居带我入坑了匹克球，比以前跑步好玩多了。", "user"),
        ("my neighbor plays pickleball every morning at the park.", "person:neighbor"),
        ("我邻居每天早上都在公园打匹克球。", "person:neighbor"),
    ],
)
def test_a_hobby_someone_drew_the_user_into_is_the_users(
    mem_e5: Memory, clock: FixedClock, turn: str, owner: str
) -> None:
    say(mem_e5, clock, [turn], "s1")
    sports = active_values(mem_e5, "sport")
    assert any("pickleball" in v or "匹克球" in v for v in sports.get(owner, set())), sports
