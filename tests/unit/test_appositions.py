"""A person named beside their relation (``appositions.relation_names``), zh + en: the name
is found with its honorific and without a possessive, and words that name no one are not."""

from __future__ import annotations

import pytest

from memquill.write.extract.appositions import relation_names


@pytest.mark.parametrize(
    ("text", "zh", "expected"),
    [
        ("my colleague Rashid is a die-hard Arsenal fan", False, [("colleague", "Rashid")]),
        ("So my boss, Gretchen, finally approved my transfer", False, [("manager", "Gretchen")]),
        ("my therapist Dr. Anjali Menon moved her practice", False, [("doctor", "Dr. Anjali Menon")]),
        ("Note that my niece Poppy's birthday is August 3rd", False, [("niece", "Poppy")]),
        ("I run a bakery with my husband Tom", False, [("husband", "Tom")]),
        ("my mom I think is right", False, []),
        ("my manager Monday said no", False, []),
        ("my friend's Tesla broke down", False, []),
        ("我同事吕梓萌从下周开始休产假", True, [("colleague", "吕梓萌")]),
        ("项目由我同事小刘牵头", True, [("colleague", "小刘")]),
        ("我女儿叫朵朵，今年五岁了", True, [("daughter", "朵朵")]),
        ("我领导叫Gareth Pemberton-Lowe，英国人", True, [("manager", "Gareth Pemberton-Lowe")]),
        ("我闺蜜邝诗雨2026年12月从温哥华回国", True, [("friend", "邝诗雨")]),
        ("我妈叫我回家吃饭", True, []),
        ("我朋友老家是湖南的", True, []),
        ("我同事小时候很胖", True, []),
        ("我表妹在苏州做护士", True, []),
        ("我老板老是加班", True, []),
    ],
)
def test_relation_names(text: str, zh: bool, expected: list[tuple[str, str]]) -> None:
    assert relation_names(text, zh) == expected
