"""The days of the week a text names (``retrieve/weekdays.py``), zh + en."""

from __future__ import annotations

import pytest

from memquill.retrieve.weekdays import weekdays


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("Tuesdays at 4 I have therapy", {1}),
        ("dialysis Monday Wednesday Friday", {0, 2, 4}),
        ("Thu 6pm, Mon/Wed mornings", {0, 2, 3}),
        ("this weekend", {5, 6}),
        ("weekdays only", {0, 1, 2, 3, 4}),
        ("每周一、三、五上夜班", {0, 2, 4}),
        ("周一周四上午做理疗", {0, 3}),
        ("星期天和星期六", {5, 6}),
        ("下周二晚上", {1}),
        ("周末想出去玩", {5, 6}),
        # no day: a lowercase word that is an abbreviation, counts of weeks, relative days
        ("I sat down and the sun came out", set()),
        ("一周三次，两个星期一次", set()),
        ("周三个人都在", set()),
        ("tomorrow evening, 明天晚上", set()),
    ],
)
def test_weekdays(text: str, days: set[int]) -> None:
    assert weekdays(text) == days
