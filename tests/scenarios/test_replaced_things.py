"""A replaced thing leaves its slot, and a change verb is never a value (zh + en, every backend,
the real embedder and the attribute model).

A multi-valued attribute (devices, vehicles) keeps each value a user names, so a replaced phone
stayed active beside its successor; a clause that sets the old one aside ("摔了", "给我妈用了",
"is now my backup") while stating the new one replaces it, while a further thing said plainly
("又买了个iPad") is a second value. A span cut with its change verb ("ditched Neovim") named the
retired value as the new one."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


def devices(mem: Memory, subject: str = "user") -> dict[str, set[str]]:
    recs = mem.records(user="u", statuses=["active", "superseded", "candidate", "needs_review"])
    out: dict[str, set[str]] = {}
    for r in recs:
        if r.subject == subject and r.key == "device":
            out.setdefault(r.status.value, set()).add(r.value or "")
    return out


@pytest.mark.parametrize(
    ("first", "later", "was", "now"),
    [
        pytest.param(
            "手机换了，小米14，拍照比之前那台强太多",
            "小米14摔了，屏幕碎成蜘蛛网，干脆换了台iPhone 15",
            "小米14",
            "iPhone 15",
            id="zh-named-whole",
        ),
        pytest.param(
            "My phone is a Pixel 7.",
            "Got a Pixel 9 last week, the Pixel 7 is now my backup",
            "Pixel 7",
            "Pixel 9",
            id="en-named-whole",
        ),
        # the clause names the old phone without its model number ("小米那台", "the Galaxy")
        pytest.param(
            "手机换了，小米14，拍照比之前那台强太多",
            "我的手机已经不是小米那台了，上周摔碎了屏，现在换成iPhone 16了",
            "小米14",
            "iPhone 16",
            id="zh-line-name-alone",
        ),
        pytest.param(
            "My phone is a Galaxy S21.",
            "The Galaxy finally died, so I'm on a Pixel 9 now",
            "Galaxy S21",
            "Pixel 9",
            id="en-line-name-alone",
        ),
    ],
)
def test_a_replaced_device_is_superseded(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, was: str, now: str
) -> None:
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    held = devices(mem_e5)
    assert held["active"] == {now}
    assert was in held["superseded"]


def test_the_next_device_of_a_chain_is_the_users_though_the_old_one_went_to_a_relative(
    mem_e5: Memory, clock: FixedClock
) -> None:
    say(mem_e5, clock, ["小米14摔了，屏幕碎成蜘蛛网，干脆换了台iPhone 15"], "s1", gap_days=20)
    say(mem_e5, clock, ["iPhone 15 给我妈用了，我又换回安卓，入了台Pixel 8，刷机方便"], "s2", gap_days=20)
    assert devices(mem_e5)["active"] == {"Pixel 8"}


@pytest.mark.parametrize(
    ("first", "later", "kept", "added"),
    [
        ("我手机是小米14", "又买了个iPad，专门看书用", "小米14", "iPad"),
        ("My phone is a Pixel 7.", "Picked up an iPad for reading on the train", "Pixel 7", "iPad"),
    ],
)
def test_a_further_device_said_plainly_is_a_second_value(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, kept: str, added: str
) -> None:
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    assert devices(mem_e5)["active"] == {kept, added}


@pytest.mark.parametrize(
    ("first", "later", "cue"),
    [
        (
            "New team does everything in Neovim and I caved.",
            "Also ditched Neovim: a plugin update broke my config for the third time.",
            "ditched",
        ),
        ("我写代码一直用VS Code", "弃用VS Code了，插件一多就卡死", "弃用"),
    ],
)
def test_a_change_verb_is_no_part_of_a_value(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, cue: str
) -> None:
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(mem_e5, clock, [later], "s2", gap_days=20)
    values = {r.value or "" for r in mem_e5.records(user="u") if r.key == "editor"}
    assert values
    assert not any(cue in v.casefold() or "config" in v.casefold() for v in values)


def test_a_car_sold_for_another_is_replaced_and_its_fuel_use_is_no_car(
    mem_e5: Memory, clock: FixedClock
) -> None:
    say(mem_e5, clock, ["最后还是没换电车，上个月把飞度卖了，提了台轩逸，油耗挺低"], "s1", gap_days=20)
    cars = {r.value for r in mem_e5.records(user="u") if r.key == "vehicle"}
    assert cars == {"轩逸"}


@pytest.mark.parametrize(
    ("turns", "quit"),
    [
        (["I drink Coke Zero every day.", "I quit Coke Zero."], "Coke Zero"),
        (
            ["I drink Coke Zero every day.", "Headaches for three days after quitting soda, is that normal?"],
            "soda",
        ),
        (["我每天都喝奶茶。", "我戒了奶茶。"], "奶茶"),
        (["我每天都喝咖啡。", "戒了奶茶以后头疼了三天，正常吗？"], "奶茶"),
    ],
    ids=["en-quit", "en-quitting", "zh", "zh-after"],
)
def test_a_drink_given_up_is_no_usual_drink(
    mem_e5: Memory, clock: FixedClock, turns: list[str], quit: str
) -> None:
    """ "after quitting soda" made soda the usual drink (the clause names a drink, and "quitting"
    was no cue for an old value), and "I quit Coke Zero" went to a "likes" key beside the
    beverage slot, which kept Coke Zero."""
    say(mem_e5, clock, turns[:1], "s1")
    say(mem_e5, clock, turns[1:], "s2")
    drinks = {
        (r.value, r.polarity.value)
        for r in mem_e5.records(user="u", statuses=["active"])
        if r.key == "beverage" and r.subject == "user"
    }
    # nor a span holding it ("after quitting soda": the retrained ranker's span)
    assert not any(quit.casefold() in v.casefold() for v, pol in drinks if pol == "positive"), drinks


def test_working_from_home_is_where_the_user_works(mem_e5: Memory, clock: FixedClock) -> None:
    """ "working from home" read "from" as an old-value cue, so "home" was what the clause left
    behind and no workplace was stored (English only: the cue is the word "from")."""
    say(mem_e5, clock, ["Three weeks of working from home and I've barely left the apartment."], "s1")
    places = {r.value for r in mem_e5.records(user="u", statuses=["active"]) if r.key == "workplace"}
    assert places == {"home"}, places
