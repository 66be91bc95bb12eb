"""Who did what an unanchored Chinese profile match says (``patterns_profile.doer``): a word
right after a numeral is its unit, so the week the date normaliser writes for 上周 ("2026年第12
周（…）", 周 tagged a surname by jieba) names no one; a name, even one jieba splits, still does.
(English matches are anchored on "I"/"we": see ``tests/scenarios/test_write_path_owners.py``.)"""

from __future__ import annotations

import pytest

from memquill.write.extract.patterns_profile import doer


@pytest.mark.parametrize(
    "prefix",
    [
        "2026年第12周（3月16日–3月22日）刚",
        "跟你说一声，2026年第12周（3月16日–3月22日）刚",
        "2025年第42周（10月13日–10月19日）",
        "上周刚",
    ],
)
def test_a_week_is_no_one(prefix: str) -> None:
    assert doer(prefix) == ""


@pytest.mark.parametrize("prefix", ["周琴", "老周", "邱永年", "小王上周"])
def test_a_name_still_owns_the_move(prefix: str) -> None:
    assert doer(prefix)
