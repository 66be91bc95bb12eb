"""Where a sentence's question stands (``rules.question_tail``): a Chinese question between
comma parts asks only itself."""

from __future__ import annotations

import pytest

from memquill.write.extract.rules import question_tail


@pytest.mark.parametrize(
    ("sentence", "parts"),
    [
        (
            "组里周会定在周一上午九点半，我每次都起不来，有没有快速清醒的办法，别让我喝咖啡",
            [
                ("组里周会定在周一上午九点半，我每次都起不来", False),
                ("有没有快速清醒的办法", True),
                ("别让我喝咖啡", False),
            ],
        ),
        (
            "我上周搬到成都了，推荐几家火锅？",
            [("我上周搬到成都了", False), ("推荐几家火锅", True)],
        ),  # a trailing one
        (
            "你知道我喜欢喝什么吗，我最近在减肥，别推荐奶茶",
            [("你知道我喜欢喝什么吗，我最近在减肥，别推荐奶茶", False)],
        ),
    ],
    ids=["middle", "trailing", "opening"],
)
def test_a_chinese_question_between_parts_asks_only_itself(
    sentence: str, parts: list[tuple[str, bool]]
) -> None:
    assert question_tail(sentence) == parts
