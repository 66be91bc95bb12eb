"""An age is a number of years, not a year: "95年的" (born in 1995) and "born in 1995" are no
age of 95 or 1995, whatever the attribute model read."""

import pytest

from memquill.write.extract.model_gates import acceptable


@pytest.mark.parametrize(
    ("value", "said", "ok"),
    [
        ("95", "本人王磊，95年的，目前在成都做前端开发", False),
        ("1995", "I was born in 1995, so not that young", False),
        ("29", "我今年29岁，还没买房", True),
        ("32", "I just turned 32 last week", True),
    ],
)
def test_a_year_is_no_age(value: str, said: str, ok: bool) -> None:
    assert acceptable(value, "number", "age", said, None) is ok
