"""Whether a hit names a value: every wording the value lexicon knows for it counts."""

from __future__ import annotations

from memquill.retrieve.superseded import states_value


def test_a_value_is_named_in_its_other_language_or_synonym_forms() -> None:
    assert states_value("I've been practising writing 北京 properly", "Beijing")
    assert states_value("每天一杯燕麦拿铁", "oat milk latte")
    assert states_value("back on the oat milk latte", "燕麦拿铁")


def test_a_whole_word_in_latin_script_and_no_one_character_wording() -> None:
    assert not states_value("that was good", "Go")
    assert not states_value("喝了一瓶苏打水", "water")  # "水" alone names too much text


def test_a_latin_value_inside_chinese_text_is_named() -> None:
    """Chinese characters are word characters to ``re``: "用的postgres了" had named nothing."""
    assert states_value("再帮我写一个postgres慢查询的告警规则", "PostgreSQL")
    assert states_value("换成了GitHub Actions，快多了", "GitHub Actions")
    assert not states_value("我在用postgresql16", "Postgres")  # a longer Latin word is another word
    assert not states_value("javascript is fun", "Java")
