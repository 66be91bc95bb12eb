"""Which clauses name one of the user's pets or belongings (``write/extract/item_names.py``)."""

from __future__ import annotations

import pytest

from memquill.write.extract.item_names import item_names, mentions


@pytest.mark.parametrize(
    ("text", "zh", "found"),
    [
        ("家里的猫叫糯米，三岁，特别能吃。", True, [("item:猫", "糯米")]),
        ("女儿非要给猫改名叫大将军，全家投票通过", True, [("item:猫", "大将军")]),
        ("前两天从救助站领了只小橘猫，叫它芝麻", True, [("item:猫", "芝麻")]),
        ("我家狗狗叫豆包", True, [("item:狗", "豆包")]),
        ("We adopted a beagle last weekend! We're calling him Toffee.", False, [("item:dog", "Toffee")]),
        ("The kids voted and the dog's called Admiral now.", False, [("item:dog", "Admiral")]),
        ("We adopted a greyhound called Pixel!", False, [("item:dog", "Pixel")]),
        ("My car is named Betsy", False, [("item:car", "Betsy")]),
        # someone else's, asked or supposed: nothing
        ("我妈家的猫叫花花", True, []),
        ("my sister's dog is called Rex", False, []),
        ("what should I name my cat?", False, []),
        ("如果养狗的话就叫它旺财", True, []),
        ("现在叫它糯糯它都不理了", True, []),
    ],
)
def test_item_names(text: str, zh: bool, found: list[tuple[str, str]]) -> None:
    assert item_names(text, text, zh) == found


def test_a_turn_mentions_the_thing_in_any_word_of_its_group() -> None:
    assert mentions("item:dog", "the pup dug three holes")
    assert mentions("item:猫", "橘猫又胖了")
    assert not mentions("item:dog", "finished the puzzle")
