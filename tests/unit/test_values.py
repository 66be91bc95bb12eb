"""Typed value extractors and value normalisation."""

from __future__ import annotations

import pytest

from memquill.keymap import to_catalogue
from memquill.write.extract.normalise import canonical, same_value
from memquill.write.extract.values import named_spans, spans


@pytest.mark.parametrize(
    ("value_type", "text", "zh", "first"),
    [
        ("place", "我表妹在苏州做护士", True, "苏州"),
        ("text", "我表妹在苏州做护士", True, "护士"),
        ("person", "我领导叫周琴", True, "周琴"),
        ("organisation", "月底就去腾讯报到了", True, "腾讯"),
        ("email", "reach me at bob@example.io please", False, "bob@example.io"),
        ("phone", "我手机 138 0013 8000", True, "138 0013 8000"),
        # a sentence's full stop after the number does not cut its last group
        ("phone", "New SIM, new number: +86 186 0217 5530. The old one stops", False, "+86 186 0217 5530"),
        ("money", "预算大概五千块", True, "五千块"),
        ("number", "I have 3 cats", False, "3"),
        ("place", "we've been living in Lisbon since spring", False, "Lisbon"),
        ("organisation", "I just joined Stripe as a PM", False, "Stripe"),
        ("tech", "most of my code is Rust these days", False, "Rust"),
        ("text", "I've been really into bouldering lately", False, "bouldering"),
    ],
)
def test_typed_spans(value_type: str, text: str, zh: bool, first: str) -> None:
    assert spans(value_type, text, zh)[0] == first


def test_no_span_of_the_wrong_type() -> None:
    assert spans("email", "我没有邮箱", True) == []
    assert spans("phone", "I was born in 1990", False) == []


@pytest.mark.parametrize(
    ("a", "b", "value_type", "same"),
    [
        ("tea", "茶", "text", True),
        ("Postgres", "PostgreSQL", "tech", True),
        ("PostgreSQL 16", "postgres 16", "tech", True),
        ("PostgreSQL 15", "PostgreSQL 16", "tech", False),
        ("Go", "Rust", "tech", False),
        ("北京", "Beijing", "place", True),
        ("+86 138-0013-8000", "+86 138 0013 8000", "phone", True),
        ("a latte", "拿铁", "text", True),
        ("coffee", "tea", "text", False),
        # by the bilingual dictionary (CC-CEDICT), whole words and words joined
        ("茉莉花茶", "jasmine tea", "text", True),
        ("大麦茶", "barley tea", "text", True),
        ("深圳", "Shenzhen", "place", True),
        ("钉钉", "DingTalk", "tech", True),
        ("茉莉花茶", "green tea", "text", False),
        ("绿茶", "black tea", "text", False),
        ("王芳", "wang fang", "person", False),  # a name is never translated
    ],
)
def test_same_value_across_languages_and_synonyms(a: str, b: str, value_type: str, same: bool) -> None:
    assert same_value(a, b, value_type) is same


def test_similarity_is_only_consulted_for_free_text() -> None:
    always = lambda a, b: 1.0  # noqa: E731
    assert same_value("hiking in the hills", "hill walking", "text", always)
    assert not same_value("Go", "Rust", "tech", always)
    assert canonical("  Dark Mode ") == canonical("深色模式")


@pytest.mark.parametrize(
    ("subject", "key", "negative", "want"),
    [
        ("project", "stack:postgresql", False, ("project", "stack:database")),
        ("project:web", "stack:pnpm", False, ("project:web", "stack:package_manager")),
        ("project", "stack:someorm", False, ("project", "stack:library")),
        ("project", "stack:fly.io", False, ("project", "stack:deploy_target")),  # a hosting platform
        ("project", "stack:hetzner", False, ("project", "stack:cloud")),
        ("user", "location", False, ("user", "city")),
        ("user", "role", False, ("user", "occupation")),
        ("user", "manager", False, ("person:manager", "name")),
        ("user", "allergy:peanut", False, ("user", "allergy")),
        ("user", "beverage:coffee", True, ("user", "beverage")),
        ("user", "diet:vegetarian", False, ("user", "diet")),
        ("user", "diet:cilantro", True, ("user", "food_dislike")),
        ("org", "business:customers", False, ("org", "customers")),
        ("user", "plan:dentist", False, ("user", "plan:dentist")),
    ],
)
def test_value_keyed_slots_map_to_attributes(
    subject: str, key: str, negative: bool, want: tuple[str, str]
) -> None:
    assert to_catalogue(subject, key, negative) == want


@pytest.mark.parametrize(
    ("text", "places"),
    [
        ("一堆东西都寄到我这儿来了", []),  # jieba's dictionary tags 东西 (things) a place
        ("深圳的房子已经退了", ["深圳"]),
    ],
)
def test_named_places_are_places(text: str, places: list[str]) -> None:
    assert named_spans("place", text, True) == places
