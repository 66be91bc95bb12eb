"""One language detector for the whole write path (it used to be two, disagreeing on the
CJK range)."""

from __future__ import annotations

import pytest

from memquill import text
from memquill.write import timenorm


@pytest.mark.parametrize(
    ("sample", "language"),
    [
        ("我下周三要去杭州", "zh"),
        ("meet me at 3pm", "en"),
        ("周五 deploy the API", "zh"),
        ("䷀ is a hexagram symbol, not Chinese text", "en"),
        ("㐀 extension A", "zh"),
    ],
)
def test_every_stage_detects_the_same_language(sample: str, language: str) -> None:
    assert text.detect_language(sample) == language
    assert timenorm.detect_language is text.detect_language


@pytest.mark.parametrize(
    ("text", "name"),
    [("我领导换成了甘雨桐", "甘雨桐"), ("新同事叫欧阳明月", "欧阳明月"), ("我领导换成了甘雨桐。", "甘雨桐")],
)
def test_a_name_jieba_ends_a_character_early_is_whole(text: str, name: str) -> None:
    from memquill.write.extract.values import pos_cut

    assert (name, "nr") in pos_cut(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [("张伟的车", "张伟"), ("找刘洋谈", "刘洋"), ("我和王明去", "王明")],
)
def test_a_name_keeps_its_end_before_a_particle_or_a_verb(text: str, name: str) -> None:
    from memquill.write.extract.values import pos_cut

    assert (name, "nr") in pos_cut(text)
