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
