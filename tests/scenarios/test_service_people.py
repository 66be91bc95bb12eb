"""The person the user now goes to for a service, named without the relation's word, becomes
that relation's name and supersedes the one before (zh + en, every backend, with the
attribute model, the default, whose extractor reads the people named beside a relation): "I had first cleaning with Dr. Alvarez" after "My dentist is Dr.
Patel" answers "which dentist am I going to now?" with Dr. Alvarez.

Before: only "my dentist is …", "我的理发师叫…" named the relation's person, so a new dentist,
therapist, doctor or hairdresser named by what the user sees them for stayed in episodes and
the old name answered (seven questions of two knowledge-update tuning sets)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, held, say, say_apart

CHANGES = [
    (
        [
            "My dentist is Dr. Patel, he's been great for years.",
            "I had my first cleaning with Dr. Alvarez today, she found a small cavity.",
        ],
        "Which dentist am I going to now?",
        "person:dentist",
        "Dr. Alvarez",
    ),
    (
        [
            "My therapist Dana suggested journaling before bed.",
            "Dana is moving her practice, so she referred me to Marcus Reid. How do I bring a new therapist up to speed?",
        ],
        "who's my therapist these days?",
        "person:therapist",
        "Marcus Reid",
    ),
    (
        ["我的理发师叫阿杰，剪得还行", "小雨剪的这个层次我超喜欢，下次想试试挂耳染"],
        "现在给我做头发的是哪位发型师",
        "person:hairdresser",
        "小雨",
    ),
    (
        ["我的医生是刘医生，社区医院的", "刘医生把我转到市人民医院心内科了，挂了孙主任的号，要带哪些检查单"],
        "我高血压现在是哪个大夫在管",
        "person:doctor",
        "孙主任",
    ),
]


@pytest.mark.parametrize(
    ("turns", "question", "subject", "name"),
    CHANGES,
    ids=["en-dentist", "en-therapist", "zh-hairdresser", "zh-doctor"],
)
def test_the_person_seen_for_a_service_is_the_relation_now(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, subject: str, name: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=30)
    assert active_values(mem_e5, "name").get(subject) == {name}, active_values(mem_e5, "name")
    top = mem_e5.search(question, user="u", k=1)[0].memory
    assert (top.subject, top.key, top.value) == (subject, "name", name), (top.subject, top.value, top.content)


@pytest.mark.parametrize(
    "turn",
    [
        "My wife keeps telling me to switch to her dentist, Dr. Hoffman, the one near her office.",  # hers
        "Dr. Patel is out of network now, so annoying.",  # leaving
        "Should I book a cleaning with Dr. Alvarez?",  # a question
        "went to see Hamilton at the theatre, amazing",  # no service
        "朋友推荐了她的发型师小雨，在三里屯那边",  # the friend's
        "约了小王周六吃饭",  # no service
        "要不要找陈医生看看？",  # a question
    ],
    ids=[
        "en-hers",
        "en-leaving",
        "en-question",
        "en-no-service",
        "zh-friends",
        "zh-no-service",
        "zh-question",
    ],
)
def test_someone_elses_a_leaving_one_or_a_question_names_no_provider(
    mem_e5: Memory, clock: FixedClock, turn: str
) -> None:
    say(mem_e5, clock, [turn], "s0")
    rels = ("person:dentist", "person:doctor", "person:therapist", "person:hairdresser")
    named = [h for h in held(mem_e5, ("name",)) if h[0] in rels]
    assert not named, named
