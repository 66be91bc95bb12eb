"""A promotion says the user's new role: "下个月起我就升调度主管了", "终于当上了店长", "got promoted
to sous chef" supersede the role held before, and a relative's promotion is theirs (zh + en,
every backend, rules only and with the attribute model).

Before: "升…主管" and "promoted to …" (without "me") were no role, and "当上主管三个月了" stored
the role "上主管"."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, say, say_apart


@pytest.mark.parametrize(
    ("turns", "question", "role"),
    [
        (
            ["我在一家物流公司做调度员，天天加班", "下个月起我就升调度主管了，要带五个人"],
            "我现在是什么职位",
            "调度主管",
        ),
        (
            ["I'm a line cook at a ramen place downtown", "got promoted to sous chef this week!"],
            "what's my job now?",
            "sous chef",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_promotion_supersedes_the_role_held(
    mem_modes: Memory, clock: FixedClock, turns: list[str], question: str, role: str
) -> None:
    say_apart(mem_modes, clock, turns, gap_days=30)
    assert active_values(mem_modes, "occupation").get("user") == {role}, active_values(
        mem_modes, "occupation"
    )
    top = mem_modes.search(question, user="u", k=1)[0].memory
    assert (top.key, top.value) == ("occupation", role), top


@pytest.mark.parametrize(
    ("turn", "role"),
    [("当上店长三个月了，帮我搭个述职PPT框架", "店长"), ("我老婆升护士长了，想给她挑个礼物", None)],
    ids=["zh-held-a-while", "zh-wifes"],
)
def test_the_role_said_is_the_word_itself_and_whose(
    mem_modes: Memory, clock: FixedClock, turn: str, role: str | None
) -> None:
    say(mem_modes, clock, [turn], "s0")
    mine = active_values(mem_modes, "occupation").get("user", set())
    assert mine == ({role} if role else set()), active_values(mem_modes, "occupation")


def test_a_wifes_promotion_is_hers(mem_modes: Memory, clock: FixedClock) -> None:
    say(mem_modes, clock, ["my wife got promoted to head nurse, so proud of her"], "s0")
    roles = active_values(mem_modes, "occupation")
    assert "user" not in roles and roles.get("person:wife") == {"head nurse"}, roles
