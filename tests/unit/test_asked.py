"""Whom a question asks about without "my" (``retrieve/asked.py``)."""

from __future__ import annotations

import pytest

from memquill.retrieve import asked, routing


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
