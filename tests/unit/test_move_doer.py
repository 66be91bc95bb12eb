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


@pytest.mark.parametrize(
    ("prefix", "name"), [("小张", "小张"), ("小李", "小李"), ("老张又", "老张"), ("邱永年", "邱永年")]
)
def test_a_nickname_jieba_splits_or_tags_a_noun_is_a_name(prefix: str, name: str) -> None:
    # "小张" is tagged a noun and "小李" split 小/李: both were read as the speaker's own move
    assert doer(prefix) == name


@pytest.mark.parametrize("prefix", ["老婆", "同事"])
def test_a_relation_without_my_is_left_to_the_model(prefix: str) -> None:
    assert doer(prefix) is None
