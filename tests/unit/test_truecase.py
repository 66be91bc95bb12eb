"""Capitals given back to an English turn typed all in lower case (``write/truecase.py``)."""

from __future__ import annotations

import pytest

from memquill.write.truecase import lower_cased, restore


@pytest.mark.parametrize(
    ("text", "cased"),
    [
        ("mia's first week went ok", "Mia's first week went ok"),
        ("switched to dr nguyen, she's great. i'm happy", "switched to Dr Nguyen, she's great. I'm happy"),
        ("we moved to new york city from sydney", "we moved to New York City from Sydney"),
        ("pulled jack out of swimming. giffgaff says hi", "pulled jack out of swimming. giffgaff says hi"),
    ],
    ids=["given-name", "title-and-i", "cities", "first-words-stay"],
)
def test_names_get_their_capitals_back(text: str, cased: str) -> None:
    assert restore(text) == cased


@pytest.mark.parametrize(
    "text",
    [
        "i will mark it, max 20 min, so many left",  # names that are words here
        "she's on royal canin, it's a long story",  # a given name and a city that are adjectives
        "reading is fun in the evening",  # a city that is a word, said as one
    ],
)
def test_words_that_are_also_names_stay_words(text: str) -> None:
    out = restore(text)
    assert out == text.replace("i will", "I will"), out


def test_a_text_with_any_capital_is_its_writers() -> None:
    text = "Already cased, with mia and dr nguyen"
    assert not lower_cased(text)
    assert restore(text) == text
    assert restore("我老婆叫mia") == "我老婆叫mia"  # not English


def test_a_question_keeps_its_first_word() -> None:
    assert restore("which school does mia go to now") == "which school does Mia go to now"
