"""English orders need a verb (``patterns_common.imperative``, verbs from WordNet as data):
"Pescatarian now I suppose" is a statement, not "The user asked: …"."""

from __future__ import annotations

import pytest

from memquill.write.extract.lexicon import english_words
from memquill.write.extract.patterns_common import imperative


@pytest.mark.parametrize(
    "text",
    [
        "Pescatarian now I suppose",  # was stored as "The user asked: Pescatarian now …"
        "Matcha these days, honestly",
        "Went back to Python after the reorg",
        "Still vegan, mostly",
        "Honestly it's mostly Rust",
    ],
)
def test_a_clause_opening_with_no_verb_is_no_order(text: str) -> None:
    assert not imperative(text, "en")


@pytest.mark.parametrize(
    "text",
    [
        "rerun them once",
        "please never merge on Fridays",
        "Book a table for two at seven",
        "Text me the address later",
        "water the plants on Sunday",
    ],
)
def test_an_order_opens_with_a_verb(text: str) -> None:
    assert imperative(text, "en")


def test_the_word_lists_hold_base_verbs_and_common_nouns_only() -> None:
    verbs, nouns = english_words("verbs"), english_words("nouns")
    assert {"suppose", "rerun", "book", "merge"} <= verbs
    assert not {"pescatarian", "went", "still", "matcha"} & verbs
    assert {"company", "phone", "school"} <= nouns
    assert not {"priya", "olivia"} & nouns
