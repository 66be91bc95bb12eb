"""Who says a transcript line and to whom (``write/extract/transcript.py``), and the third
person the stored wording uses for "I" and "you" (``phrasing.third_person``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memquill.model import Candidate, Event, MemoryType, Role, Scope, Source, Trust
from memquill.write.extract.phrasing import third_person
from memquill.write.extract.transcript import addressee, as_said_by, speaker, speakers, without_vocative

AT = datetime(2026, 5, 1, 9, tzinfo=UTC)


def _event(content: str, **metadata: str) -> Event:
    scope = Scope.of(user="u", session="s")
    return Event(
        id="e1",
        scope=scope,
        role=Role.USER,
        source=Trust.USER,
        content=content,
        occurred_at=AT,
        metadata=metadata,
    )


def _cand(content: str, subject: str = "user") -> Candidate:
    return Candidate(
        type=MemoryType.FACT,
        subject=subject,
        key="hobby",
        value="x",
        content=content,
        confidence=0.9,
        source=Source.EXPLICIT,
        evidence=["e1"],
        observed_at=AT,
    )


def test_speakers_in_the_order_they_first_speak() -> None:
    lines = ["Jon: hi", "Gina: hey", "Jon: so", "Note: not a speaker", "Ann Lee: hello"]
    assert speakers([_event(x) for x in lines]) == ["Jon", "Gina", "Ann Lee"]


def test_metadata_names_the_speaker_and_the_addressee() -> None:
    e = _event("你女儿学什么专业？", speaker="小林", addressee="老周")
    who, text = speaker(e, e.content)
    assert (who, text) == ("小林", "你女儿学什么专业？")
    assert addressee(e, text, "小林", ["小林"]) == "老周"


@pytest.mark.parametrize(
    ("who", "text", "session", "expected"),
    [
        ("Jon", "I love your paintings.", ["Jon", "Gina"], "Gina"),  # the one other speaker
        ("Cy", "Bob, I love your paintings.", ["Ann", "Bob", "Cy"], "Bob"),  # called by name
        ("Caroline", "Thanks Mel, you're kind.", ["Caroline", "Melanie", "Dave"], "Melanie"),  # its start
        ("Cy", "I love your paintings.", ["Ann", "Bob", "Cy"], None),  # a group: nobody known
        ("Jon", "I love your paintings.", ["Jon"], None),  # the line opens the session
        ("Jon", "I love Paris.", ["Jon", "Pam"], "Pam"),  # a place is no name called
        ("Cy", "The weather is nice.", ["Ann", "Theo", "Cy"], None),  # "The" is no nickname
        ("老周", "小林，你做的蛋糕真好吃。", ["Ann", "小林", "老周"], "小林"),  # a Chinese name called
    ],
)
def test_addressee(who: str, text: str, session: list[str], expected: str | None) -> None:
    assert addressee(_event(text), text, who, session) == expected


@pytest.mark.parametrize(
    "content",
    [
        "The user asked: Wow, the assistant is so brave.",
        "The assistant has got drive.",
        "Instagram and TikTok can help the assistant reach a younger crowd.",
        "助手真厉害。",
        "The user asked: keep that positive outlook and keep going.",  # an order to a friend
        "用户要求：加油，别放弃。",
    ],
)
def test_what_is_said_only_about_the_addressee_is_no_memory(content: str) -> None:
    """A compliment, advice or guess about the other is the speaker's opinion, not their fact."""
    assert as_said_by(_cand(content), "Melanie", _event(""), "Caroline") is None
    assert as_said_by(_cand(content), "Melanie", _event("")) is None


def test_a_fact_about_both_stays_the_speakers() -> None:
    c = as_said_by(_cand("The user loves the assistant's dance videos."), "Gina", _event(""), "Jon")
    assert c is not None
    assert (c.subject, c.content) == ("person:gina", "Gina loves Jon's dance videos.")
    assert c.attributes == {"speaker": "Gina", "addressee": "Jon"}


def test_nobody_known_is_the_other_speaker_never_the_assistant() -> None:
    en = as_said_by(_cand("The user is so proud of the assistant."), "Gina", _event(""))
    zh = as_said_by(_cand("用户很喜欢助手做的蛋糕。"), "老周", _event(""))
    assert en is not None and zh is not None
    assert (en.subject, en.content) == ("person:gina", "Gina is so proud of the other speaker.")
    assert zh.content == "老周很喜欢对方做的蛋糕。"
    assert "addressee" not in zh.attributes


def test_a_relation_keeps_its_key_and_names_whose_it_is() -> None:
    c = as_said_by(_cand("用户女儿在上海读大学。", subject="person:daughter"), "老周", _event(""), "小林")
    assert c is not None
    assert (c.subject, c.content) == ("person:daughter", "老周女儿在上海读大学。")


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I went to a support group", "The user went to a support group"),  # a past takes no -s
        ("we saw a movie", "The user saw a movie"),  # "saw" is no base form here
        ("I need a break", "The user needs a break"),  # "need" ends in -ed and is no past tense
        ("they agreed, so I proceed", "They agreed, so the user proceeds"),
        ("I quit caffeine in 2025", "The user quit caffeine in 2025"),  # a past that is its base form
        ("I quit smoking every January", "The user quits smoking every January"),
        ("I wanna go", "The user wanna go"),  # no verb: nothing added
        ("I kinda like tea", "The user kinda likes tea"),  # an adverb between
        ("I miss my mom", "The user misses their mom"),
        ("You love hiking so much", "The assistant loves hiking so much"),
        ("because you work nights, I cook", "Because the assistant works nights, the user cooks"),
        ("I told you so", "The user told the assistant so"),  # an object "you" takes no verb
        ("You've been great", "The assistant has been great"),
        ("You'll be a great mom", "The assistant will be a great mom"),
    ],
)
def test_third_person(said: str, stored: str) -> None:
    assert third_person(said, "en") == stored


@pytest.mark.parametrize(
    ("text", "to", "left"),
    [
        ("Bob, I really love your paintings.", "Bob", "I really love your paintings."),
        ("Thanks Mel! You're kind.", "Melanie", "You're kind."),
        ("小林，我很喜欢你做的蛋糕。", "小林", "我很喜欢你做的蛋糕。"),
        ("I told Bob, and he agreed.", "Bob", "I told Bob, and he agreed."),  # not at the start
        ("Bob!", "Bob", "Bob!"),  # nothing else said
    ],
)
def test_a_name_called_at_the_start_is_no_part_of_the_statement(text: str, to: str, left: str) -> None:
    assert without_vocative(text, to) == left
