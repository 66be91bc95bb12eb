"""A task inside a project is about the project: the situation its words name opens no private
matter of the user's, while a safety-critical need still reaches it (zh + en, every backend).

"给装备清单页加一个按重量排序" named the shopping situation by "装备" (gear), which bears on the
user's budget, and the block of a coding task carried "Still owe $25k on the car loan" in its
profile section. In a project task only safety-critical attributes open by situation
(``confided.Request.task``); the same private line still reaches a personal request about money."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from memquill.model.result import Context
from tests.support.sessions import say


@pytest.mark.parametrize(
    ("personal", "project", "facts", "task", "personal_request", "private"),
    [
        (
            [
                "Still owe $25k on the car loan. Pay it down faster or invest?",
                "I live in Denver and ski most weekends.",
            ],
            "gearlist",
            [
                "gearlist is a SvelteKit app for my hiking gear",
                "For gearlist: all item weights are stored in grams",
            ],
            "add a sort-by-price option to the gear shopping list page",
            "help me set a shopping budget for new ski gear this season",
            "car loan",
        ),
        (
            ["房贷压力好大，每个月还一万二，工资一大半都没了", "我住在成都，周末爱爬山"],
            "装备清单",
            ["装备清单是我做的网页，记录徒步装备", "装备清单的重量都用克存"],
            "给装备清单页加一个按价格排序",
            "帮我规划一下这个月的开销预算",
            "房贷",
        ),
    ],
    ids=["en", "zh"],
)
def test_a_project_task_opens_no_private_matter_by_situation(
    mem_e5: Memory,
    clock: FixedClock,
    personal: list[str],
    project: str,
    facts: list[str],
    task: str,
    personal_request: str,
    private: str,
) -> None:
    ctx = _task_block(mem_e5, clock, personal, project, facts, task)
    assert private not in ctx.text, ctx.text
    assert any(i.section == "project" for i in ctx.items), ctx.text
    ctx = mem_e5.context(personal_request, user="u", budget_tokens=300)
    assert private in ctx.text, ctx.text


@pytest.mark.parametrize(
    ("personal", "project", "facts", "task", "need", "private"),
    [
        (
            ["我对花生严重过敏，吃一点就喉咙肿", "车贷还欠两万五，该提前还还是拿去投资？"],
            "小铺",
            ["小铺是我做的微信小程序，卖手工点心", "小铺的价格都用分存整数"],
            "帮我给小铺的团建写个聚餐点菜清单",
            "花生",
            "车贷",
        ),
        (
            [
                "I'm severely allergic to peanuts, I carry an EpiPen.",
                "Still owe $25k on the car loan. Pay it down faster or invest?",
            ],
            "gearlist",
            [
                "gearlist is a SvelteKit app for my hiking gear",
                "For gearlist: all item weights are stored in grams",
            ],
            "plan the snacks for the gearlist team launch lunch",
            "peanut",
            "car loan",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_safety_critical_need_still_reaches_a_project_task(
    mem_e5: Memory,
    clock: FixedClock,
    personal: list[str],
    project: str,
    facts: list[str],
    task: str,
    need: str,
    private: str,
) -> None:
    ctx = _task_block(mem_e5, clock, personal, project, facts, task)
    assert need in ctx.text, ctx.text
    assert private not in ctx.text, ctx.text


def _task_block(
    mem: Memory, clock: FixedClock, personal: list[str], project: str, facts: list[str], task: str
) -> Context:
    """The personal turns in one session, the project's facts in its own, then the task's block."""
    say(mem, clock, personal, "s1")
    say(mem, clock, facts, "p1", project=project)
    return mem.context(task, user="u", project=project, budget_tokens=300)
