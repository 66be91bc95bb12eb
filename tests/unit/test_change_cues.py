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


@pytest.mark.parametrize(
    ("text", "value", "aside"),
    [
        ("小米14摔了，屏幕碎成蜘蛛网，干脆换了台iPhone 15", "小米14", True),
        ("小米14摔了，屏幕碎成蜘蛛网，干脆换了台iPhone 15", "iPhone 15", False),
        ("iPhone 15 给我妈用了，我又换回安卓，入了台Pixel 8", "iPhone 15", True),
        ("iPhone 15 给我妈用了，我又换回安卓，入了台Pixel 8", "Pixel 8", False),
        ("上个月把飞度卖了，提了台轩逸", "飞度", True),
        ("Got a Pixel 9 last week, the Pixel 7 is now my backup", "Pixel 7", True),
        ("Got a Pixel 9 last week, the Pixel 7 is now my backup", "Pixel 9", False),
        ("My old ThinkPad died so I bought a MacBook Air", "ThinkPad", True),
        ("My old ThinkPad died so I bought a MacBook Air", "MacBook Air", False),
        ("I sold my Kindle and got a Kobo", "Kindle", True),
        ("I sold my Kindle and got a Kobo", "Kobo", False),
        ("I use a Kindle and an iPad", "Kindle", False),
        ("家里有台iPad，我自己用小米14", "小米14", False),
        # the thing said back by its line name, without the model number
        ("手机已经不是华为那台了，现在换成了iPhone 16", "华为P60", True),
        ("手机已经不是华为那台了，现在换成了iPhone 16", "iPhone 16", False),
        ("The Galaxy finally died, so I'm on a Pixel 9 now", "Galaxy S21", True),
        ("The Galaxy finally died, so I'm on a Pixel 9 now", "Pixel 9", False),
        ("It's no longer my iPhone, I carry a Pixel 8", "iPhone 13", True),
        ("Got a Galaxy Tab for the kids, my Galaxy S21 works fine", "Galaxy S21", False),
    ],
)
def test_a_clause_sets_aside_the_thing_it_replaces(text: str, value: str, aside: bool) -> None:
    assert change_cues.set_aside(text, value) is aside


@pytest.mark.parametrize(
    ("text", "value", "lead"),
    [
        ("Also ditched Neovim: a plugin update broke my config", "ditched Neovim", ("old", "Neovim")),
        ("switched to fish last month", "switched to fish", ("new", "fish")),
        ("改用Zed了", "改用Zed", ("new", "Zed")),
        ("Helix just works", "Helix", None),
    ],
)
def test_a_span_cut_with_its_change_verb_is_known(
    text: str, value: str, lead: tuple[str, str] | None
) -> None:
    assert change_cues.leading(text, value) == lead


@pytest.mark.parametrize(
    ("said", "ranked", "value_type", "kept"),
    [
        (
            "Also ditched Neovim: a plugin update broke my config",
            {"Neovim": 0.5, "ditched Neovim": 0.3, "config": 0.2},
            "tech",
            set(),
        ),
        ("Originally from Lagos, now based in Accra", {"from Lagos": 0.5, "Accra": 0.2}, "place", {"Accra"}),
        ("弃用了VS Code，改用Zed", {"弃用了VS Code": 0.5, "Zed": 0.2}, "tech", {"Zed"}),
    ],
)
def test_a_span_an_old_cue_begins_is_the_retired_value(
    said: str, ranked: dict[str, float], value_type: str, kept: set[str]
) -> None:
    from memquill.write.extract.model import _without_cue_words

    assert set(_without_cue_words(said, ranked, value_type)) == kept


def test_an_old_value_cue_reads_in_the_progressive_too() -> None:
    """ "after quitting soda", "giving up coffee": the -ing form of an old-value cue."""
    assert change_cues.old_spans("Headaches for days after quitting soda", ["soda"]) == {"soda"}
    assert change_cues.old_spans("I'm giving up coffee for Lent", ["coffee"]) == {"coffee"}
    # a new value's cue is not read so: "moving to Denver" may be a plan
    assert change_cues.kind("We're moving to Denver in May") != "new"


@pytest.mark.parametrize(
    ("text", "value", "holds"),
    [
        ("Headaches for three days after quitting soda", "after quitting soda", True),
        ("Headaches for three days after quitting soda", "soda", False),  # the value alone: old_spans
        ("my uncle is a retired pilot who now restores old boats", "retired pilot", False),
        ("戒了奶茶以后头疼了三天", "奶茶", False),
        ("It's plain sparkling water now", "plain sparkling water", False),
    ],
)
def test_a_span_holding_an_old_cue_names_what_is_retired(text: str, value: str, holds: bool) -> None:
    assert change_cues.holds_old(text, value) is holds


@pytest.mark.parametrize(
    ("text", "value", "old"),
    [
        ("Three weeks of working from home and I've barely left the apartment.", "home", False),
        ("I work remotely from Lisbon", "Lisbon", False),
        ("Moved from Leeds to Bristol", "Leeds", True),
        ("Switched from Jest to Vitest", "Jest", True),
    ],
)
def test_working_from_a_place_leaves_nothing_behind(text: str, value: str, old: bool) -> None:
    assert (change_cues.old_spans(text, [value]) == {value}) is old


def test_a_cue_word_inside_a_title_is_no_cue() -> None:
    said = 'I\'ve read "The Left Hand of Darkness" three times now'
    assert not change_cues.holds_old(said, "The Left Hand of Darkness")
