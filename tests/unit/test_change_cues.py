"""The change-cue table (data/change_cues.json): which span a change introduces, zh + en."""

from __future__ import annotations

import pytest

from memquill.write.extract import change_cues


@pytest.mark.parametrize(
    ("text", "spans", "first"),
    [
        ("Cut out coffee completely, switched to matcha", ["coffee", "matcha"], "matcha"),
        ("Dropped zsh, I'm on fish now", ["zsh", "fish"], "fish"),
        (
            "We rewrote the API layer, it's FastAPI now instead of Flask",
            ["API", "FastAPI", "Flask"],
            "FastAPI",
        ),
        ("went back to Vim after a month of Emacs", ["Vim", "Emacs"], "Vim"),
        ("胃不太舒服，咖啡先戒了，改喝乌龙茶", ["咖啡", "乌龙茶"], "乌龙茶"),
        ("已经从携程离职了，下周一去网易报到", ["携程", "网易"], "网易"),
        ("不再坐地铁了，改骑电动车", ["地铁", "电动车"], "电动车"),
        ("停了半年，最近重新开始游泳", ["游泳"], "游泳"),
    ],
)
def test_the_new_value_comes_first_and_the_old_one_is_dropped(
    text: str, spans: list[str], first: str
) -> None:
    picked = change_cues.pick(text, spans)
    assert picked[0] == first
    old = {"coffee", "zsh", "Flask", "咖啡", "携程", "地铁"}
    assert not old & set(picked)


def test_a_latin_value_matches_only_as_a_whole_word() -> None:
    assert change_cues.pick("it's FastAPI now", ["API", "FastAPI"]) == ["FastAPI", "API"]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I start at Dell on Monday", "start"),
        ("下周一去网易报到", "start"),
        ("went back to tea", "back"),
        ("又回到77公斤了", "back"),
        ("switched to fish", "new"),
        ("改成生酮饮食了", "new"),
        ("nowadays I cycle to work", "present"),
        ("我现在82公斤", "present"),
        ("I like tea", None),
        ("我喜欢喝茶", None),
    ],
)
def test_the_strongest_cue_names_the_kind_of_statement(text: str, kind: str | None) -> None:
    assert change_cues.kind(text) == kind


def test_without_cues_the_spans_keep_their_order() -> None:
    assert change_cues.pick("I like tea and coffee", ["tea", "coffee"]) == ["tea", "coffee"]
