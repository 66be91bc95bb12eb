"""The city gazetteer (``retrieve/places.py``): names said in passing, not words that are also
place names, and sentences about someone else in the user's life."""

from __future__ import annotations

import pytest

from memquill.retrieve.places import cities, mentioned_person


@pytest.mark.parametrize(
    ("sentence", "city"),
    [
        ("Lashing rain in Cork again, nobody could have predicted it.", "Cork"),
        ("Leeds has been grey for about nine days straight now.", "Leeds"),
        ("Galway's lashing rain again, so I'm stuck inside.", "Galway"),
        ("The southeaster's howling in Cape Town again.", "Cape Town"),
        ("Up here in Tromso the sun won't rise for weeks.", "Tromso"),
        ("Montreal in March is just slush.", "Montreal"),
        ("我们洛阳这几天牡丹全开了，满城都是游客。", "洛阳"),
        ("我在包头，冬天零下二十多度很正常。", "包头"),
    ],
)
def test_a_city_said_in_passing_is_named(sentence: str, city: str) -> None:
    assert city in cities(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Cork the bottle before you put it away.",  # an ordinary word opening a sentence
        "Reading is what I do on Sundays.",
        "Nice work on the release.",
        "cork boards are cheap",  # not capitalised
        "这次的结果跟上次大同小异。",  # not cut out as a word
        "I use Python and Go at work.",
    ],
)
def test_words_that_are_also_city_names_are_not_cities(sentence: str) -> None:
    assert cities(sentence) == []


def test_an_ordinary_word_capitalised_inside_a_sentence_is_a_city() -> None:
    assert cities("We moved to Cork last spring.") == ["Cork"]


@pytest.mark.parametrize(
    ("sentence", "other"),
    [
        ("My girlfriend is a pastry chef.", True),
        ("I call my parents in Lima every Sunday.", True),
        ("女朋友在成都工作，我们异地两年了。", True),
        ("我妈住大理，每个月来看我一次。", True),
        ("I'm a pastry chef in Lyon.", False),
        ("我在兰州住了快十年了。", False),
    ],
)
def test_a_sentence_about_someone_in_the_users_life_is_told_apart(sentence: str, other: bool) -> None:
    assert mentioned_person(sentence) is other
