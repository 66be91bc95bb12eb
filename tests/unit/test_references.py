"""A reference is no value of its own (``model_gates.refers``/``references``): "他们家", "that
place" point back at something named before; a name, a pronoun for the speaker or everyone,
and a demonstrative before a verb do not."""

from __future__ import annotations

import pytest

from memquill.write.extract.model_gates import references, refers


@pytest.mark.parametrize(
    "value",
    [
        "他们家",
        "那家",
        "这家公司",
        "那个健身房",
        "那一家",
        "the place",
        "that one",
        "the same one",
        "that gym",
    ],
)
def test_a_reference(value: str) -> None:
    assert refers(value)


@pytest.mark.parametrize(
    "value", ["宁波银行", "我", "我们家", "大家", "Saguaro Health", "The Bay", "the office", "that is"]
)
def test_no_reference(value: str) -> None:
    assert not refers(value)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("宁波银行利率最低，顺手把工资卡也换成他们家了", [(18, "他们家")]),
        ("Ally has better rates, so I moved my paycheck over to that one", [(54, "that one")]),
        ("so that is the place I work now", [(11, "the place")]),
        ("我今天好累", []),
        ("this is great", []),
    ],
)
def test_references_in_a_clause(text: str, found: list[tuple[int, str]]) -> None:
    assert references(text) == found
    assert all(text[at : at + len(ref)] == ref for at, ref in found)
