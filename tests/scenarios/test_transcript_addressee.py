"""A transcript line's "you" is whom its speaker addresses, never the assistant (zh + en, every
backend, the real embedder, attribute model off and on): the session's other speaker, or the
one the line calls by name; the stored wording names both people, on the hot path as after
the worker has read the session."""

from __future__ import annotations

from memquill import Memory
from memquill.clock import FixedClock
from memquill.model import MemoryRecord


def _said(mem: Memory, clock: FixedClock, turns: list[tuple[str, str]], drain: bool = True) -> None:
    for who, text in turns:
        clock.advance(minutes=3)
        mem.add(text, user="u", session="s1", metadata={"speaker": who} if who else None)
    if drain:
        mem.end_session(user="u", session="s1")
        mem.flush()


def _structured(mem: Memory) -> list[MemoryRecord]:
    return [r for r in mem.records(user="u", statuses=["active", "candidate"]) if r.type.value != "episode"]


def _nobody_is_the_assistant(records: list[MemoryRecord]) -> None:
    for r in records:
        assert "assistant" not in r.content.lower() and "助手" not in r.content, r.content
        assert "the user" not in r.content.lower() and "用户" not in r.content, r.content


EN = [
    ("", "Jon: I lost my job at the bank last month."),
    ("", "Gina: Sorry Jon. I really love your dance videos, and I'm so proud of you."),
]
ZH = [
    ("小林", "我上周辞职了，想开一家甜品店。"),
    ("老周", "我很喜欢你做的蛋糕。"),
]


def test_you_is_the_other_speaker_en(mem_modes: Memory, clock: FixedClock) -> None:
    _said(mem_modes, clock, EN)
    records = _structured(mem_modes)
    _nobody_is_the_assistant(records)
    liked = [r for r in records if r.subject == "person:gina" and "dance videos" in r.content]
    assert liked and all("Jon's dance videos" in r.content for r in liked)
    assert all(r.attributes.get("addressee") == "Jon" for r in liked)


def test_you_is_the_other_speaker_zh(mem_modes: Memory, clock: FixedClock) -> None:
    _said(mem_modes, clock, ZH)
    records = _structured(mem_modes)
    _nobody_is_the_assistant(records)
    liked = [r for r in records if r.subject == "person:老周" and "蛋糕" in r.content]
    assert liked and all("小林做的蛋糕" in r.content for r in liked)


def test_the_hot_path_knows_the_other_speaker(mem_modes: Memory, clock: FixedClock) -> None:
    """Before the worker runs, ``add()`` already reads the line against the earlier turns."""
    _said(mem_modes, clock, EN, drain=False)
    liked = [r for r in _structured(mem_modes) if "dance videos" in r.content]
    assert liked and all("Jon's dance videos" in r.content for r in liked)


def test_a_name_called_picks_the_addressee_among_three(mem_modes: Memory, clock: FixedClock) -> None:
    turns = [
        ("", "Ann: Morning all, I baked bread today."),
        ("", "Bob: I finished a new painting last night."),
        ("", "Cyd: Bob, I really love your paintings."),
        ("小林", "大家好，我是新来的。"),
        ("Ann", "你最近在忙什么？"),
        ("老周", "小林，我很喜欢你做的蛋糕。"),
    ]
    _said(mem_modes, clock, turns)
    records = _structured(mem_modes)
    _nobody_is_the_assistant(records)
    loved = [r for r in records if r.subject == "person:cyd" and "paintings" in r.content]
    assert loved and all(r.content.startswith("Cyd really loves Bob's paintings") for r in loved)
    liked = [r for r in records if r.subject == "person:老周" and "蛋糕" in r.content]
    assert liked and all(r.content.startswith("老周很喜欢小林做的蛋糕") for r in liked)


def test_what_one_says_only_about_the_other_is_no_memory(mem_modes: Memory, clock: FixedClock) -> None:
    """Compliments, advice and guesses about the other are the speaker's opinion: the other's
    own lines say what is theirs."""
    turns = [
        ("", "Jon: I lost my job at the bank, so I'm opening a dance studio."),
        ("", "Gina: You've got drive, Jon. Instagram and TikTok can help you reach a younger crowd."),
        ("", "Gina: Keep that positive outlook and keep learning and growing through it all."),
        ("小林", "我打算开一家甜品店。"),
        ("老周", "你真有毅力，你做的蛋糕肯定大受欢迎。"),
    ]
    _said(mem_modes, clock, turns)
    records = _structured(mem_modes)
    _nobody_is_the_assistant(records)
    for r in records:
        said = ("drive", "Instagram", "outlook", "growing", "毅力", "大受欢迎")
        assert not any(w in r.content for w in said), r.content


def test_remember_and_remind_me_between_friends_ask_nothing_of_the_memory(
    mem_modes: Memory, clock: FixedClock
) -> None:
    """ "Remember, …" and "remind me…" in a transcript line are said to the other person."""
    turns = [
        ("", "Jon: Moments like this remind me why I'm chasing my dream."),
        ("", "Gina: Remember Jon, just do it! Staying positive is very important."),
        ("小林", "记住，坚持就是胜利！"),
        ("老周", "明天提醒我带伞哦。"),
    ]
    _said(mem_modes, clock, turns)
    kinds = [(r.key or "").split(":")[0] for r in _structured(mem_modes)]
    assert "note" not in kinds and "reminder" not in kinds, kinds


def test_a_reminder_is_asked_as_an_order(mem_modes: Memory, clock: FixedClock) -> None:
    """The user's own "remind me to…" / "提醒我…" is a reminder; "this reminds me why…" is not."""
    for text in (
        "Moments like this remind me why I love my job.",
        "Please remind me to call mom tomorrow.",
        "下次提醒我带伞。",
    ):
        clock.advance(minutes=3)
        mem_modes.add(text, user="u", session="s1")
    mem_modes.end_session(user="u", session="s1")
    mem_modes.flush()
    reminders = [r.content for r in _structured(mem_modes) if (r.key or "").startswith("reminder:")]
    assert any("call mom" in c for c in reminders) and any("带伞" in c for c in reminders)
    assert not any("Moments" in c for c in reminders), reminders


def test_always_here_to_help_is_no_name(mem_modes: Memory, clock: FixedClock) -> None:
    _said(
        mem_modes,
        clock,
        [("", "Gina: Always here to help, Jon!"), ("", "Jon here, quick question about the studio.")],
    )
    names = [(r.subject, r.value) for r in _structured(mem_modes) if r.key == "name"]
    assert ("person:gina", "Always") not in names
