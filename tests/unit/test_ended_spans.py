"""Which value spans a clause names only as ended or as not so (``change_cues.ended``): the model
path proposes none of them as a single-valued attribute's value. A change names the new value
beside the old one and keeps it; "from" alone is where someone comes from."""

from __future__ import annotations

import pytest

from memquill.write.extract.change_cues import ended as _ended


@pytest.mark.parametrize(
    ("clause", "value", "ended"),
    [
        ("深圳的房子已经退了，一堆东西都寄到这儿来了", "深圳", True),
        ("finally closed my Barclays account today", "Barclays", True),
        ("我生日不是6号，是11月16号", "6号", True),
        ("我还没结婚，也没打算结", "结婚", True),
        ("tabs not spaces in this repo", "spaces", True),
        ("we finally ditched Jenkins for CircleCI", "CircleCI", False),
        ("We replaced Redux with Zustand", "Zustand", False),
        ("我闺蜜下个月从温哥华回国，她在那边做牙医", "温哥华", False),
        ("我老板姓陈，特别喜欢早上九点开会", "早上九点", False),  # 别 in 特别 negates nothing
        ("I'm not religious but my grandma is a devout Catholic", "Catholic", False),
    ],
)
def test_a_value_named_only_as_ended(clause: str, value: str, ended: bool) -> None:
    assert _ended(clause, value) is ended
