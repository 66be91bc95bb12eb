"""What an episode has left once a shown record carries its matching turn earns its place on
its own: the leftover turn shows only where it bears on the request (Chinese and English,
both backends, rules only and with the attribute model)."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from tests.support.sessions import say

CASES = [
    (
        ["我叫周楠，在成都做平面设计。", "家里养了一只橘猫，叫馒头。"],
        ["我不吃香菜，点菜的时候记得提醒一下。", "最近在准备考研，每天泡图书馆到十点。"],
        "周末和室友聚餐，帮我选几道菜",
        "香菜",
        "考研",
        "帮我排一下考研复习的时间表",
    ),
    (
        ["I'm Dana, a graphic designer in Leeds.", "We have a ginger cat called Biscuit."],
        [
            "I don't eat coriander, remind me when ordering food.",
            "I've started studying for the bar exam, library every night till ten.",
        ],
        "Pick a few dishes for a dinner with my flatmates this weekend",
        "coriander",
        "bar exam",
        "Make me a revision timetable for the bar exam",
    ),
]


@pytest.mark.parametrize(("profile", "turns", "request_", "carried", "leftover", "bears"), CASES)
def test_an_episode_left_with_an_unrelated_turn_is_not_shown(
    mem_modes: Memory,
    clock: FixedClock,
    profile: list[str],
    turns: list[str],
    request_: str,
    carried: str,
    leftover: str,
    bears: str,
) -> None:
    say(mem_modes, clock, profile, "s1")
    say(mem_modes, clock, turns, "s2")
    ctx = mem_modes.context(request_, user="u", budget_tokens=300)
    assert carried in ctx.text, ctx.text  # the matching turn, as its record
    assert leftover not in ctx.text, ctx.text  # not the turn that happened to share its episode
    # the same turn where the request is about it
    ctx = mem_modes.context(bears, user="u", budget_tokens=300)
    assert leftover in ctx.text, ctx.text
