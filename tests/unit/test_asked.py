"""Whom a question asks about without "my" (``retrieve/asked.py``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memquill.retrieve import asked, routing, whose


@pytest.mark.parametrize("query", ["city?", "IDE now", "usual cuppa", "早上喝啥", "上班咋走", "出事打给谁"])
def test_a_terse_question_naming_nobody_is_about_the_reader(query: str) -> None:
    assert asked.about_reader(query)
    assert routing.subject_of(query, None) == "user"


@pytest.mark.parametrize(
    "query",
    [
        "When did Caroline move to Sweden?",  # names someone
        "What does Ines do for a living these days?",
        "what does she drink?",  # a pronoun
        "他现在住哪",
        "gn",  # chat, no question
        "it worked!",
        "what causes inflation to rise faster in the winter months",  # long, no first person
        "明天北京到上海的高铁一般几点发车，票价大概多少",
    ],
)
def test_a_question_naming_someone_else_or_no_question_is_not(query: str) -> None:
    assert not asked.about_reader(query)


@pytest.mark.parametrize(
    ("query", "relation"),
    [
        ("老公现在做啥", "husband"),
        ("女朋友现在干嘛", "partner"),
        ("wife's job now?", "wife"),
        ("sis doing what these days", "sister"),
        ("bf's work", "partner"),
        ("where's mum staying", "mother"),
        ("what's dad up to work-wise", "father"),
    ],
)
def test_a_family_word_without_my_names_the_relative(query: str, relation: str) -> None:
    assert routing.subject_of(query, None) == f"person:{relation}"


@pytest.mark.parametrize(
    ("turn", "relation"),
    [
        ("老公又申请调回学校教体育了", "husband"),
        ("Mum's staying in Nairobi with us since her surgery", "mother"),
        ("Sis says Darwin was too much; they've settled in Cairns", "sister"),
    ],
)
def test_a_turn_opening_with_a_family_word_is_about_the_relative(turn: str, relation: str) -> None:
    assert asked.opening_relative(turn) == relation


def test_a_family_word_inside_a_first_person_question_is_left_to_my() -> None:
    # "my sister" is read by subjects.relation; a bare word after "I" names nobody
    assert asked.relative("what do I call dad's new job") is None
    assert routing.subject_of("我姐现在干嘛的", None) == "person:sister"


@pytest.mark.parametrize(
    ("turn", "about"),
    [
        ("我妈昨天打电话说，我姐辞了学校的工作，考上了公务员", "person:sister"),  # reported speech
        ("My brother says mum finally gave in and moved to Nakuru", "person:mother"),
        ("My wife told me over dinner that she's leaving the hospital pharmacy", "person:wife"),
        ("体校那边离家太远，老公又申请调回学校教体育了", "person:husband"),  # a later clause, no 我
        ("我每天骑车上班，老公开车", None),  # the user's own commute: 我 speaks first
        ("The truck got sold; he's a pastry student at a Pune institute now", "other:male"),
        ("她不再当护士了，改去医务科做行政", "other:female"),
        ("I told her I moved to Berlin", None),
    ],
)
def test_whom_a_turn_is_about(turn: str, about: str | None) -> None:
    assert whose.subject(turn) == about


def test_a_pronoun_goes_to_the_last_relative_of_its_gender() -> None:
    jan, feb, mar = (datetime(2026, m, 1, tzinfo=UTC) for m in (1, 2, 3))
    named = [(jan, "person:wife"), (feb, "person:father")]
    assert whose.resolved("other:female", mar, named) == "person:wife"
    assert whose.resolved("other:male", mar, named) == "person:father"
    assert whose.resolved("other:any", mar, named) == "person:father"
    assert whose.resolved("other:female", jan, [(feb, "person:wife")]) == "other:female"
