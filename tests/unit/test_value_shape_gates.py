"""Values the attribute model may not store because they name nothing of the attribute's
kind (``model_gates``): a count, a word that opens the sentence, a time, or a name with "'s"
that is really "is"/"has"."""

from __future__ import annotations

import pytest

from memquill.write.extract.model_gates import acceptable, counted_before, names_slot, uncontracted


@pytest.mark.parametrize(
    ("value", "value_type", "key", "said"),
    [
        ("Three", "text", "sport", "Three rowing sessions a week now, blisters everywhere."),
        ("a couple", "text", "hobby", "I do a couple every weekend"),
        ("Ha", "text", "vehicle", "Ha, no, I'm a cyclist now."),
        ("Ditched", "text", "vehicle", "Ditched the car last month."),
        ("Sundays", "text", "favorite_food", "Something I can batch cook on Sundays."),
        ("said keep it", "tech", "device", "IT sent me a Dell XPS 13 and said keep it"),
        ("honestly it's", "tech", "device", "IT sent me a Dell XPS 13, honestly it's growing on me"),
        ("I've", "place", "workplace", "Three weeks of working from home and I've barely left"),
        ("Galway", "organisation", "employer", "My partner's been offered a job in Galway"),
        ("place", "place", "workplace", "these days it's jiu-jitsu at a place near work"),  # any place
        ("地方", "place", "city", "想换个地方住"),
    ],
)
def test_no_value(value: str, value_type: str, key: str, said: str) -> None:
    assert not acceptable(value, value_type, key, said, None)


@pytest.mark.parametrize(
    ("value", "value_type", "key", "said"),
    [
        ("Swimming", "text", "sport", "Swimming three times a week now"),  # a gerund names an activity
        ("Pop", "text", "music", "Pop."),  # a noun too
        ("Denver", "place", "city", "Denver is home now"),
        ("3", "number", "team_size", "3 people on my team"),
        ("Sundays", "text", "availability", "I'm free Sundays"),
        ("Dell XPS 13", "tech", "device", "IT sent me a Dell XPS 13 and said keep it"),
        ("O'Brien", "person", "manager", "my manager is O'Brien"),
        ("0412 555 019", "phone", "phone", "my brother Kwame, 0412 555 019"),  # digits are no count
        ("ruff", "tech", "stack:linter", "we lint with ruff and format with black"),  # a tool, no verb
    ],
)
def test_a_value(value: str, value_type: str, key: str, said: str) -> None:
    assert acceptable(value, value_type, key, said, None)


def test_an_s_that_is_is_or_has_is_no_part_of_the_name() -> None:
    assert uncontracted("Zed's", "I miss Cursor's tab completion a bit but Zed's plenty good") == "Zed"
    assert uncontracted("Matcha's", "Matcha's been great btw") == "Matcha"
    assert uncontracted("Trader Joe's", "Trader Joe's is my go-to") == "Trader Joe's"
    assert uncontracted("McDonald's", "lunch at McDonald's again") == "McDonald's"


@pytest.mark.parametrize(
    ("value", "key", "slot"),
    [
        ("auth", "stack:auth", True),
        ("auth and onboarding", "stack:auth", True),  # one of the things it lists is the slot
        ("数据库", "stack:database", True),
        ("数据库和缓存", "stack:database", True),
        ("Clerk", "stack:auth", False),
        ("PostgreSQL", "stack:database", False),
        ("和平", "city", False),  # 和 inside a word is no list
    ],
)
def test_the_word_for_the_slot_is_no_value_of_it(value: str, key: str, slot: bool) -> None:
    assert names_slot(value, key) is slot


@pytest.mark.parametrize(
    ("value", "said", "counted"),
    [
        ("students", "she's already supervising two master's students", True),
        ("master's students", "she's already supervising two master's students", True),
        ("interns", "I manage a few interns", True),
        ("postdoc", "Mira's first month as a postdoc", False),
        ("nurse", "I've been a nurse for two years", False),
        ("护士", "她带了两个护士", False),  # Chinese counts have their own classifier rule
    ],
)
def test_a_counted_thing_is_no_single_value(value: str, said: str, counted: bool) -> None:
    assert counted_before(value, said) is counted
